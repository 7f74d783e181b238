"""The ``logical`` criterion: whole-statement T ↔ T' — and why it is too coarse."""

from __future__ import annotations

import pytest

pytest.importorskip("z3")

from afcheck_equivalence.logical import Logical  # noqa: E402
from afcheck_equivalence.records import Eq, Noneq, Pair  # noqa: E402
from afcheck_equivalence.sae import Sae  # noqa: E402
from afcheck_smt.prover import SmtProver  # noqa: E402

UNRELATED = Pair("u", "theorem a (x y : ℤ) (h₀ : 0 < y) (h₁ : y < x) (h₂ : x + y + x * y = 80) :"
                 " x = 26 := by sorry",
                 "theorem b : abs ((120 : ℝ) / 100 * 30 - 130 / 100 * 20) = 10 := by sorry")


def test_two_unrelated_provable_statements_are_logically_equivalent_but_not_sae() -> None:
    prover = SmtProver(timeout_ms=3000)
    logical = Logical(prover).decide([UNRELATED])[0]
    assert isinstance(logical, Eq)
    assert logical.certificate[0].statement.startswith("theorem logical_equivalence : (∀ x")
    assert not isinstance(Sae(prover).decide([UNRELATED])[0], Eq)


def test_a_true_and_a_false_statement_are_noneq() -> None:
    d = Logical(SmtProver()).decide([Pair(
        "p", "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry",
        "theorem b (x : ℝ) (h : x = 2) : x ^ 2 = 5 := by sorry")])[0]
    assert isinstance(d, Noneq) and d.component == "statement"


def test_every_registered_criterion_answers_the_core_interface() -> None:
    from afcheck_equivalence.kinds import CRITERION, EquivalenceCriterion

    from afcheck.plugins import Plugins

    plugins = Plugins()
    for name in ("logical", "sae", "syntactic"):
        criterion = plugins.create(CRITERION, name)
        assert isinstance(criterion, EquivalenceCriterion)
        [decision] = criterion.decide([UNRELATED])
        assert decision.kind.value in ("Eq", "Noneq", "Inconclusive")
    [eq] = Logical(SmtProver()).decide([UNRELATED])
    assert eq.kind.value == "Eq"  # both provable: the baseline's blind spot
