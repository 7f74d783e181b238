"""The Lean 4 statement front end: extraction, parsing, printing, negation, elaboration.

``extract_statement`` finds the statement in model output, ``parse_theorem`` reads it into
:mod:`afcheck.lean.ast`, ``print_theorem`` writes it back, ``negate`` builds the negated
statement, and :func:`afcheck.lean.elaborate.elaborate` types the arithmetic fragment.
"""

from __future__ import annotations

from afcheck.lean.ast import Theorem
from afcheck.lean.extract import Extracted, ExtractionError, extract_statement
from afcheck.lean.lexer import ParseError
from afcheck.lean.negate import negate
from afcheck.lean.parser import parse_expr, parse_theorem
from afcheck.lean.printer import print_expr, print_theorem

__all__ = [
    "Extracted",
    "ExtractionError",
    "ParseError",
    "Theorem",
    "extract_statement",
    "negate",
    "parse_expr",
    "parse_theorem",
    "print_expr",
    "print_theorem",
]
