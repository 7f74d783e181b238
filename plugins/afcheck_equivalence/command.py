"""``afcheck equiv REF CAND``: decide whether two Lean statements agree, and show how.

REF and CAND are each a Lean file (header lines, then the theorem), a statement string
(``'theorem t (x : ℕ) : x + 0 = x'``, as ``afcheck prove`` takes) or ``-`` for standard input
(one of them). One pair is decided in this process (starting a worker would cost more than
most pairs take), under the pair limit's seconds (60 s; an alarm stops it, and the pair is
Inconclusive, ``time limit: …``); ``--budget equivalence.pair.seconds=N`` or ``memory_mb``
decides it in a worker process as a run does, the memory limit included. Prints the
decision, the kind of evidence of a Noneq (``refuted``, ``structural``), the criterion, the
binder map, every obligation with its verdict and how it was discharged (the backend and its
reason), and the reason, each reason cut at :data:`SHOWN` characters (``--json`` prints one
JSON object, whole). Exit status 0 whatever the decision; 2 on unreadable input or a bad
option.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from afcheck.errors import AfcheckError
from afcheck.runtime.alarm import alarm

if TYPE_CHECKING:
    from afcheck_equivalence.records import Decision, Pair

__all__ = ["SHOWN", "configure"]

SHOWN = 400
"""The most characters of one reason the terminal shows; ``--json`` has them all."""

_CHECKS = {"vacuity": ("vacuous: premises inconsistent", "premises satisfiable"),
           "reference conclusion holds": ("holds everywhere", "not constant"),
           "reference conclusion fails": ("fails everywhere", "not constant"),
           "reference premises hold": ("hold everywhere", "not constant")}
"""Obligations that check a side condition, by the start of their role: what a proof and a
refutation of each mean, shown instead of ``proved``/``refuted`` (a satisfiable set of
premises is the expected answer, not a refutation of the pair)."""


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
            asked = budget != Equivalence.budgets["pair"]
            limit = limit_for(components, criterion, args.criterion, budget, asked=True) \
                if asked else None
            pair = [Pair("equiv", reference, candidate, args.header)]
            try:
                if limit is not None:
                    decision = limit.decide(pair)[0]
                else:
                    decision = _in_process(criterion.decide, pair, args.criterion,
                                           budget.seconds)
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
    evidence = f" [{record['evidence']}]" if record.get("evidence") else ""
    print(f"{record['decision']}{evidence}  ({record['criterion']}) {_cap(record['reason'])}")
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
        print(f"  [{_label(obligation)}] {obligation['role']}: {obligation['statement']}")
        if obligation["verdict"] is not None:
            how = obligation.get("backend") or "?"
            reason = _cap(obligation.get("reason") or "")
            print(f"      by {how}{': ' + reason if reason else ''}")
        if obligation.get("counterexample"):
            values = ", ".join(f"{k} = {v}" for k, v in obligation["counterexample"].items())
            print(f"      counterexample: {values}")
    if record["flags"]:
        print(f"flags: {', '.join(record['flags'])}")
    return 0


def _cap(text: str) -> str:
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN]}… ({len(text) - SHOWN:,} more characters; --json shows all)"


def _label(obligation: dict[str, object]) -> str:
    """``proved``/``refuted``, or what the answer means for a side-condition check."""
    verdict = obligation["verdict"]
    role = str(obligation["role"])
    for start, (proved, refuted) in _CHECKS.items():
        if role.startswith(start):
            if verdict == "proved":
                return f"check: {proved}"
            if verdict == "refuted":
                return f"check: {refuted}"
            return f"check: {verdict or 'not asked'}"
    return str(verdict)


class _PairTimeout(Exception):
    pass


def _in_process(decide: Callable[[Sequence[Pair]], list[Decision]], pair: list[Pair],
                name: str, seconds: float | None) -> Decision:
    """The pair decided here, stopped at ``seconds`` (Inconclusive, never cached)."""
    from afcheck_equivalence.limit import TIME_LIMIT
    from afcheck_equivalence.records import Inconclusive

    try:
        with alarm(seconds, _PairTimeout):
            return decide(pair)[0]
    except _PairTimeout:
        return Inconclusive(name, f"{TIME_LIMIT}: no decision within {seconds:g} s (--budget "
                            "equivalence.pair.seconds); the pair was stopped", transient=True)
