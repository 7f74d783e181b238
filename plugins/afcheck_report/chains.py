"""The ``chains`` method's step records as the report reads them, and their metrics.

A record of the JSON result file (written by :func:`afcheck_chains.outcome.to_json`) becomes a
:class:`ChainRecord`; :func:`group` counts any set of them exactly as the run's own summary
(:mod:`afcheck_chains.summary`) does, so the report's figures are the run's and can be
computed per dataset. Only the records are read: no prover.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from afcheck_chains.classes import CLASS_NAMES
from afcheck_chains.summary import Rate, macro_f1

from afcheck_report.runfile import case_id_of, dataset_of

STEP_LABELS = ("True", "False", "Unknown", "Error", "Limit", "Invalid")
"""Every label a step can get, in display order."""

ANALYSIS_FAILURE = "analysis_failure"
UNDECIDED = "undecided"


@dataclass(frozen=True)
class ChainRecord:
    """What the metrics need from one item of a chains run."""

    case_id: str
    dataset: str
    status: str
    analysis: str
    """``classified``, ``label_only``, ``analysis_failure`` or ``undecided``."""
    chain_class: str | None
    expected_class: str | None
    step_pairs: tuple[tuple[str, str], ...] = ()
    """(gold, predicted) label of each step that has both."""
    first_executed: bool | None = None
    """The first translation ran (``None``: a file written before records said)."""
    first_matched: bool | None = None

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> ChainRecord:
        pairs = []
        for entry in step.get("steps") or ():
            if isinstance(entry, dict) and isinstance(entry.get("gold"), str) \
                    and isinstance(entry.get("label"), str):
                pairs.append((entry["gold"], entry["label"]))
        chain_class = step.get("class")
        expected = step.get("expected_class")
        executed, matched = step.get("first_executed"), step.get("first_matched")
        return cls(
            case_id=case_id_of(step),
            dataset=dataset_of(step) or "(none)",
            status=str(step.get("status") or ""),
            analysis=str(step.get("analysis") or ""),
            chain_class=chain_class if isinstance(chain_class, str) and chain_class else None,
            expected_class=expected if isinstance(expected, str) and expected else None,
            step_pairs=tuple(pairs),
            first_executed=executed if isinstance(executed, bool) else None,
            first_matched=matched if isinstance(matched, bool) else None,
        )


def records(steps: Iterable[Mapping[str, Any]]) -> list[ChainRecord]:
    return [ChainRecord.from_json(step) for step in steps]


@dataclass(frozen=True)
class ChainGroup:
    """The metrics of one group of chains (the figures of :class:`afcheck_chains.summary.
    ChainMetrics`)."""

    n: int
    classes: Mapping[str, Rate]
    """T1–T4, F1–F2 among the classified chains."""
    expected: Mapping[str, Rate]
    """Per expected class: how many chains got exactly that class."""
    confusion: Mapping[tuple[str, str], int]
    """(expected class, class got or the analysis status) → chains."""
    step_confusion: Mapping[tuple[str, str], int]
    """(gold, predicted) step label → steps."""
    step_macro_f1: float | None
    step_pairs: int
    analysis_failure: Rate
    undecided: Rate
    execution_rate: Rate | None
    """``None`` when the records do not say (files written before they did)."""
    execution_accuracy: Rate | None
    analyses: Mapping[str, int] = field(default_factory=dict)

    @property
    def expected_accuracy(self) -> Rate | None:
        if not self.expected:
            return None
        return Rate(sum(r.count for r in self.expected.values()),
                    sum(r.total for r in self.expected.values()))

    def to_json(self) -> dict[str, object]:
        """The group as the run's summary writes it (``methods.chains.metrics``)."""
        return {
            "N": self.n,
            "classes": {k: v.to_json() for k, v in self.classes.items()},
            "expected_class_accuracy": {k: v.to_json() for k, v in self.expected.items()},
            "step_label_macro_f1": self.step_macro_f1,
            "step_label_pairs": self.step_pairs,
            "execution_rate": None if self.execution_rate is None
            else self.execution_rate.to_json(),
            "execution_accuracy": None if self.execution_accuracy is None
            else self.execution_accuracy.to_json(),
            "analysis_failure_rate": self.analysis_failure.to_json(),
            "undecided": self.undecided.to_json(),
        }


def group(items: Sequence[ChainRecord]) -> ChainGroup:
    n = len(items)
    classified = [r for r in items if r.chain_class is not None]
    counts = Counter(r.chain_class for r in classified)
    expected: dict[str, Rate] = {}
    confusion: Counter[tuple[str, str]] = Counter()
    for name in sorted({r.expected_class for r in items if r.expected_class}):
        chosen = [r for r in items if r.expected_class == name]
        expected[name] = Rate(sum(1 for r in chosen if r.chain_class == name), len(chosen))
        for r in chosen:
            confusion[(name, r.chain_class or r.analysis)] += 1
    pairs = [pair for r in items for pair in r.step_pairs]
    known = all(r.first_executed is not None for r in items)
    executed = sum(1 for r in items if r.first_executed)
    return ChainGroup(
        n=n,
        classes={name: Rate(counts.get(name, 0), len(classified)) for name in CLASS_NAMES},
        expected=expected,
        confusion=dict(confusion),
        step_confusion=dict(Counter(pairs)),
        step_macro_f1=macro_f1(pairs),
        step_pairs=len(pairs),
        analysis_failure=Rate(sum(1 for r in items if r.analysis == ANALYSIS_FAILURE), n),
        undecided=Rate(sum(1 for r in items if r.analysis == UNDECIDED), n),
        execution_rate=Rate(executed, n) if known else None,
        execution_accuracy=Rate(sum(1 for r in items if r.first_matched), executed)
        if known else None,
        analyses=dict(Counter(r.analysis for r in items)),
    )


def by_dataset(items: Sequence[ChainRecord]) -> dict[str, ChainGroup]:
    datasets: dict[str, list[ChainRecord]] = {}
    for record in items:
        datasets.setdefault(record.dataset, []).append(record)
    return {name: group(datasets[name]) for name in sorted(datasets)}
