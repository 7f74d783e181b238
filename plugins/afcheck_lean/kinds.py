"""The kinds the Lean plugin declares: ``judge`` (:mod:`afcheck_lean.judge`) and
``lean_session`` (:mod:`afcheck.lean.session`)."""

from __future__ import annotations

from afcheck.lean.session import LeanSession
from afcheck.registry import Kind
from afcheck_lean.judge import Judge

JUDGE: Kind[Judge] = Kind(
    "judge", "judges", "afcheck_register_judges", protocol=Judge,
    description="certify a Lean proof from compiled modules, in a process the proof cannot "
    "reach (a Lean prover's judge=NAME)")
LEAN_SESSION: Kind[LeanSession] = Kind(
    "lean_session", "lean_sessions", "afcheck_register_lean_sessions", protocol=LeanSession,
    description="check Lean commands in the pinned project, for components that run Lean "
    "themselves (criterion beq-plus's session=NAME)")
