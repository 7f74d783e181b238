"""``afcheck equiv REF CAND``: decide whether two Lean statements agree, and show how.

REF and CAND are each a Lean file (header lines, then the theorem), a statement string
(``'theorem t (x : ℕ) : x + 0 = x'``, as ``afcheck prove`` takes) or ``-`` for standard input
(one of them). The pair is decided under the method's pair limit (``--budget
equivalence.pair.seconds=N``, ``memory_mb``; 60 s and 4,096 MiB unless changed), in a worker
process as a run decides it. Prints the decision, the criterion, the binder map, every
obligation with its verdict and how it was discharged (the backend and its reason), and the
reason; ``--json`` prints one JSON object. Exit status 0 whatever the decision; 2 on
unreadable input or a bad option.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import AfcheckError

__all__ = ["configure"]


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck.options import add_component_options

    parser.description = ("Decide whether two Lean statements agree and show how: the decision "
                          "(Eq, Noneq, Inconclusive), the binder alignment, every obligation "
                          "with its verdict, the reason.")
    parser.add_argument("reference",
                        help="the reference statement: a Lean file, a statement string, or -")
    parser.add_argument("candidate",
                        help="the candidate statement: a Lean file, a statement string, or -")
    add_component_options(parser, "criterion", "sae")
    add_component_options(parser, "prover", "smt",
                          help="the prover the obligations go to (default: smt)")
    parser.add_argument("--header", default="", help="header lines shared by both statements")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--budget", action="append", default=[], metavar="KEY=VALUE",
                        help="change the pair limit: equivalence.pair.seconds=N or "
                             "equivalence.pair.memory_mb=N (default 60 s, 4096 MiB)")
    return _handle


def _read(source: str, stdin_used: list[bool]) -> str:
    if source == "-":
        if stdin_used:
            raise AfcheckError("only one of REF and CAND can be '-' (standard input)")
        stdin_used.append(True)
        return sys.stdin.read()
    if len(source) < 4096 and Path(source).is_file():
        return Path(source).read_text(encoding="utf-8")
    if _STATEMENT.search(source):
        return source
    raise AfcheckError(f"{source}: no such file, and not a statement (give a Lean file, a "
                       "statement 'theorem t … : …', or '-')")


_STATEMENT = re.compile(r"\b(theorem|lemma|example)\b")


def _handle(args: argparse.Namespace) -> int:
    from afcheck.budget import resolve
    from afcheck.method import Choice
    from afcheck.plugins import get_plugins
    from afcheck.runtime import Components
    from afcheck_equivalence.kinds import CRITERION
    from afcheck_equivalence.limit import limit_for
    from afcheck_equivalence.method import Equivalence
    from afcheck_equivalence.records import Pair

    try:
        used: list[bool] = []
        reference = _read(args.reference, used)
        candidate = _read(args.candidate, used)
        options = dict(args.criterion_opt)
        options.setdefault("prover", args.prover)
        options.update({f"prover.{k}": v for k, v in args.prover_opt.items()})
        budget = resolve({"equivalence": Equivalence.budgets},
                         args.budget)["equivalence"]["pair"]
        components = Components(get_plugins())
        try:
            criterion = components.get(CRITERION, Choice.of(args.criterion, options)).component
            limit = limit_for(components, criterion, args.criterion, budget,
                              asked=budget != Equivalence.budgets["pair"])
            pair = [Pair("equiv", reference, candidate, args.header)]
            try:
                decision = (criterion.decide(pair) if limit is None else limit.decide(pair))[0]
            finally:
                if limit is not None:
                    limit.close()
        finally:
            components.close()
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
        print(f"binder map (candidate ↦ reference): {shown}")
    elif record["decision"] == "Eq":
        print("binder map (candidate ↦ reference): none (no object binders)")
    if record["obligations"]:
        print("obligations:")
    for obligation in record["obligations"]:
        print(f"  [{obligation['verdict']}] {obligation['role']}: {obligation['statement']}")
        if obligation["verdict"] is not None:
            how = obligation.get("backend") or "?"
            reason = obligation.get("reason") or ""
            print(f"      by {how}{': ' + reason if reason else ''}")
        if obligation.get("counterexample"):
            values = ", ".join(f"{k} = {v}" for k, v in obligation["counterexample"].items())
            print(f"      counterexample: {values}")
    if record["flags"]:
        print(f"flags: {', '.join(record['flags'])}")
    return 0
