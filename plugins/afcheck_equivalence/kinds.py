"""The component kind only the equivalence method uses, declared by its plugin, and the
interface its components implement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from afcheck.registry import Kind

if TYPE_CHECKING:
    from afcheck_equivalence.records import Decision, Pair


@runtime_checkable
class EquivalenceCriterion(Protocol):
    """Judges whether pairs of Lean statements mean the same (see
    :mod:`afcheck_equivalence.records`)."""

    name: str
    version: str

    @property
    def contained(self) -> bool:
        """True when ``decide`` cannot outlive the pair limit in the run's process: it runs
        no solver and searches nothing (``syntactic``: one read and one pass over each
        tree), or every step of it that can run long runs in processes the criterion (or its
        prover) bounds itself in time and memory (Lean REPLs). Such a criterion is decided in the
        run's process; any other (``False``, what a criterion that cannot say declares) in
        the pair limit's workers (:mod:`afcheck_equivalence.limit`). A class attribute
        (``contained = True``) declares it as well as a property."""
        ...

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        """One :class:`Decision` per pair, in order: Eq with its certificate, Noneq with the
        failed obligation, or Inconclusive with the reason; never raises for one bad pair
        (that pair is Inconclusive)."""
        ...


CRITERION: Kind[EquivalenceCriterion] = Kind(
    "criterion", "criteria", "afcheck_register_criteria", True, protocol=EquivalenceCriterion,
    description="decide whether two Lean statements mean the same: Eq, Noneq or Inconclusive")
