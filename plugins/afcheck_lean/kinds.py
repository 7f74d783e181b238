"""The kind the Lean plugin declares: ``judge`` (:mod:`afcheck_lean.judge`)."""

from __future__ import annotations

from afcheck.registry import Kind
from afcheck_lean.judge import Judge

JUDGE: Kind[Judge] = Kind(
    "judge", "judges", "afcheck_register_judges", protocol=Judge,
    description="certify a Lean proof from compiled modules, in a process the proof cannot "
    "reach (a Lean prover's judge=NAME)")
