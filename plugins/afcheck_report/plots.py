"""Method-neutral charts as inline SVG: proportions with their intervals, and shares.

- :func:`interval_bars` — one vertical bar per group for a proportion in [0, 1], with its 95%
  interval as a whisker (accuracy by difficulty);
- :func:`share_bars` — one horizontal 100% bar per group split into categories (chain
  classes, syntax-error classes);
- :func:`legend` — the colour key of a chart, as HTML;
- :func:`rate_cell` — a table cell with a value and its interval.

Method views draw with these (and with charts of their own, as the faithfulness view does).

Every text that comes from data is escaped; every bar carries a ``<title>`` with its exact
figures (shown on hover). Drawn in Python: the page runs no charting script.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from afcheck.metrics import Interval

PALETTE = ("#4caf50", "#3b7dd8", "#f0ad4e", "#8e44ad", "#d9534f", "#795548", "#00897b",
           "#9e9e9e")


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None
    """``None``: nothing to measure (no decided item); drawn as a gap."""
    interval: Interval | None = None
    note: str = ""
    """More for the hover text (``38 of 87``)."""


def interval_bars(title: str, bars: Sequence[Bar], kind: str, what: str) -> str:
    """A panel of proportions with whiskers as an ``<svg class="chart {kind}">``."""
    bar, gap, left, plot_h, head, foot = 34, 22, 40, 160, 30, 40
    # Each bar's slot is wide enough for its whole label.
    slots = [max(bar + gap, label_width(item.label) + 8) for item in bars]
    width = left + (sum(slots) if bars else bar + gap) + gap
    height = head + plot_h + foot
    parts = [f'<svg class="chart {escape(kind)}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(what)}, {escape(title)}">',
             f'<text class="panel-title" x="{width / 2:.1f}" y="18" text-anchor="middle">'
             f'{escape(title)}</text>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = head + plot_h * (1 - tick)
        parts.append(f'<line x1="{left}" x2="{width - 6}" y1="{y:.1f}" y2="{y:.1f}" '
                     'class="grid"/>'
                     f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f'{tick:.2f}</text>')
    for index, item in enumerate(bars):
        centre = left + gap + sum(slots[:index]) + slots[index] / 2 - gap / 2
        x = centre - bar / 2
        if item.value is not None:
            h = plot_h * max(0.0, min(1.0, item.value))
            span = "" if item.interval is None else \
                f" [{item.interval.low:.3f}, {item.interval.high:.3f}]"
            note = f"{item.label}: {what} = {item.value:.3f}{span}" + \
                (f", {item.note}" if item.note else "")
            parts.append(f'<rect x="{x:.1f}" y="{head + plot_h - h:.1f}" width="{bar}" '
                         f'height="{h:.1f}" fill="#3b7dd8" data-value="{item.value:.6f}">'
                         f'<title>{escape(note)}</title></rect>')
            if item.interval is not None:
                low = head + plot_h * (1 - item.interval.low)
                high = head + plot_h * (1 - item.interval.high)
                parts.append(f'<path d="M{centre:.1f} {low:.1f}V{high:.1f}M{centre - 6:.1f} '
                             f'{low:.1f}h12M{centre - 6:.1f} {high:.1f}h12" class="whisker"/>')
        parts.append(f'<text x="{centre:.1f}" y="{head + plot_h + 15}" text-anchor="middle" '
                     f'class="tick">{escape(item.label)}<title>{escape(item.label)}'
                     "</title></text>")
        shown = "n/a" if item.value is None else f"{item.value:.2f}"
        parts.append(f'<text x="{centre:.1f}" y="{head + plot_h + 29}" text-anchor="middle" '
                     f'class="tick small">{shown}</text>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{head}" y2="{head + plot_h}" '
                 'class="axis"/></svg>')
    return "".join(parts)


def share_bars(title: str, rows: Sequence[tuple[str, Sequence[tuple[str, int]]]],
               colours: Mapping[str, str], kind: str) -> str:
    """A panel of 100% bars as an ``<svg class="chart {kind}">``: each row is a label and
    its (category, count) pairs in drawing order."""
    row_h, gap, plot_w, head = 24, 8, 420, 28
    left = max(120, max((label_width(label) for label, _ in rows), default=0) + 12)
    width = left + plot_w + 12
    height = head + max(1, len(rows)) * (row_h + gap) + 22
    parts = [f'<svg class="chart {escape(kind)}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<text class="panel-title" x="{left + plot_w / 2:.1f}" y="18" '
             f'text-anchor="middle">{escape(title)}</text>']
    for index, (label, counts) in enumerate(rows):
        y = head + index * (row_h + gap)
        parts.append(f'<text x="{left - 6}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end" '
                     f'class="tick">{escape(label)}<title>{escape(label)}</title>'
                     "</text>")
        total = sum(count for _, count in counts)
        x = float(left)
        for category, count in counts:
            if not total or not count:
                continue
            w = plot_w * count / total
            note = f"{label}: {category} {count} of {total} ({100 * count / total:.1f}%)"
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row_h}" '
                         f'fill="{colours.get(category, "#9e9e9e")}" '
                         f'data-category="{escape(category)}"><title>{escape(note)}</title>'
                         "</rect>")
            if w >= 30:
                parts.append(f'<text x="{x + w / 2:.1f}" y="{y + row_h / 2 + 4:.1f}" '
                             f'text-anchor="middle" class="seg">{escape(_short(category, 6))}'
                             "</text>")
            x += w
        if not total:
            parts.append(f'<text x="{left + 4}" y="{y + row_h / 2 + 4:.1f}" class="tick">'
                         "none</text>")
    axis_y = head + len(rows) * (row_h + gap) + 4
    for tick in range(0, 101, 25):
        x = left + plot_w * tick / 100
        parts.append(f'<text x="{x:.1f}" y="{axis_y + 10}" text-anchor="middle" '
                     f'class="tick small">{tick}%</text>')
    parts.append("</svg>")
    return "".join(parts)


def colours_for(names: Sequence[str]) -> dict[str, str]:
    """A colour per name, from :data:`PALETTE` in order (repeating past its end)."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def label_width(text: str, size: float = 11.0) -> float:
    """About how wide ``text`` is drawn at ``size`` px (an axis label, ``.tick``): room is
    made for a whole label, never a cut one."""
    return 0.62 * size * len(text)


def _short(name: str, limit: int = 10) -> str:
    return name if len(name) <= limit else name[:limit - 1] + "…"


def rate_cell(value: float | None, interval: Interval | None) -> str:
    """A table cell: the value and, under it, its interval (``n/a`` without a value)."""
    if value is None:
        return "<td class=num>n/a</td>"
    span = "" if interval is None else \
        f" <span class=ci>[{interval.low:.3f}, {interval.high:.3f}]</span>"
    return f"<td class=num>{value:.3f}{span}</td>"


def legend(items: Sequence[tuple[str, str]]) -> str:
    """An HTML legend: ``(label, colour)`` pairs."""
    cells = "".join(f'<span class="key"><i style="background:{colour}"></i>{escape(label)}'
                    "</span>" for label, colour in items)
    return f'<div class="legend">{cells}</div>'
