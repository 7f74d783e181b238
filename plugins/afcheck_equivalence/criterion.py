"""The interface an equivalence criterion implements, and how obligations reach a prover.

A criterion receives every pair of a run in one call and sends all its proof obligations to
its prover in one :meth:`~afcheck.components.Prover.prove` call (obligations are Lean theorem
statements, so any prover decides them: ``smt`` on a CPU, the Lean provers where Lean runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from afcheck.components import Prover
from afcheck.types import ProofTask, Verdict
from afcheck_equivalence.decision import Decision, Pair

__all__ = ["Criterion", "discharge"]


@runtime_checkable
class Criterion(Protocol):
    """Judges whether pairs of Lean statements mean the same."""

    name: str
    version: str

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        """One :class:`Decision` per pair, in order; never raises for one bad pair (that pair
        is Inconclusive with the reason)."""
        ...


def discharge(prover: Prover, statements: Sequence[tuple[str, str]]) -> dict[tuple[str, str],
                                                                          Verdict]:
    """Verdicts of ``(statement, header)`` obligations, each distinct one sent once, all in one
    batch."""
    unique = list(dict.fromkeys(statements))
    tasks = [ProofTask(f"obligation-{i}", text, header)
             for i, (text, header) in enumerate(unique)]
    verdicts = prover.prove(tasks) if tasks else []
    return dict(zip(unique, verdicts, strict=True))


class JudgeAdapter:
    """Answers the core's current ``EquivalenceCriterion.judge`` interface (pairs of statement
    texts → PROVED / REFUTED / INCONCLUSIVE) from :meth:`Criterion.decide`, until the core
    adopts :class:`Criterion`."""

    name: str

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        raise NotImplementedError

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Verdict]:
        from afcheck.types import VerdictKind
        from afcheck_equivalence.decision import DecisionKind

        kinds = {DecisionKind.EQ: VerdictKind.PROVED, DecisionKind.NONEQ: VerdictKind.REFUTED,
                 DecisionKind.INCONCLUSIVE: VerdictKind.INCONCLUSIVE}
        decisions = self.decide([Pair(str(i), r, c) for i, (r, c) in enumerate(pairs)])
        return [Verdict(kinds[d.kind], self.name, reason=d.reason) for d in decisions]
