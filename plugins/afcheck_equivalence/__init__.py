"""Built-in afcheck plugin: equivalence — criteria ``sae``, ``logical``, ``syntactic``,
``beq-plus`` and the ``afcheck equiv REF CAND`` command."""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_criteria(register: Register) -> None:
    from afcheck_equivalence.factories import make_beq_plus, make_logical, make_sae, make_syntactic

    register("sae", make_sae,
             description="structure-aware equivalence: aligned binders, premises ↔, conclusion ↔",
             details={"options": "prover (smt), cap (64), prover.K=V"})
    register("logical", make_logical, description="whole-statement T ↔ T' by the prover",
             details={"options": "prover (smt), prover.K=V"})
    register("syntactic", make_syntactic,
             description="equal after α-renaming and notation normalisation")
    register("beq-plus", make_beq_plus,
             description="BEq+ tactic cascade in Lean, both directions",
             details={"backend": "lean-interact"})


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("equiv", _equiv_command, description="decide whether two Lean statements agree")


def _equiv_command(argv: list[str]) -> int:
    import argparse

    from afcheck_equivalence.command import configure

    parser = argparse.ArgumentParser(prog="afcheck equiv")
    return configure(parser)(parser.parse_args(argv))
