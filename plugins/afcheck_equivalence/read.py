"""Read a Lean statement (with or without its header and proof) for a criterion."""

from __future__ import annotations

from dataclasses import dataclass

from afcheck.lean import ast as A

__all__ = ["ReadError", "Read", "read_statement"]


class ReadError(ValueError):
    """The text is not a statement the front end reads; ``str(error)`` is one line."""


@dataclass(frozen=True)
class Read:
    theorem: A.Theorem
    statement: str
    """The statement as extracted, ``:= by sorry``."""
    header: str
    """The pair's header and the statement's own header lines."""


def read_statement(text: str, header: str = "") -> Read:
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_theorem

    try:
        extracted = extract_statement(text)
        theorem = parse_theorem(extracted.statement)
    except (ExtractionError, ParseError) as error:
        raise ReadError(f"cannot read the statement: {error}") from None
    if extracted.auxiliary:
        raise ReadError("the statement depends on auxiliary definitions, which are not compared")
    full = "\n".join(filter(None, (header, extracted.header)))
    return Read(theorem, extracted.statement, full)
