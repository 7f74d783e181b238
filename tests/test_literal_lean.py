"""Statements are printed by the Lean front end's printer: they read back as written."""

from __future__ import annotations

from fractions import Fraction

import pytest
from afcheck_arith.expr import Bin, Expr, Neg, Num, Paren, Pow, Sqrt, Var
from afcheck_literal.lean import Hypothesis, relation, theorem

from afcheck.lean import parse_theorem, print_expr
from afcheck.lean.elaborate import elaborate
from afcheck.lean.evaluate import holds


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (Bin("+", Paren(Bin("+", Num("2"), Num("3"))), Num("4")), "((2 : ℚ) + 3) + 4"),
        (Bin("+", Neg(Num("3")), Num("4")), "(-(3 : ℚ)) + 4"),
        (Neg(Pow(Var("x"), "2")), "-(x ^ 2)"),
        (Pow(Sqrt(Num("2")), "2"), "(Real.sqrt 2) ^ 2"),
        (Bin("-", Num("7"), Bin("-", Num("3"), Num("1"))), "(7 : ℚ) - (3 - 1)"),
        (Bin("*", Paren(Bin("/", Num("125"), Num("10"))), Num("2")), "((125 : ℚ) / 10) * 2"),
    ],
)
def test_brackets_as_written_and_around_negations(left: Expr, text: str) -> None:
    assert print_expr(relation("ℚ", left, "=", Num("0"))) == f"{text} = 0"


def test_a_theorem_with_hypotheses_reads_back_and_evaluates() -> None:
    statement = theorem(
        "ℚ",
        [Hypothesis("total", "h₀", Bin("+", Num("2"), Num("1")))],
        [(Bin("*", Var("total"), Num("2")), "=", Num("6")), (Num("6"), ">", Num("5"))],
    )
    assert statement == (
        "theorem step (total : ℚ) (h₀ : total = 2 + 1) : total * 2 = 6 ∧ (6 : ℚ) > 5 := by sorry"
    )
    typed = elaborate(parse_theorem(statement))
    assert holds(typed, {"total": Fraction(3)}) == (True, True)
