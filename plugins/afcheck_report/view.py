"""What an evaluation method gives the report: a :class:`MethodView`.

A method's view is registered under the method's name through the report plugin's
``afcheck_register_views`` hook (:mod:`afcheck_report.hookspecs`); the report looks it up in
the run's plugins and never names a method itself. A view reads its method's records (JSON
objects, as the result file holds them) with the method's own reader and metrics code, and
uses the report's shared helpers for what it draws (:mod:`afcheck_report.plots`,
:mod:`afcheck_report.charts`, :mod:`afcheck_report.stats`). A method without a view gets the
generic one (:class:`afcheck_report.views.GenericView`): counts by status and outcome, and
each record as written.

A view supplies:

- for the page: its section's ``title`` and body (:meth:`~MethodView.render`), each item's
  step-browser record (:meth:`~MethodView.browse`), the browser's ``filters`` of its own and,
  optionally, the ``script`` that draws an item's detail in the browser;
- for ``afcheck compare``: what identifies an item across runs
  (:meth:`~MethodView.compare_keys`), the name of its outcome (:meth:`~MethodView.outcome_of`),
  the figures the comparison table shows (:meth:`~MethodView.metrics`) and, for a finer test
  than pass/fail, its failure events (``paired``, a :class:`Paired`);
- for ``afcheck report``: options of its own (:meth:`~MethodView.add_arguments`) and what they
  do to its items before the page is drawn (:meth:`~MethodView.prepare`).

Every member has a default (subclass :class:`MethodView` to inherit them), except ``title``,
:meth:`~MethodView.render` and :meth:`~MethodView.browse`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from afcheck import fields
from afcheck.metrics import Metric
from afcheck_report.embed import Strings
from afcheck_report.runfile import Record, RunFile, case_id_of

__all__ = ["BrowseRecord", "BrowseTables", "Filter", "MethodView", "Metric", "Paired",
           "PairedMetric", "Record", "RunSteps"]

BrowseRecord = dict[str, object]
"""An item's record in the step browser (JSON). The page sets ``r`` (run), ``m`` (method),
``id``, ``d`` (dataset), ``s`` (status) and ``o`` (:meth:`MethodView.outcome_of`); a view adds
its own keys, short ones (a 25,000-item run's records are most of a page's weight). Keys the
browser itself reads: ``t`` (the item's text, searched), ``n`` (a note in the row), ``ru`` (a
rule), ``ev`` (failure events, a list), ``w`` (warnings: ``{"d", "g", "sd"}`` objects), ``fx``
(values of the view's own filters, by key), ``q`` (more texts to search)."""

Filter = tuple[str, str]
"""A step-browser filter of a view's own: ``(key, label)``; an item's value of it is its
browser record's ``fx[key]``."""


@dataclass(frozen=True)
class RunSteps:
    """One run's items of one method; ``index`` is the run's position in the report."""

    run: RunFile
    index: int
    steps: Sequence[Record]


@dataclass
class BrowseTables:
    """Tables the browser records point into: ``strings`` for texts that repeat (a chain's
    context, a formaliser's name), ``raw`` for raw model outputs (unpacked by the page only
    when one is opened)."""

    strings: Strings = field(default_factory=Strings)
    raw: Strings = field(default_factory=Strings)


@dataclass(frozen=True)
class PairedMetric:
    """A metric that is a proportion of binary units of each item (one per item for a rate
    over items, two for a rate over both sides of a case): compared over the paired items,
    with a paired interval of the difference."""

    units: Callable[[Record], Sequence[bool]]
    unit: str = "cases"
    """What the units are, for the reader (``cases``, ``sides``)."""


@dataclass(frozen=True)
class Paired:
    """A finer comparison than pass/fail: each failure event is a yes/no of an item, tested
    with McNemar's exact test over the paired items; items are grouped by the events they
    gained (``new …``) or lost (``fixed …``)."""

    events: Mapping[str, Callable[[Record], bool]]
    """The failure events, by name; the first is tested as "any failure" is."""
    grouped: Sequence[str] = ()
    """The events items are grouped by (default: all but the first)."""
    metrics: Mapping[str, PairedMetric] = field(default_factory=dict)
    derived: Mapping[str, Callable[[Mapping[str, float]], float]] = field(default_factory=dict)
    """Metrics that are functions of the paired metrics' values (the faithfulness index of
    TPR and FPR): compared by their values in both runs, with no interval."""
    excluded: Callable[[Record], bool] = lambda step: False
    """Items left out of the comparison (counted apart)."""

    @property
    def groups(self) -> tuple[str, ...]:
        return tuple(self.grouped) or tuple(self.events)[1:]


@runtime_checkable
class MethodView(Protocol):
    """A method's report section, step-browser records and compare keys."""

    title: str
    """The section's heading."""
    filters: Sequence[Filter] = ()
    script: str = ""
    """A JavaScript expression the page evaluates once, whose value is an object with
    ``detail(rec, ui)``: the DOM node that shows one item's browser record when its row is
    opened, and optionally ``search(rec)``: more texts the search box looks in. ``ui`` holds
    the page's helpers: ``el(tag, cls, text)``, ``svg(tag, attrs, text)``, ``str(ref)`` (a
    string of ``strings``), ``raw(ref)`` (a closed element that unpacks raw output ``ref``),
    ``mark(pre, chars, start, end, cls)``. Empty: the browser shows the record as JSON. All
    text must go in with ``textContent`` (``el`` does), never as markup."""
    paired: Paired | None = None
    """Failure events for ``afcheck compare`` (``None``: it tests pass/fail)."""
    outcome_keys: tuple[str, ...] = ("outcome",)
    """The keys of an item's record that name its outcome, the first non-empty one winning
    (:meth:`outcome_of`)."""

    def render(self, runs: Sequence[RunSteps]) -> str:
        """The section's HTML body (everything below its heading), for the method's items of
        every run in the report. Every text from data must be escaped."""
        ...

    def browse(self, step: Record, tables: BrowseTables) -> BrowseRecord:
        """The view's part of the item's step-browser record (see :data:`BrowseRecord`)."""
        ...

    def compare_keys(self, step: Record) -> tuple[str, ...]:
        """What identifies the item across runs, most specific first: ``afcheck compare``
        pairs two runs' items on the first position under which they share items (a later
        position only when every item has a key there). Default: the run's case id, then
        the method's own ``id``, which files written before records named their case id have
        alone."""
        own = step.get("id")
        return (case_id_of(step), *([own] if isinstance(own, str) and own else []))

    def id_of(self, step: Record) -> str:
        """The item's name in the browser: its case id."""
        return case_id_of(step)

    def outcome_of(self, step: Record) -> str:
        """The method's own outcome of the item (the browser's outcome column, and what
        ``afcheck compare`` says changed). Default: the first of :attr:`outcome_keys` the
        record names, else its status."""
        return fields.text(step, *self.outcome_keys, "status")

    def metrics(self, steps: Sequence[Record]) -> Mapping[str, Metric]:
        """The method's typed figures (:data:`afcheck.metrics.Metric`) over ``steps`` (the
        items two runs share), by name, counted by the method's own code. Empty (the
        default): ``afcheck compare`` shows the typed metrics each run wrote
        (``methods.<name>.metrics.overall``), over all its items."""
        return {}

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add options of the view's own to ``afcheck report``."""
        return None

    def prepare(self, steps: Sequence[Record], args: argparse.Namespace) -> Sequence[Record]:
        """The method's items of one run as the page should show them, after the view's
        options (``args``); default: unchanged."""
        return steps
