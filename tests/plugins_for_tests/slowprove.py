"""A prover that takes its time, for tests that need work in flight: ``slow-arith`` decides
claims exactly as the ``arith`` prover does after sleeping ``delay`` seconds per statement.
With ``gpus=N`` it declares that a worker running it needs N GPUs (its ``resources``), as a
model component does. ``fail_on=TEXT`` raises on a statement holding TEXT; ``die_on=TEXT`` ends
its process abruptly there when that is a worker process (a child of another Python), as a
crash in a solver's native code would. Loaded with ``--plugin slowprove``, so that a worker
process or a Ray worker can import it by name."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arith import ArithProver

from afcheck import hookimpl
from afcheck.registry import Register
from afcheck.types import ProofTask, Verdict


@dataclass
class SlowProver:
    delay: float
    resources: dict[str, float] = field(default_factory=dict)
    fail_on: str = ""
    die_on: str = ""
    name: str = "slow-arith"
    version: str = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        time.sleep(self.delay * len(tasks))
        for task in tasks:
            if self.fail_on and self.fail_on in task.statement:
                raise ValueError(f"cannot read {task.statement!r}")
            if (self.die_on and self.die_on in task.statement
                    and multiprocessing.parent_process() is not None):
                os._exit(70)
        return ArithProver().prove(tasks)


def _make(options: Mapping[str, str]) -> SlowProver:
    gpus = float(options.get("gpus", "0"))
    return SlowProver(float(options.get("delay", "0.1")), {"GPU": gpus} if gpus else {},
                      options.get("fail_on", ""), options.get("die_on", ""))


@hookimpl
def afcheck_register_provers(register: Register[SlowProver]) -> None:
    register("slow-arith", _make, description="test prover that sleeps before deciding")
