"""Deciding pairs through the run's result cache: what rests on a limit is asked again."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from afcheck_equivalence.records import DecisionKind, decision_from_json
from afcheck_equivalence.suite import Item

from afcheck.types import ProofTask, Verdict, VerdictKind


class StallingProver:
    """A prover in this process that a limit stops on every statement naming ``stuck``
    (a transient INCONCLUSIVE, as a z3 timeout or a killed worker gives) and that proves
    every other one; it records what it was asked."""

    name = "stalling"
    version = "1"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        self.asked.extend(t.statement for t in tasks)
        return [Verdict(VerdictKind.INCONCLUSIVE, self.name, transient=True,
                        reason="stopped at a resource limit: MemoryError")
                if "stuck" in t.statement else Verdict(VerdictKind.PROVED, self.name)
                for t in tasks]


@pytest.mark.parametrize("criterion", ["sae", "logical"])
def test_a_decision_on_a_transient_verdict_is_asked_again_and_a_decided_one_is_cached(
        tmp_path: Path, criterion: str) -> None:
    from afcheck_equivalence.decide import decide_pairs

    from afcheck import hookimpl
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.runtime import Components, Runtime
    from afcheck.runtime.cache import Cache

    prover = StallingProver()

    class Provers:
        @staticmethod
        @hookimpl(specname="afcheck_register_provers")
        def register(register):  # type: ignore[no-untyped-def]
            register("stalling", lambda options: prover)

    pairs = [(Item("decided", "theorem a (x : ℕ) : x + 1 = 1 + x := by sorry"),
              "theorem b (x : ℕ) : x + 1 = 1 + x * 1 := by sorry"),
             (Item("stopped", "theorem c (stuck : ℕ) : stuck + 2 = 2 + stuck := by sorry"),
              "theorem d (stuck : ℕ) : stuck + 2 = 2 + stuck * 1 := by sorry")]
    choice = Choice.of(criterion, {"prover": "stalling"})
    cache = Cache(tmp_path / "cache.sqlite")
    asked: list[list[str]] = []
    for _ in range(2):
        plugins = Plugins(autoload=True)
        plugins.register(Provers, "stalling")
        prover.asked = []
        decided = decide_pairs(Runtime(Components(plugins), cache=cache), choice, pairs)
        asked.append(prover.asked)
        assert decided["decided"].kind is DecisionKind.EQ
        assert not decided["decided"].transient
        assert decided["stopped"].kind is DecisionKind.INCONCLUSIVE
        assert decided["stopped"].transient
    assert any("stuck" not in s for s in asked[0])
    # The second run takes the decided pair from the cache and asks again for the other.
    assert asked[1] and all("stuck" in s for s in asked[1])
    stopped = decided["stopped"]
    assert decision_from_json(json.loads(json.dumps(stopped.to_json()))) == stopped
    assert stopped.obligations[0].verdict is not None
    assert stopped.obligations[0].verdict.transient
