"""How much of a set of Lean statements the front end reads: parse, round-trip, SMT fragment."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Coverage:
    total: int
    parsed: int
    round_trip: int
    in_fragment: int

    def line(self) -> str:
        return (
            f"{self.total} statements: {self.parsed} parse, {self.round_trip} round-trip, "
            f"{self.in_fragment} inside the SMT fragment"
        )


def measure(statements: Iterable[tuple[str, str]]) -> Coverage:
    """Coverage of ``(statement, header)`` pairs."""
    from afcheck.lean.elaborate import Unsupported, elaborate
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_theorem
    from afcheck.lean.printer import print_theorem

    total = parsed = round_trip = in_fragment = 0
    for text, header in statements:
        total += 1
        try:
            theorem = parse_theorem(extract_statement(text).statement)
        except (ExtractionError, ParseError):
            continue
        parsed += 1
        try:
            round_trip += parse_theorem(print_theorem(theorem)) == theorem
        except ParseError:
            pass
        try:
            elaborate(theorem, header)
            in_fragment += 1
        except Unsupported:
            pass
    return Coverage(total, parsed, round_trip, in_fragment)
