"""The summary table printed at the end of a run."""

from __future__ import annotations

import textwrap

from tabulate import tabulate

from afcheck_faithfulness.metrics import FaithfulnessSummary, Metrics
from afcheck_faithfulness.records import Outcome

_COLUMNS = ("N", "FNR", "FPR", "AFFR", "UFLB", "TPR", "FI")


_STANDING = {"unjudged": "proved or refuted in a Lean REPL without a judge",
             "uncertified": "decided without a judge (smt)"}


def _standing_total(summary: FaithfulnessSummary) -> dict[str, int]:
    total: dict[str, int] = {}
    for counts in summary.standing.values():
        for name, count in counts.items():
            total[name] = total.get(name, 0) + count
    return dict(sorted(total.items()))


def summary_lines(summary: FaithfulnessSummary) -> list[str]:
    """The metrics table, the contingency table and exclusions, as lines of text."""
    rows = [_row(name, m) for name, m in summary.by_dataset.items()]
    if len(summary.by_dataset) != 1:
        rows.append(_row("overall", summary.overall))
    lines = ["FaithformBench metrics (95% Wilson interval of UFLB in brackets)"]
    lines += tabulate(rows, headers=("dataset", *_COLUMNS, "UFLB 95% CI"),
                      floatfmt=".3f").splitlines()
    lines.append("")
    contingency = [
        [name, *(m.contingency.get(o.value, 0) for o in Outcome), m.excluded]
        for name, m in [*summary.by_dataset.items(), ("overall", summary.overall)]
    ]
    lines += tabulate(contingency, headers=("(z, z̄)", "faithful (⊤,⊥)", "sycophancy (⊤,⊤)",
                                            "abstention (⊥,⊥)", "inversion (⊥,⊤)",
                                            "inconclusive", "excluded")).splitlines()
    if summary.perturbation_rules:
        rules = ", ".join(f"{rule} {count}" for rule, count in summary.perturbation_rules.items())
        effect = ", ".join(f"{name} {count}" for name, count in
                           summary.perturbation_effect.items())
        lines += ["", f"{summary.cases} cases; perturbations by rule: {rules}",
                  f"perturbation effectiveness: {effect}"]
    standing = _standing_total(summary)
    if any(name != "uncertified" for name in standing):
        # Which verdicts a judge stands behind, once Lean provers are in play.
        lines.append("verdicts: " + ", ".join(
            f"{count} {_STANDING.get(name, name.replace('judged:', 'certified by the judge '))}"
            for name, count in standing.items()))
    if summary.warnings:
        lines.append("drift warnings: " + ", ".join(f"{name} {count}" for name, count
                                                    in summary.warnings.items()))
    if summary.overall.af_fail_original + summary.overall.af_fail_perturbed:
        m = summary.overall
        af = m.af_fail_original + m.af_fail_perturbed
        lines.append(f"AF failures: {af} ({m.tc_fail} TC-Fail, {af - m.tc_fail} AF-Fail)")
    lines += reading(summary.overall)
    return lines


def reading(m: Metrics) -> list[str]:
    """What the failed cases are, in words: which failure events of the 2N formalised sides
    they come from, so that "53 failed" reads as what the formaliser did."""
    if not m.N:
        return []
    af = m.af_fail_original + m.af_fail_perturbed
    text = (f"what failed: {af} of {2 * m.N} formalised sides are AF failures (no statement "
            "that checks: the step is outside what the formaliser formalises), "
            f"{m.error_induction} error induction (a valid step formalised refutable), "
            f"{m.silent_correction} silent correction (an invalid step formalised provable); "
            "a case with any of these fails")
    return textwrap.wrap(text, 96, subsequent_indent="  ", break_on_hyphens=False)


def _row(name: str, m: Metrics) -> list[object]:
    ci = m.intervals()["UFLB"]
    return [name, m.N, m.FNR, m.FPR, m.AFFR, m.UFLB, m.TPR, m.FI,
            f"[{ci.low:.3f}, {ci.high:.3f}]"]
