"""Built-in afcheck plugin: regex, the templated perturber of FaithformBench App. C.

The numerals it shifts and the math spans it edits in are read by :mod:`afcheck_arith` (a
plain package, imported), as its judge's claims are."""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register, lazy


@hookimpl
def afcheck_register_perturbers(register: Register) -> None:
    register(
        "regex",
        lazy("afcheck_regex.perturber:make_perturber"),
        description="shift the rightmost number or swap an operator; else negate; else prefix",
        details={"options": "prefer=random|number|operator, judge=true|false"},
    )
