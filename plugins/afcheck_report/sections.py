"""The report's sections, one per evaluation method, looked up by the method's name.

A section renderer turns the steps of its method, from every run in the report, into HTML
(charts, tables) and turns each step into the compact record the step browser shows. The
built-in methods' renderers register themselves from the modules in :data:`BUILT_IN`; a
method without a renderer gets :class:`GenericSection` (counts by status and outcome, and the
raw record of each step in the browser). Another method adds its own with
:func:`register_section`.

A renderer may also name filters of its own for the step browser: ``filters``, a sequence of
``(key, label)`` pairs; its :meth:`~SectionRenderer.browse` records then hold the step's value
of each under ``fx`` (``{"fx": {"class": "T3"}}``), and the browser offers a select per key.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol

from afcheck_report.embed import Strings
from afcheck_report.runfile import RunFile


@dataclass(frozen=True)
class RunSteps:
    """One run's steps of one method; ``index`` is the run's position in the report."""

    run: RunFile
    index: int
    steps: Sequence[Mapping[str, Any]]


@dataclass
class BrowseTables:
    """Shared tables the browser records point into: ``strings`` for repeated texts (contexts),
    ``raw`` for raw model outputs (parsed by the page only when one is opened)."""

    strings: Strings
    raw: Strings


class SectionRenderer(Protocol):
    @property
    def title(self) -> str:
        """The section's heading."""
        ...

    def render(self, runs: Sequence[RunSteps]) -> str:
        """The section's HTML body (everything below its heading)."""
        ...

    def browse(self, step: Mapping[str, Any], tables: BrowseTables) -> dict[str, Any]:
        """The method's part of the step's browser record (the page adds run, id, dataset,
        status, outcome, rule and warnings itself)."""
        ...


_SECTIONS: dict[str, SectionRenderer] = {}

BUILT_IN = {
    "faithfulness": "afcheck_report.faithfulness_section",
    "nl2fol": "afcheck_report.nl2fol_section",
    "chains": "afcheck_report.chains_section",
    "equivalence": "afcheck_report.equivalence_section",
}
"""The built-in methods' section modules (each holds its renderer as ``SECTION``), imported
when their method is first asked for."""


def register_section(method: str, renderer: SectionRenderer) -> None:
    """Make ``renderer`` the section of ``method`` (a later registration replaces it)."""
    _SECTIONS[method] = renderer


def section_for(method: str) -> SectionRenderer:
    if method not in _SECTIONS and method in BUILT_IN:
        try:
            module = importlib.import_module(BUILT_IN[method])
        except ImportError:
            # The method's plugin is not installed (an extra left out): its steps still
            # show, in the generic view.
            return GenericSection(method)
        register_section(method, module.SECTION)
    return _SECTIONS.get(method) or GenericSection(method)


def filters_of(renderer: SectionRenderer) -> tuple[tuple[str, str], ...]:
    """The renderer's own step-browser filters, ``(key, label)`` (none when it names none)."""
    filters = getattr(renderer, "filters", ())
    return tuple((str(key), str(label)) for key, label in filters)


@dataclass(frozen=True)
class GenericSection:
    """What any method's steps show without a renderer of their own."""

    method: str

    @property
    def title(self) -> str:
        return f"{self.method} (generic view)"

    def render(self, runs: Sequence[RunSteps]) -> str:
        rows = []
        for item in runs:
            statuses = Counter(str(s.get("status", "")) for s in item.steps)
            outcomes = Counter(str(s.get("outcome", "")) for s in item.steps)
            rows.append(
                f"<tr><td>{escape(item.run.label)}</td><td class=num>{len(item.steps)}</td>"
                f"<td>{escape(_counts(statuses))}</td><td>{escape(_counts(outcomes))}</td></tr>")
        return ("<p class=note>This report has no view made for this method yet; its steps "
                "are in the step browser with their full records.</p>"
                "<table class=metrics><thead><tr><th>run</th><th>steps</th><th>status</th>"
                "<th>outcome</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")

    def browse(self, step: Mapping[str, Any], tables: BrowseTables) -> dict[str, Any]:
        return {"j": json.dumps(step, ensure_ascii=False, indent=1)}


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name or '(none)'} {count}" for name, count in counter.most_common())
