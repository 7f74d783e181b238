"""The report view of the ``equivalence`` method (structure-aware equivalence of Lean
statements).

Per criterion and run: coverage, false-positive rate and Noneq rate with their 95% Wilson
intervals (a chart with whiskers and a table) and the confusion table against the gold
labels; and the step browser's record of each pair: reference and candidate, the decision
with its reason, the component that decided it and a Noneq's evidence (a refuted obligation
or a structural difference), the binder alignment, and each proof
obligation with its verdict (the one that failed marked, its counterexample shown; drawn by
``view.js``). Pairs are read back with :func:`afcheck_equivalence.records.from_json` and
counted per criterion by :func:`afcheck_equivalence.metrics.summarise`, exactly as the run
counts them; ``afcheck compare`` shows those figures over the pairs two runs share, and names
a pair's outcome by its decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources

from afcheck_report.plots import Bar, interval_bars, rate_cell
from afcheck_report.view import (
    BrowseRecord,
    BrowseTables,
    MethodView,
    Metric,
    Record,
    RunSteps,
)

from afcheck.metrics import Rate
from afcheck_equivalence.metrics import Summary, summarise
from afcheck_equivalence.records import Result, from_json

DECISIONS = ("Eq", "Noneq", "Inconclusive")
GOLDS = ("equivalent", "inequivalent", "none")
"""Gold labels; ``none`` for items without one."""
AGREES = {"equivalent": "Eq", "inequivalent": "Noneq"}
"""The decision each gold label calls right."""


def results(steps: Sequence[Record]) -> list[Result]:
    """The pairs among ``steps``: each record with a decision, read back as the run's result
    (a record of a suite line that could not be read is no pair, and the run counts none)."""
    return [from_json(step) for step in steps if "decision" in step]


def summary(steps: Sequence[Record]) -> dict[str, Summary]:
    """The metrics of ``steps`` per criterion, by the method's own counting."""
    return summarise(results(steps))


_RATES = (("coverage", "coverage"), ("false_positive_rate", "false-positive rate"),
          ("noneq_rate", "Noneq rate"))
_SHORT = {"coverage": "coverage", "false_positive_rate": "FP rate", "noneq_rate": "Noneq"}
"""Bar labels short enough for the chart's axis."""


class EquivalenceView(MethodView):
    title = "Equivalence of statements (equivalence)"
    filters = (("criterion", "criterion"), ("gold", "gold label"))
    outcome_keys = ("decision",)

    def __init__(self) -> None:
        self.script = resources.files("afcheck_equivalence").joinpath("view.js") \
            .read_text("utf-8")

    def metrics(self, steps: Sequence[Record]) -> Mapping[str, Metric]:
        return {f"{name}:{key}": metric for name, s in summary(steps).items()
                for key, metric in s.typed().items()}

    def render(self, runs: Sequence[RunSteps]) -> str:
        rows = [(item, name, s) for item in runs for name, s in summary(item.steps).items()]
        multiple = len(runs) > 1
        panels = [interval_bars(f"{item.run.label} · {name}" if multiple else name,
                                _bars(s), "equivalence", "rate") for item, name, s in rows]
        head = ("<tr><th>criterion</th>" + ("<th>run</th>" if multiple else "")
                + "<th>N</th>" + "".join(f"<th>{label}</th>" for _, label in _RATES)
                + "<th>Inconclusive</th></tr>")
        body = "".join(
            f"<tr><td>{escape(name)}</td>"
            + (f"<td>{escape(item.run.label)}</td>" if multiple else "")
            + f"<td class=num>{s.N}</td>"
            + "".join(_rate(getattr(s, key)) for key, _ in _RATES)
            + f"<td class=num>{s.inconclusive}</td></tr>" for item, name, s in rows)
        confusions = "".join(_confusion(f"{item.run.label} · {name}" if multiple else name, s)
                             for item, name, s in rows)
        return "\n".join([
            "<h3>Coverage and false positives by criterion</h3>",
            f'<div class="panels">{"".join(panels)}</div>',
            f'<div class="scroll"><table class="metrics equivalence"><thead>{head}</thead>'
            f"<tbody>{body}</tbody></table></div>",
            "<p class=caption>Coverage: share of the gold-equivalent pairs the criterion "
            "calls Eq; false-positive rate: share of the gold-inequivalent pairs it calls Eq "
            "(lower is better); Noneq rate: share of all pairs it calls Noneq. 95% Wilson "
            "intervals.</p>",
            "<h3>Decisions against the gold labels</h3>",
            f'<div class="panels">{confusions}</div>',
            "<p class=caption>Rows: gold label (<i>none</i>: the pair has none); columns: "
            "the criterion's decision. Shaded cells agree with the gold label.</p>",
        ])

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        gold = step.get("gold")
        record: BrowseRecord = {
            "t": str(step.get("informal") or step.get("candidate") or ""),
            "why": str(step.get("reason") or ""),
            "fx": {"criterion": str(step.get("criterion") or ""),
                   "gold": gold if isinstance(gold, str) else "none"},
        }
        evidence = step.get("evidence")
        if isinstance(evidence, str) and evidence:
            record["ev"] = evidence  # a Noneq's: ``refuted`` or ``structural``
        for key, short in (("informal", "inf"), ("reference", "rf"), ("candidate", "cd"),
                           ("component", "cp")):
            text = step.get(key)
            if isinstance(text, str) and text:
                record[short] = text
        alignment = step.get("alignment")
        if isinstance(alignment, list):
            record["al"] = [[str(a.get("candidate", "")), str(a.get("reference", ""))]
                            for a in alignment if isinstance(a, dict)]
        flags = step.get("flags")
        if isinstance(flags, list) and flags:
            record["fl"] = [str(f) for f in flags]
        found = step.get("failed_obligation")
        failed = found if isinstance(found, dict) else None
        obligations = step.get("obligations")
        if isinstance(obligations, list):
            shown = [_obligation(o, tables, failed) for o in obligations if isinstance(o, dict)]
            if failed is not None and not any(o.get("x") for o in shown):
                shown.append(_obligation(failed, tables, failed))
            record["ob"] = shown
        counterexample = step.get("counterexample")
        if isinstance(counterexample, dict):
            record["cx"] = {str(k): str(v) for k, v in counterexample.items()}
        component = record.get("cp")
        record["n"] = str(step.get("criterion") or "") + (f" · {component}" if component else "")
        return record


def _obligation(value: Mapping[str, object], tables: BrowseTables,
                failed: Mapping[str, object] | None) -> BrowseRecord:
    out: BrowseRecord = {"ro": str(value.get("role") or ""),
                           "s": str(value.get("statement") or ""),
                           "v": str(value.get("verdict") or "")}
    if value.get("backend"):
        out["b"] = tables.strings.ref(str(value["backend"]))
    if value.get("certified"):
        out["c"] = True
    if value.get("judged_by"):
        out["j"] = tables.strings.ref(str(value["judged_by"]))
    if value.get("unjudged"):
        out["u"] = str(value["unjudged"])
    if value.get("reason"):
        out["r"] = tables.strings.ref(str(value["reason"]))
    if value.get("evidence"):
        out["e"] = str(value["evidence"])
    if failed is not None and value.get("role") == failed.get("role") \
            and value.get("statement") == failed.get("statement"):
        out["x"] = True
    return out


def _bars(s: Summary) -> list[Bar]:
    bars = []
    for key, _ in _RATES:
        rate: Rate = getattr(s, key)
        bars.append(Bar(_SHORT[key], rate.value, rate.interval if rate.total else None,
                        f"{rate.count} of {rate.total}"))
    return bars


def _rate(rate: Rate) -> str:
    return rate_cell(rate.value, rate.interval if rate.total else None)


def _confusion(title: str, s: Summary) -> str:
    golds = [g for g in GOLDS if g in s.confusion]
    head = "<tr><th>gold ↓ decision →</th>" + "".join(f"<th>{d}</th>" for d in DECISIONS) \
        + "</tr>"
    body = "".join(
        f"<tr><td>{escape(g)}</td>" + "".join(
            f'<td class="num{" diag" if AGREES.get(g) == d else ""}">'
            f"{s.confusion[g].get(d, 0)}</td>" for d in DECISIONS) + "</tr>" for g in golds)
    return (f'<table class="metrics confusion"><caption>{escape(title)}</caption>'
            f"<thead>{head}</thead><tbody>{body}</tbody></table>")

