"""``afcheck compare BASE.json NEW.json``: did the new run (a new checkpoint, a new prompt)
get better or worse than the base run on the same items?

Each method present in both files is compared on its own, its items paired by the keys its
report view names (:meth:`afcheck_report.view.MethodView.compare_keys`: by default the case
id); what changed is named by the view's :meth:`~afcheck_report.view.MethodView.outcome_of`.

A method whose view names failure events (``view.paired``, the faithfulness method's: any
failure, error induction, silent correction, AF failure): items in one file only, and items
the view excludes in either run, are counted and left out. For each of the view's paired
metrics: both values on the paired items, the difference (new − base) and its 95% interval
(Newcombe's paired score interval). For each failure event: how many paired items gained it
(``new``) and lost it (``fixed``), with McNemar's exact test. The items that changed are
listed by group.

Any other method (:mod:`afcheck_report.method_compare`): its metrics in both runs and their
difference, the items newly failed, fixed or otherwise changed, and McNemar's exact test on
the paired pass/fail outcome.

Exit status: 0; with ``--fail-on-regression``, 1 when some test shows a significant rise:
more paired items gained the failure than lost it and McNemar's two-sided p-value is below
``alpha / k``, k the number of tests over all methods (Bonferroni: one per failure event,
one pass/fail test per method without events; a run with no real change fails CI at most
``alpha`` of the time). 4 (through the ``afcheck`` command) for unreadable or unrelated files.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from afcheck.metrics import Interval
from afcheck.printable import printable, printable_json
from afcheck_report import method_compare
from afcheck_report.method_compare import MethodComparison, StatusTest, pair_items
from afcheck_report.runfile import Record, RunFile, RunFileError, load
from afcheck_report.stats import PairedCounts, mcnemar_exact, paired_difference_interval
from afcheck_report.view import MethodView, Paired
from afcheck_report.views import Views


@dataclass(frozen=True)
class MetricChange:
    name: str
    base: float
    new: float
    interval: Interval | None
    """95% interval of new − base; ``None`` for a metric that is no proportion (FI)."""
    units: str
    """What the proportion counts: ``cases`` or ``sides`` (two per case)."""

    @property
    def difference(self) -> float:
        return self.new - self.base


@dataclass(frozen=True)
class EventTest:
    event: str
    fixed: int
    """Paired items with the event in the base run and not in the new one."""
    new: int
    """Paired items with the event in the new run only."""
    p_value: float

    @property
    def worse(self) -> bool:
        return self.new > self.fixed


@dataclass(frozen=True)
class CaseChange:
    case_id: str
    base_outcome: str
    new_outcome: str


@dataclass(frozen=True)
class Comparison:
    """Two runs of a method whose view names failure events, compared item by item."""

    base: RunFile
    new: RunFile
    paired: int
    """Items in both files and not excluded in either run."""
    only_base: tuple[str, ...]
    only_new: tuple[str, ...]
    excluded: int
    """Items in both files but excluded in at least one run."""
    metrics: tuple[MetricChange, ...]
    tests: tuple[EventTest, ...]
    changes: Mapping[str, tuple[CaseChange, ...]]
    method: str

    def regressions(self, alpha: float) -> list[EventTest]:
        """The events that rose significantly at level ``alpha`` (Bonferroni over events)."""
        level = alpha / len(self.tests) if self.tests else alpha
        return [t for t in self.tests if t.worse and t.p_value < level]


AnyComparison = Comparison | MethodComparison


@dataclass(frozen=True)
class RunComparison:
    """Two runs compared method by method."""

    base: RunFile
    new: RunFile
    events: Comparison | None
    """The event comparison of the first shared method (in the base run's order) whose view
    names failure events: the comparison the JSON holds at its top level, its tests named
    without the method."""
    methods: tuple[AnyComparison, ...]
    """Every other shared method's comparison."""
    unpaired: tuple[tuple[str, str, int], ...] = ()
    """(method, the file that has it, its items) for methods in one file only."""

    @property
    def tests(self) -> list[EventTest | StatusTest]:
        out: list[EventTest | StatusTest] = list(self.events.tests) if self.events else []
        for method in self.methods:
            out.extend(method.tests if isinstance(method, Comparison) else [method.test])
        return out

    def regressions(self, alpha: float) -> list[EventTest | StatusTest]:
        """The tests that show a significant rise at level ``alpha`` (Bonferroni over every
        test of every method)."""
        tests = self.tests
        level = alpha / len(tests) if tests else alpha
        return [t for t in tests if t.worse and t.p_value < level]


def compare_runs(base: RunFile, new: RunFile, views: Views | None = None) -> RunComparison:
    """Compare every method the two runs share, each by its view (default: the installed
    plugins' views)."""
    views = views if views is not None else Views()
    shared = method_compare.shared_methods(base, new)
    if not shared:
        raise RunFileError(
            f"{base.path} and {new.path} share no evaluation method "
            f"({', '.join(base.methods) or 'none'} vs {', '.join(new.methods) or 'none'})")
    first = next((method for method in shared if views(method).paired is not None), None)
    top: Comparison | None = None
    methods: list[AnyComparison] = []
    for method in shared:
        view = views(method)
        if method == first and view.paired is not None:
            top = compare_events(base, new, method, view, view.paired, "")
        else:
            methods.append(compare_one(base, new, method, view))
    return RunComparison(base, new, events=top, methods=tuple(methods),
                         unpaired=tuple(method_compare.unpaired_methods(base, new)))


def compare_one(base: RunFile, new: RunFile, method: str, view: MethodView) -> AnyComparison:
    """One method's comparison: by its failure events when its view names them, else by the
    pass/fail status of its items."""
    if view.paired is not None:
        return compare_events(base, new, method, view, view.paired, f"{method}: ")
    return method_compare.compare_method(base, new, method, view)


def compare(base: RunFile, new: RunFile, method: str,
            views: Views | None = None) -> Comparison:
    """Pair the items of ``method`` of two runs and compare them by the failure events of
    its view."""
    view = (views if views is not None else Views())(method)
    if view.paired is None:
        raise RunFileError(f"the {method} report view names no failure events to compare")
    return compare_events(base, new, method, view, view.paired, "")


def compare_events(base: RunFile, new: RunFile, method: str, view: MethodView,
                   paired: Paired, label: str) -> Comparison:
    """Pair two runs' items of ``method`` and test each failure event of ``paired``; test
    names start with ``label``."""
    base_steps, new_steps, common = pair_items(base, new, method, view)
    pairs = [(base_steps[c], new_steps[c]) for c in common]
    evaluated = [(c, b, n) for c, (b, n) in zip(common, pairs, strict=True)
                 if not paired.excluded(b) and not paired.excluded(n)]
    return Comparison(
        base=base, new=new, paired=len(evaluated),
        only_base=tuple(c for c in base_steps if c not in new_steps),
        only_new=tuple(c for c in new_steps if c not in base_steps),
        excluded=len(pairs) - len(evaluated),
        metrics=_metric_changes(paired, [(b, n) for _, b, n in evaluated]),
        tests=tuple(_event_test(label + name, event, [(b, n) for _, b, n in evaluated])
                    for name, event in paired.events.items()),
        changes=_changes(view, paired, evaluated),
        method=method,
    )


def _metric_changes(paired: Paired,
                    pairs: Sequence[tuple[Record, Record]]) -> tuple[MetricChange, ...]:
    out = []
    for name, metric in paired.metrics.items():
        counts = PairedCounts()
        for b, n in pairs:
            for was, now in zip(metric.units(b), metric.units(n), strict=True):
                counts = counts.add(was, now)
        out.append(MetricChange(name, counts.base, counts.new,
                                paired_difference_interval(counts), metric.unit))
    base = {m.name: m.base for m in out}
    new = {m.name: m.new for m in out}
    for name, derive in paired.derived.items():
        out.append(MetricChange(name, derive(base), derive(new), None, "derived"))
    return tuple(out)


def _event_test(name: str, event: Callable[[Record], bool],
                pairs: Sequence[tuple[Record, Record]]) -> EventTest:
    fixed = sum(event(b) and not event(n) for b, n in pairs)
    new = sum(event(n) and not event(b) for b, n in pairs)
    return EventTest(name, fixed, new, mcnemar_exact(fixed, new))


def _changes(view: MethodView, paired: Paired, pairs: Sequence[tuple[str, Record, Record]]
             ) -> dict[str, tuple[CaseChange, ...]]:
    labels = paired.groups
    groups: dict[str, list[CaseChange]] = {
        name: [] for name in [*(f"new {e}" for e in labels), *(f"fixed {e}" for e in labels),
                              "other outcome change"]}
    for key, b, n in pairs:
        change = CaseChange(key, view.outcome_of(b), view.outcome_of(n))
        placed = False
        for label in labels:
            event = paired.events[label]
            before, after = event(b), event(n)
            if after and not before:
                groups[f"new {label}"].append(change)
                placed = True
            elif before and not after:
                groups[f"fixed {label}"].append(change)
                placed = True
        if not placed and change.base_outcome != change.new_outcome:
            groups["other outcome change"].append(change)
    return {name: tuple(cases) for name, cases in groups.items()}


# --- output -------------------------------------------------------------------------------


JsonObject = dict[str, object]


def to_json(result: Comparison, alpha: float) -> JsonObject:
    """An event comparison as the whole JSON document (:attr:`RunComparison.events`)."""
    return {
        "schema": "afcheck-compare",
        "version": 1,
        "base": {"path": str(result.base.path), "label": result.base.label},
        "new": {"path": str(result.new.path), "label": result.new.label},
        **events_to_json(result),
        "alpha": alpha,
        "regressions": [t.event for t in result.regressions(alpha)],
    }


def events_to_json(result: Comparison) -> JsonObject:
    """An event comparison's own keys (a method's entry under ``methods``)."""
    return {
        "paired": result.paired,
        "excluded": result.excluded,
        "only_base": list(result.only_base),
        "only_new": list(result.only_new),
        "metrics": {m.name: {"base": m.base, "new": m.new, "difference": m.difference,
                             "ci95": [m.interval.low, m.interval.high] if m.interval else None,
                             "units": m.units}
                    for m in result.metrics},
        "events": {t.event: {"fixed": t.fixed, "new": t.new, "p_value": t.p_value}
                   for t in result.tests},
        "changes": {name: [{"case_id": c.case_id, "base": c.base_outcome, "new": c.new_outcome}
                           for c in cases] for name, cases in result.changes.items()},
    }


def run_to_json(result: RunComparison, alpha: float) -> JsonObject:
    """The comparison as JSON: the keys of the first event comparison
    (:attr:`RunComparison.events`, when a shared method's view names failure events),
    ``methods`` with every other method's, and the regressions over all tests."""
    if result.events is not None:
        doc = to_json(result.events, alpha)
    else:
        doc = {"schema": "afcheck-compare", "version": 1,
               "base": {"path": str(result.base.path), "label": result.base.label},
               "new": {"path": str(result.new.path), "label": result.new.label}}
    doc["methods"] = {m.method: events_to_json(m) if isinstance(m, Comparison)
                      else method_compare.to_json(m) for m in result.methods}
    if result.unpaired:
        doc["unpaired_methods"] = [{"method": m, "file": where, "items": count}
                                   for m, where, count in result.unpaired]
    doc["alpha"] = alpha
    doc["regressions"] = [t.event for t in result.regressions(alpha)]
    return doc


def write_text(result: RunComparison, alpha: float, show: int, out: TextIO) -> None:
    b, n = result.base, result.new
    print(f"base: {b.path} ({b.label})", file=out)
    print(f"new:  {n.path} ({n.label})", file=out)
    if result.events is not None:
        if result.methods:
            print(f"\n[{result.events.method}]", file=out)
        _write_events(result.events, show, out)
    for method in result.methods:
        print("", file=out)
        if isinstance(method, Comparison):
            print(f"[{method.method}]", file=out)
            _write_events(method, show, out)
        else:
            method_compare.write_text(method, show, out)
    for name, where, count in result.unpaired:
        print(f"\n{name}: only in the {where} run ({count} items); not compared", file=out)
    regressions = result.regressions(alpha)
    print("", file=out)
    if regressions:
        worst = "; ".join(f"{t.event} +{t.new - t.fixed} (p = {t.p_value:.3g})"
                          for t in regressions)
        print(f"REGRESSION at alpha = {alpha:g} (Bonferroni over {len(result.tests)} test(s)): "
              f"{worst}", file=out)
    else:
        print(f"no significant regression at alpha = {alpha:g}", file=out)


def _write_events(result: Comparison, show: int, out: TextIO) -> None:
    extra = []
    if result.only_base:
        extra.append(f"{len(result.only_base)} only in base")
    if result.only_new:
        extra.append(f"{len(result.only_new)} only in new")
    if result.excluded:
        extra.append(f"{result.excluded} excluded in either run")
    print(f"{result.paired} paired cases" + (f" ({', '.join(extra)}; left out)" if extra
                                             else ""), file=out)
    if result.metrics:
        width = max(7, *(len(m.name) + 1 for m in result.metrics))
        print("", file=out)
        print(f"{'metric':<{width}}{'base':>8}{'new':>8}{'new−base':>10}  95% interval",
              file=out)
        for m in result.metrics:
            print(f"{m.name:<{width}}{m.base:>8.3f}{m.new:>8.3f}{m.difference:>+10.3f}  "
                  + _interval(m), file=out)
    print("", file=out)
    print("failure events on paired cases (McNemar's exact test):", file=out)
    width = max(18, *(len(t.event) for t in result.tests)) if result.tests else 18
    for t in result.tests:
        print(f"  {t.event:<{width}} new {t.new:>6}  fixed {t.fixed:>6}  p = {t.p_value:.3g}",
              file=out)
    for name, cases in result.changes.items():
        if not cases:
            continue
        print(f"\n{name} ({len(cases)}):", file=out)
        for case in cases[:show]:
            print(f"  {case.case_id}  {case.base_outcome} → {case.new_outcome}", file=out)
        if len(cases) > show:
            print(f"  … {len(cases) - show} more (--show N, or --json for all)", file=out)


def write_markdown(result: RunComparison, alpha: float, show: int, out: TextIO) -> None:
    """The comparison as Markdown, for a pull request comment or a CI page: per method its
    metric table (FI included) and failure events, the changed items folded away, and the
    verdict. Labels and case ids come from the files: escaped, never markup."""
    from afcheck.markdown import md

    b, n = result.base, result.new
    print(f"### afcheck compare: {md(b.label)} → {md(n.label)}", file=out)
    print("", file=out)
    print(f"base: {md(str(b.path))}; new: {md(str(n.path))}", file=out)
    events = [m for m in (result.events, *result.methods) if isinstance(m, Comparison)]
    for method in events:
        print(f"\n#### {md(method.method)}: {method.paired} paired items\n", file=out)
        if method.metrics:
            print("| metric | base | new | new − base | 95% interval |", file=out)
            print("|---|---:|---:|---:|---|", file=out)
            for m in method.metrics:
                print(f"| {md(m.name)} | {m.base:.3f} | {m.new:.3f} | {m.difference:+.3f} | "
                      f"{_interval(m)} |", file=out)
            print("", file=out)
        print("| failure event | new | fixed | p (McNemar) |", file=out)
        print("|---|---:|---:|---:|", file=out)
        for t in method.tests:
            print(f"| {md(t.event)} | {t.new} | {t.fixed} | {t.p_value:.3g} |", file=out)
        changed = [(name, cases) for name, cases in method.changes.items() if cases]
        if changed:
            print("\n<details><summary>changed items</summary>\n", file=out)
            for name, cases in changed:
                print(f"**{md(name)}** ({len(cases)}):\n", file=out)
                for case in cases[:show]:
                    print(f"- {md(case.case_id)}: {md(case.base_outcome)} → "
                          f"{md(case.new_outcome)}", file=out)
                if len(cases) > show:
                    print(f"- … {len(cases) - show} more", file=out)
                print("", file=out)
            print("</details>", file=out)
    for other in result.methods:
        if isinstance(other, Comparison):
            continue
        text = io.StringIO()
        method_compare.write_text(other, show, text)
        print(f"\n#### {md(other.method)}\n", file=out)
        print("```text", file=out)
        print(printable(text.getvalue().rstrip("\n")).replace("```", "'''"), file=out)
        print("```", file=out)
    for name, where, count in result.unpaired:
        print(f"\n{md(name)}: only in the {where} run ({count} items); not compared", file=out)
    regressions = result.regressions(alpha)
    print("", file=out)
    if regressions:
        worst = "; ".join(f"{md(t.event)} +{t.new - t.fixed} (p = {t.p_value:.3g})"
                          for t in regressions)
        print(f"❌ **REGRESSION** at alpha = {alpha:g} (Bonferroni over {len(result.tests)} "
              f"test(s)): {worst}", file=out)
    else:
        print(f"✅ no significant regression at alpha = {alpha:g}", file=out)


def _interval(m: MetricChange) -> str:
    if m.interval is None:
        return "(not a proportion: no interval)"
    return f"[{m.interval.low:+.3f}, {m.interval.high:+.3f}]"


# --- command ------------------------------------------------------------------------------


def configure(parser: argparse.ArgumentParser,
              views: Views | None = None) -> Callable[[argparse.Namespace], int]:
    """Add ``afcheck compare``'s arguments to ``parser``; return its handler, which compares
    by the views of ``views`` (default: those of the process's plugins)."""
    parser.description = ("Compare two result files case by case: metric differences with "
                          "intervals, changed cases, McNemar's exact test.")
    parser.add_argument("base", help="the base run's JSON result file (afcheck --json)")
    parser.add_argument("new", help="the new run's JSON result file")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the comparison as JSON")
    shown.add_argument("--markdown", action="store_true",
                       help="print the comparison as Markdown (a pull request comment, "
                       "$GITHUB_STEP_SUMMARY)")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="exit 1 when failures rose significantly (any method)")
    parser.add_argument("--alpha", type=_probability, default=0.05,
                        help="significance level of --fail-on-regression (default 0.05)")
    parser.add_argument("--show", type=int, default=20,
                        help="changed cases listed per group (default 20)")

    def handle(args: argparse.Namespace) -> int:
        return compare_command(args, views if views is not None else Views())

    return handle


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text}")
    return value


def compare_command(args: argparse.Namespace, views: Views) -> int:
    result = compare_runs(load(args.base), load(args.new), views)
    # Case ids, outcomes and labels come from result files, which may have been edited by
    # hand: what reaches the terminal has its escape codes shown, never acted on.
    if args.json:
        print(printable_json(run_to_json(result, args.alpha), indent=1))
    elif args.markdown:
        write_markdown(result, args.alpha, max(0, args.show), sys.stdout)
    else:
        text = io.StringIO()
        write_text(result, args.alpha, max(0, args.show), text)
        sys.stdout.write(printable(text.getvalue()))
    if args.fail_on_regression and result.regressions(args.alpha):
        return 1
    return 0
