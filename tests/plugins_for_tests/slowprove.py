"""A prover that takes its time, for tests that need work in flight: ``slow-arith`` decides
claims exactly as the ``arith`` prover does after sleeping ``delay`` seconds per statement.
Loaded with ``--plugin slowprove``, so that a Ray worker can import it by name."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arith import ArithProver

from afcheck import hookimpl
from afcheck.registry import Register
from afcheck.types import ProofTask, Verdict


@dataclass
class SlowProver:
    delay: float
    name: str = "slow-arith"
    version: str = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        time.sleep(self.delay * len(tasks))
        return ArithProver().prove(tasks)


def _make(options: Mapping[str, str]) -> SlowProver:
    return SlowProver(float(options.get("delay", "0.1")))


@hookimpl
def afcheck_register_provers(register: Register[SlowProver]) -> None:
    register("slow-arith", _make, description="test prover that sleeps before deciding")
