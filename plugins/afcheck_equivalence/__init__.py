"""Built-in afcheck plugin: equivalence — the ``equivalence`` method, suite kind and report
view, the criteria ``sae``, ``logical``, ``syntactic``, ``beq-plus``, and ``afcheck equiv REF
CAND``."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from afcheck import hookimpl
from afcheck.registry import Kinds, Register, lazy


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    from afcheck_equivalence import hookspecs
    from afcheck_equivalence.kinds import CRITERION

    kinds.add(CRITERION, hookspecs)


@hookimpl
def afcheck_register_criteria(register: Register) -> None:
    register("sae", lazy("afcheck_equivalence.factories:make_sae"),
             description="structure-aware equivalence: aligned binders, premises ↔, conclusion ↔",
             details={"options": "prover (smt), cap (64), prover.K=V"})
    register("logical", lazy("afcheck_equivalence.factories:make_logical"),
             description="whole-statement T ↔ T' by the prover",
             details={"options": "prover (smt), prover.K=V"})
    register("syntactic", lazy("afcheck_equivalence.factories:make_syntactic"),
             description="equal after α-renaming and notation normalisation")
    register("beq-plus", lazy("afcheck_equivalence.factories:make_beq_plus"),
             description="BEq+ tactic cascade in Lean, both directions",
             details={"backend": "a lean_session (default repl: lean-interact)",
                      "options": "session (repl), and the session's Lean options"})


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    register("equivalence", lazy("afcheck_equivalence.method:Equivalence", takes_options=False),
             description="a criterion decides Eq / Noneq / Inconclusive for each (reference, "
             "candidate) pair; coverage, false-positive rate, Noneq rate vs gold labels")


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    register("equivalence",
             lazy("afcheck_equivalence.suite:EquivalenceSuite", takes_options=False),
             description="pairs of Lean statements with gold labels, one per line")


@hookimpl
def afcheck_register_views(register: Register) -> None:
    register("equivalence", lazy("afcheck_equivalence.view:EquivalenceView",
                                 takes_options=False),
             description="coverage, false-positive and Noneq rates per criterion, confusion "
             "against gold labels; each pair's alignment and obligations")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("equiv", _configure_equiv, description="decide whether two Lean statements agree")


def _configure_equiv(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_equivalence.command import configure

    return configure(parser)
