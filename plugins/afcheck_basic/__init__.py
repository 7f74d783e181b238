"""Built-in components that need no backend: the ``given`` perturber and the ``none`` checker."""

from __future__ import annotations

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
