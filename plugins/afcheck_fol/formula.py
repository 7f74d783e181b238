"""First-order formulas: the one tree every FOL part of afcheck reads and writes.

Surface syntaxes (Tarski's World, FOLIO), the TPTP printer, the Z3 encoding and tree edit
distance all work on these records. Terms are variables and constants (no function symbols:
neither Tarski's World nor FOLIO's gold FOL uses them). ∧ and ∨ chains are n-ary, so that
``A ∧ B ∧ C`` written with or without inner parentheses is one node.
"""

from __future__ import annotations

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


def free_vars(formula: Formula) -> frozenset[str]:
    """Names of the variables that occur outside any quantifier binding them."""
    if isinstance(formula, Pred):
        return frozenset(t.name for t in formula.args if isinstance(t, Var))
    if isinstance(formula, Eq):
        return frozenset(t.name for t in (formula.left, formula.right) if isinstance(t, Var))
    if isinstance(formula, Truth):
        return frozenset()
    if isinstance(formula, Not):
        return free_vars(formula.body)
    if isinstance(formula, (And, Or)):
        return frozenset().union(*(free_vars(item) for item in formula.items))
    if isinstance(formula, (Xor, Implies, Iff)):
        return free_vars(formula.left) | free_vars(formula.right)
    return free_vars(formula.body) - {formula.var.name}


def predicates(formula: Formula) -> dict[str, int]:
    """Every predicate name with its arity (the first use wins when arities differ)."""
    found: dict[str, int] = {}

    def walk(node: Formula) -> None:
        if isinstance(node, Pred):
            found.setdefault(node.name, len(node.args))
        elif isinstance(node, Not):
            walk(node.body)
        elif isinstance(node, (And, Or)):
            for item in node.items:
                walk(item)
        elif isinstance(node, (Xor, Implies, Iff)):
            walk(node.left)
            walk(node.right)
        elif isinstance(node, (Forall, Exists)):
            walk(node.body)

    walk(formula)
    return found


def constants(formula: Formula) -> frozenset[str]:
    """Names of the constants the formula mentions."""
    if isinstance(formula, Pred):
        return frozenset(t.name for t in formula.args if isinstance(t, Const))
    if isinstance(formula, Eq):
        return frozenset(t.name for t in (formula.left, formula.right) if isinstance(t, Const))
    if isinstance(formula, Truth):
        return frozenset()
    if isinstance(formula, Not):
        return constants(formula.body)
    if isinstance(formula, (And, Or)):
        return frozenset().union(*(constants(item) for item in formula.items))
    if isinstance(formula, (Xor, Implies, Iff)):
        return constants(formula.left) | constants(formula.right)
    return constants(formula.body)
