"""The report view of the ``nl2fol`` method (NL→FOL checking).

Accuracy overall and by difficulty with 95% Wilson intervals (a chart with whiskers per run
and a table), the syntax-error distribution by class and by rule, the semantic errors with
their mean tree edit distance to the nearest gold; and the step browser's record of each item:
the sentence, the candidate (a syntax error's span marked), the decision, the gold formulas
with the nearest one and the one the verdict is about, the solver's steps and the
counter-model (for a grid world, drawn as a board, by ``view.js``). Items are read back into
decisions (:func:`afcheck_nl2fol.records.from_json`) and counted by
:func:`afcheck_nl2fol.metrics.group`, exactly as the run counts its decisions; ``afcheck
compare`` shows those figures over the items two runs share, and names an item's outcome by
its decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources
from typing import TYPE_CHECKING

from afcheck_fol.taxonomy import ErrorClass
from afcheck_report.plots import Bar, colours_for, interval_bars, legend, rate_cell, share_bars
from afcheck_report.view import (
    BrowseRecord,
    BrowseTables,
    MethodView,
    Metric,
    Record,
    RunSteps,
)

from afcheck_nl2fol.records import Decision, from_json

if TYPE_CHECKING:
    from afcheck_nl2fol.metrics import Group

ERROR_CLASSES = tuple(c.value for c in ErrorClass)
CLASS_COLOURS = colours_for(ERROR_CLASSES)


def decisions(steps: Sequence[Record]) -> list[Decision]:
    """The decisions of a result file's items."""
    return [from_json(step) for step in steps]


def group(items: Sequence[Decision]) -> Group:
    """The metrics of ``items``, by the method's own counting."""
    from afcheck_nl2fol.metrics import group as count

    return count(items)


def by_difficulty(items: Sequence[Decision]) -> dict[str, Group]:
    """Metrics per difficulty tag, the seed's levels first, easiest first."""
    from afcheck_nl2fol.metrics import tag_order

    tags: dict[str, list[Decision]] = {}
    for decision in items:
        tags.setdefault(decision.item.difficulty, []).append(decision)
    return {tag: group(tags[tag]) for tag in sorted(tags, key=tag_order)}


def by_dataset(items: Sequence[Decision]) -> dict[str, Group]:
    datasets: dict[str, list[Decision]] = {}
    for decision in items:
        datasets.setdefault(decision.item.dataset, []).append(decision)
    return {name: group(datasets[name]) for name in sorted(datasets)}


class Nl2FolView(MethodView):
    title = "NL→FOL (nl2fol)"
    filters = (("syntax", "syntax-error class"), ("difficulty", "difficulty"))
    outcome_keys = ("decision",)

    def __init__(self) -> None:
        self.script = resources.files("afcheck_nl2fol").joinpath("view.js").read_text("utf-8")

    def metrics(self, steps: Sequence[Record]) -> Mapping[str, Metric]:
        return group(decisions(steps)).typed()

    def render(self, runs: Sequence[RunSteps]) -> str:
        groups = [(item, decisions(item.steps)) for item in runs]
        multiple = len(runs) > 1
        panels = [interval_bars(item.run.label, _accuracy_bars(recs), "accuracy", "accuracy")
                  for item, recs in groups]
        out = ["<h3>Accuracy by difficulty</h3>",
               '<div class="panels">', *panels, "</div>",
               '<p class="caption">Accuracy = correct / decided (items z3 could not decide, and '
               "items whose gold formula does not parse, are left out and counted apart), with "
               "its 95% Wilson interval as a whisker. Difficulty tags in the seed's six levels, "
               "easiest first. <b>Exact</b> accuracy (the chart, and the strict metric): the "
               "candidate is equivalent to a gold formula as written. <b>Aligned</b> accuracy: "
               "equivalent once the candidate's predicate and constant names are mapped onto "
               "the gold's, one injective, arity-preserving mapping per story, between similar "
               "names only; on open-vocabulary data (FOLIO) the names are the model's own, and "
               "the aligned figure says how often the meaning is right. Where the language fixes "
               "its vocabulary (Tarski's World) nothing is renamed and the two are equal.</p>",
               _table([(item, by_difficulty(recs), group(recs)) for item, recs in groups],
                      "difficulty", multiple)]
        datasets = {r.item.dataset for _, recs in groups for r in recs}
        if len(datasets) > 1:
            out += ["<h3>By dataset</h3>",
                    _table([(item, by_dataset(recs), group(recs)) for item, recs in groups],
                           "dataset", multiple)]
        out += [self._syntax(groups), self._semantic(groups)]
        return "\n".join(out)

    def _syntax(self, groups: Sequence[tuple[RunSteps, list[Decision]]]) -> str:
        totals = [(item, group(recs)) for item, recs in groups]
        if not any(g.syntax_errors for _, g in totals):
            return "<h3>Syntax errors</h3><p class=note>No candidate failed to parse.</p>"
        chart = share_bars(
            "syntax errors by class",
            [(item.run.label, [(c, g.error_classes.get(c, 0)) for c in ERROR_CLASSES])
             for item, g in totals], CLASS_COLOURS, "syntax-classes")
        rule_class: dict[str, str] = {}
        for _, g in totals:
            rule_class.update(g.rule_classes)
        head = ("<tr><th>class</th><th>rule</th>"
                + "".join(f"<th>{escape(item.run.label)}</th>" for item, _ in totals) + "</tr>")
        rows = []
        for name in [*ERROR_CLASSES, *sorted(set(rule_class.values()) - set(ERROR_CLASSES))]:
            cells = "".join(_share_cell(g.error_classes.get(name, 0), g.syntax_errors)
                            for _, g in totals)
            rows.append(f'<tr class="total"><td>{escape(name)}</td><td></td>{cells}</tr>')
            for rule in sorted(r for r, c in rule_class.items() if c == name):
                cells = "".join(_share_cell(g.error_rules.get(rule, 0), g.syntax_errors)
                                for _, g in totals)
                rows.append(f"<tr><td></td><td>{escape(rule)}</td>{cells}</tr>")
        cells = "".join(f"<td class=num>{g.syntax_errors} of {g.n}</td>" for _, g in totals)
        rows.append(f'<tr class="total"><td>all</td><td></td>{cells}</tr>')
        return ("<h3>Syntax errors by class and rule</h3>"
                + legend(list(CLASS_COLOURS.items()))
                + f'<div class="panels">{chart}</div>'
                + '<div class="scroll"><table class="metrics syntax"><thead>' + head
                + "</thead><tbody>" + "".join(rows) + "</tbody></table></div>"
                + "<p class=caption>Candidates that do not parse, by the taxonomy's class "
                "and the rule that named the error; the share is of the run's syntax errors. "
                "Filter the step browser by class to read them.</p>")

    def _semantic(self, groups: Sequence[tuple[RunSteps, list[Decision]]]) -> str:
        rows = []
        for item, recs in groups:
            g = group(recs)
            histogram = Counter(g.teds)
            shown = ", ".join(f"{d}: {histogram[d]}" for d in sorted(histogram)) or "–"
            theories = ", ".join(f"{k} {v}" for k, v in g.by_theory.items()) or "–"
            mean = "–" if g.mean_ted is None else f"{g.mean_ted:.2f}"
            rows.append(f"<tr><td>{escape(item.run.label)}</td>"
                        f"<td class=num>{g.semantic_errors}</td><td class=num>{mean}</td>"
                        f"<td>{escape(shown)}</td><td>{escape(theories)}</td></tr>")
        return ("<h3>Semantic errors</h3><table class=metrics><thead><tr><th>run</th>"
                "<th>not equivalent</th><th>mean TED</th><th>items by TED</th>"
                "<th>correct, by the theory that decided</th></tr></thead><tbody>"
                + "".join(rows) + "</tbody></table><p class=caption>Candidates that parse "
                "but are equivalent to no gold formula; TED is the tree edit distance to the "
                "nearest gold (the seed's cost of turning the candidate into it). A correct "
                "item decided under a theory other than <i>none</i> needed its analytic "
                "truths.</p>")

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        decision = str(step.get("decision") or "")
        gold = step.get("gold")
        filters: dict[str, str] = {"difficulty": str(step.get("difficulty") or "")}
        record: BrowseRecord = {
            "t": str(step.get("sentence") or ""),
            "g": [str(g) for g in gold] if isinstance(gold, list) else [],
            "fx": filters,
        }
        candidate = step.get("candidate")
        if isinstance(candidate, str):
            record["cd"] = candidate
        output = step.get("output")
        if isinstance(output, str) and output.strip() != (
                candidate if isinstance(candidate, str) else "").strip():
            record["raw"] = tables.raw.ref(output)
        if step.get("error"):
            record["er"] = str(step["error"])
        for key, short in (("nearest_gold", "ng"), ("ted", "td"), ("gold_index", "gi")):
            value = step.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                record[short] = value
        if step.get("language"):
            record["lg"] = tables.strings.ref(str(step["language"]))
        error = step.get("syntax_error")
        if isinstance(error, dict):
            span = error.get("span")
            syntax: BrowseRecord = {"c": str(error.get("class") or ""),
                                    "r": str(error.get("rule") or ""),
                                    "g": str(error.get("message") or "")}
            if isinstance(span, list) and len(span) == 2 and all(isinstance(x, int)
                                                                   for x in span):
                syntax["sp"] = span
            record["se"] = syntax
            filters["syntax"] = str(syntax["c"])
            record["n"] = f'{syntax["c"]} [{syntax["r"]}]'
        elif "td" in record and decision != "correct":
            record["n"] = f"TED {record['td']}"
        verdict = step.get("equivalence")
        if isinstance(verdict, dict):
            record["eq"] = _verdict(verdict, tables)
        aligned = step.get("aligned")
        if isinstance(aligned, dict):
            record["al"] = _aligned(aligned, tables)
            if aligned.get("decision") == "correct" and decision != "correct":
                record["n"] = f"{record.get('n', decision)}; aligned: correct"
        gold_error = step.get("gold_error")
        if isinstance(gold_error, dict):
            record["n"] = (f"gold {gold_error.get('index')} does not parse: "
                           f"{gold_error.get('class')} [{gold_error.get('rule')}]")
        return record


def _aligned(aligned: Mapping[str, object], tables: BrowseTables) -> BrowseRecord:
    """The aligned outcome: the group, the renaming and what accepted each part of it, the
    decision and z3's verdict."""
    from afcheck_nl2fol.align import Alignment

    raw = aligned.get("alignment")
    alignment = Alignment.from_json(raw if isinstance(raw, dict) else {})
    out: BrowseRecord = {"gr": alignment.group, "m": alignment.describe(),
                         "o": str(aligned.get("decision") or "")}
    why = alignment.explain()
    if why:
        out["why"] = why  # each renaming with the rule or judge that accepted it
    gold = aligned.get("gold_index")
    if isinstance(gold, int) and not isinstance(gold, bool):
        out["gi"] = gold
    verdict = aligned.get("equivalence")
    if isinstance(verdict, dict):
        out["eq"] = _verdict(verdict, tables)
    return out


def _verdict(verdict: Mapping[str, object], tables: BrowseTables) -> BrowseRecord:
    out: BrowseRecord = {"th": tables.strings.ref(str(verdict.get("theory") or "")),
                           "h": str(verdict.get("how") or "")}
    if isinstance(verdict.get("equivalent"), bool):
        out["e"] = verdict["equivalent"]
    steps = verdict.get("steps")
    if isinstance(steps, list) and steps:
        out["st"] = [str(s) for s in steps]
    model = verdict.get("counter_model")
    if isinstance(model, dict):
        out["cm"] = _model(model)
    return out


def _model(model: Mapping[str, object]) -> BrowseRecord:
    """The counter-model: domain, constants, relations, which side holds, and the blocks of a
    grid world as ``[name, col, row, shape, size]``."""
    relations = model.get("relations")
    constants = model.get("constants")
    domain = model.get("domain")
    out: BrowseRecord = {
        "d": [str(e) for e in domain] if isinstance(domain, list) else [],
        "c": {str(k): str(v) for k, v in constants.items()} if isinstance(constants, dict)
        else {},
        "r": {str(k): [[str(e) for e in row] for row in rows if isinstance(row, list)]
              for k, rows in relations.items() if isinstance(rows, list)}
        if isinstance(relations, dict) else {},
        "h": str(model.get("holds") or ""),
    }
    blocks = model.get("blocks")
    if isinstance(blocks, list):
        out["b"] = [[str(b.get("name")), _int(b.get("col")), _int(b.get("row")),
                     str(b.get("shape")), str(b.get("size"))]
                    for b in blocks if isinstance(b, dict)]
    return out


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _accuracy_bars(recs: Sequence[Decision]) -> list[Bar]:
    bars = [Bar(tag, g.accuracy, g.accuracy_interval if g.decided else None,
                f"{g.correct} of {g.decided} decided")
            for tag, g in by_difficulty(recs).items()]
    total = group(recs)
    bars.append(Bar("all", total.accuracy, total.accuracy_interval if total.decided else None,
                    f"{total.correct} of {total.decided} decided"))
    return bars


def _table(groups: Sequence[tuple[RunSteps, Mapping[str, Group], Group]], what: str,
           multiple: bool) -> str:
    head = (f"<tr><th>{escape(what)}</th>" + ("<th>run</th>" if multiple else "")
            + "<th>N</th><th>decided</th><th>exact accuracy</th><th>aligned accuracy</th>"
            "<th>syntax errors</th>"
            "<th>semantic errors</th><th>mean TED</th><th>undecided</th><th>no output</th>"
            "<th>gold does not parse</th></tr>")
    names = list(dict.fromkeys(name for _, parts, _ in groups for name in parts))
    rows = []
    for name in [*names, "all"]:
        for index, (item, parts, total) in enumerate(groups):
            g = total if name == "all" else parts.get(name)
            if g is None:
                continue
            first = index == 0 or not multiple
            mean = "–" if g.mean_ted is None else f"{g.mean_ted:.2f}"
            rows.append(
                f'<tr class="{"total" if name == "all" else ""}">'
                f"<td>{escape(name) if first else ''}</td>"
                + (f"<td>{escape(item.run.label)}</td>" if multiple else "")
                + f"<td class=num>{g.n}</td><td class=num>{g.decided}</td>"
                + rate_cell(g.accuracy, g.accuracy_interval if g.decided else None)
                + rate_cell(g.aligned_accuracy,
                            g.aligned_accuracy_interval if g.aligned_decided else None)
                + f"<td class=num>{g.syntax_errors}"
                + ("" if g.syntax_error_rate is None else
                   f" <span class=ci>{g.syntax_error_rate:.3f} [{g.syntax_error_interval.low:.3f}"
                   f", {g.syntax_error_interval.high:.3f}]</span>")
                + f"</td><td class=num>{g.semantic_errors}</td><td class=num>{mean}</td>"
                f"<td class=num>{g.undecided}</td><td class=num>{g.no_output}</td>"
                f"<td class=num>{g.gold_errors}</td></tr>")
    return (f'<div class="scroll"><table class="metrics nl2fol"><thead>{head}</thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def _share_cell(count: int, total: int) -> str:
    if not count:
        return "<td class=num>–</td>"
    return f"<td class=num>{count} <span class=ci>{100 * count / total:.0f}%</span></td>"

