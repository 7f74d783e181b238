"""An equivalence criterion that never answers for some pairs, for tests of the per-pair time
limit: ``stuck`` decides as ``syntactic`` does, except that a pair whose reference mentions
``stuck`` makes it loop forever (as a solver ignoring its own timeout would). Loaded with
``--plugin stuckcriterion``, so that a worker process can import it by name."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from afcheck_equivalence.records import Decision, Pair
from afcheck_equivalence.syntactic import Syntactic

from afcheck import hookimpl
from afcheck.registry import Register


class StuckCriterion:
    name = "stuck"
    version = "1"

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        if any("stuck" in pair.reference for pair in pairs):
            while True:
                time.sleep(1)
        return Syntactic().decide(pairs)


def _make(options: Mapping[str, str]) -> StuckCriterion:
    return StuckCriterion()


@hookimpl
def afcheck_register_criteria(register: Register[StuckCriterion]) -> None:
    register("stuck", _make, description="test criterion that hangs on some pairs")
