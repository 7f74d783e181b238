"""The ``reference`` formaliser: hand-written faithful statements stored in a suite.

It is the oracle of the pipeline: with a sound prover it can only score FNR = FPR = 0.
"""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_formalisers(register: Register) -> None:
    from afcheck_reference.reference import ReferenceFormaliser

    register("reference", lambda options: ReferenceFormaliser(),
             description="the suite's hand-written Lean statements (lean.original/perturbed)",
             details={"backend": "suite data"})
