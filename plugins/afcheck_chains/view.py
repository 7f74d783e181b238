"""The report view of the ``chains`` method (multi-step FOL chain verification).

The class table T1–T4 / F1–F2 per run (and dataset) with 95% Wilson intervals and a 100% bar
chart, the expected-class accuracy with its confusion table, the step-label macro-F1 with
the gold × predicted table, the translation's execution rate and accuracy, the
analysis-failure rate and the no-answer and cut-off outcomes; FOL-BLEU and logical
equivalence against gold FOL and the path-dependence diagnostic; and the step browser's record
of each chain: premises, conclusion, each step with its FOL, its label (and gold label) and
whether it is on the proof path, the steps dropped as repeats, each sentence's FB and LE and
whether the path is valid only by restating the conclusion (drawn by ``view.js``). Items are
read back as the run's own :class:`afcheck_chains.records.ChainResult`
(:func:`afcheck_chains.records.from_json`) and counted by
:func:`afcheck_chains.metrics.metrics`, exactly as the run counts them; ``afcheck compare``
shows those figures over the items two runs share, and names an item's outcome by its class
(else its analysis status).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources

from afcheck_report.plots import legend, rate_cell, share_bars
from afcheck_report.view import (
    BrowseRecord,
    BrowseTables,
    MethodView,
    Metric,
    Record,
    RunSteps,
)

from afcheck.metrics import Rate
from afcheck_chains.classes import CLASS_NAMES, CLASS_TABLE
from afcheck_chains.metrics import ChainMetrics
from afcheck_chains.metrics import metrics as group
from afcheck_chains.records import (
    ChainResult,
    Label,
    SentenceQuality,
    StepResult,
    from_json,
)

STEP_LABELS = tuple(label.value for label in Label)
"""Every label a step can get, in display order."""

OTHER = ("analysis_failure", "undecided", "no_answer", "no_reasoning", "cut_off", "label_only")
"""What a chain gets instead of a class."""

COLOURS = {"T1": "#2e7d32", "T2": "#81c784", "T3": "#3b7dd8", "T4": "#90b8ee",
           "F1": "#f0ad4e", "F2": "#d9534f", "analysis_failure": "#616161",
           "undecided": "#bdbdbd", "no_answer": "#d7ccc8", "no_reasoning": "#efebe9",
           "cut_off": "#a1887f",
           "label_only": "#8e44ad"}


class ChainsView(MethodView):
    title = "Reasoning chains (chains)"
    filters = (("class", "chain class"), ("expected", "expected class"))
    outcome_keys = ("class", "analysis")

    def __init__(self) -> None:
        self.script = resources.files("afcheck_chains").joinpath("view.js").read_text("utf-8")

    def metrics(self, steps: Sequence[Record]) -> Mapping[str, Metric]:
        return group(_results(steps)).typed()

    def render(self, runs: Sequence[RunSteps]) -> str:
        groups = [(item, _results(item.steps)) for item in runs]
        multiple = len(runs) > 1
        datasets = sorted({r.dataset for _, recs in groups for r in recs})
        rows: list[tuple[str, str, ChainMetrics]] = []
        for name in [*(datasets if len(datasets) > 1 else []), "all"]:
            for item, recs in groups:
                chosen = recs if name == "all" else [r for r in recs if r.dataset == name]
                if chosen:
                    rows.append((name, item.run.label, group(chosen)))
        bars = [(f"{label} · {name}" if multiple and len(datasets) > 1 else
                 (label if multiple else name), _shares(g)) for name, label, g in rows]
        meanings = "; ".join(f"<b>{r.name}</b> {escape(r.meaning)}" for r in CLASS_TABLE)
        out = ["<h3>Chain classes</h3>",
               legend([(name, COLOURS[name]) for name in (*CLASS_NAMES, *OTHER)]),
               f'<div class="panels">{share_bars("chains by class", bars, COLOURS, "classes")}'
               "</div>",
               _class_table(rows, multiple),
               f"<p class=caption>{meanings}. Shares of the classified chains with their 95% "
               "Wilson interval; analysis failures (no translation agreed with the gold label "
               "within the retries) and undecided chains (stopped at a limit) have no class.</p>",
               self._expected(groups),
               self._steps(groups),
               self._analysis(groups),
               self._quality(groups)]
        return "\n".join(part for part in out if part)

    def _expected(self, groups: Sequence[tuple[RunSteps, list[ChainResult]]]) -> str:
        totals = [(item, group(recs)) for item, recs in groups]
        names = sorted({name for _, g in totals for name in g.expected})
        if not names:
            return ""
        head = ("<tr><th>expected class</th>"
                + "".join(f"<th>{escape(item.run.label)}</th>" for item, _ in totals) + "</tr>")
        rows = []
        for name in names:
            cells = "".join(_rate_count(g.expected.get(name)) for _, g in totals)
            rows.append(f"<tr><td>{escape(name)}</td>{cells}</tr>")
        cells = "".join(_rate_count(g.expected_accuracy) for _, g in totals)
        rows.append(f'<tr class="total"><td>all</td>{cells}</tr>')
        confusions = "".join(_confusion(f"{item.run.label}: expected × got", g.confusion,
                                        names, [*CLASS_NAMES, *OTHER], "expected")
                             for item, g in totals)
        return ("<h3>Expected-class accuracy</h3><table class=metrics><thead>" + head
                + "</thead><tbody>" + "".join(rows) + "</tbody></table>"
                + f'<div class="panels">{confusions}</div>'
                + "<p class=caption>For suites that know each chain's class: the share of "
                "chains classified exactly as expected, with its 95% Wilson interval.</p>")

    def _steps(self, groups: Sequence[tuple[RunSteps, list[ChainResult]]]) -> str:
        totals = [(item, group(recs)) for item, recs in groups]
        if not any(g.step_pairs for _, g in totals):
            return ("<h3>Step labels</h3><p class=note>No step has a gold label in these "
                    "runs: the step-label F1 needs data that annotate steps.</p>")
        rows = "".join(
            f"<tr><td>{escape(item.run.label)}</td><td class=num>"
            + ("n/a" if g.step_macro_f1 is None else f"{g.step_macro_f1:.3f}")
            + f"</td><td class=num>{g.step_pairs}</td></tr>" for item, g in totals)
        predicted = [label for label in STEP_LABELS
                     if any(p == label for _, g in totals for (_, p) in g.step_confusion)
                     or label in STEP_LABELS[:3]]
        confusions = "".join(_confusion(f"{item.run.label}: gold × predicted",
                                        g.step_confusion, list(STEP_LABELS[:3]), predicted,
                                        "gold") for item, g in totals if g.step_pairs)
        return ("<h3>Step labels</h3><table class=metrics><thead><tr><th>run</th>"
                "<th>macro-F1</th><th>steps with a gold label</th></tr></thead><tbody>"
                + rows + f'</tbody></table><div class="panels">{confusions}</div>'
                + "<p class=caption>Each step labelled by the prover (True: follows from the "
                "premises; False: its negation does; Unknown: neither; Error: both), against "
                "the gold label; macro-F1 over True / False / Unknown.</p>")

    def _analysis(self, groups: Sequence[tuple[RunSteps, list[ChainResult]]]) -> str:
        rows = []
        for item, recs in groups:
            g = group(recs)
            rows.append(f"<tr><td>{escape(item.run.label)}</td><td class=num>{g.n}</td>"
                        + _rate(g.execution_rate) + _rate(g.execution_accuracy)
                        + _rate(g.analysis_failure) + _rate(g.undecided)
                        + _rate(g.no_answer) + _rate(g.cut_off) + "</tr>")
        return ("<h3>Translation and analysis</h3><table class=metrics><thead><tr><th>run</th>"
                "<th>N</th><th>execution rate</th><th>execution accuracy</th>"
                "<th>analysis-failure rate</th><th>undecided</th><th>no answer found</th>"
                "<th>cut off</th></tr></thead><tbody>"
                + "".join(rows) + "</tbody></table><p class=caption>Execution rate: the first "
                "translation runs in the prover; execution accuracy: its conclusion label "
                "equals the gold label, among those that run (the seed's definitions, on first "
                "attempts). Analysis failure: no translation accepted after the retries. No "
                "answer: the response gives none the reader finds; cut off: the response "
                "stopped at the generation limit (not analysed, not a translation "
                "failure).</p>")

    def _quality(self, groups: Sequence[tuple[RunSteps, list[ChainResult]]]) -> str:
        """FB and LE against gold FOL, and the path-dependence diagnostic."""
        totals = [(item, group(recs)) for item, recs in groups]
        rows = []
        for item, g in totals:
            bleu = "n/a" if g.fol_bleu is None else f"{100 * g.fol_bleu:.1f}"
            compared = g.logical_equivalence.total if g.logical_equivalence else 0
            rows.append(f"<tr><td>{escape(item.run.label)}</td><td class=num>{bleu}</td>"
                        + _rate(g.logical_equivalence) + f"<td class=num>{compared}</td>"
                        + _rate_count(g.t2_restatement)
                        + _rate_count(g.valid_restatement) + "</tr>")
        return ("<h3>Translation quality and path dependence</h3><table class=metrics><thead>"
                "<tr><th>run</th><th>FOL-BLEU</th><th>logical equivalence</th>"
                "<th>sentences with gold FOL</th><th>T2 valid only by restating C</th>"
                "<th>T1/T2 valid only by restating C</th></tr></thead><tbody>"
                + "".join(rows) + "</tbody></table><p class=caption>FOL-BLEU and logical "
                "equivalence (LE) compare each sentence of the first translation with the "
                "data's gold FOL, where it has some (LogicLLaMA's metrics, seed §4.2.1). A "
                "valid proof path holds only by restating the conclusion when, without the "
                "path steps that state the conclusion (or its negation), the path no longer "
                "gives the gold label: Algorithm 3 then says little about the chain.</p>")

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        result = from_json(step)
        steps = [_step(s) for s in result.steps]
        record: BrowseRecord = {
            "t": result.conclusion.text,
            "an": result.analysis,
            "why": result.reason,
            "fx": {"class": result.chain_class or result.analysis,
                   "expected": result.expected_class or ""},
            "sp": steps,
        }
        if result.premises:
            record["pm"] = [tables.strings.ref(p) for p in result.premises]
        if result.conclusion.fol:
            record["cf"] = result.conclusion.fol
        for short, label in (("cl", result.conclusion.label), ("gl", result.gold_label),
                             ("ans", result.answer),
                             ("pcl", result.path_conclusion_label)):
            if label is not None:
                record[short] = label.value
        if result.expected_class is not None:
            record["ecl"] = result.expected_class
        for short, flag in (("ac", result.answer_correct), ("vp", result.valid_path)):
            if flag is not None:
                record[short] = flag
        if result.restatement_only is True:
            record["rq"] = True
        if result.repeated:
            record["rp"] = [f"step {position} ({text}) repeats step {earlier}"
                            for position, earlier, text in result.repeated]
        if result.quality:
            record["fq"] = [_quality_note(q) for q in result.quality]
        # A chain's result has a path and attempts; an unreadable item's record has neither.
        if result.analysis:
            record["pa"] = list(result.path)
        if result.prover:
            record["pv"] = tables.strings.ref(result.prover)
        if result.analysis:
            record["at"] = result.attempts
        # What the model wrote, so that an analysis failure can be looked at.
        if result.response:
            record["raw"] = tables.raw.ref(result.response)
        if result.answer_cut:
            record["cut"] = result.answer_cut
        if result.raw_outputs:
            record["fr"] = tables.raw.ref(result.raw_outputs[-1])
        if steps:
            labelled = [s.label for s in result.steps]
            record["n"] = (f"{sum(1 for x in labelled if x is Label.TRUE)}/{len(labelled)} "
                           f"steps True, path {len(result.path)}")
        return record


def _results(steps: Sequence[Record]) -> list[ChainResult]:
    return [from_json(step) for step in steps]


def _quality_note(quality: SentenceQuality) -> str:
    """``premise 3: FB 0.61, equivalent``."""
    equivalent = {True: "equivalent", False: "not equivalent",
                  None: "equivalence undecided"}[quality.equivalent]
    return f"{quality.role}: FB {quality.bleu:.2f}, {equivalent}"


def _step(step: StepResult) -> BrowseRecord:
    out: BrowseRecord = {"x": step.text}
    if step.fol is not None:
        out["f"] = step.fol
    for short, label in (("l", step.label), ("g", step.gold)):
        if label is not None:
            out[short] = label.value
    if step.in_path:
        out["p"] = 1
    if step.statuses:
        out["st"] = "/".join(step.statuses)
    return out


def _shares(g: ChainMetrics) -> list[tuple[str, int]]:
    others = [(name, g.analyses.get(name, 0)) for name in OTHER]
    return [(name, g.classes[name].count) for name in CLASS_NAMES] + others


def _class_table(rows: Sequence[tuple[str, str, ChainMetrics]], multiple: bool) -> str:
    head = ("<tr><th>dataset</th>" + ("<th>run</th>" if multiple else "") + "<th>N</th>"
            + "".join(f"<th>{name}</th>" for name in CLASS_NAMES)
            + "<th>analysis failures</th><th>undecided</th></tr>")
    body = []
    previous = ""
    for name, label, g in rows:
        first = name != previous
        previous = name
        cells = "".join(
            f"<td class=num>{g.classes[c].count}" + _share(g.classes[c]) + "</td>"
            for c in CLASS_NAMES)
        body.append(f'<tr class="{"total" if name == "all" else ""}">'
                    f"<td>{escape(name) if first else ''}</td>"
                    + (f"<td>{escape(label)}</td>" if multiple else "")
                    + f"<td class=num>{g.n}</td>{cells}"
                    f"<td class=num>{g.analysis_failure.count}</td>"
                    f"<td class=num>{g.undecided.count}</td></tr>")
    return (f'<div class="scroll"><table class="metrics chains"><thead>{head}</thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')


def _confusion(title: str, counts: Mapping[tuple[str, str], int], rows: Sequence[str],
               columns: Sequence[str], corner: str) -> str:
    used = [c for c in columns if any(counts.get((r, c)) for r in rows)]
    head = (f"<tr><th>{escape(corner)} ↓</th>"
            + "".join(f"<th>{escape(c)}</th>" for c in used) + "</tr>")
    body = "".join(
        f"<tr><td>{escape(r)}</td>"
        + "".join(f'<td class="num{" diag" if r == c else ""}">{counts.get((r, c), 0) or ""}'
                  "</td>" for c in used) + "</tr>" for r in rows)
    return (f'<table class="metrics confusion"><caption>{escape(title)}</caption>'
            f"<thead>{head}</thead><tbody>{body}</tbody></table>")


def _share(rate: Rate) -> str:
    """`` <span class=ci>value [low, high]</span>``; nothing for a rate over no item."""
    if rate.value is None:
        return ""
    return (f" <span class=ci>{rate.value:.3f} [{rate.interval.low:.3f}, "
            f"{rate.interval.high:.3f}]</span>")


def _rate(rate: Rate | None) -> str:
    if rate is None:
        return "<td class=num>n/a</td>"
    return rate_cell(rate.value, rate.interval if rate.total else None)


def _rate_count(rate: Rate | None) -> str:
    if rate is None or not rate.total:
        return "<td class=num>–</td>"
    return f"<td class=num>{rate.count}/{rate.total}{_share(rate)}</td>"
