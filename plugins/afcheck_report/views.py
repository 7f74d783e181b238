"""The views of a report's methods, looked up in the plugins; the generic view for the rest.

:class:`Views` finds each method's view in the ``view`` registry of the plugins it is given
(``plugins.registry(VIEW)``), builds it once, and falls back to :class:`GenericView` for a
method that registers none, or whose view cannot be built (its plugin's extra is not
installed): its items still show, with their records as written.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from html import escape

from afcheck.errors import AfcheckError, UsageError
from afcheck.plugins import Plugins, get_plugins
from afcheck_report.kinds import VIEW
from afcheck_report.view import BrowseRecord, BrowseTables, MethodView, Record, RunSteps


class Views:
    """Each method's view, by method name."""

    def __init__(self, plugins: Plugins | None = None) -> None:
        self.plugins = plugins if plugins is not None else get_plugins()
        self._views: dict[str, MethodView] = {}

    def __call__(self, method: str) -> MethodView:
        view = self._views.get(method)
        if view is None:
            view = self._views[method] = self._build(method)
        return view

    def registered(self) -> list[MethodView]:
        """The view of every method that registers one, in name order."""
        if VIEW.name not in self.plugins.kinds:
            return []
        return [self(name) for name in self.plugins.registry(VIEW).names()]

    def _build(self, method: str) -> MethodView:
        if VIEW.name not in self.plugins.kinds or method not in self.plugins.registry(VIEW):
            # No view (or no report plugin among these plugins to declare the kind).
            return GenericView(method)
        try:
            view = self.plugins.create(VIEW, method)
        except (ImportError, AfcheckError):
            # The method's plugin is there but its view cannot be built (an extra left out):
            # its items still show, in the generic view.
            return GenericView(method)
        if not isinstance(view, MethodView):
            entry = self.plugins.registry(VIEW).get(method)
            raise UsageError(f"the report view '{method}' of plugin '{entry.plugin}' is no "
                             "MethodView (afcheck_report.view): a view has a title, render() "
                             "and browse(); subclass MethodView for the other members' "
                             "defaults")
        return view


class GenericView(MethodView):
    """What any method's items show without a view of their own."""

    def __init__(self, method: str) -> None:
        self.method = method
        self.title = f"{method} (generic view)"

    def render(self, runs: Sequence[RunSteps]) -> str:
        rows = []
        for item in runs:
            statuses = Counter(str(s.get("status", "")) for s in item.steps)
            outcomes = Counter(str(s.get("outcome", "")) for s in item.steps)
            rows.append(
                f"<tr><td>{escape(item.run.label)}</td><td class=num>{len(item.steps)}</td>"
                f"<td>{escape(_counts(statuses))}</td><td>{escape(_counts(outcomes))}</td></tr>")
        return ("<p class=note>This method registers no report view; its items are in the "
                "step browser with their full records.</p>"
                "<table class=metrics><thead><tr><th>run</th><th>steps</th><th>status</th>"
                "<th>outcome</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        return {"j": json.dumps(step, ensure_ascii=False, indent=1)}


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name or '(none)'} {count}" for name, count in counter.most_common())
