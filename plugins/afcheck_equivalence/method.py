"""The ``equivalence`` evaluation method, as plain functions the runner wires in.

Suite kind ``equivalence``: a JSON-lines file, one item per line::

    {"id": "…", "informal": "…", "header": "import Mathlib …", "reference": "theorem …",
     "candidate": "theorem …" | null, "gold": "equivalent" | "inequivalent" | null,
     "group": "…", "source": "…"}

``reference`` is required; without ``candidate`` the run's formaliser writes it from
``informal`` (:func:`formalise_missing`). Test outcome (:func:`outcome`): passed when the
criterion's decision matches the gold label (Eq for ``equivalent``, Noneq for
``inequivalent``), or, without gold, when it is Eq; failed on a mismatch, with the evidence;
skipped on Inconclusive, with the reason. Metrics (:func:`summarise`) per criterion: coverage
(Eq rate on gold-equivalent items), false-positive rate (Eq rate on gold-inequivalent items),
Noneq rate, and the confusion table, each rate with its 95 % Wilson interval.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from afcheck.components import Formaliser
from afcheck.errors import LoadError
from afcheck.metrics import Interval, wilson
from afcheck.types import Location
from afcheck_equivalence.criterion import Criterion
from afcheck_equivalence.decision import Decision, DecisionKind, Pair

__all__ = ["Item", "Rate", "Result", "Summary", "decide", "load", "outcome", "summarise"]

GOLD = ("equivalent", "inequivalent")


@dataclass(frozen=True)
class Item:
    id: str
    reference: str
    header: str = ""
    informal: str = ""
    candidate: str | None = None
    gold: str | None = None
    group: str = ""
    source: Location | None = None


@dataclass(frozen=True)
class Result:
    item: Item
    candidate: str | None
    decision: Decision


@dataclass(frozen=True)
class ItemOutcome:
    status: str
    """``passed``, ``failed`` or ``skipped``."""
    message: str
    details: str


def load(path: Path) -> Iterable[Item | LoadError]:
    """Items of a JSON-lines file; a bad line gives a :class:`LoadError` (``file:line``, what
    is wrong, what to do) and loading goes on."""
    seen: set[str] = set()
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            where = Location(str(path), number)
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                yield LoadError(where, f"not JSON ({error.msg}); write one object per line")
                continue
            problem = _check(record)
            if problem:
                yield LoadError(where, problem, str(record.get("id", "")) if isinstance(
                    record, dict) else "")
                continue
            if record["id"] in seen:
                yield LoadError(where, f"id '{record['id']}' appears twice; ids must be unique",
                                record["id"])
                continue
            seen.add(record["id"])
            yield Item(record["id"], record["reference"], record.get("header", ""),
                       record.get("informal", ""), record.get("candidate"), record.get("gold"),
                       record.get("group", ""), where)


def _check(record: Any) -> str:
    if not isinstance(record, dict):
        return "expected a JSON object with id, reference and candidate or informal"
    for key in ("id", "reference"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            return f"missing or empty '{key}' (a string)"
    for key in ("header", "informal", "group", "source"):
        if key in record and not isinstance(record[key], str):
            return f"'{key}' must be a string"
    candidate = record.get("candidate")
    if candidate is not None and not isinstance(candidate, str):
        return "'candidate' must be a string or null"
    if candidate is None and not record.get("informal"):
        return "no 'candidate' and no 'informal' text for a formaliser to write one from"
    gold = record.get("gold")
    if gold is not None and gold not in GOLD:
        return f"'gold' is {gold!r}; expected \"equivalent\", \"inequivalent\" or null"
    return ""


def decide(items: Sequence[Item], criterion: Criterion,
           candidates: Mapping[str, str | None] | None = None) -> list[Result]:
    """Every item in one criterion batch. ``candidates`` supplies the formaliser's statements
    for items without one (``None``: the formaliser produced nothing)."""
    from afcheck_equivalence.decision import Inconclusive

    written = dict(candidates or {})
    pairs: list[Pair] = []
    chosen: list[str | None] = []
    for item in items:
        candidate = item.candidate if item.candidate is not None else written.get(item.id)
        chosen.append(candidate)
        if candidate is not None:
            pairs.append(Pair(item.id, item.reference, candidate, item.header))
    decisions = iter(criterion.decide(pairs))
    results = []
    for item, candidate in zip(items, chosen, strict=True):
        if candidate is None:
            decision: Decision = Inconclusive(criterion.name,
                                              "the formaliser wrote no candidate statement")
        else:
            decision = next(decisions)
        results.append(Result(item, candidate, decision))
    return results


def outcome(result: Result) -> ItemOutcome:
    decision = result.decision
    record = decision.to_json()
    details = json.dumps(record, ensure_ascii=False, indent=2)
    head = f"{decision.kind.value} ({decision.criterion}): {decision.reason}"
    if decision.kind is DecisionKind.INCONCLUSIVE:
        return ItemOutcome("skipped", head, details)
    expected = {"equivalent": DecisionKind.EQ, "inequivalent": DecisionKind.NONEQ,
                None: DecisionKind.EQ}[result.item.gold]
    if decision.kind is expected:
        return ItemOutcome("passed", head, details)
    gold = result.item.gold or "no gold label (Eq expected)"
    return ItemOutcome("failed", f"gold {gold}, got {head}",
                       f"reference: {result.item.reference}\ncandidate: {result.candidate}\n"
                       + details)


def to_json(result: Result) -> dict[str, Any]:
    return {"id": result.item.id, "group": result.item.group, "gold": result.item.gold,
            "reference": result.item.reference, "candidate": result.candidate,
            **result.decision.to_json()}


@dataclass(frozen=True)
class Rate:
    count: int
    total: int
    interval: Interval

    @property
    def value(self) -> float:
        return self.count / self.total if self.total else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "total": self.total, "value": self.value,
                "ci95": [self.interval.low, self.interval.high]}


def _rate(count: int, total: int) -> Rate:
    return Rate(count, total, wilson(count, total))


@dataclass(frozen=True)
class Summary:
    criterion: str
    N: int
    coverage: Rate
    """Eq on gold-equivalent items."""
    false_positive_rate: Rate
    """Eq on gold-inequivalent items."""
    noneq_rate: Rate
    """Noneq over all items."""
    confusion: Mapping[str, Mapping[str, int]]
    """gold label (``equivalent``, ``inequivalent``, ``none``) → decision → count."""

    def to_json(self) -> dict[str, Any]:
        return {"criterion": self.criterion, "N": self.N, "coverage": self.coverage.to_json(),
                "false_positive_rate": self.false_positive_rate.to_json(),
                "noneq_rate": self.noneq_rate.to_json(),
                "confusion": {k: dict(v) for k, v in self.confusion.items()}}


GATES = {"coverage": "min", "false_positive_rate": "max", "noneq_rate": "max"}
"""Metrics a gate may bound, and in which direction."""


def summarise(results: Sequence[Result]) -> dict[str, Summary]:
    """Metrics per criterion."""
    by_criterion: dict[str, list[Result]] = {}
    for result in results:
        by_criterion.setdefault(result.decision.criterion, []).append(result)
    return {name: _summary(name, group) for name, group in by_criterion.items()}


def _summary(name: str, results: Sequence[Result]) -> Summary:
    confusion: dict[str, Counter[str]] = {}
    for result in results:
        confusion.setdefault(result.item.gold or "none", Counter())[result.decision.kind.value] \
            += 1
    equivalent = confusion.get("equivalent", Counter())
    inequivalent = confusion.get("inequivalent", Counter())
    noneq = sum(c["Noneq"] for c in confusion.values())
    return Summary(
        name, len(results),
        _rate(equivalent["Eq"], sum(equivalent.values())),
        _rate(inequivalent["Eq"], sum(inequivalent.values())),
        _rate(noneq, len(results)),
        {gold: {k: counts[k] for k in ("Eq", "Noneq", "Inconclusive")}
         for gold, counts in sorted(confusion.items())},
    )


def formalise_missing(items: Sequence[Item], formaliser: Formaliser) -> dict[str, str | None]:
    """Candidates for the items that have none, written by ``formaliser`` from the informal
    text in one batch; ``None`` where it produced no statement."""
    from afcheck.types import FormaliseRequest, Side

    todo = [item for item in items if item.candidate is None]
    requests = [FormaliseRequest(f"{item.id}#candidate", item.id, Side.ORIGINAL, item.informal,
                                 metadata={"header": item.header}) for item in todo]
    answers = formaliser.formalise(requests) if requests else []
    out: dict[str, str | None] = {}
    for item, answer in zip(todo, answers, strict=True):
        if not answer.ok or answer.statement is None:
            out[item.id] = None
            continue
        out[item.id] = "\n".join(filter(None, (answer.header, answer.statement)))
    return out
