"""The report section of the ``faithfulness`` method (FaithformBench).

Figures 3–4 (UFLB stacked bars) and Figure 5 (contingency) with one panel per run, the metric
table per dataset with 95% Wilson intervals, perturbation rules and drift-warning counts; and
the step browser's record of each case: both texts with the edit, both statements, both
verdicts with their evidence, raw outputs by reference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from afcheck_faithfulness.metrics import Metrics

from afcheck_report.charts import (
    OUTCOME_COLOURS,
    UFLB_PARTS,
    Panel,
    contingency_bars,
    legend,
    uflb_bars,
    y_limit,
)
from afcheck_report.faithfulness import OUTCOMES, PairRecord, by_dataset, metrics, records
from afcheck_report.sections import BrowseTables, RunSteps

_RATES = ("FNR", "FPR", "AFFR", "UFLB", "TPR")


class FaithfulnessSection:
    title = "Faithfulness (FaithformBench)"

    def render(self, runs: Sequence[RunSteps]) -> str:
        groups = [(item, records(item.steps)) for item in runs]
        datasets = sorted({r.dataset for _, recs in groups for r in recs})
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

    def _table(self, groups: Sequence[tuple[RunSteps, list[PairRecord]]],
               datasets: Sequence[str], multiple: bool) -> str:
        head = ("<tr><th>dataset</th>" + ("<th>run</th>" if multiple else "")
                + "<th>N</th>" + "".join(f"<th>{n}</th>" for n in _RATES)
                + "<th>FI</th><th>error induction</th><th>silent correction</th>"
                "<th>AF failures (orig / pert)</th><th>TC-Fail</th><th>excluded</th></tr>")
        rows = []
        for name in [*datasets, "all"]:
            for index, (item, recs) in enumerate(groups):
                chosen = recs if name == "all" else [r for r in recs if r.dataset == name]
                if not chosen:
                    continue
                m = metrics(chosen)
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

    def _rules(self, groups: Sequence[tuple[RunSteps, list[PairRecord]]]) -> str:
        rows = []
        for item, recs in groups:
            rules = Counter(r.rule for r in recs)
            cells = ", ".join(f"{escape(rule)} {count}" for rule, count in sorted(rules.items()))
            rows.append(f"<tr><td>{escape(item.run.label)}</td><td>{cells}</td></tr>")
        return ("<h3>Perturbations by rule</h3><table class=metrics><thead><tr><th>run</th>"
                f"<th>cases by rule</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")

    def _warnings(self, groups: Sequence[tuple[RunSteps, list[PairRecord]]]) -> str:
        counts = [(item, _warning_counts(item.steps)) for item, _ in groups]
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

    def browse(self, step: Mapping[str, Any], tables: BrowseTables) -> dict[str, Any]:
        # Short keys, repeated strings by reference and empty fields left out: the records of
        # a 25,000-step run are most of the page's weight.
        perturbation = _mapping(step.get("perturbation"))
        edit = _mapping(perturbation.get("edit"))
        context = step.get("context")
        perturbed_text = perturbation.get("text")
        record: dict[str, Any] = {
            "t": str(step.get("text") or ""),
            "p": perturbed_text if isinstance(perturbed_text, str) else None,
            "fo": _formalisation(step.get("original"), tables),
            "fp": _formalisation(step.get("perturbed"), tables),
            "z": _verdict(step.get("z"), tables),
            "zb": _verdict(step.get("z_bar"), tables),
        }
        if isinstance(context, list) and context:
            record["c"] = [tables.strings.ref(str(c)) for c in context]
        if perturbation.get("reason"):
            record["pr"] = str(perturbation["reason"])
        if isinstance(perturbation.get("effective"), bool):
            record["pe"] = perturbation["effective"]
        if step.get("events"):
            record["ev"] = [str(e) for e in step["events"]]
        if step.get("excluded"):
            record["x"] = str(step["excluded"])
        if edit and all(isinstance(edit.get(k), int) for k in ("start", "end")):
            record["e"] = [edit["start"], edit["end"], str(edit.get("old", "")),
                           str(edit.get("new", ""))]
        return record


def _warning_counts(steps: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for step in steps:
        for warning in step.get("warnings") or ():
            if isinstance(warning, dict):
                counts[str(warning.get("detector", "?"))] += 1
    return dict(counts)


def _rate(m: Metrics, name: str) -> str:
    interval = m.intervals()[name]
    return (f"<td class=num>{getattr(m, name):.3f} <span class=ci>[{interval.low:.3f}, "
            f"{interval.high:.3f}]</span></td>")


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _formalisation(value: object, tables: BrowseTables) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    statement = value.get("statement")
    raw = str(value.get("raw_output") or "")
    record: dict[str, Any] = {"st": str(value.get("status") or ""),
                              "f": tables.strings.ref(str(value.get("formaliser") or ""))}
    if isinstance(statement, str):
        record["s"] = statement
    if value.get("header"):
        record["h"] = tables.strings.ref(str(value["header"]))
    if value.get("reason"):
        record["r"] = tables.strings.ref(str(value["reason"]))
    # A raw output equal to the statement adds nothing; others go to the lazily read table.
    if raw and raw.strip() != (statement or "").strip():
        record["raw"] = tables.raw.ref(raw)
    return record


def _verdict(value: object, tables: BrowseTables) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    record: dict[str, Any] = {"k": str(value.get("kind") or ""),
                              "b": tables.strings.ref(str(value.get("backend") or ""))}
    if value.get("certified"):
        record["c"] = True
    if value.get("reason"):
        record["r"] = tables.strings.ref(str(value["reason"]))
    if value.get("evidence"):
        record["e"] = str(value["evidence"])
    counterexample = value.get("counterexample")
    if isinstance(counterexample, dict):
        record["cx"] = {str(k): str(v) for k, v in counterexample.items()}
    return record


SECTION = FaithfulnessSection()
