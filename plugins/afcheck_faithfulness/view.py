"""The report view of the ``faithfulness`` method (FaithformBench).

Figures 3–4 (UFLB stacked bars) and Figure 5 (contingency) with one panel per run, the metric
table per dataset with 95% Wilson intervals, perturbation rules and drift-warning counts; the
step browser's record of each case: both texts with the edit, both statements, both verdicts
with their evidence, raw outputs by reference (drawn by ``view.js``). Cases are read with
:class:`afcheck_faithfulness.records.CaseRecord` and counted by
:func:`afcheck_faithfulness.metrics.compute`, exactly as the run counts them.

For ``afcheck compare``: the failure events (any, error induction, silent correction, AF
failure), each tested with McNemar's exact test, and the metrics as proportions of cases (FNR,
FPR, TPR) or of their two sides (AFFR, UFLB), with paired intervals; excluded cases are left
out. For ``afcheck report``: ``--drift`` runs the semantic-drift detectors on cases whose
record has no warnings yet.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
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

from afcheck_faithfulness.charts import (
    OUTCOME_COLOURS,
    OUTCOMES,
    UFLB_PARTS,
    Panel,
    contingency_bars,
    uflb_bars,
    y_limit,
)
from afcheck_faithfulness.metrics import Metrics, compute, faithfulness_index
from afcheck_faithfulness.records import CaseRecord

_RATES = ("FNR", "FPR", "AFFR", "UFLB", "TPR")


def by_dataset(group: Sequence[CaseRecord]) -> dict[str, Metrics]:
    """Metrics per dataset, datasets in name order."""
    groups: dict[str, list[CaseRecord]] = {}
    for record in group:
        groups.setdefault(record.dataset, []).append(record)
    return {name: compute(groups[name]) for name in sorted(groups)}


class FaithfulnessView(MethodView):
    title = "Faithfulness (FaithformBench)"

    def __init__(self) -> None:
        self.script = resources.files("afcheck_faithfulness").joinpath("view.js") \
            .read_text("utf-8")
        self._read: dict[int, tuple[Record, CaseRecord]] = {}
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
                             excluded=lambda s: self.case(s).excluded)

    def case(self, step: Record) -> CaseRecord:
        """The case of ``step``, read once (``compare`` asks several questions of each)."""
        known = self._read.get(id(step))
        if known is not None and known[0] is step:
            return known[1]
        record = CaseRecord.from_json(step)
        self._read[id(step)] = (step, record)
        return record

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--drift", action="store_true",
                            help="faithfulness: run the semantic-drift detectors on cases whose "
                            "record has no warnings yet (needs z3)")

    def prepare(self, steps: Sequence[Record], args: argparse.Namespace) -> Sequence[Record]:
        return with_drift_warnings(steps) if getattr(args, "drift", False) else steps

    def render(self, runs: Sequence[RunSteps]) -> str:
        groups = [(item, [self.case(s) for s in item.steps]) for item in runs]
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

    def _table(self, groups: Sequence[tuple[RunSteps, list[CaseRecord]]],
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

    def _rules(self, groups: Sequence[tuple[RunSteps, list[CaseRecord]]]) -> str:
        rows = []
        for item, recs in groups:
            rules = Counter(r.rule for r in recs)
            cells = ", ".join(f"{escape(rule)} {count}" for rule, count in sorted(rules.items()))
            rows.append(f"<tr><td>{escape(item.run.label)}</td><td>{cells}</td></tr>")
        return ("<h3>Perturbations by rule</h3><table class=metrics><thead><tr><th>run</th>"
                f"<th>cases by rule</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")

    def _warnings(self, groups: Sequence[tuple[RunSteps, list[CaseRecord]]]) -> str:
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

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        # Short keys, repeated strings by reference and empty fields left out: the records of
        # a 25,000-step run are most of the page's weight.
        perturbation = _mapping(step.get("perturbation"))
        edit = _mapping(perturbation.get("edit"))
        context = step.get("context")
        perturbed_text = perturbation.get("text")
        record: BrowseRecord = {
            "t": str(step.get("text") or ""),
            "p": perturbed_text if isinstance(perturbed_text, str) else None,
            "fo": _formalisation(step.get("original"), tables),
            "fp": _formalisation(step.get("perturbed"), tables),
            "z": _verdict(step.get("z"), tables),
            "zb": _verdict(step.get("z_bar"), tables),
            "ru": str(perturbation.get("rule") or ""),
        }
        warnings = _warnings(step.get("warnings"))
        if warnings:
            record["w"] = warnings
        if isinstance(context, list) and context:
            record["c"] = [tables.strings.ref(str(c)) for c in context]
        if perturbation.get("reason"):
            record["pr"] = str(perturbation["reason"])
        if isinstance(perturbation.get("effective"), bool):
            record["pe"] = perturbation["effective"]
        events = step.get("events")
        if isinstance(events, list) and events:
            record["ev"] = [str(e) for e in events]
        if step.get("excluded"):
            record["x"] = str(step["excluded"])
        start, end = edit.get("start"), edit.get("end")
        if isinstance(start, int) and isinstance(end, int):
            record["e"] = [start, end, str(edit.get("old", "")), str(edit.get("new", ""))]
        return record


def _warnings(value: object) -> list[dict[str, str]]:
    if not isinstance(value, list):
        return []
    return [{"d": str(w.get("detector", "")), "g": str(w.get("message", "")),
             "sd": str(w.get("side", ""))} for w in value if isinstance(w, dict)]


def _warning_counts(steps: Iterable[Record]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for step in steps:
        warnings = step.get("warnings")
        for warning in warnings if isinstance(warnings, list) else ():
            if isinstance(warning, dict):
                counts[str(warning.get("detector", "?"))] += 1
    return dict(counts)


def with_drift_warnings(steps: Sequence[Record]) -> list[Record]:
    """``steps`` with the drift detectors' warnings added to each case that has none recorded
    (a file written before detectors ran, or by a run with ``--detectors none``): for each
    side whose formalisation succeeded, the detectors read that side's text (the step, or its
    perturbation) and statement. Running them again where a run found nothing finds nothing
    again."""
    from afcheck_drift.detectors import detect_all

    out: list[Record] = []
    for step in steps:
        if step.get("warnings"):
            out.append(step)
            continue
        warnings = []
        perturbation = _mapping(step.get("perturbation"))
        texts = {"original": step.get("text"), "perturbed": perturbation.get("text")}
        for side, text in texts.items():
            formal = step.get(side)
            if not isinstance(text, str) or not isinstance(formal, dict):
                continue
            statement = formal.get("statement")
            if formal.get("status") != "ok" or not isinstance(statement, str):
                continue
            for warning in detect_all(text, statement, str(formal.get("header") or "")):
                warnings.append({**warning.to_json(), "side": side})
        out.append({**step, "warnings": warnings})
    return out


def _rate(m: Metrics, name: str) -> str:
    interval = m.intervals()[name]
    return (f"<td class=num>{getattr(m, name):.3f} <span class=ci>[{interval.low:.3f}, "
            f"{interval.high:.3f}]</span></td>")


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _formalisation(value: object, tables: BrowseTables) -> BrowseRecord | None:
    if not isinstance(value, dict):
        return None
    statement = value.get("statement")
    raw = str(value.get("raw_output") or "")
    record: BrowseRecord = {"st": str(value.get("status") or ""),
                              "f": tables.strings.ref(str(value.get("formaliser") or ""))}
    if isinstance(statement, str):
        record["s"] = statement
    if value.get("header"):
        record["h"] = tables.strings.ref(str(value["header"]))
    if value.get("reason"):
        record["r"] = tables.strings.ref(str(value["reason"]))
    # A raw output equal to the statement adds nothing; others go to the lazily read table.
    if raw and raw.strip() != (statement if isinstance(statement, str) else "").strip():
        record["raw"] = tables.raw.ref(raw)
    return record


def _verdict(value: object, tables: BrowseTables) -> BrowseRecord | None:
    if not isinstance(value, dict):
        return None
    record: BrowseRecord = {"k": str(value.get("kind") or ""),
                              "b": tables.strings.ref(str(value.get("backend") or ""))}
    if value.get("certified"):
        record["c"] = True
    if value.get("judged_by"):
        record["j"] = tables.strings.ref(str(value["judged_by"]))
    if value.get("unjudged"):
        record["u"] = str(value["unjudged"])
    if value.get("reason"):
        record["r"] = tables.strings.ref(str(value["reason"]))
    if value.get("evidence"):
        record["e"] = str(value["evidence"])
    counterexample = value.get("counterexample")
    if isinstance(counterexample, dict):
        record["cx"] = {str(k): str(v) for k, v in counterexample.items()}
    return record

