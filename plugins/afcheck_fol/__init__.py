"""Built-in afcheck plugin: fol — first-order languages (Tarski's World, FOLIO), their parsers
and syntax-error taxonomy, z3 equivalence under background theories, tree edit distance; the
``nl2fol`` evaluation method and suite kind; the ``afcheck fol equiv`` command.

Registered here: the method and suite kind ``nl2fol``, the options ``--nl2fol-formaliser``,
``--nl2fol-formaliser-opt`` and ``--nl2fol-theory``, and the command ``afcheck fol``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register

if TYPE_CHECKING:
    from afcheck.options import OptionGroup


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    from afcheck_fol.method import Nl2FolMethod

    register("nl2fol", lambda options: Nl2FolMethod(),
             description="NL→FOL: parse (syntax-error class), nearest gold by tree edit "
             "distance, z3 equivalence under a background theory")


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    from afcheck_fol.method import Nl2FolSuite

    register("nl2fol", lambda options: Nl2FolSuite(),
             description="sentences with gold FOL formulas (jsonl written for afcheck, or "
             "FOLIO's premises)")


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--nl2fol-formaliser", metavar="NAME", section="components",
                    help="nl2fol method: where candidates come from: reference, replay, "
                    "nl2fol-llama, nl2fol-gemma, nl2fol-folio (default: the suite's, else "
                    "reference)")
    group.addoption("--nl2fol-formaliser-opt", action="append", default=[],
                    metavar="K=V[,K=V…]", section="components",
                    help="nl2fol formaliser option(s), repeatable (replay: path=FILE; "
                    "LLM presets: model=…, base_url=…)")
    group.addoption("--nl2fol-theory", metavar="NAME", section="components",
                    help="nl2fol method: background theory of the equivalence check (none, "
                    "converse, shapes, analytic for Tarski's World; default: the suite's, "
                    "else the language's)")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("fol", _configure_fol,
             description="first-order logic: `afcheck fol equiv A B` decides equivalence")


def _configure_fol(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_fol.command import configure

    return configure(parser)
