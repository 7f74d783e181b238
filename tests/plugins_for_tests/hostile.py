"""A test plugin whose formaliser and prover answer the way a hostile or broken model server
can: text with lone surrogates (a JSON reply's ``\\ud800`` escape decodes to one), NUL and
other controls that XML cannot hold, and terminal escape sequences (clear the screen, write
the clipboard, reverse the text).

- formaliser ``hostile``: like ``arith`` (the step's claim after the last ``:``), with
  :data:`NOISE` appended to every raw output; a step containing ``NOAF`` is AF-Fail with
  :data:`NOISE` in its reason.
- prover ``hostile``: like ``arith``; a claim with ``?`` is INCONCLUSIVE with :data:`NOISE`
  in its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arith import ArithProver

from afcheck import hookimpl
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    ProofTask,
    Verdict,
    VerdictKind,
)

NOISE = "\ud800 \x00\x1b]52;c;aGk=\x07\x1b[2J\x9b31m\u202e"


class HostileFormaliser:
    name = "hostile"
    version = "1"

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        out = []
        for r in requests:
            if "NOAF" in r.text:
                out.append(Formalisation(r.key, self.name, FormalisationStatus.AF_FAIL,
                                         raw_output=NOISE, reason=f"the model said {NOISE}"))
                continue
            statement = f"theorem t : {r.text.split(':')[-1].strip()} := by sorry"
            out.append(Formalisation(r.key, self.name, FormalisationStatus.OK,
                                     statement=statement, raw_output=statement + NOISE))
        return out


class HostileProver(ArithProver):
    name = "hostile"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        return [replace(v, reason=f"the prover said {NOISE}")
                if v.kind is VerdictKind.INCONCLUSIVE else v for v in super().prove(tasks)]


@hookimpl
def afcheck_register_formalisers(register):  # type: ignore[no-untyped-def]
    register("hostile", lambda options: HostileFormaliser(), description="hostile formaliser")


@hookimpl
def afcheck_register_provers(register):  # type: ignore[no-untyped-def]
    register("hostile", lambda options: HostileProver(), description="hostile prover")
