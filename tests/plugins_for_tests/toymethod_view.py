"""The report view of the toy method ``verdicts`` (:mod:`toymethod`), as a third-party method
package's ``view.py`` would be: its section (accuracy per group with intervals, drawn with the
report's helpers), its step-browser records and filter, a detail drawer, and its compare
keys: a claim is the same item in any suite that states it, so two runs pair by claim text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from afcheck_report.plots import rate_cell
from afcheck_report.view import (
    BrowseRecord,
    BrowseTables,
    MethodView,
    Metric,
    Record,
    RunSteps,
)

from afcheck.metrics import Count, Rate

SCRIPT = """
// A claim and its verdict, for the step browser of an afcheck report.
({
  detail: function (rec, ui) {
    var root = ui.el("div", "toy-claim");
    root.appendChild(ui.el("pre", null, rec.t));
    root.appendChild(ui.el("p", "label", "verdict " + rec.v + ", expected " + rec.fx.expected));
    return root;
  }
})
"""


def _accuracy(steps: Sequence[Record]) -> Rate:
    decided = [s for s in steps if s.get("status") in ("passed", "failed")]
    return Rate(sum(1 for s in decided if s.get("status") == "passed"), len(decided))


class VerdictsView(MethodView):
    title = "Claims and their verdicts (verdicts)"
    filters = (("expected", "expected verdict"),)
    script = SCRIPT

    def render(self, runs: Sequence[RunSteps]) -> str:
        rows = []
        for item in runs:
            groups: dict[str, list[Record]] = {}
            for step in item.steps:
                groups.setdefault(str(step.get("group") or ""), []).append(step)
            for name, steps in [*sorted(groups.items()), ("all", list(item.steps))]:
                rate = _accuracy(steps)
                rows.append(f"<tr><td>{escape(item.run.label)}</td><td>{escape(name)}</td>"
                            f"<td class=num>{rate.total}</td>"
                            + rate_cell(rate.value, rate.interval if rate.total else None)
                            + "</tr>")
        return ("<table class=metrics id=toy-verdicts><thead><tr><th>run</th><th>group</th>"
                "<th>claims</th><th>accuracy</th></tr></thead><tbody>" + "".join(rows)
                + "</tbody></table>")

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        return {"t": str(step.get("claim") or ""), "v": str(step.get("verdict") or ""),
                "fx": {"expected": str(step.get("expected") or "")}}

    def compare_keys(self, step: Record) -> tuple[str, ...]:
        return (str(step.get("claim") or ""),)

    def outcome_of(self, step: Record) -> str:
        return str(step.get("verdict") or "")

    def metrics(self, steps: Sequence[Record]) -> Mapping[str, Metric]:
        rate = _accuracy(steps)
        return {"claims": Count(len(steps)), "accuracy": rate}
