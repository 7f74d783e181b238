"""The FaithformBench metrics (§4 of the paper), overall and per dataset.

N is the number of cases evaluated (excluded cases — unperturbable or ineffective
perturbations — are counted apart). With z = Prove(AF(x)) and z̄ = Prove(AF(x̄)):

- FNR = #{z = ⊥} / N                        (error induction)
- FPR = #{z̄ = ⊤} / N                        (silent correction)
- AFFR = (#{AF(x) = ∅} + #{AF(x̄) = ∅}) / 2N  (formalisation failure)
- UFLB = FNR/2 + FPR/2 + AFFR                (unfaithfulness lower bound)
- TPR = #{z = ⊤} / N,  FI = 2·TPR·(1−FPR) / (TPR + 1 − FPR)

z = ⊥ and AF(x) = ∅ exclude each other (a failed formalisation has no verdict), and so do
z̄ = ⊤ and AF(x̄) = ∅; hence UFLB is itself a proportion of the 2N sides — the share of sides
with a failure event — and gets a Wilson interval like the others.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from afcheck.types import CaseResult, Outcome, Status, VerdictKind

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of a binomial proportion; [0, 1] when there are no trials."""
    if trials == 0:
        return Interval(0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exact; rounding would otherwise leave p just outside it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(low, high)


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
        return _ratio(self.error_induction, self.N)

    @property
    def FPR(self) -> float:  # noqa: N802
        return _ratio(self.silent_correction, self.N)

    @property
    def AFFR(self) -> float:  # noqa: N802
        return _ratio(self.af_fail_original + self.af_fail_perturbed, 2 * self.N)

    @property
    def UFLB(self) -> float:  # noqa: N802
        return self.FNR / 2 + self.FPR / 2 + self.AFFR

    @property
    def TPR(self) -> float:  # noqa: N802
        return _ratio(self.proved_original, self.N)

    @property
    def FI(self) -> float:  # noqa: N802
        denominator = self.TPR + 1 - self.FPR
        return 0.0 if denominator == 0 else 2 * self.TPR * (1 - self.FPR) / denominator

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

    def to_json(self) -> dict[str, Any]:
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


def _ratio(count: int, total: int) -> float:
    return count / total if total else 0.0


def compute(results: Iterable[CaseResult]) -> Metrics:
    """The metrics of a group of case results."""
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
        tc += sum(f is not None and f.status.value == "tc_fail"
                  for f in (result.original, result.perturbed))
        proved += result.z is not None and result.z.kind is VerdictKind.PROVED
        contingency[result.outcome.value] += 1
    return Metrics(n, ei, sc, afo, afp, proved, dict(contingency), excluded, tc)


@dataclass(frozen=True)
class RunSummary:
    """What a run produced: every case result, the metrics, the gate decision."""

    results: Sequence[CaseResult]
    overall: Metrics
    by_dataset: Mapping[str, Metrics]
    config: Mapping[str, Any] = field(default_factory=dict)
    gate_failures: tuple[str, ...] = ()
    """One line per gate that failed; empty when no gate was given or all passed."""
    perturbation_rules: Mapping[str, int] = field(default_factory=dict)
    perturbation_effect: Mapping[str, int] = field(default_factory=dict)
    """How many perturbations are known effective, known ineffective, or unknown."""
    timings: Mapping[str, float] = field(default_factory=dict)
    expected_failures: frozenset[str] = frozenset()
    """Case ids that failed in the baseline: their failures show as xfailed."""
    raw_outputs: Callable[[str], str | None] | None = None
    """Raw model outputs kept out of the records, by formalisation key (see
    :mod:`afcheck.spool`); ``None`` when the records hold them."""

    def status_of(self, result: CaseResult) -> Status:
        status = result.status
        if status is Status.FAILED and result.case_id in self.expected_failures:
            return Status.XFAILED
        return status


_EFFECT = {True: "effective", False: "ineffective", None: "unknown"}


def summarise(results: Sequence[CaseResult], config: Mapping[str, Any] | None = None,
              gate_failures: tuple[str, ...] = (),
              timings: Mapping[str, float] | None = None,
              expected_failures: frozenset[str] = frozenset(),
              raw_outputs: Callable[[str], str | None] | None = None) -> RunSummary:
    datasets: dict[str, list[CaseResult]] = {}
    for result in results:
        datasets.setdefault(result.step.dataset, []).append(result)
    rules = Counter(r.perturbation.rule for r in results)
    effect = Counter(_EFFECT[r.perturbation.effective] for r in results
                     if r.perturbation.text is not None)
    return RunSummary(
        results=results,
        overall=compute(results),
        by_dataset={name: compute(group) for name, group in sorted(datasets.items())},
        config=dict(config or {}),
        gate_failures=gate_failures,
        perturbation_rules=dict(sorted(rules.items())),
        perturbation_effect={name: effect[name] for name in _EFFECT.values()},
        timings=dict(timings or {}),
        expected_failures=expected_failures,
        raw_outputs=raw_outputs,
    )
