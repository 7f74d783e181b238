"""Metrics of a chains run, overall and per dataset, with 95% Wilson intervals.

- class distribution: count and share of each class T1–T4 / F1–F2 among classified chains;
- expected-class accuracy, per expected class (suites that give one: the rebuilt
  classification set);
- step-label macro-F1 over True / False / Unknown against gold step labels, where the data
  has them (a predicted Error / Limit / Invalid counts as a miss of the gold class);
- NL→FOL: execution rate (the first translation runs in the prover) and execution accuracy
  (its conclusion label equals the gold label, among those that run), as the seed defines
  them on first attempts; analysis-failure rate (no accepted translation after the retries);
- undecided: items a prover limit left without a class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck.metrics import Interval, wilson
from afcheck_chains.classes import CLASS_NAMES
from afcheck_chains.method import ChainResult
from afcheck_chains.records import GOLD_LABELS, Label


@dataclass(frozen=True)
class Rate:
    count: int
    total: int

    @property
    def value(self) -> float:
        return self.count / self.total if self.total else 0.0

    @property
    def interval(self) -> Interval:
        return wilson(self.count, self.total)

    def to_json(self) -> dict[str, float | int]:
        ci = self.interval
        return {"count": self.count, "total": self.total, "value": self.value,
                "ci_low": ci.low, "ci_high": ci.high}


@dataclass(frozen=True)
class ChainMetrics:
    n: int
    classes: Mapping[str, Rate]
    expected: Mapping[str, Rate]
    """Per expected class: how many items got exactly that class."""
    step_macro_f1: float | None
    step_pairs: int
    """Steps compared with a gold label (the F1's support)."""
    execution_rate: Rate
    execution_accuracy: Rate
    analysis_failure: Rate
    undecided: Rate

    def to_json(self) -> dict[str, object]:
        return {
            "N": self.n,
            "classes": {k: v.to_json() for k, v in self.classes.items()},
            "expected_class_accuracy": {k: v.to_json() for k, v in self.expected.items()},
            "step_label_macro_f1": self.step_macro_f1,
            "step_label_pairs": self.step_pairs,
            "execution_rate": self.execution_rate.to_json(),
            "execution_accuracy": self.execution_accuracy.to_json(),
            "analysis_failure_rate": self.analysis_failure.to_json(),
            "undecided": self.undecided.to_json(),
        }


def macro_f1(pairs: Sequence[tuple[Label, Label]],
             classes: Sequence[Label] = GOLD_LABELS) -> float | None:
    """Macro-F1 over ``classes`` of (gold, predicted) pairs; classes absent from both count 0."""
    if not pairs:
        return None
    scores: list[float] = []
    for label in classes:
        tp = sum(1 for g, p in pairs if g is label and p is label)
        fp = sum(1 for g, p in pairs if g is not label and p is label)
        fn = sum(1 for g, p in pairs if g is label and p is not label)
        if tp + fp + fn == 0:
            continue
        scores.append(2 * tp / (2 * tp + fp + fn))
    return sum(scores) / len(scores) if scores else None


def metrics(results: Sequence[ChainResult]) -> ChainMetrics:
    n = len(results)
    classified = [r for r in results if r.chain_class is not None]
    counts = Counter(r.chain_class for r in classified)
    classes = {name: Rate(counts.get(name, 0), len(classified)) for name in CLASS_NAMES}
    expected: dict[str, Rate] = {}
    for name in sorted({r.record.expected_class for r in results if r.record.expected_class}):
        group = [r for r in results if r.record.expected_class == name]
        expected[name] = Rate(sum(1 for r in group if r.chain_class == name), len(group))
    pairs: list[tuple[Label, Label]] = []
    for r in results:
        gold = r.record.gold_step_labels
        if gold is not None and r.verdict is not None:
            pairs.extend(zip(gold, r.step_labels, strict=True))
    executed = sum(1 for r in results if r.first_executed)
    return ChainMetrics(
        n=n,
        classes=classes,
        expected=expected,
        step_macro_f1=macro_f1(pairs),
        step_pairs=len(pairs),
        execution_rate=Rate(executed, n),
        execution_accuracy=Rate(sum(1 for r in results if r.first_matched), executed),
        analysis_failure=Rate(sum(1 for r in results if r.status == "analysis_failure"), n),
        undecided=Rate(sum(1 for r in results if r.status == "undecided"), n),
    )


def by_dataset(results: Sequence[ChainResult]) -> dict[str, ChainMetrics]:
    groups: dict[str, list[ChainResult]] = {}
    for r in results:
        groups.setdefault(r.record.dataset, []).append(r)
    return {name: metrics(group) for name, group in sorted(groups.items())}
