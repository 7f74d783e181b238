"""The FaithformBench charts as inline SVG, drawn in Python (no script, no external file), for
the method's report view.

- :func:`uflb_bars` — FaithformBench Figures 3–4: per formaliser, one stacked bar per
  dataset whose height is UFLB = FNR/2 + FPR/2 + AFFR; the silent-correction (FPR) and
  error-induction (FNR) segments are drawn at the half weight they have in UFLB, so the
  segments add up to the UFLB value printed above the bar.
- :func:`contingency_bars` — Figure 5: per formaliser, one 100% bar per dataset split into
  the five outcomes of (z, z̄).

Every text that comes from data is escaped; every bar segment carries a ``<title>`` with its
exact figures (shown on hover).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from afcheck_report.plots import label_width

from afcheck_faithfulness.metrics import Metrics
from afcheck_faithfulness.records import Outcome

OUTCOMES = tuple(o.value for o in Outcome)
"""The 5-way contingency of (z, z̄), in the order of FaithformBench Figure 5."""

UFLB_PARTS = (
    ("FPR", "FPR (silent corrections)", "#d9534f"),
    ("FNR", "FNR (error inducing)", "#3b7dd8"),
    ("AFFR", "AFFR (AF failure)", "#9e9e9e"),
)
"""Segments bottom to top, with legend names and colours."""

OUTCOME_COLOURS = {
    "faithful": "#4caf50",
    "sycophancy": "#d9534f",
    "abstention": "#f0ad4e",
    "inversion": "#8e44ad",
    "inconclusive": "#bdbdbd",
}


@dataclass(frozen=True)
class Panel:
    """One formaliser's (one run's) metrics per dataset, in display order."""

    title: str
    datasets: Mapping[str, Metrics]


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(metrics: Metrics, name: str) -> str:
    interval = metrics.intervals().get(name)
    return "" if interval is None else f" [{interval.low:.3f}, {interval.high:.3f}]"


def y_limit(panels: Sequence[Panel]) -> float:
    """A shared y-axis top for the UFLB panels: the largest UFLB rounded up to 0.1."""
    top = max((m.UFLB for p in panels for m in p.datasets.values()), default=0.0)
    return min(1.0, max(0.1, math.ceil(top * 10 - 1e-9) / 10))


def uflb_bars(panel: Panel, top: float) -> str:
    """One panel of Figures 3–4 as an ``<svg>`` element."""
    names = list(panel.datasets)
    bar, gap, left, plot_h, head, foot = 40, 30, 44, 180, 46, 46
    # Each bar's slot is wide enough for its whole dataset name.
    slots = [max(bar + gap, label_width(_label(name)) + 8) for name in names]
    width = left + (sum(slots) if names else bar + gap) + gap
    height = head + plot_h + foot
    parts = [f'<svg class="chart uflb" xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="UFLB by dataset, {escape(panel.title)}">',
             f'<text class="panel-title" x="{width / 2:.1f}" y="18" text-anchor="middle">'
             f'{escape(panel.title)}</text>']
    step = 0.1 if top <= 0.6 else 0.2
    ticks = [round(i * step, 10) for i in range(int(round(top / step)) + 1)]
    for tick in ticks:
        y = head + plot_h - plot_h * tick / top
        parts.append(f'<line x1="{left}" x2="{width - 6}" y1="{y:.1f}" y2="{y:.1f}" '
                     'class="grid"/>')
        parts.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f'{tick:.1f}</text>')
    for index, name in enumerate(names):
        metrics = panel.datasets[name]
        x = left + gap + sum(slots[:index]) + (slots[index] - gap - bar) / 2
        base = head + plot_h
        for key, label, colour in UFLB_PARTS:
            value = getattr(metrics, key)
            share = value / 2 if key != "AFFR" else value
            h = plot_h * min(share, top) / top
            if h <= 0:
                continue
            base -= h
            note = (f"{escape(name)}: {label} = {value:.3f}{_interval(metrics, key)}"
                    + (f" (adds {share:.3f} to UFLB)" if key != "AFFR" else "")
                    + f", N = {metrics.N}")
            parts.append(f'<rect x="{x:.1f}" y="{base:.1f}" width="{bar}" height="{h:.1f}" '
                         f'fill="{colour}" data-metric="{key}"><title>{note}</title></rect>')
        label_y = max(head - 4, base - 5)
        parts.append(f'<text x="{x + bar / 2:.1f}" y="{label_y:.1f}" text-anchor="middle" '
                     f'class="uflb-value"><title>UFLB{_interval(metrics, "UFLB")}</title>'
                     f'{metrics.UFLB:.2f}</text>')
        parts.append(f'<text x="{x + bar / 2:.1f}" y="{head + plot_h + 16}" text-anchor="middle" '
                     f'class="tick">{escape(_label(name))}<title>{escape(name)}</title></text>')
        parts.append(f'<text x="{x + bar / 2:.1f}" y="{head + plot_h + 30}" text-anchor="middle" '
                     f'class="tick small">N={metrics.N}</text>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{head}" y2="{head + plot_h}" class="axis"/>')
    parts.append("</svg>")
    return "".join(parts)


def contingency_bars(panel: Panel) -> str:
    """One panel of Figure 5 as an ``<svg>`` element: outcome shares per dataset."""
    names = list(panel.datasets)
    row, gap, plot_w, head = 26, 10, 420, 30
    left = max(110, max((label_width(_label(name)) for name in names), default=0) + 12)
    width = left + plot_w + 12
    height = head + max(1, len(names)) * (row + gap) + 24
    parts = [f'<svg class="chart contingency" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="Contingency by dataset, {escape(panel.title)}">',
             f'<text class="panel-title" x="{left + plot_w / 2:.1f}" y="18" '
             f'text-anchor="middle">{escape(panel.title)}</text>']
    for index, name in enumerate(names):
        metrics = panel.datasets[name]
        y = head + index * (row + gap)
        parts.append(f'<text x="{left - 6}" y="{y + row / 2 + 4:.1f}" text-anchor="end" '
                     f'class="tick">{escape(_label(name))}<title>{escape(name)}</title>'
                     '</text>')
        total = sum(metrics.contingency.get(o, 0) for o in OUTCOMES)
        x = float(left)
        for outcome in OUTCOMES:
            count = metrics.contingency.get(outcome, 0)
            if not total or not count:
                continue
            w = plot_w * count / total
            note = f"{escape(name)}: {outcome} {count} of {total} ({_pct(count / total)})"
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row}" '
                         f'fill="{OUTCOME_COLOURS[outcome]}" data-outcome="{outcome}">'
                         f'<title>{note}</title></rect>')
            if w >= 34:
                parts.append(f'<text x="{x + w / 2:.1f}" y="{y + row / 2 + 4:.1f}" '
                             f'text-anchor="middle" class="seg">{100 * count / total:.1f}</text>')
            x += w
        if not total:
            parts.append(f'<text x="{left + 4}" y="{y + row / 2 + 4:.1f}" class="tick">'
                         'no evaluated cases</text>')
    axis_y = head + len(names) * (row + gap) + 4
    for tick in range(0, 101, 20):
        x = left + plot_w * tick / 100
        parts.append(f'<text x="{x:.1f}" y="{axis_y + 10}" text-anchor="middle" '
                     f'class="tick small">{tick}%</text>')
    parts.append("</svg>")
    return "".join(parts)


_SHORT = {"olympiadbench": "Olymp.", "omnimath": "Omni.", "gsm8k": "GSM8K", "math": "MATH"}


def _label(name: str) -> str:
    """A dataset's axis label: the paper's name for its datasets, else the whole name."""
    return _SHORT.get(name, name)
