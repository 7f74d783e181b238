"""Arithmetic expressions: the tree a step's notation is read into.

The tree keeps the step's own grouping (:class:`Paren`) so that what is written from it shows
what the step wrote, and decimals stay whole (``12.5`` is ``(125 / 10)``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from afcheck_arith.tokens import MAX_NESTING, Kind


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


class Lexeme(Protocol):
    """What the expression parser reads of an item: its token kind and its text. An
    :class:`Atom`, a :class:`afcheck_arith.tokens.Token`, or an item of the claim reader."""

    @property
    def kind(self) -> Kind: ...

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Atom:
    """One item the expression parser reads: a token kind and its text."""

    kind: Kind
    text: str


class ParseError(ValueError):
    pass


def parse(atoms: Sequence[Lexeme]) -> Expr:
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


_ADDITIVE = ("+", "-")
_MULTIPLICATIVE = ("*", "/")


class _Parser:
    """Recursive descent over ``atoms``. The next atom is looked at inline rather than through
    :meth:`peek`: each level of the grammar looks once per operand, and a method call each time
    was most of the parser's time."""

    def __init__(self, atoms: list[Lexeme]) -> None:
        self.atoms = atoms
        self.n = len(atoms)
        self.i = 0
        self.depth = 0
        self.percents: list[Expr] = []
        """The trees written as a bare percentage (``10%``)."""

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ParseError(f"brackets or signs nested more than {MAX_NESTING} levels deep")

    def peek(self) -> Lexeme | None:
        return self.atoms[self.i] if self.i < self.n else None

    def at(self, kind: Kind, text: str | None = None) -> bool:
        atom = self.peek()
        return atom is not None and atom.kind is kind and (text is None or atom.text == text)

    def take(self) -> Lexeme:
        atom = self.peek()
        if atom is None:
            raise ParseError("the expression ends too early")
        self.i += 1
        return atom

    def _operator(self) -> str | None:
        """The text of the next atom when it is an operator."""
        if self.i < self.n:
            atom = self.atoms[self.i]
            if atom.kind is Kind.OP:
                return atom.text
        return None

    def expr(self) -> Expr:
        left = self.term()
        terms = [left]
        while (op := self._operator()) in _ADDITIVE:
            assert op is not None
            self.i += 1
            terms.append(self.term())
            left = Bin(op, left, terms[-1])
        if len(terms) > 1 and any(t is p for t in terms for p in self.percents):
            # ``100 + 10% = 110`` adds ten per cent of 100, not 0.1
            raise ParseError("a bare percentage in a sum: of what?")
        return left

    def term(self) -> Expr:
        left = self.unary()
        while (op := self._operator()) in _MULTIPLICATIVE:
            assert op is not None
            self.i += 1
            left = Bin(op, left, self.unary())
        return left

    def unary(self) -> Expr:
        sign = self._operator()
        if sign in _ADDITIVE:
            self.i += 1
            self.nest()
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if sign == "-" else operand
        return self.power()

    def power(self) -> Expr:
        base = self.postfix()
        if self._operator() != "^":
            return base
        self.i += 1
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
        if self.i < self.n and self.atoms[self.i].kind is Kind.FACT:
            self.i += 1
            tree = _factorial(tree)
        while self.i < self.n and self.atoms[self.i].kind is Kind.PCT:
            self.i += 1
            tree = Paren(Bin("/", tree, Num("100")))
            self.percents.append(tree)
        return tree

    def primary(self) -> Expr:
        atom = self.take()
        kind = atom.kind
        if kind is Kind.NUM:
            return number(atom.text)
        if kind is Kind.WORD:
            return Var(atom.text)
        if kind is Kind.CONST:
            return Pi()
        if kind is Kind.FUNC:
            self.nest()
            root = Sqrt(self.postfix())
            self.depth -= 1
            return root
        if kind is Kind.LP or kind is Kind.ABS:
            self.nest()
            tree = self.group(kind)
            self.depth -= 1
            return tree
        raise ParseError(f"unexpected '{atom.text}'")

    def group(self, kind: Kind) -> Expr:
        if kind is Kind.LP:
            inner = self.expr()
            if not self.at(Kind.RP):
                raise ParseError("a '(' without its ')'")
            self.take()
            return Paren(inner)
        inner = self.expr()
        if not self.at(Kind.ABS):
            raise ParseError("a '|' without its closing '|'")
        self.take()
        return Abs(inner)


def _factorial(tree: Expr) -> Fact:
    while isinstance(tree, Paren):
        tree = tree.inner
    if not isinstance(tree, Num) or int(tree.digits) > MAX_FACTORIAL:
        raise ParseError(f"a factorial of something other than a natural numeral ≤ {MAX_FACTORIAL}")
    return Fact(tree.digits)


def variables(tree: Expr) -> Iterator[str]:
    """Every name the tree uses, in reading order (with repeats)."""
    if isinstance(tree, Var):
        yield tree.key
    for child in children(tree):
        yield from variables(child)


def numerals(tree: Expr) -> Iterator[str]:
    """Every numeral of the tree, exponents included."""
    if isinstance(tree, (Num, Fact)):
        yield tree.digits
    if isinstance(tree, Pow):
        yield tree.exponent
    for child in children(tree):
        yield from numerals(child)


def substitution(formula: Expr, numbers: Expr) -> dict[str, Expr] | None:
    """The values ``numbers`` puts for the names of ``formula`` when both have the same shape
    (``n ^ 3`` and ``6 ^ 3`` give ``{n: 6}``), or ``None``. Brackets are ignored."""
    found: dict[str, Expr] = {}

    def match(a: Expr, b: Expr) -> bool:
        a, b = unwrap(a), unwrap(b)
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
    return any(is_real(child) for child in children(tree))


def children(tree: Expr) -> tuple[Expr, ...]:
    """The direct subtrees of ``tree``."""
    if isinstance(tree, Bin):
        return (tree.left, tree.right)
    if isinstance(tree, (Neg, Sqrt, Abs)):
        return (tree.arg,)
    if isinstance(tree, Pow):
        return (tree.base,)
    if isinstance(tree, Paren):
        return (tree.inner,)
    return ()


def subtrees(tree: Expr) -> Iterator[Expr]:
    """``tree`` and every tree below it, without their brackets (:func:`bare`)."""
    yield bare(tree)
    for child in children(tree):
        yield from subtrees(child)


def bare(tree: Expr) -> Expr:
    """``tree`` with every bracket removed: ``(1) / (3)`` and ``1 / 3`` are one expression."""
    tree = unwrap(tree)
    if isinstance(tree, Bin):
        return Bin(tree.op, bare(tree.left), bare(tree.right))
    if isinstance(tree, Neg):
        return Neg(bare(tree.arg))
    if isinstance(tree, Sqrt):
        return Sqrt(bare(tree.arg))
    if isinstance(tree, Abs):
        return Abs(bare(tree.arg))
    if isinstance(tree, Pow):
        return Pow(bare(tree.base), tree.exponent)
    return tree


def unwrap(tree: Expr) -> Expr:
    """``tree`` without the brackets around it as a whole."""
    while isinstance(tree, Paren):
        tree = tree.inner
    return tree
