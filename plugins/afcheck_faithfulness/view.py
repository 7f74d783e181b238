"""The report view of the ``faithfulness`` method (FaithformBench).

Figures 3–4 (UFLB stacked bars) and Figure 5 (contingency) with one panel per run, the metric
table per dataset with 95% Wilson intervals, perturbation rules and drift-warning counts; the
step browser's record of each case: both texts with the edit, both statements, both verdicts
with their evidence, the drift warnings the run recorded, raw outputs by reference (drawn by
``view.js``). Each case is read back as the run's own result
(:func:`afcheck_faithfulness.records.from_json`) and counted by
:func:`afcheck_faithfulness.metrics.compute`, exactly as the run counts it.

For ``afcheck compare``: the failure events (any, error induction, silent correction, AF
failure), each tested with McNemar's exact test, and the metrics as proportions of cases (FNR,
FPR, TPR) or of their two sides (AFFR, UFLB), with paired intervals; excluded cases are left
out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from html import escape
from importlib import resources

from afcheck_report.plots import legend
from afcheck_report.view import (
    BrowseRecord,
    BrowseTables,
    MethodView,
    Paired,
    PairedMetric,
    Record,
    RunSteps,
)

from afcheck.types import Formalisation, Verdict
from afcheck_faithfulness.charts import (
    OUTCOME_COLOURS,
    OUTCOMES,
    UFLB_PARTS,
    Panel,
    contingency_bars,
    uflb_bars,
    y_limit,
)
from afcheck_faithfulness.metrics import Metrics, compute, faithfulness_index, warning_counts
from afcheck_faithfulness.records import CaseResult, from_json

_RATES = ("FNR", "FPR", "AFFR", "UFLB", "TPR")


def by_dataset(group: Sequence[CaseResult]) -> dict[str, Metrics]:
    """Metrics per dataset, datasets in name order."""
    groups: dict[str, list[CaseResult]] = {}
    for result in group:
        groups.setdefault(result.step.dataset, []).append(result)
    return {name: compute(groups[name]) for name in sorted(groups)}


class FaithfulnessView(MethodView):
    title = "Faithfulness (FaithformBench)"

    def __init__(self) -> None:
        self.script = resources.files("afcheck_faithfulness").joinpath("view.js") \
            .read_text("utf-8")
        self._read: dict[int, tuple[Record, CaseResult]] = {}
        events: dict[str, Callable[[Record], bool]] = {
            "any failure": lambda s: self.case(s).failed,
            "error induction": lambda s: self.case(s).error_induction,
            "silent correction": lambda s: self.case(s).silent_correction,
            "AF failure": lambda s: self.case(s).af_failure,
        }
        # AFFR and UFLB are shares of the 2N sides: each side pairs with the same side.
        metrics = {
            "FNR": PairedMetric(lambda s: (self.case(s).error_induction,)),
            "FPR": PairedMetric(lambda s: (self.case(s).silent_correction,)),
            "AFFR": PairedMetric(lambda s: (self.case(s).af_fail_original,
                                            self.case(s).af_fail_perturbed), "sides"),
            "UFLB": PairedMetric(lambda s: (self.case(s).original_failed,
                                            self.case(s).perturbed_failed), "sides"),
            "TPR": PairedMetric(lambda s: (self.case(s).proved_original,)),
        }
        # FI is no proportion of units but a function of two: compared by value, no interval.
        derived = {"FI": lambda m: faithfulness_index(m["TPR"], m["FPR"])}
        self.paired = Paired(events, metrics=metrics, derived=derived,
                             excluded=lambda s: bool(self.case(s).excluded))

    def case(self, step: Record) -> CaseResult:
        """The case of ``step``, read once (``compare`` asks several questions of each)."""
        known = self._read.get(id(step))
        if known is not None and known[0] is step:
            return known[1]
        result = from_json(step)
        self._read[id(step)] = (step, result)
        return result

    def render(self, runs: Sequence[RunSteps]) -> str:
        groups = [(item, [self.case(s) for s in item.steps]) for item in runs]
        datasets = sorted({r.step.dataset for _, recs in groups for r in recs})
        panels = [Panel(item.run.label, by_dataset(recs)) for item, recs in groups]
        top = y_limit(panels)
        out = ['<h3>Unfaithfulness by dataset</h3>',
               legend([(label, colour) for _, label, colour in UFLB_PARTS]),
               '<div class="panels">', *(uflb_bars(p, top) for p in panels), "</div>",
               '<p class="caption">As FaithformBench Figures 3–4: the bar height is '
               "UFLB = FNR/2 + FPR/2 + AFFR (the value above each bar); FPR and FNR are drawn "
               "at the half weight they carry in UFLB. Lower is better. Hover a segment for "
               "its value and 95% Wilson interval.</p>",
               '<h3>Contingency of (z, z̄)</h3>',
               legend([(o, OUTCOME_COLOURS[o]) for o in OUTCOMES]),
               '<div class="panels">', *(contingency_bars(p) for p in panels), "</div>",
               '<p class="caption">As FaithformBench Figure 5: percentage of evaluated cases '
               "per outcome — faithful (⊤,⊥), sycophancy (⊤,⊤), abstention (⊥,⊥), inversion "
               "(⊥,⊤), inconclusive (any ∅).</p>",
               "<h3>Metrics by dataset</h3>",
               self._table(groups, datasets, multiple=len(runs) > 1),
               self._rules(groups),
               self._warnings(groups)]
        return "\n".join(part for part in out if part)

    def _table(self, groups: Sequence[tuple[RunSteps, list[CaseResult]]],
               datasets: Sequence[str], multiple: bool) -> str:
        head = ("<tr><th>dataset</th>" + ("<th>run</th>" if multiple else "")
                + "<th>N</th>" + "".join(f"<th>{n}</th>" for n in _RATES)
                + "<th>FI</th><th>error induction</th><th>silent correction</th>"
                "<th>AF failures (orig / pert)</th><th>TC-Fail</th><th>excluded</th></tr>")
        rows = []
        for name in [*datasets, "all"]:
            for index, (item, recs) in enumerate(groups):
                chosen = recs if name == "all" else [r for r in recs if r.step.dataset == name]
                if not chosen:
                    continue
                m = compute(chosen)
                first = index == 0 or not multiple
                rows.append(
                    f'<tr class="{"total" if name == "all" else ""}">'
                    f"<td>{escape(name) if first else ''}</td>"
                    + (f"<td>{escape(item.run.label)}</td>" if multiple else "")
                    + f"<td class=num>{m.N}</td>" + "".join(_rate(m, n) for n in _RATES)
                    + f"<td class=num>{m.FI:.3f}</td><td class=num>{m.error_induction}</td>"
                    f"<td class=num>{m.silent_correction}</td>"
                    f"<td class=num>{m.af_fail_original} / {m.af_fail_perturbed}</td>"
                    f"<td class=num>{m.tc_fail}</td><td class=num>{m.excluded}</td></tr>")
        return (f'<div class="scroll"><table class="metrics"><thead>{head}</thead>'
                f'<tbody>{"".join(rows)}</tbody></table></div>'
                "<p class=caption>Rates with their 95% Wilson interval. N counts the "
                "evaluated cases; excluded ones (unperturbable, ineffective perturbation) are "
                "counted apart.</p>")

    def _rules(self, groups: Sequence[tuple[RunSteps, list[CaseResult]]]) -> str:
        rows = []
        for item, recs in groups:
            rules = Counter(r.perturbation.rule for r in recs)
            cells = ", ".join(f"{escape(rule)} {count}" for rule, count in sorted(rules.items()))
            rows.append(f"<tr><td>{escape(item.run.label)}</td><td>{cells}</td></tr>")
        return ("<h3>Perturbations by rule</h3><table class=metrics><thead><tr><th>run</th>"
                f"<th>cases by rule</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")

    def _warnings(self, groups: Sequence[tuple[RunSteps, list[CaseResult]]]) -> str:
        counts = [(item, warning_counts(recs)) for item, recs in groups]
        if not any(c for _, c in counts):
            return ""
        rows = "".join(
            f"<tr><td>{escape(item.run.label)}</td><td>"
            + escape(", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "none")
            + "</td></tr>" for item, c in counts)
        return ("<h3>Semantic-drift warnings</h3><table class=metrics><thead><tr><th>run</th>"
                f"<th>warnings by detector</th></tr></thead><tbody>{rows}</tbody></table>"
                "<p class=caption>Warnings never change a verdict; filter the step browser by "
                "detector to read them.</p>")

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        # Short keys, repeated strings by reference and empty fields left out: the records of
        # a 25,000-step run are most of the page's weight.
        case = self.case(step)
        perturbation = case.perturbation
        record: BrowseRecord = {
            "t": case.step.text,
            "p": perturbation.text,
            "fo": _formalisation(case.original, tables),
            "fp": _formalisation(case.perturbed, tables),
            "z": _verdict(case.z, tables),
            "zb": _verdict(case.z_bar, tables),
            "ru": perturbation.rule,
        }
        if case.warnings:
            record["w"] = [{"d": w.detector, "g": w.message, "sd": w.side.value}
                           for w in case.warnings]
        if case.step.context:
            record["c"] = [tables.strings.ref(c) for c in case.step.context]
        if perturbation.reason:
            record["pr"] = perturbation.reason
        if perturbation.effective is not None:
            record["pe"] = perturbation.effective
        events = case.failure_events
        if events:
            record["ev"] = list(events)
        if case.excluded:
            record["x"] = case.excluded
        edit = perturbation.edit
        if edit is not None:
            record["e"] = [edit.start, edit.end, edit.old, edit.new]
        return record


def _rate(m: Metrics, name: str) -> str:
    interval = m.intervals()[name]
    return (f"<td class=num>{getattr(m, name):.3f} <span class=ci>[{interval.low:.3f}, "
            f"{interval.high:.3f}]</span></td>")


def _formalisation(value: Formalisation | None, tables: BrowseTables) -> BrowseRecord | None:
    if value is None:
        return None
    statement = value.statement
    raw = value.raw_output
    record: BrowseRecord = {"st": value.status.value,
                              "f": tables.strings.ref(value.formaliser)}
    if statement is not None:
        record["s"] = statement
    if value.header:
        record["h"] = tables.strings.ref(value.header)
    if value.reason:
        record["r"] = tables.strings.ref(value.reason)
    # A raw output equal to the statement adds nothing; others go to the lazily read table.
    if raw and raw.strip() != (statement or "").strip():
        record["raw"] = tables.raw.ref(raw)
    return record


def _verdict(value: Verdict | None, tables: BrowseTables) -> BrowseRecord | None:
    if value is None:
        return None
    record: BrowseRecord = {"k": value.kind.value, "b": tables.strings.ref(value.backend)}
    if value.certified:
        record["c"] = True
    if value.judged_by:
        record["j"] = tables.strings.ref(value.judged_by)
    if value.unjudged is not None:
        record["u"] = value.unjudged.value
    if value.reason:
        record["r"] = tables.strings.ref(value.reason)
    if value.evidence:
        record["e"] = value.evidence
    if value.counterexample is not None:
        record["cx"] = dict(value.counterexample)
    return record
