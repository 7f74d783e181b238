"""Arithmetic expressions: the tree the step's notation is read into, and its Lean rendering.

The tree keeps the step's own grouping (:class:`Paren`) so that the statement shows what the
step wrote. Rendering puts a type ascription on the first numeral of every tree whose type
Lean could not otherwise infer, so that ``48 / 2 = 24`` elaborates in ℚ and not in ℕ.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from afcheck_literal.tokens import Kind


@dataclass(frozen=True)
class Num:
    digits: str
    """A natural numeral; decimals and percentages are trees of these."""


@dataclass(frozen=True)
class Fact:
    digits: str
    """``n!`` of a natural numeral: Lean's ``Nat.factorial n``, cast to the number type."""


@dataclass(frozen=True)
class Var:
    key: str
    """The name as read (``total_books``, ``x``); the formaliser maps it to a Lean binder."""


@dataclass(frozen=True)
class Pi:
    pass


@dataclass(frozen=True)
class Neg:
    arg: Expr


@dataclass(frozen=True)
class Bin:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Pow:
    base: Expr
    exponent: str
    """A natural numeral: Lean's ``Monoid.npow``, the only power the fragment has."""


@dataclass(frozen=True)
class Sqrt:
    arg: Expr


@dataclass(frozen=True)
class Abs:
    arg: Expr


@dataclass(frozen=True)
class Paren:
    inner: Expr


Expr = Num | Fact | Var | Pi | Neg | Bin | Pow | Sqrt | Abs | Paren

MAX_FACTORIAL = 100
"""The largest ``n`` whose ``n!`` is read; the prover evaluates it exactly."""


@dataclass(frozen=True)
class Atom:
    """One item the expression parser reads: a token kind and its text."""

    kind: Kind
    text: str


class ParseError(ValueError):
    pass


def parse(atoms: Sequence[Atom]) -> Expr:
    """The expression of ``atoms`` (all of them), or :class:`ParseError`."""
    parser = _Parser(list(atoms))
    tree = parser.expr()
    if parser.i != len(parser.atoms):
        raise ParseError(f"unexpected '{parser.atoms[parser.i].text}'")
    return tree


def number(digits: str) -> Expr:
    """A numeral as written: ``12.5`` becomes ``(125 / 10)``, exact and in the fragment."""
    if "." not in digits:
        return Num(str(int(digits)))
    whole, frac = digits.split(".")
    return Paren(Bin("/", Num(str(int(whole + frac))), Num("1" + "0" * len(frac))))


class _Parser:
    def __init__(self, atoms: list[Atom]) -> None:
        self.atoms = atoms
        self.i = 0

    def peek(self) -> Atom | None:
        return self.atoms[self.i] if self.i < len(self.atoms) else None

    def at(self, kind: Kind, text: str | None = None) -> bool:
        atom = self.peek()
        return atom is not None and atom.kind is kind and (text is None or atom.text == text)

    def take(self) -> Atom:
        atom = self.peek()
        if atom is None:
            raise ParseError("the expression ends too early")
        self.i += 1
        return atom

    def expr(self) -> Expr:
        left = self.term()
        while self.at(Kind.OP, "+") or self.at(Kind.OP, "-"):
            op = self.take().text
            left = Bin(op, left, self.term())
        return left

    def term(self) -> Expr:
        left = self.unary()
        while self.at(Kind.OP, "*") or self.at(Kind.OP, "/"):
            op = self.take().text
            left = Bin(op, left, self.unary())
        return left

    def unary(self) -> Expr:
        if self.at(Kind.OP, "-"):
            self.take()
            return Neg(self.unary())
        if self.at(Kind.OP, "+"):
            self.take()
            return self.unary()
        return self.power()

    def power(self) -> Expr:
        base = self.postfix()
        if not self.at(Kind.OP, "^"):
            return base
        self.take()
        return Pow(base, self.exponent())

    def exponent(self) -> str:
        parens = 0
        while self.at(Kind.LP):
            self.take()
            parens += 1
        atom = self.take()
        if atom.kind is not Kind.NUM or "." in atom.text:
            raise ParseError("an exponent that is not a natural numeral")
        for _ in range(parens):
            if not self.at(Kind.RP):
                raise ParseError("an exponent that is not a natural numeral")
            self.take()
        return str(int(atom.text))

    def postfix(self) -> Expr:
        tree = self.primary()
        if self.at(Kind.FACT):
            self.take()
            tree = _factorial(tree)
        while self.at(Kind.PCT):
            self.take()
            tree = Paren(Bin("/", tree, Num("100")))
        return tree

    def primary(self) -> Expr:
        atom = self.take()
        if atom.kind is Kind.NUM:
            return number(atom.text)
        if atom.kind is Kind.WORD:
            return Var(atom.text)
        if atom.kind is Kind.CONST:
            return Pi()
        if atom.kind is Kind.FUNC:
            return Sqrt(self.postfix())
        if atom.kind is Kind.LP:
            inner = self.expr()
            if not self.at(Kind.RP):
                raise ParseError("a '(' without its ')'")
            self.take()
            return Paren(inner)
        if atom.kind is Kind.ABS:
            inner = self.expr()
            if not self.at(Kind.ABS):
                raise ParseError("a '|' without its closing '|'")
            self.take()
            return Abs(inner)
        raise ParseError(f"unexpected '{atom.text}'")


def _factorial(tree: Expr) -> Fact:
    while isinstance(tree, Paren):
        tree = tree.inner
    if not isinstance(tree, Num) or int(tree.digits) > MAX_FACTORIAL:
        raise ParseError(f"a factorial of something other than a natural numeral ≤ {MAX_FACTORIAL}")
    return Fact(tree.digits)


# ------------------------------------------------------------------------------------------
# Lean rendering
# ------------------------------------------------------------------------------------------

_PREC = {"+": 65, "-": 65, "*": 70, "/": 70}
_ATOMIC = (Num, Fact, Var, Pi, Paren, Abs)


def variables(tree: Expr) -> Iterator[str]:
    """Every name the tree uses, in reading order (with repeats)."""
    if isinstance(tree, Var):
        yield tree.key
    for child in _children(tree):
        yield from variables(child)


def numerals(tree: Expr) -> Iterator[str]:
    """Every numeral of the tree, exponents included."""
    if isinstance(tree, (Num, Fact)):
        yield tree.digits
    if isinstance(tree, Pow):
        yield tree.exponent
    for child in _children(tree):
        yield from numerals(child)


def substitution(formula: Expr, numbers: Expr) -> dict[str, Expr] | None:
    """The values ``numbers`` puts for the names of ``formula`` when both have the same shape
    (``n ^ 3`` and ``6 ^ 3`` give ``{n: 6}``), or ``None``. Brackets are ignored."""
    found: dict[str, Expr] = {}

    def match(a: Expr, b: Expr) -> bool:
        a, b = _unwrap(a), _unwrap(b)
        if isinstance(a, Var):
            if a.key in found:
                return found[a.key] == b
            found[a.key] = b
            return True
        if type(a) is not type(b):
            return False
        if isinstance(a, Bin):
            assert isinstance(b, Bin)
            return a.op == b.op and match(a.left, b.left) and match(a.right, b.right)
        if isinstance(a, Pow):
            assert isinstance(b, Pow)
            return a.exponent == b.exponent and match(a.base, b.base)
        if isinstance(a, (Neg, Sqrt, Abs)):
            assert isinstance(b, (Neg, Sqrt, Abs))
            return match(a.arg, b.arg)
        return a == b

    return found if match(formula, numbers) else None


def is_real(tree: Expr) -> bool:
    """Whether the tree needs ℝ: it takes a square root or mentions π."""
    if isinstance(tree, (Sqrt, Pi)):
        return True
    return any(is_real(child) for child in _children(tree))


def _children(tree: Expr) -> tuple[Expr, ...]:
    if isinstance(tree, Bin):
        return (tree.left, tree.right)
    if isinstance(tree, (Neg, Sqrt, Abs)):
        return (tree.arg,)
    if isinstance(tree, Pow):
        return (tree.base,)
    if isinstance(tree, Paren):
        return (tree.inner,)
    return ()


def _leaves(tree: Expr) -> Iterator[Expr]:
    """The leaves of Lean's arithmetic elaboration tree (``binop%``): what fixes its type."""
    if isinstance(tree, (Bin, Neg, Pow, Paren)):
        for child in _children(tree):
            yield from _leaves(child)
    else:
        yield tree


def needs_ascription(trees: Sequence[Expr]) -> bool:
    """True when no leaf of the trees has a known type, so numerals would default to ℕ."""
    typed = (Var, Sqrt, Pi, Fact)
    return not any(isinstance(leaf, typed) for tree in trees for leaf in _leaves(tree))


class Renderer:
    """Renders trees as Lean 4 terms over one number type (``ℚ`` or ``ℝ``)."""

    def __init__(self, number_type: str, names: Mapping[str, str]) -> None:
        self.number_type = number_type
        self.names = names
        self._ascribe = False

    def relation(self, left: Expr, rel: str, right: Expr) -> str:
        self._ascribe = needs_ascription([left, right])
        return f"{self.render(_unwrap(left))} {rel} {self.render(_unwrap(right))}"

    def render(self, tree: Expr) -> str:
        if isinstance(tree, Num):
            if self._ascribe:
                self._ascribe = False
                return f"({tree.digits} : {self.number_type})"
            return tree.digits
        if isinstance(tree, Var):
            return self.names[tree.key]
        if isinstance(tree, Fact):
            return f"(Nat.factorial {tree.digits} : {self.number_type})"
        if isinstance(tree, Pi):
            return "Real.pi"
        if isinstance(tree, Paren):
            if isinstance(tree.inner, _ATOMIC):
                return self.render(tree.inner)  # brackets around an atom say nothing
            return f"({self.render(tree.inner)})"
        if isinstance(tree, Abs):
            return f"|{self.inner_tree(tree.arg)}|"
        if isinstance(tree, Sqrt):
            # ``Real.sqrt`` fixes its argument's type to ℝ: no ascription needed inside
            saved, self._ascribe = self._ascribe, False
            text = f"Real.sqrt {self.atomic(tree.arg)}"
            self._ascribe = saved
            return text
        if isinstance(tree, Neg):
            return f"-{self.atomic(tree.arg)}"
        if isinstance(tree, Pow):
            return f"{self.atomic(tree.base)} ^ {tree.exponent}"
        return self.binary(tree)

    def binary(self, tree: Bin) -> str:
        prec = _PREC[tree.op]
        left = self.render(tree.left)
        if _prec(tree.left) < prec:
            left = f"({left})"
        right = self.render(tree.right)
        if _prec(tree.right) <= prec:
            right = f"({right})"
        return f"{left} {tree.op} {right}"

    def atomic(self, tree: Expr) -> str:
        text = self.render(tree)
        return text if isinstance(tree, _ATOMIC) else f"({text})"

    def inner_tree(self, tree: Expr) -> str:
        """A tree elaborated on its own (inside ``|…|``): ascribed by its own leaves."""
        saved = self._ascribe
        self._ascribe = needs_ascription([tree])
        text = self.render(tree)
        self._ascribe = saved
        return text


def _unwrap(tree: Expr) -> Expr:
    """A whole side needs no brackets: relations bind looser than any operator."""
    while isinstance(tree, Paren):
        tree = tree.inner
    return tree


def _prec(tree: Expr) -> int:
    if isinstance(tree, Bin):
        return _PREC[tree.op]
    if isinstance(tree, Neg):
        return 0  # a negation inside a product or sum is always bracketed
    return 100
