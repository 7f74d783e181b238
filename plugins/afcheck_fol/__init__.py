"""Built-in afcheck plugin: fol — the first-order language every FOL method uses: formulas,
the languages Tarski's World and FOLIO with their parsers and syntax-error taxonomy, printers
(FOLIO text, TPTP), z3 equivalence under background theories, tree edit distance, FOLIO's
reader, provers; the ``afcheck fol equiv`` command. It knows no method: the ``nl2fol`` method
(:mod:`afcheck_nl2fol`) and the ``chains`` method (:mod:`afcheck_chains`) use it.

Declared here: the kinds ``fol_formaliser`` (``--fol-formaliser``, else the model of
``--formaliser``) and ``fol_prover`` (``--fol-prover``).
Registered here: the FOL formalisers ``reference``, ``replay``, ``llm`` and the presets, the
FOL provers ``eprover`` and ``z3-fol``, and the command ``afcheck fol``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.errors import MissingDependency
from afcheck.registry import Kinds, Register, lazy

if TYPE_CHECKING:
    from afcheck.budget import Budget
    from afcheck_fol.provers import FolProver


def require() -> None:
    """Stop with one line naming the install command when a FOL dependency is missing."""
    import importlib.util

    for module, package in (("lark", "lark"), ("z3", "z3-solver")):
        if importlib.util.find_spec(module) is None:
            raise MissingDependency("fol", package, "pip install 'afcheck[fol]'")


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    from afcheck_fol import hookspecs
    from afcheck_fol.kinds import FOL_FORMALISER, FOL_FORMALISER_MODEL, FOL_PROVER

    kinds.add(FOL_FORMALISER, hookspecs, model=FOL_FORMALISER_MODEL)
    kinds.add(FOL_PROVER, hookspecs)


@hookimpl
def afcheck_register_fol_formalisers(register: Register) -> None:
    register("reference", lazy("afcheck_fol.formalisers:make_reference"),
             description="the data's own FOL (gold=N: the N-th alternative); scores 100% "
             "where the data has FOL for every sentence (FOLIO's training split has none for "
             "its conclusions: use a model there)",
             details={"options": "gold (0)"})
    register("replay", lazy("afcheck_fol.formalisers:make_replay"),
             description="recorded model outputs: {\"id\", \"output\"} a line, or a recorded "
             "suite's lines (their \"translation\", keyed by model and id)",
             details={"options": "path=FILE"})
    from afcheck.llm.options import VOLATILE
    from afcheck_fol.presets import PRESETS

    for preset in PRESETS.values():
        # A stage's seconds: one request's deadline, retries included (HTTP only), as
        # for the Lean formaliser presets; the options that change no kept reply are left
        # out of the fingerprint, as theirs are.
        register(preset.name, _preset(preset.name), description=preset.description,
                 details={"backend": "vllm|http", "model": preset.model or "(model=…)"},
                 budget=_request_budget, volatile=VOLATILE)


def _preset(name: str) -> Callable[[Mapping[str, str]], object]:
    def build(options: Mapping[str, str]) -> object:
        require()
        from afcheck_fol.formalisers import make_preset

        return make_preset(name, options)

    return build


def _request_budget(budget: Budget, options: Mapping[str, str]) -> Mapping[str, str]:
    from afcheck.llm.options import request_budget

    return request_budget(budget, options)


def _eprover(options: Mapping[str, str]) -> FolProver:
    from afcheck_fol.provers import make_eprover

    return make_eprover(options)


def _z3_fol(options: Mapping[str, str]) -> FolProver:
    from afcheck_fol.provers import make_z3_fol

    return make_z3_fol(options)


def _eprover_budget(budget: Budget, options: Mapping[str, str]) -> Mapping[str, str]:
    from afcheck_fol.provers import eprover_budget

    return eprover_budget(budget, options)


def _z3_fol_budget(budget: Budget, options: Mapping[str, str]) -> Mapping[str, str]:
    from afcheck_fol.provers import z3_fol_budget

    return z3_fol_budget(budget, options)


@hookimpl
def afcheck_register_fol_provers(register: Register) -> None:
    register("eprover", _eprover,
             description="E prover, complete strategy (no SInE); SZS statuses; CPU/wall limits",
             details={"install": "pip install 'afcheck[fol]'",
                      "options": "cpu_limit_s (10), wall_limit_s, memory_mb (2048), jobs, binary"},
             budget=_eprover_budget,
             volatile=("jobs",))  # provers in parallel: the same answer for each problem
    register("z3-fol", _z3_fol,
             description="z3 over an uninterpreted sort; unsat of axioms ∧ ¬goal is Theorem",
             details={"install": "pip install 'afcheck[fol]'", "options": "timeout_ms (5000)"},
             budget=_z3_fol_budget)


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("fol", _configure_fol,
             description="first-order logic: `afcheck fol equiv A B` decides equivalence")


def _configure_fol(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    require()
    from afcheck_fol.command import configure

    return configure(parser)
