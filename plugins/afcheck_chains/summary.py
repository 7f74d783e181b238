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


def macro_f1(pairs: Sequence[tuple[str, str]],
             classes: Sequence[str] = GOLD_LABELS) -> float | None:
    """Macro-F1 over ``classes`` of (gold, predicted) pairs; a class absent from both sides is
    left out of the mean. Labels compare by value, so pairs read back from a result file
    (plain strings) count as a run's :class:`Label` pairs do."""
    if not pairs:
        return None
    scores: list[float] = []
    for label in classes:
        tp = sum(1 for g, p in pairs if g == label and p == label)
        fp = sum(1 for g, p in pairs if g != label and p == label)
        fn = sum(1 for g, p in pairs if g == label and p != label)
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


GATES: Mapping[str, str] = {
    "analysis_failure_rate": "max",
    "undecided_rate": "max",
    "execution_rate": "min",
    "execution_accuracy": "min",
    "step_label_macro_f1": "min",
    "T1_rate": "min",
    "expected_class_accuracy": "min",
}
"""The metrics a gate may bound (``--gate chains.analysis_failure_rate<=0.05``)."""


@dataclass(frozen=True)
class ChainsSummary:
    """The chains method's metrics over a run, overall and per dataset."""

    overall: ChainMetrics
    by_dataset: Mapping[str, ChainMetrics]
    method: str = "chains"

    @property
    def evaluated(self) -> int:
        return self.overall.n

    def metric(self, name: str) -> float | None:
        m = self.overall
        if name == "analysis_failure_rate":
            return m.analysis_failure.value
        if name == "undecided_rate":
            return m.undecided.value
        if name == "execution_rate":
            return m.execution_rate.value
        if name == "execution_accuracy":
            return m.execution_accuracy.value
        if name == "step_label_macro_f1":
            return m.step_macro_f1
        if name == "T1_rate":
            return m.classes["T1"].value if m.classes["T1"].total else None
        if name == "expected_class_accuracy":
            total = sum(r.total for r in m.expected.values())
            return sum(r.count for r in m.expected.values()) / total if total else None
        if name.endswith("_rate") and name[:-5] in m.classes:
            rate = m.classes[name[:-5]]
            return rate.value if rate.total else None
        return None

    def lines(self) -> list[str]:
        out = ["chains: " + _line(self.overall)]
        if len(self.by_dataset) > 1:
            for name, group in self.by_dataset.items():
                out.append(f"  {name}: " + _line(group))
        return out

    def sections(self) -> dict[str, object]:
        return {"metrics": {"overall": self.overall.to_json(),
                            "by_dataset": {k: v.to_json() for k, v in self.by_dataset.items()}}}

    def properties(self, group: str) -> dict[str, str]:
        m = self.by_dataset[group]
        props = {"N": str(m.n),
                 "execution_rate": f"{m.execution_rate.value:.6f}",
                 "execution_accuracy": f"{m.execution_accuracy.value:.6f}",
                 "analysis_failure_rate": f"{m.analysis_failure.value:.6f}"}
        props.update({f"class.{k}": str(v.count) for k, v in m.classes.items()})
        if m.step_macro_f1 is not None:
            props["step_label_macro_f1"] = f"{m.step_macro_f1:.6f}"
        return props


def _pct(rate: Rate) -> str:
    ci = rate.interval
    return f"{100 * rate.value:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"


def _line(m: ChainMetrics) -> str:
    classes = " ".join(f"{k}={v.count}" for k, v in m.classes.items())
    parts = [f"N={m.n}", classes, f"ER {_pct(m.execution_rate)}",
             f"EA {_pct(m.execution_accuracy)}", f"analysis failures {_pct(m.analysis_failure)}"]
    if m.undecided.count:
        parts.append(f"undecided {m.undecided.count}")
    if m.step_macro_f1 is not None:
        parts.append(f"step macro-F1 {m.step_macro_f1:.3f} ({m.step_pairs} steps)")
    for name, rate in m.expected.items():
        parts.append(f"{name} {rate.count}/{rate.total}")
    return "; ".join(parts)


def summarise(results: Sequence[ChainResult]) -> ChainsSummary:
    return ChainsSummary(metrics(results), by_dataset(results))
