"""``afcheck prove STATEMENT``: decide one Lean statement and show how.

STATEMENT is Lean text, a file path, or ``-`` for standard input. Prints the parsed statement,
its negation, the verdict, the deciding backend and the evidence (``--json``: one JSON object).
Exit status 0 whatever the verdict; 2 on unreadable input or a bad option, with one line on
standard error. What is printed from the input is shown with its control characters escaped.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.fileio import stdin_bytes
from afcheck.options import add_component_options
from afcheck.printable import printable, printable_json
from afcheck.registry import PROVER
from afcheck.types import ProofTask, Verdict

MAX_INPUT_CHARS = 1_000_000
"""Longer input is refused before parsing: no statement is that long, and reading it would
take the front end a noticeable time for nothing."""


class _Unreadable(AfcheckError):
    """The input cannot be read as a statement; the message says why, in one line."""


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add the command's arguments to ``parser``; returns the handler."""
    parser.add_argument("statement", help="Lean text, a file path, or - for stdin")
    add_component_options(parser, "prover", "smt")
    parser.add_argument("--header", default="", help="header lines (open …) for the statement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return handle


def _read(source: str) -> str:
    """The statement text: standard input, the file ``source`` names, or ``source`` itself."""
    if source == "-":
        return _decode(stdin_bytes(MAX_INPUT_CHARS * 4 + 1), "standard input")
    path = _as_path(source)
    if path is None:
        if _names_a_file(source):
            raise _Unreadable(f"{_short(source)}: no such file")
        return source
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_INPUT_CHARS * 4 + 1)
    except OSError as exc:
        raise _Unreadable(f"{_short(source)}: {exc.strerror or exc}") from None
    return _decode(data, _short(source))


def _as_path(source: str) -> Path | None:
    """``source`` as a file path when it names an existing file; Lean text otherwise."""
    if "\n" in source or "\x00" in source or len(source) > 4096:
        return None
    try:
        path = Path(source)
        return path if path.is_file() else None
    except (OSError, ValueError):  # a name longer than the system allows is Lean text
        return None


def _names_a_file(source: str) -> bool:
    """A word with no spaces ending in ``.lean`` or containing a slash: a path, not Lean."""
    return not any(c.isspace() for c in source) and (
        source.endswith(".lean") or "/" in source or "\\" in source)


def _decode(data: bytes, origin: str) -> str:
    if len(data) > MAX_INPUT_CHARS * 4:
        raise _Unreadable(f"{origin} is over {MAX_INPUT_CHARS:,} characters; "
                          "pass one statement")
    if b"\x00" in data:
        raise _Unreadable(f"{origin} is a binary file, not Lean text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(f"{origin} is not UTF-8 text (invalid byte at offset {exc.start}); "
                          "save it as UTF-8") from None


def _short(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters, for quoting the input in a message."""
    text = printable(text, newlines=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
        if len(text) > MAX_INPUT_CHARS:
            raise _Unreadable(f"the statement is over {MAX_INPUT_CHARS:,} characters")
        extracted = extract_statement(text)
        theorem = parse_theorem(extracted.statement)
        parsed, negation = print_theorem(theorem), print_theorem(negate(theorem))
    except (_Unreadable, ExtractionError, ParseError) as error:
        return _fail(f"cannot read the statement: {error}")
    except (RecursionError, MemoryError) as error:
        return _fail(f"cannot read the statement: it is too large to parse "
                     f"({type(error).__name__})")
    except Exception as error:  # noqa: BLE001 - a front-end bug must still be one line
        detail = f": {error}" if str(error) else ""
        return _fail(f"cannot read the statement: the Lean front end failed on it "
                     f"({type(error).__name__}{detail}); please report it")
    try:
        from afcheck.plugins import get_plugins

        prover = get_plugins().create(PROVER, args.prover, args.prover_opt)
        header = "\n".join(filter(None, (args.header, extracted.header)))
        verdict = prover.prove([ProofTask("prove", extracted.statement, header)])[0]
    except AfcheckError as error:
        return _fail(str(error))
    if args.json:
        print(printable_json(_as_json(parsed, negation, verdict)))
    else:
        print(printable(_as_text(parsed, negation, verdict)))
    return 0


def _fail(message: str) -> int:
    print(f"afcheck prove: {_short(message, 400)}", file=sys.stderr)
    return 2


def _as_json(parsed: str, negation: str, verdict: Verdict) -> dict[str, object]:
    return {
        "statement": parsed,
        "negation": negation,
        "verdict": verdict.kind.value,
        "backend": verdict.backend,
        "certified": verdict.certified,
        "judged_by": verdict.judged_by,
        "unjudged": verdict.unjudged.value if verdict.unjudged is not None else None,
        "reason": verdict.reason,
        "evidence": verdict.evidence,
        "counterexample": dict(verdict.counterexample) if verdict.counterexample else None,
        "elapsed_s": round(verdict.elapsed_s, 6),
    }


def _standing(verdict: Verdict) -> str:
    if verdict.certified and verdict.judged_by:
        return f" (certified by the judge {verdict.judged_by})"
    if verdict.unjudged is not None:
        return f" (uncertified: the Lean REPL {verdict.unjudged.value} it, no judge certified it)"
    return "" if verdict.certified else " (not certified)"


def _as_text(parsed: str, negation: str, verdict: Verdict) -> str:
    lines = [
        f"statement: {parsed}",
        f"negation:  {negation}",
        f"verdict:   {verdict.kind.value}" + _standing(verdict),
        f"backend:   {verdict.backend}",
        f"reason:    {verdict.reason}",
    ]
    if verdict.evidence:
        lines.append(f"evidence:  {verdict.evidence}")
    return "\n".join(lines)


