"""FOL → TPTP ``fof``: a deterministic, reversible printer and the parser of what it prints.

TPTP reads a word that starts upper-case as a variable, so FOL names cannot be printed as
they are (``Cube(a)`` would make ``Cube`` a variable). A :class:`SymbolMap` gives every
predicate and constant a lower-case TPTP word and every bound variable an upper-case one,
in order of first use, adding ``_2``, ``_3``… on a clash; it keeps the reverse table, so
:func:`parse_fof` reads a printed problem back into the same formulas. The same records and
the same map always print the same text, which is what the proof cache is keyed by.

Problems carry exactly one conjecture (E reads several conjectures as their disjunction) or
none (then the prover checks the axioms' satisfiability). Free variables are refused here,
with the formula's name, because TPTP forbids them and E's own message names a column of a
file the user never sees.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from afcheck_fol.formula import (
    And,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Term,
    Truth,
    Var,
    Xor,
    free_vars,
)


class TptpError(ValueError):
    """A formula that has no TPTP ``fof`` form (free variables), or unreadable TPTP text."""


_WORD = re.compile(r"[^A-Za-z0-9_]+")


def _word(name: str, upper: bool) -> str:
    base = _WORD.sub("_", name).strip("_") or "s"
    if upper:
        base = base[0].upper() + base[1:] if base[0].isalpha() else "V" + base
    else:
        base = base[0].lower() + base[1:] if base[0].isalpha() else "s" + base
    return base


@dataclass
class SymbolMap:
    """FOL names ↔ TPTP words; one map per problem set so all its problems agree.

    Predicates and constants share one namespace (TPTP has one for functors and predicates);
    variables have their own.
    """

    symbols: dict[tuple[str, str], str] = field(default_factory=dict)
    """(``"pred"`` or ``"const"``, FOL name) → TPTP word."""
    variables: dict[str, str] = field(default_factory=dict)
    reverse: dict[str, tuple[str, str]] = field(default_factory=dict)
    """TPTP word → (kind, FOL name); variables under the kind ``"var"``."""
    printed: dict[int, tuple[Formula, str]] = field(default_factory=dict, repr=False,
                                                    compare=False)
    """Each closed formula :func:`problem` printed with this map, by identity: the map only
    grows, so a formula printed again gives the same text, and a chain's premises are
    printed for every query of the chain. The formula is kept so that its id stays its own."""

    def symbol(self, kind: str, name: str) -> str:
        known = self.symbols.get((kind, name))
        if known is not None:
            return known
        word = self._fresh(_word(name, upper=False))
        self.symbols[(kind, name)] = word
        self.reverse[word] = (kind, name)
        return word

    def variable(self, name: str) -> str:
        known = self.variables.get(name)
        if known is not None:
            return known
        word = self._fresh(_word(name, upper=True))
        self.variables[name] = word
        self.reverse[word] = ("var", name)
        return word

    def _fresh(self, base: str) -> str:
        word, n = base, 1
        while word in self.reverse:
            n += 1
            word = f"{base}_{n}"
        return word


def formula_to_tptp(formula: Formula, symbols: SymbolMap) -> str:
    """The TPTP ``fof`` text of one closed formula (free variables are the caller's check)."""
    return _print(formula, symbols)


def _term(term: Term, symbols: SymbolMap) -> str:
    if isinstance(term, Var):
        return symbols.variable(term.name)
    return symbols.symbol("const", term.name)


def _print(node: Formula, symbols: SymbolMap) -> str:
    if isinstance(node, Pred):
        name = symbols.symbol("pred", node.name)
        if not node.args:
            return name
        return f"{name}({','.join(_term(t, symbols) for t in node.args)})"
    if isinstance(node, Eq):
        return f"{_term(node.left, symbols)} = {_term(node.right, symbols)}"
    if isinstance(node, Truth):
        return "$true" if node.value else "$false"
    if isinstance(node, Not):
        return f"~ {_unit(node.body, symbols)}"
    if isinstance(node, (And, Or)):
        if not node.items:
            return "$true" if isinstance(node, And) else "$false"
        if len(node.items) == 1:
            return _print(node.items[0], symbols)
        joiner = " & " if isinstance(node, And) else " | "
        return "(" + joiner.join(_unit(item, symbols) for item in node.items) + ")"
    if isinstance(node, (Xor, Implies, Iff)):
        op = {Xor: "<~>", Implies: "=>", Iff: "<=>"}[type(node)]
        return f"({_unit(node.left, symbols)} {op} {_unit(node.right, symbols)})"
    quantifier = "!" if isinstance(node, Forall) else "?"
    return f"{quantifier}[{symbols.variable(node.var.name)}]: {_unit(node.body, symbols)}"


def _unit(node: Formula, symbols: SymbolMap) -> str:
    """A unitary formula: equality is the one binary form the printer leaves bare."""
    text = _print(node, symbols)
    return f"({text})" if isinstance(node, Eq) else text


@dataclass(frozen=True)
class Problem:
    """One prover query: axioms and at most one conjecture, with its TPTP text."""

    axioms: tuple[Formula, ...]
    conjecture: Formula | None
    text: str
    """The ``fof`` problem; the cache key and what E reads."""


def problem(
    axioms: Sequence[Formula],
    conjecture: Formula | None,
    symbols: SymbolMap,
    *,
    axiom_names: Sequence[str] | None = None,
) -> Problem:
    """Print ``axioms ⊢ conjecture`` (or the axioms alone) as one TPTP problem.

    Axioms are named ``premise_1…`` unless ``axiom_names`` says otherwise; the conjecture is
    ``conclusion``. Raises :class:`TptpError` naming the first formula with a free variable.
    """
    names = list(axiom_names) if axiom_names is not None else [
        f"premise_{i}" for i in range(1, len(axioms) + 1)
    ]
    if len(names) != len(axioms):
        raise ValueError("one name per axiom")
    lines: list[str] = []
    for name, formula in zip(names, axioms, strict=True):
        known = symbols.printed.get(id(formula))
        if known is not None and known[0] is formula:
            text = known[1]
        else:
            _closed(name, formula)
            text = formula_to_tptp(formula, symbols)
            symbols.printed[id(formula)] = (formula, text)
        lines.append(f"fof({name}, axiom, {text}).")
    if conjecture is not None:
        _closed("conclusion", conjecture)
        lines.append(f"fof(conclusion, conjecture, {formula_to_tptp(conjecture, symbols)}).")
    return Problem(tuple(axioms), conjecture, "\n".join(lines) + "\n")


def _closed(name: str, formula: Formula) -> None:
    loose = free_vars(formula)
    if loose:
        raise TptpError(
            f"{name}: free variable(s) {', '.join(sorted(loose))} (no quantifier binds them); "
            "TPTP fof formulas must be closed"
        )


# -- reading back ---------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<op><~>|<=>|=>|!=|\$true|\$false|[~&|()\[\],:!?=.])|(?P<word>[A-Za-z0-9_]+))"
)


@dataclass(frozen=True)
class Annotated:
    """One ``fof(name, role, formula).`` read back."""

    name: str
    role: str
    formula: Formula


def parse_fof(text: str, symbols: SymbolMap) -> list[Annotated]:
    """Read ``fof`` lines as :func:`problem` prints them, naming symbols through ``symbols``.

    A word the map does not know is taken as it is (a predicate or constant under its TPTP
    name, a variable under its own). Raises :class:`TptpError` on anything else.
    """
    tokens = _tokens(text)
    reader = _Reader(tokens, symbols)
    out: list[Annotated] = []
    while not reader.done():
        out.append(reader.annotated())
    return out


def _tokens(text: str) -> list[str]:
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("%"))
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            raise TptpError(f"unreadable TPTP at offset {pos}: {text[pos:pos + 20]!r}")
        tokens.append(match.group("op") or match.group("word"))
        pos = match.end()
    return tokens


class _Reader:
    def __init__(self, tokens: list[str], symbols: SymbolMap) -> None:
        self.tokens = tokens
        self.pos = 0
        self.symbols = symbols

    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if not token or (expected is not None and token != expected):
            raise TptpError(f"expected {expected or 'more input'!r}, read {token or 'the end'!r}")
        self.pos += 1
        return token

    def annotated(self) -> Annotated:
        if self.take() != "fof":
            raise TptpError("only fof(...) formulas are read")
        self.take("(")
        name = self.take()
        self.take(",")
        role = self.take()
        self.take(",")
        formula = self.formula()
        self.take(")")
        self.take(".")
        return Annotated(name, role, formula)

    def formula(self) -> Formula:
        left = self.unit()
        op = self.peek()
        if op in ("&", "|"):
            items = [left]
            while self.peek() == op:
                self.take()
                items.append(self.unit())
            return And(tuple(items)) if op == "&" else Or(tuple(items))
        if op in ("=>", "<=>", "<~>"):
            self.take()
            right = self.unit()
            if op == "=>":
                return Implies(left, right)
            return Iff(left, right) if op == "<=>" else Xor(left, right)
        return left

    def unit(self) -> Formula:
        token = self.peek()
        if token == "(":
            self.take()
            inner = self.formula()
            self.take(")")
            return inner
        if token == "~":
            self.take()
            return Not(self.unit())
        if token in ("!", "?"):
            self.take()
            self.take("[")
            names = [self.take()]
            while self.peek() == ",":
                self.take()
                names.append(self.take())
            self.take("]")
            self.take(":")
            body = self.unit()
            for name in reversed(names):
                var = Var(self._name(name, "var"))
                body = Forall(var, body) if token == "!" else Exists(var, body)
            return body
        if token in ("$true", "$false"):
            self.take()
            return Truth(token == "$true")
        word = self.take()
        if word[0].isupper():
            left: Term = Var(self._name(word, "var"))
        else:
            left = Const(self._name(word, "const"))
        if self.peek() in ("=", "!="):
            op = self.take()
            right = self.term()
            equal = Eq(left, right)
            return equal if op == "=" else Not(equal)
        if not word[0].islower():
            raise TptpError(f"predicate expected, read variable {word!r}")
        args: list[Term] = []
        if self.peek() == "(":
            self.take()
            args.append(self.term())
            while self.peek() == ",":
                self.take()
                args.append(self.term())
            self.take(")")
        return Pred(self._name(word, "pred"), tuple(args))

    def term(self) -> Term:
        word = self.take()
        if word[0].isupper():
            return Var(self._name(word, "var"))
        return Const(self._name(word, "const"))

    def _name(self, word: str, kind: str) -> str:
        known = self.symbols.reverse.get(word)
        if known is not None and (known[0] == kind or {known[0], kind} <= {"pred", "const"}):
            return known[1]
        return word
