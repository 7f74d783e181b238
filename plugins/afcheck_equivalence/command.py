"""``afcheck equiv REF CAND``: decide whether two Lean statements agree, and show how.

REF and CAND are Lean files (header lines, then the theorem) or ``-`` for standard input (one
of them). Prints the decision, the criterion, the alignment, every obligation with its verdict
and the reason; ``--json`` prints one JSON object. Exit status 0 whatever the decision; 2 on
unreadable input or a bad option.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import AfcheckError

__all__ = ["configure"]


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    parser.description = __doc__.split("\n\n")[0] if __doc__ else None
    parser.add_argument("reference", help="the reference statement: a Lean file, or -")
    parser.add_argument("candidate", help="the candidate statement: a Lean file, or -")
    parser.add_argument("--criterion", default="sae", help="criterion (default: sae)")
    parser.add_argument("--prover", default=None, help="prover for the obligations (smt)")
    parser.add_argument("--criterion-opt", action="append", default=[], metavar="K=V",
                        help="criterion option (repeatable)")
    parser.add_argument("--header", default="", help="header lines shared by both statements")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return _handle


def _read(source: str, stdin_used: list[bool]) -> str:
    if source == "-":
        if stdin_used:
            raise AfcheckError("only one of REF and CAND can be '-' (standard input)")
        stdin_used.append(True)
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise AfcheckError(f"{source}: no such file (give a Lean file or '-')")
    return path.read_text(encoding="utf-8")


def _options(pairs: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise AfcheckError(f"--criterion-opt {pair!r}: expected KEY=VALUE")
        options[key] = value
    return options


def _handle(args: argparse.Namespace) -> int:
    from afcheck.plugins import get_plugins
    from afcheck_equivalence.criterion import Criterion
    from afcheck_equivalence.decision import Pair

    try:
        used: list[bool] = []
        reference = _read(args.reference, used)
        candidate = _read(args.candidate, used)
        options = _options(args.criterion_opt)
        if args.prover is not None:
            options["prover"] = args.prover
        criterion: Criterion = get_plugins().create(  # type: ignore[assignment]
            "criterion", args.criterion, options)
        decision = criterion.decide([Pair("equiv", reference, candidate, args.header)])[0]
    except (AfcheckError, OSError, UnicodeDecodeError) as error:
        print(f"afcheck equiv: {error}", file=sys.stderr)
        return 2
    record = decision.to_json()
    if args.json:
        print(json.dumps(record, ensure_ascii=False))
        return 0
    print(f"{record['decision']}  ({record['criterion']}) {record['reason']}")
    if record["component"]:
        print(f"component: {record['component']}")
    if record["alignment"]:
        shown = ", ".join(f"{a['candidate']} ↦ {a['reference']}" for a in record["alignment"])
        print(f"alignment: {shown}")
    for obligation in record["obligations"]:
        print(f"  [{obligation['verdict']}] {obligation['role']}: {obligation['statement']}")
        if obligation.get("counterexample"):
            values = ", ".join(f"{k} = {v}" for k, v in obligation["counterexample"].items())
            print(f"      counterexample: {values}")
    if record["flags"]:
        print(f"flags: {', '.join(record['flags'])}")
    return 0
