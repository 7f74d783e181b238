"""Lean's infix notation: one table for the parser that reads it and the printer that writes it.

Precedences are those of Lean 4 core and Mathlib (``infixl:35 " ⧸ "`` is 35, left operand at
35, right at 36). Operators Mathlib defines but afcheck does not interpret (``⧸ ≃ ⊓ ''`` …) are
read as plain :class:`~afcheck.lean.ast.BinOp` nodes: the elaborator has no rule for them, so a
statement using one stays outside the typed fragment, and only its syntax is compared.
"""

from __future__ import annotations

INFIX: dict[str, tuple[int, int, int]] = {
    # op: (precedence, left operand minimum, right operand minimum)
    "↔": (20, 21, 21),
    "→": (25, 26, 25),
    "≃": (25, 25, 26),
    "≃*": (25, 25, 26),
    "≃+": (25, 25, 26),
    "≃+*": (25, 25, 26),
    "→+*": (25, 26, 25),
    "→*": (25, 26, 25),
    "→+": (25, 26, 25),
    "→₀": (25, 26, 25),
    "↪": (25, 26, 25),
    "∨": (30, 31, 30),
    "⊕": (30, 31, 30),
    "∧": (35, 36, 35),
    "×": (35, 36, 35),
    "⧸": (35, 35, 36),
    "=": (50, 51, 51),
    "≠": (50, 51, 51),
    "<": (50, 51, 51),
    ">": (50, 51, 51),
    "≤": (50, 51, 51),
    "≥": (50, 51, 51),
    "∣": (50, 51, 51),
    "∈": (50, 51, 51),
    "∉": (50, 51, 51),
    "⊆": (50, 51, 51),
    "⊂": (50, 51, 51),
    "⊇": (50, 51, 51),
    "⊃": (50, 51, 51),
    "≡": (50, 51, 51),
    "≈": (50, 51, 51),
    "..": (50, 51, 51),
    "∪": (65, 65, 66),
    "+": (65, 65, 66),
    "-": (65, 65, 66),
    "⊔": (68, 68, 69),
    "⊓": (69, 69, 70),
    "∩": (70, 70, 71),
    "*": (70, 70, 71),
    "/": (70, 70, 71),
    "%": (70, 70, 71),
    "\\": (70, 70, 71),
    "•": (73, 74, 73),
    "^": (75, 76, 75),
    "''": (80, 80, 81),
    "⁻¹'": (80, 80, 81),
    "×ˢ": (82, 83, 82),
    "∘": (90, 91, 90),
    "∆": (100, 100, 101),
}

MIXFIX: dict[str, int] = {
    # template of an afcheck.lean.ast.Notation: its precedence (1024: an atom)
    "‖·‖": 1024,
    "‖·‖₊": 1024,
    "⟪·, ·⟫": 1024,
    "⁅·, ·⁆": 1024,
    "·ᶜ": 1024,
    "·ᵀ": 1024,
    "⋃₀ ·": 110,
    "⋂₀ ·": 110,
    "· →ₗ[·] ·": 25,
    "· ≃ₗ[·] ·": 25,
    "· →L[·] ·": 25,
    "· →ₐ[·] ·": 25,
    "· ≃ₐ[·] ·": 25,
}
"""Notations with brackets or a mark around or after their operands. An inner product keeps
its field suffix in the template (``⟪·, ·⟫_ℝ``); its precedence is that of ``⟪·, ·⟫``."""

BRACKETED_ARROWS = {"→ₗ": "· →ₗ[·] ·", "≃ₗ": "· ≃ₗ[·] ·", "→ₐ": "· →ₐ[·] ·",
                    "≃ₐ": "· ≃ₐ[·] ·"}
"""``M →ₗ[R] N``: an arrow, a bracketed ring, a right operand (precedence 25, right)."""

BIG_BODY: dict[str, int] = {
    "∑": 67, "∏": 67, "⋃": 60, "⋂": 60, "⨆": 60, "⨅": 60, "∫": 67, "∀ᶠ": 0, "∃ᶠ": 0,
}
"""Binder notations and the precedence their body is read at (Mathlib's ``BigOperators``,
``iUnion``/``iSup``, ``intervalIntegral``, ``Filter.Eventually``)."""


def mixfix_precedence(template: str) -> int:
    """The precedence of a :class:`~afcheck.lean.ast.Notation` template."""
    if template.startswith("⟪"):
        return MIXFIX["⟪·, ·⟫"]
    return MIXFIX[template]
