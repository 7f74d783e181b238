"""Built-in components that need no backend: the ``given`` perturber and the ``none`` checker;
and the commands ``afcheck prove`` (decide one statement with any prover) and ``afcheck
perturb`` (perturb one step with any perturber)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_perturbers(register: Register) -> None:
    from afcheck_basic.given import GivenPerturber

    register("given", lambda options: GivenPerturber(variant=options.get("variant")),
             description="the perturbation written in the suite's data")


@hookimpl
def afcheck_register_checkers(register: Register) -> None:
    from afcheck_basic.given import NoChecker

    register("none", lambda options: NoChecker(),
             description="accept every extracted statement (no type-checking)")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("prove", _configure_prove,
             description="decide one Lean statement and show the verdict and its evidence")
    register("perturb", _configure_perturb,
             description="perturb one step with a perturber and show the edit")


def _configure_prove(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_basic.prove import configure

    return configure(parser)


def _configure_perturb(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_basic.perturb import configure

    return configure(parser)
