"""The smt prover's limits: a z3 call stopped at its time, or a statement stopped by the
process's memory, is a transient INCONCLUSIVE (never cached), and a stage's budget reaches
it as its deadline and z3's time per call."""

from __future__ import annotations

import pytest
from afcheck_smt import budget_options
from afcheck_smt.prover import decide, stopped_at_limit

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
    assert budget_options(Budget(seconds=3), {"timeout_ms": "1500"}) == {"deadline_s": "3"}


def test_a_z3_timeout_whose_calls_outlast_the_budget_is_refused() -> None:
    # In this process only z3's timeout holds: 2 × 10 s would be four times a 5 s budget.
    with pytest.raises(ValueError, match=r"timeout_ms=10000 .* 20 s, more than its 5 s.*"
                                         r"timeout_ms=2500 or less"):
        budget_options(Budget(seconds=5), {"timeout_ms": "10000"})
    with pytest.raises(ValueError, match="timeout_ms=1501"):
        budget_options(Budget(seconds=3), {"timeout_ms": "1501"})


def test_the_refusal_reaches_the_user_as_one_line() -> None:
    from afcheck.errors import UsageError
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.registry import PROVER
    from afcheck.runtime import Components, Runtime

    runtime = Runtime(Components(Plugins(autoload=True)),
                      budgets={"faithfulness": {"prove": Budget(seconds=5)}})
    with pytest.raises(UsageError) as refused:
        runtime.budgeted(PROVER, Choice.of("smt", {"timeout_ms": "10000"}), "faithfulness",
                         "prove")
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("--budget faithfulness.prove: --prover-opt timeout_ms=10000")


def test_the_deadline_leaves_the_cache_key_and_z3s_timeout_changes_it() -> None:
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.registry import PROVER
    from afcheck.runtime import Components

    components = Components(Plugins(autoload=True))

    def fingerprint(**options: str) -> str:
        return components.get(PROVER, Choice.of("smt", options)).fingerprint

    # Past deadline_s the worker is killed: a transient verdict, never cached.
    assert fingerprint(deadline_s="600") == fingerprint()
    assert fingerprint(timeout_ms="700") != fingerprint()


@pytest.mark.parametrize("reason", ["timeout", "canceled", "max. memory exceeded",
                                    "out of memory"])
def test_z3_unknown_for_a_limit_is_transient(reason: str) -> None:
    # "out of memory" is z3's reason under an address-space limit just above what the
    # process holds (not reproducible at will in a test: the allocation that fails varies).
    assert stopped_at_limit(reason)


@pytest.mark.parametrize("reason", ["incomplete", "(incomplete (theory arithmetic))",
                                    "smt tactic failed to show goal to be sat/unsat"])
def test_z3_unknown_of_the_statement_itself_is_not_transient(reason: str) -> None:
    assert not stopped_at_limit(reason)
    with pytest.raises(ValueError, match="memory cannot be bounded"):
        budget_options(Budget(memory_mb=512), {})


_OUT_OF_MEMORY = """
import resource, sys
from afcheck_smt.prover import decide, stopped_at_limit
from afcheck.types import ProofTask
decide(ProofTask("warm", "theorem t (x : ℕ) : x + 1 > 0 := by sorry"))
statement = "theorem t (x : ℕ) : " + " + ".join(["x"] * 2_000_000) + " ≥ 0 := by sorry"
with open("/proc/self/statm") as statm:
    size = int(statm.read().split()[0]) * resource.getpagesize()
# 64 MiB more than the process holds: reading the statement's 2 million terms needs more.
resource.setrlimit(resource.RLIMIT_AS, (size + 64 * 2**20, resource.RLIM_INFINITY))
verdict = decide(ProofTask("k", statement))
sys.stdout.write(f"{verdict.kind.name}|{verdict.transient}|{verdict.reason}")
"""


@pytest.mark.heavy
def test_a_statement_stopped_by_the_processs_memory_is_transient() -> None:
    # A real MemoryError, under an address-space limit as a pool worker has one: the
    # verdict says so and is never cached (a process with more memory may decide it).
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _OUT_OF_MEMORY], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    kind, transient, reason = done.stdout.split("|", 2)
    assert (kind, transient) == ("INCONCLUSIVE", "True")
    assert reason.startswith("stopped at a resource limit: MemoryError")



def test_an_isolated_prover_decides_even_one_statement_in_a_worker_killed_past_its_deadline(
        ) -> None:
    from afcheck.plugins import get_plugins

    prover = get_plugins().create("prover", "smt", {
        "isolate": "true", "jobs": "1", "timeout_ms": "20000", "deadline_s": "0.5"})
    assert prover.contained
    try:
        stopped, decided = prover.prove([ProofTask("f", FERMAT_3), ProofTask(
            "t", "theorem t : (2 : ℕ) + 3 = 5 := by sorry")])
    finally:
        prover.close()
    # In this process z3 would have kept the run for its 20 s; its worker was killed.
    assert stopped.kind is VerdictKind.INCONCLUSIVE and stopped.transient
    assert stopped.reason == "no answer within 0.5 s; stopped"
    assert decided.kind is VerdictKind.PROVED


def test_isolate_is_true_or_false() -> None:
    from afcheck.errors import UsageError
    from afcheck.plugins import get_plugins

    assert not get_plugins().create("prover", "smt", {}).contained
    with pytest.raises(UsageError, match="isolate=maybe: expected true or false"):
        get_plugins().create("prover", "smt", {"isolate": "maybe"})
