"""Finding the formula in a model's answer without repairing it."""

from __future__ import annotations

import pytest
from afcheck_fol.extract import extract


@pytest.mark.parametrize(
    ("output", "formula"),
    [
        ("= ∀x (Cube(x) → Small(x))", "∀x (Cube(x) → Small(x))"),
        ("Formula: Cube(a)\nBecause a is a cube.", "Cube(a)"),
        ("<think>cubes…</think>\n\n```\nCube(a) ∧ Small(a)\n```", "Cube(a) ∧ Small(a)"),
        ("`Larger(a, b)`", "Larger(a, b)"),
        ("FOL: a = b", "a = b"),
        ("**Formula:** ∀x Cube(x)", "∀x Cube(x)"),
        ("- Answer = Tet(b)", "Tet(b)"),
        ("-Cube(a)", "-Cube(a)"),  # not a bullet: a foreign negation, left for the parser
        ("a = b", "a = b"),
        ("Cube(a).", "Cube(a)."),  # not repaired: a trailing period is the model's error
        ("<think>never closed", ""),
        ("", ""),
    ],
)
def test_extract(output: str, formula: str) -> None:
    assert extract(output) == formula
