"""The FaithformBench metrics (§4 of the paper), overall and per dataset.

N is the number of cases evaluated (excluded cases — unperturbable or ineffective
perturbations — are counted apart). With z = Prove(AF(x)) and z̄ = Prove(AF(x̄)):

- FNR = #{z = ⊥} / N                        (error induction)
- FPR = #{z̄ = ⊤} / N                        (silent correction)
- AFFR = (#{AF(x) = ∅} + #{AF(x̄) = ∅}) / 2N  (formalisation failure)
- UFLB = FNR/2 + FPR/2 + AFFR                (unfaithfulness lower bound)
- TPR = #{z = ⊤} / N,  FI = 2·TPR·(1−FPR) / (TPR + 1 − FPR)

The paper defines FNR, FPR, AFFR and UFLB; TPR and FI come from its reference
implementation's README, not from the paper.

z = ⊥ and AF(x) = ∅ exclude each other (a failed formalisation has no verdict), and so do
z̄ = ⊤ and AF(x̄) = ∅; hence UFLB is itself a proportion of the 2N sides — the share of sides
with a failure event — and gets a Wilson interval like the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from afcheck.method import JsonObject
from afcheck.metrics import Count, Interval, Metric, Rate, Score, ratio, wilson
from afcheck.metrics import Metrics as TypedMetrics
from afcheck_faithfulness.records import CaseResult, Outcome


@dataclass(frozen=True)
class Metrics:
    """The metrics of one group of cases, with the counts they come from."""

    N: int
    error_induction: int
    silent_correction: int
    af_fail_original: int
    af_fail_perturbed: int
    proved_original: int
    contingency: Mapping[str, int]
    excluded: int = 0
    tc_fail: int = 0
    """How many of the AF failures are type-check failures (the rest are extraction failures)."""

    @property
    def FNR(self) -> float:  # noqa: N802 - the paper's names
        return ratio(self.error_induction, self.N)

    @property
    def FPR(self) -> float:  # noqa: N802
        return ratio(self.silent_correction, self.N)

    @property
    def AFFR(self) -> float:  # noqa: N802
        return ratio(self.af_fail_original + self.af_fail_perturbed, 2 * self.N)

    @property
    def UFLB(self) -> float:  # noqa: N802
        return self.FNR / 2 + self.FPR / 2 + self.AFFR

    @property
    def TPR(self) -> float:  # noqa: N802
        return ratio(self.proved_original, self.N)

    @property
    def FI(self) -> float:  # noqa: N802
        return faithfulness_index(self.TPR, self.FPR)

    def intervals(self) -> dict[str, Interval]:
        failures = (self.error_induction + self.silent_correction + self.af_fail_original
                    + self.af_fail_perturbed)
        return {
            "FNR": wilson(self.error_induction, self.N),
            "FPR": wilson(self.silent_correction, self.N),
            "AFFR": wilson(self.af_fail_original + self.af_fail_perturbed, 2 * self.N),
            "UFLB": wilson(failures, 2 * self.N),
            "TPR": wilson(self.proved_original, self.N),
        }

    def to_json(self) -> JsonObject:
        intervals = self.intervals()
        return {
            "N": self.N,
            "FNR": self.FNR,
            "FPR": self.FPR,
            "AFFR": self.AFFR,
            "UFLB": self.UFLB,
            "TPR": self.TPR,
            "FI": self.FI,
            "ci95": {name: [i.low, i.high] for name, i in intervals.items()},
            "counts": {
                "error_induction": self.error_induction,
                "silent_correction": self.silent_correction,
                "af_fail_original": self.af_fail_original,
                "af_fail_perturbed": self.af_fail_perturbed,
                "tc_fail": self.tc_fail,
                "proved_original": self.proved_original,
                "excluded": self.excluded,
            },
            "contingency": dict(self.contingency),
        }

    def typed(self) -> dict[str, Metric]:
        """The group's figures as typed metrics: FNR, FPR, TPR of the N cases, AFFR and UFLB
        of the 2N sides (rates), FI (a score, unmeasured over no case), N and the excluded
        cases (counts)."""
        afs = self.af_fail_original + self.af_fail_perturbed
        failures = self.error_induction + self.silent_correction + afs
        return {"N": Count(self.N),
                "FNR": Rate(self.error_induction, self.N),
                "FPR": Rate(self.silent_correction, self.N),
                "AFFR": Rate(afs, 2 * self.N),
                "UFLB": Rate(failures, 2 * self.N),
                "TPR": Rate(self.proved_original, self.N),
                "FI": Score(self.FI if self.N else None),
                "excluded": Count(self.excluded)}


def faithfulness_index(tpr: float, fpr: float) -> float:
    """FI = 2·TPR·(1−FPR) / (TPR + 1 − FPR): the harmonic mean of TPR and 1 − FPR, 0 when
    both are 0."""
    denominator = tpr + 1 - fpr
    return 0.0 if denominator == 0 else 2 * tpr * (1 - fpr) / denominator


def compute(results: Iterable[CaseResult]) -> Metrics:
    """The metrics of a group of cases (a run's, or a result file's read back with
    :func:`afcheck_faithfulness.records.from_json`); excluded cases are counted apart."""
    n = ei = sc = afo = afp = proved = excluded = tc = 0
    contingency: Counter[str] = Counter({o.value: 0 for o in Outcome})
    for result in results:
        if result.excluded:
            excluded += 1
            continue
        n += 1
        ei += result.error_induction
        sc += result.silent_correction
        afo += result.af_fail_original
        afp += result.af_fail_perturbed
        tc += result.tc_fail
        proved += result.proved_original
        contingency[result.outcome] += 1  # an Outcome is its own value, a str
    return Metrics(n, ei, sc, afo, afp, proved, dict(contingency), excluded, tc)


_EFFECT = {True: "effective", False: "ineffective", None: "unknown"}


@dataclass(frozen=True)
class FaithfulnessSummary:
    """The FaithformBench metrics of a run: overall, per dataset, and the perturbations."""

    overall: Metrics
    by_dataset: Mapping[str, Metrics]
    cases: int = 0
    perturbation_rules: Mapping[str, int] = field(default_factory=dict)
    perturbation_effect: Mapping[str, int] = field(default_factory=dict)
    """How many perturbations are known effective, known ineffective, or unknown."""
    warnings: Mapping[str, int] = field(default_factory=dict)
    """Semantic-drift warnings by detector, over every case (never part of the metrics)."""
    by_dataset_warnings: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    method: str = "faithfulness"
    standing: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Per dataset, how many verdicts (z and z̄) were certified by which judge
    (``judged:NAME``), left unjudged by one (``unjudged``) or decided without one
    (``uncertified``): :attr:`afcheck.types.Verdict.standing`."""

    @property
    def evaluated(self) -> int:
        return self.overall.N

    def lines(self) -> list[str]:
        from afcheck_faithfulness.terminal import summary_lines

        return summary_lines(self)

    def sections(self) -> JsonObject:
        return {
            "details": {
                "overall": self.overall.to_json(),
                "by_dataset": {name: m.to_json() for name, m in self.by_dataset.items()},
            },
            "perturbations": {"cases": self.cases,
                              "rules": dict(self.perturbation_rules),
                              "effectiveness": dict(self.perturbation_effect)},
            "warnings": dict(self.warnings),
            "verdicts": {name: dict(counts) for name, counts in self.standing.items()},
        }

    def properties(self, group: str) -> dict[str, str]:
        metrics = self.by_dataset.get(group)
        if metrics is None:  # a group of unreadable records only: no metrics to give
            return {}
        props = {f"contingency.{k}": str(v) for k, v in metrics.contingency.items()}
        props.update({f"warnings.{k}": str(v)
                      for k, v in self.by_dataset_warnings.get(group, {}).items()})
        props.update({f"verdicts.{k}": str(v) for k, v in self.standing.get(group, {}).items()})
        return props

    def metrics(self) -> TypedMetrics:
        """The typed metrics (:meth:`Metrics.typed`), overall and per dataset."""
        return TypedMetrics(self.overall.typed(),
                     {name: m.typed() for name, m in self.by_dataset.items()})


def summarise(results: Sequence[CaseResult]) -> FaithfulnessSummary:
    """The metrics of a run's case results, overall and per dataset.

    Each case is counted once, in its dataset: the overall counts are the datasets' summed
    (every case is in exactly one), where counting every case again cost as much as the
    datasets' counting."""
    datasets: dict[str, list[CaseResult]] = {}
    for result in results:
        datasets.setdefault(result.step.dataset, []).append(result)
    rules = Counter(r.perturbation.rule for r in results)
    effect = Counter(_EFFECT[r.perturbation.effective] for r in results
                     if r.perturbation.text is not None)
    by_dataset = {name: compute(group) for name, group in sorted(datasets.items())}
    return FaithfulnessSummary(
        overall=total(by_dataset.values()),
        by_dataset=by_dataset,
        cases=len(results),
        perturbation_rules=dict(sorted(rules.items())),
        perturbation_effect={name: effect[name] for name in _EFFECT.values()},
        warnings=warning_counts(results),
        by_dataset_warnings={name: warning_counts(group)
                             for name, group in sorted(datasets.items())},
        standing={name: _standing_counts(group) for name, group in sorted(datasets.items())},
    )


def total(groups: Iterable[Metrics]) -> Metrics:
    """The metrics of the cases of ``groups`` together (groups that share no case): what
    :func:`compute` gives for all their cases."""
    n = ei = sc = afo = afp = proved = excluded = tc = 0
    contingency = dict.fromkeys((o.value for o in Outcome), 0)
    for m in groups:
        n += m.N
        ei += m.error_induction
        sc += m.silent_correction
        afo += m.af_fail_original
        afp += m.af_fail_perturbed
        proved += m.proved_original
        excluded += m.excluded
        tc += m.tc_fail
        for name, count in m.contingency.items():
            contingency[name] = contingency.get(name, 0) + count
    return Metrics(n, ei, sc, afo, afp, proved, contingency, excluded, tc)


def _standing_counts(results: Iterable[CaseResult]) -> dict[str, int]:
    counts = Counter(v.standing for r in results for v in (r.z, r.z_bar)
                     if v is not None and v.standing)
    return dict(sorted(counts.items()))


def warning_counts(results: Iterable[CaseResult]) -> dict[str, int]:
    """Semantic-drift warnings by detector, detectors in name order."""
    counts = Counter(w.detector for r in results for w in r.warnings)
    return dict(sorted(counts.items()))
