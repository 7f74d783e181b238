"""The ``nl2fol`` method's step records as the report reads them, and their metrics.

A record of the JSON result file (written by :func:`afcheck_fol.decide.to_json`) becomes a
:class:`FolRecord`; :func:`group` counts any set of them exactly as the run's own summary
(:mod:`afcheck_fol.summary`) counts its decisions, so the report's figures are the run's and
can be computed for subsets (a difficulty tag, a dataset). Only the records are read: no
parser, no z3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from afcheck_fol.taxonomy import ErrorClass

from afcheck.metrics import Interval, wilson
from afcheck_report.runfile import case_id_of, dataset_of

CORRECT = "correct"
SYNTAX_ERROR = "syntax-error"
SEMANTIC_ERROR = "not-equivalent"
UNDECIDED = "undecided"
NO_OUTPUT = "no-output"
DECISIONS = (CORRECT, SYNTAX_ERROR, SEMANTIC_ERROR, UNDECIDED, NO_OUTPUT)
"""The decisions of :mod:`afcheck_fol.decide`, in display order."""

ERROR_CLASSES = tuple(c.value for c in ErrorClass)
"""The syntax-error classes in the taxonomy's order."""

LEVELS = ("super-low", "low", "mid-low", "mid-high", "high", "super-high")
"""The seed's six difficulty levels, easiest first; other tags follow in name order."""


@dataclass(frozen=True)
class FolRecord:
    """What the metrics need from one item of an nl2fol run."""

    case_id: str
    dataset: str
    difficulty: str
    decision: str
    status: str
    error_class: str | None = None
    error_rule: str | None = None
    ted: int | None = None
    """Tree edit distance to the nearest gold (parsed candidates only)."""
    theory: str | None = None
    """The theory of the verdict (for a correct item: the one that decided it)."""

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> FolRecord:
        error = _mapping(step.get("syntax_error"))
        verdict = _mapping(step.get("equivalence"))
        ted = step.get("ted")
        return cls(
            case_id=case_id_of(step),
            dataset=dataset_of(step) or "(none)",
            difficulty=str(step.get("difficulty") or "(none)"),
            decision=str(step.get("decision") or ""),
            status=str(step.get("status") or ""),
            error_class=str(error["class"]) if error.get("class") else None,
            error_rule=str(error["rule"]) if error.get("rule") else None,
            ted=ted if isinstance(ted, int) and not isinstance(ted, bool) else None,
            theory=str(verdict["theory"]) if verdict.get("theory") else None,
        )


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def records(steps: Iterable[Mapping[str, Any]]) -> list[FolRecord]:
    return [FolRecord.from_json(step) for step in steps]


@dataclass(frozen=True)
class FolGroup:
    """The metrics of one group of items (the same figures as :class:`afcheck_fol.summary.
    Group`)."""

    n: int = 0
    correct: int = 0
    syntax_errors: int = 0
    semantic_errors: int = 0
    undecided: int = 0
    no_output: int = 0
    error_classes: Mapping[str, int] = field(default_factory=dict)
    """Every class, in the taxonomy's order, once any item has a syntax error; else empty."""
    error_rules: Mapping[str, int] = field(default_factory=dict)
    rule_classes: Mapping[str, str] = field(default_factory=dict)
    """Each rule's class."""
    teds: tuple[int, ...] = ()
    """The distances of the semantic errors to their nearest gold."""
    by_theory: Mapping[str, int] = field(default_factory=dict)

    @property
    def decided(self) -> int:
        return self.n - self.undecided

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.decided if self.decided else None

    @property
    def accuracy_interval(self) -> Interval:
        return wilson(self.correct, self.decided)

    @property
    def syntax_error_rate(self) -> float | None:
        return self.syntax_errors / self.decided if self.decided else None

    @property
    def syntax_error_interval(self) -> Interval:
        return wilson(self.syntax_errors, self.decided)

    @property
    def mean_ted(self) -> float | None:
        return sum(self.teds) / len(self.teds) if self.teds else None

    def to_json(self) -> dict[str, object]:
        """The group as the run's summary writes it (``methods.nl2fol.metrics``)."""
        accuracy = self.accuracy_interval
        syntax = self.syntax_error_interval
        return {
            "N": self.n,
            "decided": self.decided,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "accuracy_ci95": [accuracy.low, accuracy.high],
            "syntax_errors": self.syntax_errors,
            "syntax_error_rate": self.syntax_error_rate,
            "syntax_error_rate_ci95": [syntax.low, syntax.high],
            "syntax_error_classes": dict(self.error_classes),
            "syntax_error_rules": dict(self.error_rules),
            "semantic_errors": self.semantic_errors,
            "mean_ted_semantic_errors": self.mean_ted,
            "undecided": self.undecided,
            "no_output": self.no_output,
            "correct_by_theory": dict(self.by_theory),
        }


def group(items: Sequence[FolRecord]) -> FolGroup:
    decisions = Counter(r.decision for r in items)
    classes = Counter(r.error_class for r in items
                      if r.decision == SYNTAX_ERROR and r.error_class is not None)
    rules = Counter(r.error_rule for r in items
                    if r.decision == SYNTAX_ERROR and r.error_rule is not None)
    known = [*ERROR_CLASSES, *sorted(set(classes) - set(ERROR_CLASSES))]
    return FolGroup(
        n=len(items),
        correct=decisions[CORRECT],
        syntax_errors=decisions[SYNTAX_ERROR],
        semantic_errors=decisions[SEMANTIC_ERROR],
        undecided=decisions[UNDECIDED],
        no_output=decisions[NO_OUTPUT],
        error_classes={c: classes.get(c, 0) for c in known} if classes else {},
        error_rules=dict(sorted((str(k), v) for k, v in rules.items())),
        rule_classes={str(r.error_rule): str(r.error_class) for r in items
                      if r.error_rule is not None and r.error_class is not None},
        teds=tuple(r.ted for r in items if r.decision == SEMANTIC_ERROR and r.ted is not None),
        by_theory=dict(sorted(Counter(r.theory for r in items
                                      if r.decision == CORRECT and r.theory).items())),
    )


def _tag_order(tag: str) -> tuple[int, str]:
    return (LEVELS.index(tag) if tag in LEVELS else len(LEVELS), tag)


def by_difficulty(items: Sequence[FolRecord]) -> dict[str, FolGroup]:
    """Metrics per difficulty tag, the seed's levels first, easiest first."""
    tags: dict[str, list[FolRecord]] = {}
    for record in items:
        tags.setdefault(record.difficulty, []).append(record)
    return {tag: group(tags[tag]) for tag in sorted(tags, key=_tag_order)}


def by_dataset(items: Sequence[FolRecord]) -> dict[str, FolGroup]:
    datasets: dict[str, list[FolRecord]] = {}
    for record in items:
        datasets.setdefault(record.dataset, []).append(record)
    return {name: group(datasets[name]) for name in sorted(datasets)}
