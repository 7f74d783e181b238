"""Built-in afcheck plugin: chains — multi-step ATP verification of reasoning chains (MATP).

A reasoning chain over premises is formalised into first-order logic and every step is
labelled by a theorem prover (True / False / Unknown / Error); the proof path and the chain's
class T1–T4 / F1–F2 follow the seed's Algorithms 1–3 (see :mod:`afcheck_chains.pipeline`).

Registered here: the method and suite kind ``chains`` and its report view, the FOL
formaliser ``rules`` (the controlled-English translator), and the command ``afcheck chains
generate`` (the rebuilt T1–T4 classification set). The chain is formalised by the run's
``fol_formaliser`` and proved by its ``fol_prover`` (kinds of the ``fol`` plugin).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register, lazy

if TYPE_CHECKING:
    from afcheck_chains.method import ChainsMethod
    from afcheck_chains.suite import ChainsSuite


def _method(options: Mapping[str, str]) -> ChainsMethod:
    from afcheck_fol import require

    require()
    from afcheck_chains.method import ChainsMethod

    return ChainsMethod()


def _suite(options: Mapping[str, str]) -> ChainsSuite:
    from afcheck_fol import require

    require()
    from afcheck_chains.suite import ChainsSuite

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


@hookimpl
def afcheck_register_views(register: Register) -> None:
    register("chains", lazy("afcheck_chains.view:ChainsView", takes_options=False),
             description="class table T1–T4/F1–F2, expected-class accuracy, step-label "
             "macro-F1; each chain's steps with their labels and the proof path")


@hookimpl
def afcheck_register_fol_formalisers(register: Register) -> None:
    register("rules", lazy("afcheck_chains.formalise:make_rules"),
             description="controlled-English translator of PrOntoQA and ProofWriter sentences "
             "(offline, deterministic)")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("chains", _configure_chains,
             description="chains method tools: generate the T1–T4 classification set")


def _configure_chains(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_chains.classification import configure

    return configure(parser)
