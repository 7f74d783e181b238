"""``afcheck prove STATEMENT``: decide one Lean statement and show how.

STATEMENT is Lean text, a file path, or ``-`` for standard input. Prints the parsed statement,
its negation, the verdict, the deciding backend and the evidence (``--json``: one JSON object).
Exit status 0 whatever the verdict; 2 on unreadable input or a bad option.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.options import parse_kv
from afcheck.registry import PROVER
from afcheck.types import ProofTask, Verdict


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="afcheck prove", description=__doc__)
    parser.add_argument("statement", help="Lean text, a file path, or - for stdin")
    parser.add_argument("--prover", default="smt", help="prover to use (default: smt)")
    parser.add_argument(
        "--prover-opt", action="append", default=[], metavar="K=V", help="prover option"
    )
    parser.add_argument("--header", default="", help="header lines (open …) for the statement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    if "\n" not in source and len(source) < 4096 and Path(source).is_file():
        return Path(source).read_text(encoding="utf-8")
    return source


def main(argv: list[str]) -> int:
    """Run the command; returns the exit status."""
    from afcheck.lean import (
        ExtractionError,
        ParseError,
        extract_statement,
        negate,
        parse_theorem,
        print_theorem,
    )

    args = _parser().parse_args(argv)
    try:
        text = _read(args.statement)
        extracted = extract_statement(text)
        theorem = parse_theorem(extracted.statement)
    except (ExtractionError, ParseError, OSError) as error:
        print(f"afcheck prove: cannot read the statement: {error}", file=sys.stderr)
        return 2
    try:
        from afcheck.plugins import get_plugins

        prover = get_plugins().create(PROVER, args.prover, parse_kv(args.prover_opt, "prover"))
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
