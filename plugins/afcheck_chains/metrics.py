"""Metrics of a chains run, overall and per dataset, with 95% Wilson intervals.

- class distribution: count and share of each class T1–T4 / F1–F2 among classified chains;
- expected-class accuracy, per expected class (suites that give one: the rebuilt
  classification set);
- step-label macro-F1 over True / False / Unknown against gold step labels, where the data
  has them (a predicted Error / Limit / Invalid counts as a miss of the gold class);
- NL→FOL: execution rate (the first translation runs in the prover, of the items translated:
  a cut-off response is not) and execution accuracy
  (its conclusion label equals the gold label, among those that run), as the seed defines
  them on first attempts; analysis-failure rate (no accepted translation after the retries);
- translation quality where the data gives gold FOL: FOL-BLEU (mean over the sentences
  compared) and logical equivalence (LE: the share of them equivalent to the gold formula),
  on the first translation (:mod:`afcheck_chains.quality`);
- the path-dependence diagnostic: of the T2 chains (and of every chain with a valid path),
  how many have a valid path only because a path step restates the conclusion;
- undecided: items a limit left without a class (a prover's, the ``translate`` budget, or a
  formaliser request that got no answer); no answer: chains whose response
  gives no answer the reader finds; cut off: responses that stopped at the generation limit
  (not analysed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from afcheck.metrics import Count, Metric, Metrics, Rate, Score
from afcheck_chains.classes import CLASS_NAMES
from afcheck_chains.records import GOLD_LABELS, ChainResult

__all__ = ["GATES", "ChainMetrics", "ChainsSummary", "Rate", "by_dataset", "macro_f1",
           "metrics", "summarise"]


@dataclass(frozen=True)
class ChainMetrics:
    n: int
    classes: Mapping[str, Rate]
    """T1–T4, F1–F2 among the classified chains."""
    expected: Mapping[str, Rate]
    """Per expected class: how many items got exactly that class."""
    step_macro_f1: float | None
    step_pairs: int
    """Steps compared with a gold label (the F1's support)."""
    execution_rate: Rate | None
    """``None`` when the items do not say (result files written before they did)."""
    execution_accuracy: Rate | None
    analysis_failure: Rate
    undecided: Rate
    no_answer: Rate = Rate(0, 0)
    no_reasoning: Rate = Rate(0, 0)
    """Responses with an answer but no kept reasoning step: no chain, so no class."""
    cut_off: Rate = Rate(0, 0)
    fol_bleu: float | None = None
    """Mean FOL-BLEU over the sentences compared with gold FOL (``None``: none)."""
    logical_equivalence: Rate | None = None
    """Sentences equivalent to their gold formula, of those compared."""
    equivalence_undecided: int = 0
    t2_restatement: Rate = Rate(0, 0)
    """T2 chains whose valid path holds only by restating the conclusion, of the T2 chains."""
    valid_restatement: Rate = Rate(0, 0)
    """… of every chain with a valid path (T1, T2)."""
    confusion: Mapping[tuple[str, str], int] = field(default_factory=dict)
    """(expected class, class got or the analysis status) → items."""
    step_confusion: Mapping[tuple[str, str], int] = field(default_factory=dict)
    """(gold, predicted) step label → steps."""
    analyses: Mapping[str, int] = field(default_factory=dict)
    """Items by analysis status."""

    @property
    def expected_accuracy(self) -> Rate | None:
        """Over every expected class: the items that got exactly theirs."""
        if not self.expected:
            return None
        return Rate(sum(r.count for r in self.expected.values()),
                    sum(r.total for r in self.expected.values()))

    def to_json(self) -> dict[str, object]:
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
            "no_answer": self.no_answer.to_json(),
            "no_reasoning": self.no_reasoning.to_json(),
            "cut_off": self.cut_off.to_json(),
            "fol_bleu": self.fol_bleu,
            "logical_equivalence": None if self.logical_equivalence is None
            else self.logical_equivalence.to_json(),
            "logical_equivalence_undecided": self.equivalence_undecided,
            "T2_valid_only_by_restating": self.t2_restatement.to_json(),
            "valid_only_by_restating": self.valid_restatement.to_json(),
        }

    def typed(self) -> dict[str, Metric]:
        """The group's figures as typed metrics: N, the analysis rates, each class's share
        (``T1_rate`` …), execution rate and accuracy, expected-class accuracy and logical
        equivalence, step-label macro-F1 and FOL-BLEU (scores), the path-dependence
        diagnostic; each unmeasured (``None``) where the items give nothing to measure it
        on."""
        out: dict[str, Metric] = {"N": Count(self.n),
                                  "analysis_failure_rate": self.analysis_failure,
                                  "undecided_rate": self.undecided,
                                  "no_answer_rate": self.no_answer,
                                  "no_reasoning_rate": self.no_reasoning,
                                  "cut_off_rate": self.cut_off}
        # A rate the items do not measure (no gold formula, no expected class) is one over
        # no item: its value is None, and a gate over it says so.
        out["execution_rate"] = self.execution_rate or Rate(0, 0)
        out["execution_accuracy"] = self.execution_accuracy or Rate(0, 0)
        out["step_label_macro_f1"] = Score(self.step_macro_f1)
        out["fol_bleu"] = Score(self.fol_bleu)
        out["logical_equivalence"] = self.logical_equivalence or Rate(0, 0)
        out.update({f"{name}_rate": rate for name, rate in self.classes.items()})
        out["expected_class_accuracy"] = self.expected_accuracy or Rate(0, 0)
        out["T2_valid_only_by_restating"] = self.t2_restatement
        return out


def macro_f1(pairs: Sequence[tuple[str, str]],
             classes: Sequence[str] = GOLD_LABELS) -> float | None:
    """Macro-F1 over ``classes`` of (gold, predicted) pairs; a class absent from both sides is
    left out of the mean."""
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
    confusion: Counter[tuple[str, str]] = Counter()
    for name in sorted({r.expected_class for r in results if r.expected_class}):
        group = [r for r in results if r.expected_class == name]
        expected[name] = Rate(sum(1 for r in group if r.chain_class == name), len(group))
        for r in group:
            confusion[(name, r.chain_class or r.analysis)] += 1
    pairs = [pair for r in results for pair in r.step_pairs]
    known = all(r.first_executed is not None for r in results)
    executed = sum(1 for r in results if r.first_executed)
    # A cut-off response is never translated: it is outside the execution rate.
    translated = sum(1 for r in results if r.analysis != "cut_off")
    compared = [q for r in results for q in r.quality]
    t2 = [r for r in results if r.chain_class == "T2"]
    valid = [r for r in results if r.chain_class in ("T1", "T2")]
    return ChainMetrics(
        fol_bleu=sum(q.bleu for q in compared) / len(compared) if compared else None,
        logical_equivalence=Rate(sum(1 for q in compared if q.equivalent), len(compared))
        if compared else None,
        equivalence_undecided=sum(1 for q in compared if q.equivalent is None),
        t2_restatement=Rate(sum(1 for r in t2 if r.restatement_only), len(t2)),
        valid_restatement=Rate(sum(1 for r in valid if r.restatement_only), len(valid)),
        n=n,
        classes=classes,
        expected=expected,
        step_macro_f1=macro_f1(pairs),
        step_pairs=len(pairs),
        execution_rate=Rate(executed, translated) if known else None,
        execution_accuracy=Rate(sum(1 for r in results if r.first_matched), executed)
        if known else None,
        analysis_failure=Rate(sum(1 for r in results if r.analysis == "analysis_failure"), n),
        undecided=Rate(sum(1 for r in results if r.analysis == "undecided"), n),
        no_answer=Rate(sum(1 for r in results if r.analysis == "no_answer"), n),
        no_reasoning=Rate(sum(1 for r in results if r.analysis == "no_reasoning"), n),
        cut_off=Rate(sum(1 for r in results if r.analysis == "cut_off"), n),
        confusion=dict(confusion),
        step_confusion=dict(Counter(pairs)),
        analyses=dict(Counter(r.analysis for r in results)),
    )


def by_dataset(results: Sequence[ChainResult]) -> dict[str, ChainMetrics]:
    groups: dict[str, list[ChainResult]] = {}
    for r in results:
        groups.setdefault(r.dataset, []).append(r)
    return {name: metrics(group) for name, group in sorted(groups.items())}


GATES: Mapping[str, str] = {
    "analysis_failure_rate": "max",
    "undecided_rate": "max",
    "no_answer_rate": "max",
    "no_reasoning_rate": "max",
    "cut_off_rate": "max",
    "execution_rate": "min",
    "execution_accuracy": "min",
    "step_label_macro_f1": "min",
    "fol_bleu": "min",
    "logical_equivalence": "min",
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

    def lines(self) -> list[str]:
        out = ["chains: " + _line(self.overall)]
        if len(self.by_dataset) > 1:
            for name, group in self.by_dataset.items():
                out.append(f"  {name}: " + _line(group))
        return out

    def sections(self) -> dict[str, object]:
        return {"details": {"overall": self.overall.to_json(),
                            "by_dataset": {k: v.to_json() for k, v in self.by_dataset.items()}}}

    def properties(self, group: str) -> dict[str, str]:
        m = self.by_dataset.get(group)
        if m is None:  # a group of unreadable records only: no metrics to give
            return {}
        props = {"N": str(m.n)}
        for name, rate in (("execution_rate", m.execution_rate),
                           ("execution_accuracy", m.execution_accuracy),
                           ("analysis_failure_rate", m.analysis_failure)):
            if rate is not None and rate.value is not None:
                props[name] = f"{rate.value:.6f}"
        props.update({f"class.{k}": str(v.count) for k, v in m.classes.items()})
        if m.step_macro_f1 is not None:
            props["step_label_macro_f1"] = f"{m.step_macro_f1:.6f}"
        if m.fol_bleu is not None:
            props["fol_bleu"] = f"{m.fol_bleu:.6f}"
        if m.logical_equivalence is not None and m.logical_equivalence.value is not None:
            props["logical_equivalence"] = f"{m.logical_equivalence.value:.6f}"
        if m.t2_restatement.total:
            props["T2_valid_only_by_restating"] = (f"{m.t2_restatement.count}/"
                                                   f"{m.t2_restatement.total}")
        return props

    def metrics(self) -> Metrics:
        """The typed metrics (:meth:`ChainMetrics.typed`), overall and per dataset."""
        return Metrics(self.overall.typed(),
                       {name: m.typed() for name, m in self.by_dataset.items()})


def _pct(rate: Rate | None) -> str:
    if rate is None or rate.value is None:
        return "n/a"
    ci = rate.interval
    return f"{100 * rate.value:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"


def _line(m: ChainMetrics) -> str:
    if m.n == 0:
        return "N=0: nothing was evaluated"
    classes = " ".join(f"{k}={v.count}" for k, v in m.classes.items())
    # An accuracy over no executed chain is no figure at all, not 0% in [0, 100].
    accuracy = m.execution_accuracy
    ea = "EA: no chain was executed" if accuracy is not None and accuracy.total == 0 \
        else f"EA {_pct(accuracy)}"
    parts = [f"N={m.n}", classes, f"ER {_pct(m.execution_rate)}", ea,
             f"analysis failures {_pct(m.analysis_failure)}"]
    if m.undecided.count:
        parts.append(f"undecided {m.undecided.count}")
    if m.no_answer.count:
        parts.append(f"no answer found {m.no_answer.count}")
    if m.no_reasoning.count:
        parts.append(f"no reasoning step {m.no_reasoning.count}")
    if m.cut_off.count:
        parts.append(f"cut off at the generation limit {m.cut_off.count}")
    if m.step_macro_f1 is not None:
        parts.append(f"step macro-F1 {m.step_macro_f1:.3f} ({m.step_pairs} steps)")
    if m.logical_equivalence is not None and m.fol_bleu is not None:
        parts.append(f"vs gold FOL: FB {100 * m.fol_bleu:.1f}, LE "
                     f"{_pct(m.logical_equivalence)} ({m.logical_equivalence.total} sentences"
                     + (f", {m.equivalence_undecided} undecided" if m.equivalence_undecided
                        else "") + ")")
    if m.t2_restatement.total:
        parts.append(f"T2 valid only by restating the conclusion "
                     f"{m.t2_restatement.count}/{m.t2_restatement.total}")
    for name, rate in m.expected.items():
        parts.append(f"{name} {rate.count}/{rate.total}")
    return "; ".join(parts)


def summarise(results: Sequence[ChainResult]) -> ChainsSummary:
    return ChainsSummary(metrics(results), by_dataset(results))
