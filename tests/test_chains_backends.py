"""The run's FOL prover as the chains pipeline asks it: every answer kept in the run's one
result cache, keyed by the prover's fingerprint and the problem's TPTP text."""

from __future__ import annotations

from pathlib import Path

from afcheck_chains.backends import RuntimeProver
from afcheck_chains.controlled import translate
from afcheck_chains.records import Label
from afcheck_chains.verify import ChainVerdict, FormalChain, verify_chains

from afcheck.method import Choice
from afcheck.plugins import get_plugins
from afcheck.runtime import Components, Runtime
from afcheck.runtime.cache import open_cache

PREMISES = tuple(translate(s) for s in (
    "Jompuses are yumpuses.", "Each yumpus is a dumpus.", "Dumpuses are not sour.",
    "Max is a jompus.",
))
STEPS = tuple(translate(s) for s in ("Max is a yumpus.", "Max is a yumpus.",
                                     "Max is a dumpus."))
CHAINS = [FormalChain(PREMISES, translate("Max is sour."), STEPS)] * 3


def _step_answers(verdicts: list[ChainVerdict]) -> list[bool]:
    """Whether each step's prover answer was read from the cache."""
    return [r.cached for v in verdicts for s in v.steps for r in (s.positive, s.negative)
            if r is not None]


def test_answers_are_kept_in_the_runs_cache_by_fingerprint_and_text(tmp_path: Path) -> None:
    runtime = Runtime(Components(get_plugins()), cache=open_cache(tmp_path))
    try:
        prover = RuntimeProver(runtime, Choice.of("z3-fol"))
        first = verify_chains(CHAINS, [Label.FALSE] * 3, prover)
        assert not any(_step_answers(first))
        assert runtime.cache is not None
        again = verify_chains(CHAINS, [Label.FALSE] * 3, prover)
        assert all(_step_answers(again))
        assert [v.step_labels for v in again] == [v.step_labels for v in first]
        assert [v.path for v in again] == [v.path for v in first]
        # Another setting of the prover is another fingerprint: nothing is read back.
        other = RuntimeProver(runtime, Choice.of("z3-fol", {"timeout_ms": "4000"}))
        assert other.fingerprint != prover.fingerprint
        fresh = verify_chains(CHAINS, [Label.FALSE] * 3, other)
        assert not any(_step_answers(fresh))
    finally:
        if runtime.cache is not None:
            runtime.cache.close()


def test_without_a_cache_each_call_asks_the_prover(tmp_path: Path) -> None:
    runtime = Runtime(Components(get_plugins()))
    prover = RuntimeProver(runtime, Choice.of("z3-fol"))
    verify_chains(CHAINS, [Label.FALSE] * 3, prover)
    again = verify_chains(CHAINS, [Label.FALSE] * 3, prover)
    assert not any(_step_answers(again))
