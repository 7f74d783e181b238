"""The ``equivalence`` method's step records as the report reads them, and their metrics.

A record of the JSON result file (an item's id, group, gold label, reference and candidate,
and its criterion's decision with the alignment and obligations) becomes an
:class:`EqRecord`; :func:`summary` counts any set of them per criterion as the run's own
summary does: coverage (Eq among gold-equivalent items), false-positive rate (Eq among
gold-inequivalent items), Noneq rate (among all), the confusion table gold × decision, each
rate with its 95% Wilson interval.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from afcheck.metrics import Interval, wilson
from afcheck_report.runfile import case_id_of, dataset_of

DECISIONS = ("Eq", "Noneq", "Inconclusive")
GOLDS = ("equivalent", "inequivalent", "none")
"""Gold labels; ``none`` for items without one."""
AGREES = {"equivalent": "Eq", "inequivalent": "Noneq"}
"""The decision each gold label calls right."""


@dataclass(frozen=True)
class EqRecord:
    case_id: str
    group: str
    criterion: str
    gold: str
    """``equivalent``, ``inequivalent`` or ``none``."""
    decision: str
    status: str

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> EqRecord:
        gold = step.get("gold")
        return cls(
            case_id=case_id_of(step),
            group=dataset_of(step) or "(none)",
            criterion=str(step.get("criterion") or "(none)"),
            gold=gold if isinstance(gold, str) and gold in AGREES else "none",
            decision=str(step.get("decision") or ""),
            status=str(step.get("status") or ""),
        )


def records(steps: Iterable[Mapping[str, Any]]) -> list[EqRecord]:
    return [EqRecord.from_json(step) for step in steps]


@dataclass(frozen=True)
class Rate:
    count: int
    total: int

    @property
    def value(self) -> float | None:
        return self.count / self.total if self.total else None

    @property
    def interval(self) -> Interval:
        return wilson(self.count, self.total)

    def to_json(self) -> dict[str, Any]:
        ci = self.interval
        return {"count": self.count, "total": self.total, "value": self.value,
                "ci95": [ci.low, ci.high]}


@dataclass(frozen=True)
class CriterionSummary:
    criterion: str
    n: int
    coverage: Rate
    false_positive_rate: Rate
    noneq_rate: Rate
    confusion: Mapping[str, Mapping[str, int]]
    """gold label → decision → items (gold labels that occur, in name order)."""

    @property
    def inconclusive(self) -> int:
        return sum(row.get("Inconclusive", 0) for row in self.confusion.values())

    def to_json(self) -> dict[str, Any]:
        """As the run's summary writes it (``methods.equivalence.metrics.overall.<c>``)."""
        return {"criterion": self.criterion, "N": self.n, "coverage": self.coverage.to_json(),
                "false_positive_rate": self.false_positive_rate.to_json(),
                "noneq_rate": self.noneq_rate.to_json(),
                "confusion": {k: dict(v) for k, v in self.confusion.items()}}


def summary(items: Sequence[EqRecord]) -> dict[str, CriterionSummary]:
    """Metrics per criterion, criteria in order of first appearance."""
    by_criterion: dict[str, list[EqRecord]] = {}
    for record in items:
        by_criterion.setdefault(record.criterion, []).append(record)
    return {name: _summary(name, chosen) for name, chosen in by_criterion.items()}


def _summary(name: str, items: Sequence[EqRecord]) -> CriterionSummary:
    confusion: dict[str, Counter[str]] = {}
    for record in items:
        confusion.setdefault(record.gold, Counter())[record.decision] += 1
    equivalent = confusion.get("equivalent", Counter())
    inequivalent = confusion.get("inequivalent", Counter())
    return CriterionSummary(
        name, len(items),
        coverage=Rate(equivalent["Eq"], sum(equivalent.values())),
        false_positive_rate=Rate(inequivalent["Eq"], sum(inequivalent.values())),
        noneq_rate=Rate(sum(c["Noneq"] for c in confusion.values()), len(items)),
        confusion={gold: {k: counts[k] for k in DECISIONS}
                   for gold, counts in sorted(confusion.items())},
    )
