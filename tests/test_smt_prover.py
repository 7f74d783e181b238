"""The smt prover's limits: a z3 call stopped at its time is a transient INCONCLUSIVE (never
cached), and a stage's budget reaches it as its deadline and z3's time per call."""

from __future__ import annotations

import pytest
from afcheck_smt import budget_options
from afcheck_smt.prover import decide

from afcheck.budget import Budget
from afcheck.types import ProofTask, VerdictKind

FERMAT_3 = ("theorem fermat_3 (x y z : ℕ) (h0 : 0 < x) (h1 : 0 < y) (h2 : 0 < z) : "
            "x ^ 3 + y ^ 3 ≠ z ^ 3 := by sorry")
"""True, and beyond z3's nonlinear arithmetic: it answers unknown (timeout)."""


def test_a_z3_call_stopped_at_its_time_limit_is_transient() -> None:
    stopped = decide(ProofTask("f", FERMAT_3), timeout_ms=100)
    assert stopped.kind is VerdictKind.INCONCLUSIVE
    assert stopped.reason == "z3 returned unknown (timeout) on hypotheses ∧ ¬conclusion"
    assert stopped.transient


@pytest.mark.parametrize("statement", [
    "theorem t : (2 : ℕ) + 3 = 5 := by sorry",
    "theorem t : (2 : ℕ) + 3 = 6 := by sorry",
    "theorem t (s : Set ℕ) : s = s := by sorry",  # outside the fragment: that is the answer
])
def test_an_answer_of_the_statement_itself_is_not_transient(statement: str) -> None:
    assert not decide(ProofTask("t", statement), timeout_ms=2000).transient


def test_a_budget_is_the_deadline_split_over_the_z3_calls() -> None:
    assert budget_options(Budget(seconds=3), {}) == {"deadline_s": "3", "timeout_ms": "1500"}
    assert budget_options(Budget(seconds=3), {"timeout_ms": "700"}) == {"deadline_s": "3"}
    assert budget_options(Budget(), {}) == {}
    with pytest.raises(ValueError, match="memory cannot be bounded"):
        budget_options(Budget(memory_mb=512), {})
