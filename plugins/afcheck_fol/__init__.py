"""Built-in afcheck plugin: fol — first-order languages (Tarski's World, FOLIO), their parsers
and syntax-error taxonomy, z3 equivalence under background theories, tree edit distance; the
``nl2fol`` evaluation method and suite kind; the ``afcheck fol equiv`` command.

Registered here: the method and suite kind ``nl2fol``, the options ``--nl2fol-formaliser``,
``--nl2fol-formaliser-opt`` and ``--nl2fol-theory``, and the command ``afcheck fol``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.errors import MissingDependency
from afcheck.registry import Register

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck_fol.method import Nl2FolMethod, Nl2FolSuite


def require() -> None:
    """Stop with one line naming the install command when a FOL dependency is missing."""
    import importlib.util

    for module, package in (("lark", "lark"), ("zss", "zss"), ("z3", "z3-solver")):
        if importlib.util.find_spec(module) is None:
            raise MissingDependency("fol", package, "pip install 'afcheck[fol]'")


def _method(options: Mapping[str, str]) -> Nl2FolMethod:
    require()
    from afcheck_fol.method import Nl2FolMethod

    return Nl2FolMethod()


def _suite(options: Mapping[str, str]) -> Nl2FolSuite:
    require()
    from afcheck_fol.method import Nl2FolSuite

    return Nl2FolSuite()


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    register("nl2fol", _method,
             description="NL→FOL: parse (syntax-error class), nearest gold by tree edit "
             "distance, z3 equivalence under a background theory")


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    register("nl2fol", _suite,
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
    require()
    from afcheck_fol.command import configure

    return configure(parser)
