"""``afcheck prove STATEMENT``: decide one Lean statement and show how.

STATEMENT is Lean text, a file path, or ``-`` for standard input. Prints the parsed statement,
its negation, the verdict, the deciding backend and the evidence (``--json``: one JSON object).
Exit status 0 whatever the verdict; 2 on unreadable input or a bad option.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.options import add_component_options
from afcheck.registry import PROVER
from afcheck.types import ProofTask, Verdict


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add the command's arguments to ``parser``; returns the handler."""
    parser.add_argument("statement", help="Lean text, a file path, or - for stdin")
    add_component_options(parser, "prover", "smt")
    parser.add_argument("--header", default="", help="header lines (open …) for the statement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return handle


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    if "\n" not in source and len(source) < 4096 and Path(source).is_file():
        return Path(source).read_text(encoding="utf-8")
    return source


def main(argv: list[str]) -> int:
    """Run the command with its arguments as a list; returns the exit status."""
    parser = argparse.ArgumentParser(prog="afcheck prove", description=__doc__)
    return configure(parser)(parser.parse_args(argv))


def handle(args: argparse.Namespace) -> int:
    """Run the command; returns the exit status."""
    from afcheck.lean import (
        ExtractionError,
        ParseError,
        extract_statement,
        negate,
        parse_theorem,
        print_theorem,
    )

    try:
        text = _read(args.statement)
        extracted = extract_statement(text)
        theorem = parse_theorem(extracted.statement)
    except (ExtractionError, ParseError, OSError) as error:
        print(f"afcheck prove: cannot read the statement: {error}", file=sys.stderr)
        return 2
    try:
        from afcheck.plugins import get_plugins

        prover = get_plugins().create(PROVER, args.prover, args.prover_opt)
        header = "\n".join(filter(None, (args.header, extracted.header)))
        verdict = prover.prove([ProofTask("prove", extracted.statement, header)])[0]
    except AfcheckError as error:
        print(f"afcheck prove: {error}", file=sys.stderr)
        return 2
    parsed, negation = print_theorem(theorem), print_theorem(negate(theorem))
    if args.json:
        print(json.dumps(_as_json(parsed, negation, verdict), ensure_ascii=False))
    else:
        print(_as_text(parsed, negation, verdict))
    return 0


def _as_json(parsed: str, negation: str, verdict: Verdict) -> dict[str, object]:
    return {
        "statement": parsed,
        "negation": negation,
        "verdict": verdict.kind.value,
        "backend": verdict.backend,
        "certified": verdict.certified,
        "reason": verdict.reason,
        "evidence": verdict.evidence,
        "counterexample": dict(verdict.counterexample) if verdict.counterexample else None,
        "elapsed_s": round(verdict.elapsed_s, 6),
    }


def _as_text(parsed: str, negation: str, verdict: Verdict) -> str:
    lines = [
        f"statement: {parsed}",
        f"negation:  {negation}",
        f"verdict:   {verdict.kind.value}"
        + ("" if verdict.certified else " (not kernel-certified)"),
        f"backend:   {verdict.backend}",
        f"reason:    {verdict.reason}",
    ]
    if verdict.evidence:
        lines.append(f"evidence:  {verdict.evidence}")
    return "\n".join(lines)
