"""Built-in afcheck plugin: literal, the rule-based formaliser for arithmetic claims."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck import hookimpl

if TYPE_CHECKING:
    from afcheck.registry import Register
    from afcheck_literal.formaliser import LiteralFormaliser


@hookimpl
def afcheck_register_formalisers(register: Register) -> None:
    register(
        "literal",
        _make_formaliser,
        description="rule-based: writes a step's arithmetic claims as read, never corrects",
        details={"backend": "rules", "fragment": "arithmetic over ℚ/ℝ"},
    )


def _make_formaliser(options: dict[str, str]) -> LiteralFormaliser:
    from afcheck.errors import UsageError
    from afcheck_literal.formaliser import LiteralFormaliser

    if options:
        unknown = ", ".join(sorted(options))
        raise UsageError(f"formaliser 'literal' takes no options (got: {unknown})")
    return LiteralFormaliser()
