"""Named quantities: which equation last gave each name its value, as a Lean binder.

Every definition gets its own binder (a redefined ``total`` becomes ``total_1``) whose value
refers only to earlier binders, so the hypotheses form a straight-line program: they always
have a solution and can never make a claim vacuously true.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from afcheck_arith.expr import (
    Abs,
    Bin,
    Expr,
    Fact,
    Neg,
    Num,
    Paren,
    Pi,
    Pow,
    Sqrt,
    Var,
    variables,
)
from afcheck_arith.values import evaluate, subterm_values
from afcheck_arith.words import RESERVED


class UnknownName(LookupError):
    """A claim uses a name with no usable value; ``str`` is the reason."""


@dataclass(frozen=True)
class Definition:
    ident: str
    """The Lean binder."""
    value: Expr
    """The value, over the binders of earlier definitions."""
    number: Fraction | None = None
    """The value as a number, when it is rational and small enough to compute."""


class Scope:
    """Names in force at one point of the reading, and every definition made so far."""

    def __init__(self) -> None:
        self._current: dict[str, Definition] = {}
        self._all: dict[str, Definition] = {}
        self._constrained: set[str] = set()

    def copy(self) -> Scope:
        """A scope that starts where this one is and changes apart from it (its definitions
        are immutable and shared)."""
        other = Scope()
        other._current = dict(self._current)
        other._all = dict(self._all)
        other._constrained = set(self._constrained)
        return other

    def constrain(self, keys: Iterable[str]) -> None:
        """``keys`` appear in an equation that does not define them (``0.75p = 36``): a later
        ``p = 48`` is then a claim about ``p``, not a name for ``48``."""
        self._constrained.update(k for k in keys if k not in self._current)

    def constrained(self, key: str) -> bool:
        return key in self._constrained and key not in self._current

    def solve(self, key: str) -> None:
        """``key = value`` for a constrained name: a value the chain solved for. It may hold in
        one case only (``r = 5`` or ``r = -1``) or be a slip, so it never becomes a
        hypothesis; ``key`` stays unknown."""
        self._current.pop(key, None)
        self._constrained.add(key)

    def unbind(self, keys: Iterable[str]) -> None:
        """``keys`` are bound or solved for by the text read next: no earlier value holds."""
        for key in keys:
            self._current.pop(key, None)
            self._constrained.discard(key)

    def value_of(self, tree: Expr) -> Expr:
        """A binder's value (``tree`` itself when it is not a binder)."""
        if isinstance(tree, Var) and tree.key in self._all:
            return self._all[tree.key].value
        return tree

    def defines(self, key: str) -> bool:
        return key in self._current

    def resolve(self, tree: Expr) -> Expr:
        """``tree`` with each name replaced by the binder now in force for it."""
        for key in variables(tree):
            if key not in self._current:
                raise UnknownName(
                    f"unknown quantity '{key}': no readable equation before it gives its value"
                )
        return _rename(tree, {k: d.ident for k, d in self._current.items()})

    def define(self, key: str, value: Expr) -> None:
        """``key = value``; a value over unknown names makes ``key`` unknown from here on, and
        relates it to those names (``y = -x - 1``): a later ``y = 2`` is then solved, not
        given."""
        try:
            resolved = self.resolve(value)
        except UnknownName:
            self._current.pop(key, None)
            self.constrain([key, *variables(value)])
            return
        definition = Definition(self._fresh(key), resolved, evaluate(resolved, self.numbers()))
        self._current[key] = definition
        self._constrained.discard(key)
        self._all[definition.ident] = definition

    def forget(self, words: Iterable[str]) -> None:
        """Forget every name made only of ``words`` (a clause that could not be read may have
        given it a new value)."""
        vocabulary = set(words)
        for key in list(self._current):
            if set(key.split("_")) <= vocabulary:
                del self._current[key]

    def numbers(self) -> dict[str, Fraction | None]:
        """Each binder's value as a number (``None`` when it has none)."""
        return {ident: d.number for ident, d in self._all.items()}

    def values(self, trees: Iterable[Expr]) -> set[Fraction]:
        """Every value the trees pin down: their subterms' and those of the definitions they
        depend on."""
        trees = list(trees)
        env = self.numbers()
        found: set[Fraction] = set()
        for tree in trees + [d.value for d in self.needed(trees)]:
            found |= subterm_values(tree, env)
        return found

    def needed(self, trees: Iterable[Expr]) -> list[Definition]:
        """The definitions the trees depend on, directly or not, in definition order."""
        wanted: set[str] = set()
        stack = [ident for tree in trees for ident in variables(tree)]
        while stack:
            ident = stack.pop()
            if ident not in wanted:
                wanted.add(ident)
                stack.extend(variables(self._all[ident].value))
        return [d for ident, d in self._all.items() if ident in wanted]

    def _fresh(self, key: str) -> str:
        base = identifier(key)
        candidate, n = base, 0
        while candidate in self._all or candidate in RESERVED:
            n += 1
            candidate = f"{base}_{n}"
        return candidate


def identifier(key: str) -> str:
    """A valid Lean identifier for a name as read (ASCII, snake case, not a keyword)."""
    ascii_key = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode()
    ident = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "", ascii_key)).strip("_")
    if not ident or ident[0].isdigit():
        ident = f"q_{ident}".rstrip("_")
    if ident in RESERVED or re.fullmatch(r"h\d*", ident):
        ident = f"{ident}_v"
    return ident


def _rename(tree: Expr, names: dict[str, str]) -> Expr:
    if isinstance(tree, Var):
        return Var(names[tree.key])
    if isinstance(tree, (Num, Fact, Pi)):
        return tree
    if isinstance(tree, Bin):
        return Bin(tree.op, _rename(tree.left, names), _rename(tree.right, names))
    if isinstance(tree, Pow):
        return Pow(_rename(tree.base, names), tree.exponent)
    if isinstance(tree, Neg):
        return Neg(_rename(tree.arg, names))
    if isinstance(tree, Sqrt):
        return Sqrt(_rename(tree.arg, names))
    if isinstance(tree, Abs):
        return Abs(_rename(tree.arg, names))
    return Paren(_rename(tree.inner, names))
