"""Built-in afcheck plugin: chains — multi-step ATP verification of reasoning chains (MATP).

A reasoning chain over premises is formalised into first-order logic and every step is
labelled by a theorem prover (True / False / Unknown / Error); the proof path and the chain's
class T1–T4 / F1–F2 follow the seed's Algorithms 1–3 (see :mod:`afcheck_chains.method`).

Registered here: the method and suite kind ``chains``, the FOL provers ``eprover`` and
``z3-fol``, the options ``--chain-formaliser`` / ``--chain-formaliser-opt``, and the command
``afcheck chains generate`` (the rebuilt T1–T4 classification set).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck_chains.evaluation import ChainsMethod, ChainsSuite
    from afcheck_chains.provers import FolProver


def _method(options: Mapping[str, str]) -> ChainsMethod:
    from afcheck_fol import require

    require()
    from afcheck_chains.evaluation import ChainsMethod

    return ChainsMethod()


def _suite(options: Mapping[str, str]) -> ChainsSuite:
    from afcheck_fol import require

    require()
    from afcheck_chains.evaluation import ChainsSuite

    return ChainsSuite()


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    register("chains", _method,
             description="formalise a reasoning chain, label each step with a FOL prover, "
             "proof path and class T1–T4/F1–F2 (MATP)")


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    register("chains", _suite,
             description="reasoning chains: ProofWriter, PrOntoQA, FOLIO, recorded responses, "
             "the rebuilt classification set")


def _eprover(options: Mapping[str, str]) -> FolProver:
    from afcheck_chains.provers import make_eprover

    return make_eprover(options)


def _z3_fol(options: Mapping[str, str]) -> FolProver:
    from afcheck_chains.provers import make_z3_fol

    return make_z3_fol(options)


@hookimpl
def afcheck_register_fol_provers(register: Register) -> None:
    register("eprover", _eprover,
             description="E prover, complete strategy (no SInE); SZS statuses; CPU/wall limits",
             details={"install": "pip install 'afcheck[fol]'",
                      "options": "cpu_limit_s (10), wall_limit_s, memory_mb (2048), jobs, binary"})
    register("z3-fol", _z3_fol,
             description="z3 over an uninterpreted sort; unsat of axioms ∧ ¬goal is Theorem",
             details={"install": "pip install 'afcheck[fol]'", "options": "timeout_ms (5000)"})


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--chain-formaliser", metavar="NAME", section="components",
                    help="chains method: NL→FOL of whole chains: rules, reference or llm "
                    "(default: the suite's, else rules)")
    group.addoption("--chain-formaliser-opt", action="append", default=[],
                    metavar="K=V[,K=V…]", section="components",
                    help="chain formaliser option(s), repeatable (llm: model=…, base_url=…)")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("chains", _configure_chains,
             description="chains method tools: generate the T1–T4 classification set")


def _configure_chains(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_chains.classification import configure

    return configure(parser)
