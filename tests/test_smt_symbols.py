"""The uninterpreted-symbol vocabulary: sorts, functions, their axioms and exact models."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3
from afcheck_smt.symbols import FunctionTable, Vocabulary, function_table


def _unsat(*facts: object) -> bool:
    solver = z3.Solver()
    solver.add(*facts)
    return solver.check() == z3.unsat


def test_number_types_are_z3_arithmetic_and_others_one_sort_each() -> None:
    v = Vocabulary()
    assert v.sort("ℕ") == z3.IntSort() and v.sort("ℝ") == z3.RealSort()
    assert v.sort("Prop") == z3.BoolSort()
    assert v.sort("α") is v.sort("α") and v.sort("α") != v.sort("β")


def test_a_statement_true_of_every_function_over_a_type_is_unsat_when_negated() -> None:
    # ∀ (α : Type) (f : α → α) (x : α), f x = x → f (f x) = x
    v = Vocabulary()
    f, x = v.function("f", ("α",), "α"), v.constant("x", "α")
    assert _unsat(*v.axioms, f(x) == x, f(f(x)) != x)
    assert not _unsat(*v.axioms, f(f(x)) != x)


def test_a_nat_valued_symbol_is_never_negative() -> None:
    v = Vocabulary()
    g, n = v.function("g", ("α",), "ℕ"), v.constant("n", "ℕ")
    y = v.constant("y", "α")
    assert _unsat(*v.axioms, g(y) < 0)
    assert _unsat(*v.axioms, n < 0)


def test_a_name_keeps_its_signature() -> None:
    v = Vocabulary()
    assert v.function("f", ("ℕ",), "ℝ") is v.function("f", ("ℕ",), "ℝ")
    with pytest.raises(ValueError, match="already declared"):
        v.function("f", ("ℝ",), "ℝ")


def test_a_model_of_a_function_is_read_as_an_exact_table() -> None:
    v = Vocabulary()
    f = v.function("f", ("ℕ",), "ℚ")
    solver = z3.Solver()
    solver.add(f(1) == z3.RealVal("1/3"), f(2) == 5)
    assert solver.check() == z3.sat
    table = function_table(solver.model(), f)
    assert table is not None
    assert table((Fraction(1),)) == Fraction(1, 3) and table((Fraction(2),)) == 5
    assert table.lean(("x",)).startswith("fun x => if x = ")


def test_a_table_prints_as_a_lean_function() -> None:
    table = FunctionTable((((Fraction(1),), Fraction(3)),), Fraction(-1, 2))
    assert table.lean(("x",)) == "fun x => if x = 1 then 3 else -1/2"
    assert table((Fraction(7),)) == Fraction(-1, 2)
