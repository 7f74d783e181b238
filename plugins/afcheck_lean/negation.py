"""The negated statement, from the Lean front end (:mod:`afcheck.lean`).

The paper's negation: ¬(∀ params, body) when the statement has parameters, ¬body
otherwise, as a new ``theorem … := by sorry``. Provers take the negation function as a
parameter so that it can be replaced (tests, other front ends).
"""

from __future__ import annotations

from collections.abc import Callable

Negate = Callable[[str], str]
"""Statement text → negated statement text; raises :class:`NegationError`."""


class NegationError(ValueError):
    """The statement could not be negated (the reason is the message)."""


def front_end_negation(statement: str) -> str:
    """Negate through ``afcheck.lean.parse_theorem`` / ``negate`` / ``print_theorem``."""
    try:
        from afcheck.lean import negate, parse_theorem, print_theorem
    except ImportError:
        raise NegationError("the Lean front end (afcheck.lean) cannot negate statements") from None
    try:
        return str(print_theorem(negate(parse_theorem(statement))))
    except Exception as exc:  # noqa: BLE001 - any parse failure makes refutation unavailable
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise NegationError(f"cannot negate the statement: {first}") from None
