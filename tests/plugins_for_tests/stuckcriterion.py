"""An equivalence criterion that misbehaves on marked pairs, for tests of the per-pair limits:
``stuck`` decides as ``syntactic`` does, except for a batch holding a pair whose reference
mentions

- ``stuck``: it loops forever (as a solver ignoring its own timeout would);
- ``hog``: it allocates 2 GiB (as a solver running out of memory would);
- ``boom``: it raises.

With the option ``log=PATH`` each ``decide`` call appends the keys of its batch to PATH, one
JSON list a line, so a test sees how the pairs were batched. Loaded with
``--plugin stuckcriterion``, so that a worker process can import it by name."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence

from afcheck_equivalence.records import Decision, Pair
from afcheck_equivalence.syntactic import Syntactic

from afcheck import hookimpl
from afcheck.registry import Register


class StuckCriterion:
    name = "stuck"
    version = "1"
    contained = False

    def __init__(self, log: str = "") -> None:
        self.log = log

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(json.dumps([os.getpid(), [pair.key for pair in pairs]]) + "\n")
        references = " ".join(pair.reference for pair in pairs)
        if "boom" in references:
            raise RuntimeError("the criterion broke on a marked pair")
        if "hog" in references:
            hoard = bytearray(2 * 2**30)
            del hoard
        if "stuck" in references:
            while True:
                time.sleep(1)
        return Syntactic().decide(pairs)


def _make(options: Mapping[str, str]) -> StuckCriterion:
    return StuckCriterion(options.get("log", ""))


@hookimpl
def afcheck_register_criteria(register: Register[StuckCriterion]) -> None:
    register("stuck", _make, description="test criterion that hangs on some pairs")
