"""Formulas as FOLIO text: the one printer of the FOLIO syntax (:mod:`afcheck_fol.syntax`
reads it back to the same formula, ∧ and ∨ chains flattened as the reader flattens them).

Every compound subformula is parenthesised, so that the text never depends on precedence or
on how far a quantifier scopes. FOLIO has no ⊤ or ⊥: a formula holding one cannot be written.
"""

from __future__ import annotations

from afcheck_fol.formula import (
    And,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Truth,
    Xor,
)


class Unprintable(ValueError):
    """A formula FOLIO's syntax cannot write (⊤, ⊥)."""


def folio(formula: Formula) -> str:
    """``formula`` in FOLIO's syntax."""
    if isinstance(formula, Pred):
        return f"{formula.name}({', '.join(term.name for term in formula.args)})"
    if isinstance(formula, Eq):
        return f"{formula.left.name} = {formula.right.name}"
    if isinstance(formula, Truth):
        raise Unprintable("FOLIO has no ⊤ or ⊥")
    if isinstance(formula, Not):
        return "¬" + _operand(formula.body)
    if isinstance(formula, And):
        return " ∧ ".join(_operand(item) for item in formula.items)
    if isinstance(formula, Or):
        return " ∨ ".join(_operand(item) for item in formula.items)
    if isinstance(formula, Xor):
        return f"{_operand(formula.left)} ⊕ {_operand(formula.right)}"
    if isinstance(formula, Implies):
        return f"{_operand(formula.left)} → {_operand(formula.right)}"
    if isinstance(formula, Iff):
        return f"{_operand(formula.left)} ↔ {_operand(formula.right)}"
    if isinstance(formula, Forall):
        return f"∀{formula.var.name} ({folio(formula.body)})"
    if isinstance(formula, Exists):
        return f"∃{formula.var.name} ({folio(formula.body)})"
    raise TypeError(f"not a formula: {formula!r}")


def _operand(formula: Formula) -> str:
    text = folio(formula)
    return text if isinstance(formula, (Pred, Not)) else f"({text})"
