"""Assemble the report: one self-contained HTML file.

Nothing is fetched when the page is viewed: styles and the one script are inline, charts are
inline SVG, and a Content-Security-Policy forbids every other source (the script is allowed
by its hash, so no other inline script could run even if a step's text got through as
markup — which the escaping already prevents). The step browser's records are JSON in inert
``<script type="application/json">`` elements, parsed once on load; the browser draws one
page of rows at a time, so a 25,000-step run opens as fast as a small one. Raw model outputs
sit gzipped in a separate element, unpacked only when one is opened.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from html import escape
from importlib import resources
from typing import Any

import afcheck
from afcheck.redact import redact_text
from afcheck_report.embed import script_json
from afcheck_report.runfile import RunFile, dataset_of, method_label, method_of, unique_labels
from afcheck_report.view import BrowseTables, MethodView, RunSteps
from afcheck_report.views import Views

_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate (a result file keeps a model's as a ``\\ud800`` escape) cannot be written
as UTF-8: the page shows it as U+FFFD, the replacement character."""


_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""Bidirectional marks, overrides and isolates, and the line separators: shown as ``\\uNNNN``
as the terminal shows them (:func:`afcheck.printable.printable`), so that a label
``ref\\u202eabc`` does not display as ``refcba``. Inside the page's JSON the same six
characters are the same value; the browser script escapes them again when it shows text."""


def build(runs: Sequence[RunFile], title: str = "afcheck report", raw_outputs: bool = True,
          raw_limit: int = 20_000, views: Views | None = None) -> str:
    """The whole page for ``runs`` (labels already distinct); each method's section and
    browser records come from its view in ``views`` (default: the installed plugins')."""
    page = _page(runs, title, raw_outputs, raw_limit, views if views is not None else Views())
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", _SURROGATE.sub("\ufffd", page))


def _page(runs: Sequence[RunFile], title: str, raw_outputs: bool, raw_limit: int,
          views: Views) -> str:
    methods = list(dict.fromkeys(m for run in runs for m in run.methods))
    tables = BrowseTables()
    sections: list[str] = []
    nav: list[str] = []
    filters: dict[str, str] = {}
    for method in methods:
        view = views(method)
        for key, label in view.filters:
            filters.setdefault(str(key), str(label))
        # Each section names a run by the method's own formalisers, kept distinct.
        labelled = unique_labels([replace(run, label=method_label(run, method))
                                  for run in runs])
        runs_steps = [RunSteps(named, index, run.steps_of(method))
                      for index, (run, named) in enumerate(zip(runs, labelled, strict=True))
                      if run.steps_of(method)]
        anchor = f"method-{_slug(method)}"
        nav.append(f'<a href="#{anchor}">{escape(view.title)}</a>')
        sections.append(f'<section id="{anchor}" data-method="{escape(method)}">'
                        f"<h2>{escape(view.title)}</h2>{view.render(runs_steps)}"
                        "</section>")
    records = _browser_records(runs, tables, views)
    raw = ([_clip(redact_text(text), raw_limit) for text in tables.raw.items] if raw_outputs
           else [])
    blob = {"runs": [run.label for run in runs], "strings": tables.strings.items,
            "steps": records, "raw": bool(raw_outputs)}
    script = _script({method: views(method) for method in methods})
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
           f"script-src 'sha256-{digest}'")
    nav.append('<a href="#steps">Step browser</a>')
    # Everything the page shows passes through the one redaction on its way out (result files
    # written before afcheck redacted them included); the page's own script, whose hash the
    # policy above pins, and the packed raw outputs (redacted above) are added after it.
    shown = "".join([
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">',
        '<meta name=viewport content="width=device-width, initial-scale=1">',
        '<link rel=icon href="data:,">',
        f"<title>{escape(title)}</title><style>{_asset('report.css')}</style></head><body>",
        f"<header><h1>{escape(title)}</h1>{_runs_table(runs)}",
        f'<nav>{" · ".join(nav)}</nav></header><main>',
        *sections,
        _browser_html(len(runs) > 1, filters),
        "</main><footer>",
        f"afcheck {escape(afcheck.__version__)} · written "
        f"{escape(time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()))}</footer>",
        f'<script type="application/json" id="afcheck-steps">{script_json(blob)}</script>',
    ])
    return (redact_text(shown)
            + f'<script type="application/octet-stream" id="afcheck-raw">{_packed(raw)}</script>'
            + f"<script>{script}</script></body></html>\n")


def _packed(texts: Sequence[str]) -> str:
    """Raw outputs as base64 of gzipped JSON: model outputs compress several-fold, and the
    page unpacks them (``DecompressionStream``) only when one is first opened. Level 1: on
    a 25,000-step run it is 7 times faster than level 6 for 15% more bytes."""
    data = _SURROGATE.sub("\ufffd", json.dumps(list(texts), ensure_ascii=False)).encode("utf-8")
    return base64.b64encode(gzip.compress(data, compresslevel=1, mtime=0)).decode("ascii")


def _asset(name: str) -> str:
    return resources.files("afcheck_report").joinpath("assets", name).read_text("utf-8")


def _script(views: Mapping[str, MethodView]) -> str:
    """The page's one script: each view's detail drawer (a JavaScript expression, see
    :attr:`MethodView.script`) by method, then the step browser, which reads them."""
    drawers = "".join(f"AFCHECK_VIEWS[{json.dumps(method)}] = ({_expression(view.script)});\n"
                      for method, view in views.items() if _expression(view.script))
    return f"var AFCHECK_VIEWS = {{}};\n{drawers}{_asset('browser.js')}"


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower())


def _clip(text: str, limit: int) -> str:
    if limit <= 0 or len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters in the JSON result file)"


def _expression(script: str) -> str:
    """A view's script as an expression (a trailing ``;`` would end the assignment)."""
    return script.strip().rstrip(";").rstrip()


def _browser_records(runs: Sequence[RunFile], tables: BrowseTables,
                     views: Views) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, run in enumerate(runs):
        for step in run.steps:
            method = method_of(step)
            view = views(method)
            record: dict[str, Any] = {
                "r": index, "m": method, "id": view.id_of(step),
                "d": dataset_of(step), "s": str(step.get("status") or ""),
                "o": view.outcome_of(step),
            }
            record.update(view.browse(step, tables))
            out.append(record)
    return out


def _runs_table(runs: Sequence[RunFile]) -> str:
    rows = []
    for run in runs:
        config = run.header.get("config")
        suites = config.get("suites") if isinstance(config, dict) else None
        settings = ""
        if isinstance(suites, dict):
            settings = "; ".join(
                f"{name}: " + ", ".join(f"{k}={v}" for k, v in s.items()
                                        if isinstance(v, (str, int, float)))
                for name, s in suites.items() if isinstance(s, Mapping))
        rows.append(f"<tr><td><b>{escape(run.label)}</b></td><td>{escape(str(run.path))}</td>"
                    f"<td class=num>{len(run.steps)}</td><td>{escape(settings)}</td></tr>")
    return ("<table class=runs><thead><tr><th>run</th><th>file</th><th>cases</th>"
            f"<th>settings</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _browser_html(multiple_runs: bool, filters: Mapping[str, str]) -> str:
    """The step browser's controls and table; ``filters`` are the sections' own filters
    (``key`` → label), each a select named ``fx-key``."""
    selects = [("run", "run")] if multiple_runs else []
    selects += [("method", "method"), ("status", "status"), ("outcome", "outcome"),
                ("dataset", "dataset"), ("rule", "perturbation rule"), ("event", "failure event"),
                ("warning", "drift warning")]
    selects += [(f"fx-{key}", label) for key, label in filters.items()]
    controls = "".join(
        f'<label>{escape(label)} <select name="{name}"><option value="">all</option></select>'
        "</label>" for name, label in selects)
    return (
        '<section id="steps"><h2>Step browser</h2>'
        f'<form id="filters">{controls}'
        '<label>search <input type="search" name="q" placeholder="case id or text"></label>'
        "</form>"
        '<div class="pager"><button type="button" id="prev">◀ previous</button>'
        '<span id="count">loading steps…</span>'
        '<button type="button" id="next">next ▶</button></div>'
        '<table class="steps"><thead><tr><th>case</th>'
        + ("<th>run</th>" if multiple_runs else "")
        + "<th>dataset</th><th>rule</th><th>outcome</th><th>status</th><th>events · notes</th>"
        '<th>warnings</th></tr></thead><tbody id="rows"></tbody></table>'
        '<p class="caption">Click a row (or press Enter on it) for its evidence, as its '
        "method's view shows it.</p>"
        "</section>")
