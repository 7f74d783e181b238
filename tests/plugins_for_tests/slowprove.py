"""A prover that takes its time, for tests that need work in flight: ``slow-arith`` decides
claims exactly as the ``arith`` prover does after sleeping ``delay`` seconds per statement.
With ``gpus=N`` it declares that a worker running it needs N GPUs (its ``resources``), as a
model component does. Loaded with ``--plugin slowprove``, so that a Ray worker can import it
by name."""

from __future__ import annotations

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
    name: str = "slow-arith"
    version: str = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        time.sleep(self.delay * len(tasks))
        return ArithProver().prove(tasks)


def _make(options: Mapping[str, str]) -> SlowProver:
    gpus = float(options.get("gpus", "0"))
    return SlowProver(float(options.get("delay", "0.1")), {"GPU": gpus} if gpus else {})


@hookimpl
def afcheck_register_provers(register: Register[SlowProver]) -> None:
    register("slow-arith", _make, description="test prover that sleeps before deciding")
