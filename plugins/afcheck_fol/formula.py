"""First-order formulas: the one tree every FOL part of afcheck reads and writes.

Surface syntaxes (Tarski's World, FOLIO), the TPTP printer, the Z3 encoding and tree edit
distance all work on these records. Terms are variables and constants (no function symbols:
neither Tarski's World nor FOLIO's gold FOL uses them). ∧ and ∨ chains are n-ary, so that
``A ∧ B ∧ C`` written with or without inner parentheses is one node.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    name: str


Term = Var | Const


@dataclass(frozen=True)
class Pred:
    """An atom ``name(args…)``; a nullary predicate has no arguments."""

    name: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True)
class Eq:
    left: Term
    right: Term


@dataclass(frozen=True)
class Truth:
    """⊤ (``value=True``) or ⊥."""

    value: bool


@dataclass(frozen=True)
class Not:
    body: Formula


@dataclass(frozen=True)
class And:
    items: tuple[Formula, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Formula, ...]


@dataclass(frozen=True)
class Xor:
    """Exclusive or (FOLIO's ``⊕``), binary."""

    left: Formula
    right: Formula


@dataclass(frozen=True)
class Implies:
    left: Formula
    right: Formula


@dataclass(frozen=True)
class Iff:
    left: Formula
    right: Formula


@dataclass(frozen=True)
class Forall:
    var: Var
    body: Formula


@dataclass(frozen=True)
class Exists:
    var: Var
    body: Formula


Formula = Pred | Eq | Truth | Not | And | Or | Xor | Implies | Iff | Forall | Exists


def children(node: Formula) -> tuple[Formula, ...]:
    """The immediate subformulas of ``node``, left to right (none for an atom)."""
    if isinstance(node, Not):
        return (node.body,)
    if isinstance(node, (And, Or)):
        return node.items
    if isinstance(node, (Xor, Implies, Iff)):
        return (node.left, node.right)
    if isinstance(node, (Forall, Exists)):
        return (node.body,)
    return ()


def subformulas(formula: Formula) -> Iterator[Formula]:
    """``formula`` and each of its subformulas, in preorder (a node before its children, the
    children left to right), repeats included."""
    pending = [formula]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(reversed(children(node)))


def terms(node: Formula) -> tuple[Term, ...]:
    """The terms of an atom (``Pred`` or ``Eq``); none for any other node."""
    if isinstance(node, Pred):
        return node.args
    if isinstance(node, Eq):
        return (node.left, node.right)
    return ()


def free_vars(formula: Formula) -> frozenset[str]:
    """Names of the variables that occur outside any quantifier binding them."""
    if isinstance(formula, (Forall, Exists)):
        return free_vars(formula.body) - {formula.var.name}
    own = frozenset(t.name for t in terms(formula) if isinstance(t, Var))
    return own.union(*(free_vars(child) for child in children(formula)))


def predicates(formula: Formula) -> dict[str, int]:
    """Every predicate name with its arity (the first use wins when arities differ)."""
    found: dict[str, int] = {}
    for node in subformulas(formula):
        if isinstance(node, Pred):
            found.setdefault(node.name, len(node.args))
    return found


def constants(formula: Formula) -> frozenset[str]:
    """Names of the constants the formula mentions."""
    return frozenset(
        t.name for node in subformulas(formula) for t in terms(node) if isinstance(t, Const)
    )
