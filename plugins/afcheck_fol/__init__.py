"""Built-in afcheck plugin: fol — first-order languages (Tarski's World, FOLIO), their parsers
and syntax-error taxonomy, z3 equivalence under background theories, tree edit distance, and the
``afcheck fol equiv`` command. The ``nl2fol`` evaluation method is built on these."""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("fol", _fol_command,
             description="first-order logic: `afcheck fol equiv A B` decides equivalence")


def _fol_command(argv: list[str]) -> int:
    from afcheck_fol.command import old_api_command

    return old_api_command(argv)
