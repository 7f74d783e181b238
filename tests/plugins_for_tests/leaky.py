"""A test plugin whose formaliser writes every option it was given into what it records: the
raw output, the reason of an AF-Fail and the statement's comment. A component with such a new
field must still leak no credential into any output; the run's boundary redacts it.

- formaliser ``leaky``: like ``arith`` (the step's claim after the last ``:``), with
  ``options: k=v, …`` in its raw output; a step containing ``NOAF`` is AF-Fail with the same
  text in its reason. Its label shows ``model`` and ``base_url`` as a model's does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from afcheck import hookimpl
from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest


class LeakyFormaliser:
    name = "leaky"
    version = "1"

    def __init__(self, options: Mapping[str, str]) -> None:
        self.echo = "options: " + ", ".join(f"{k}={v}" for k, v in sorted(options.items()))

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        out = []
        for r in requests:
            if "NOAF" in r.text:
                out.append(Formalisation(r.key, self.name, FormalisationStatus.AF_FAIL,
                                         raw_output=self.echo, reason=f"failed ({self.echo})"))
                continue
            statement = f"theorem t : {r.text.split(':')[-1].strip()} := by sorry"
            out.append(Formalisation(r.key, self.name, FormalisationStatus.OK,
                                     statement=statement, raw_output=f"{statement}\n{self.echo}"))
        return out


@hookimpl
def afcheck_register_formalisers(register):  # type: ignore[no-untyped-def]
    register("leaky", lambda options: LeakyFormaliser(options),
             description="echoes its options into its records")
