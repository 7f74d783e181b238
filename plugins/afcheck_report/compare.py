"""``afcheck compare BASE.json NEW.json``: did the new run (a new checkpoint, a new prompt)
get better or worse than the base run on the same cases?

Each method present in both files is compared on its own, its items paired by case id.

Faithfulness: cases in one file only, and cases excluded from the metrics in either run, are
counted and left out. For each metric: both values on the paired cases, the difference
(new − base) and its 95% interval (Newcombe's paired score interval). For each failure event
(any, error induction, silent correction, AF failure): how many paired cases gained it
(``new``) and lost it (``fixed``), with McNemar's exact test. The cases that changed are
listed by group.

Any other method (:mod:`afcheck_report.method_compare`): its own metrics in both runs and
their difference, the items newly failed, fixed or otherwise changed, and McNemar's exact
test on the paired pass/fail outcome.

Exit status: 0; with ``--fail-on-regression``, 1 when some test shows a significant rise:
more paired cases gained the failure than lost it and McNemar's two-sided p-value is below
``alpha / k``, k the number of tests over all methods (Bonferroni: four faithfulness events,
one pass/fail test per other method; a run with no real change fails CI at most ``alpha`` of
the time). 4 (through the ``afcheck`` command) for unreadable or unrelated files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from afcheck.metrics import Interval
from afcheck_report import method_compare
from afcheck_report.faithfulness import PairRecord, metrics, records
from afcheck_report.method_compare import MethodComparison, StatusTest, compare_method
from afcheck_report.runfile import DEFAULT_METHOD, RunFile, RunFileError, load
from afcheck_report.stats import PairedCounts, mcnemar_exact, paired_difference_interval

EVENTS: dict[str, Callable[[PairRecord], bool]] = {
    "any failure": lambda r: r.failed,
    "error induction": lambda r: r.error_induction,
    "silent correction": lambda r: r.silent_correction,
    "AF failure": lambda r: r.af_failure,
}
"""The paired failure events, each a yes/no per case."""

GROUPS = ("new error induction", "new silent correction", "new AF failure",
          "fixed error induction", "fixed silent correction", "fixed AF failure",
          "other outcome change")


@dataclass(frozen=True)
class MetricChange:
    name: str
    base: float
    new: float
    interval: Interval
    """95% interval of new − base."""
    units: str
    """What the proportion counts: ``cases`` or ``sides`` (two per case)."""

    @property
    def difference(self) -> float:
        return self.new - self.base


@dataclass(frozen=True)
class EventTest:
    event: str
    fixed: int
    """Paired cases with the event in the base run and not in the new one."""
    new: int
    """Paired cases with the event in the new run only."""
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
    base: RunFile
    new: RunFile
    paired: int
    """Cases in both files and evaluated in both runs."""
    only_base: tuple[str, ...]
    only_new: tuple[str, ...]
    excluded: int
    """Cases in both files but excluded from the metrics in at least one run."""
    metrics: tuple[MetricChange, ...]
    tests: tuple[EventTest, ...]
    changes: Mapping[str, tuple[CaseChange, ...]]

    def regressions(self, alpha: float) -> list[EventTest]:
        """The events that rose significantly at level ``alpha`` (Bonferroni over events)."""
        level = alpha / len(self.tests) if self.tests else alpha
        return [t for t in self.tests if t.worse and t.p_value < level]


@dataclass(frozen=True)
class RunComparison:
    """Two runs compared method by method."""

    base: RunFile
    new: RunFile
    faithfulness: Comparison | None
    methods: tuple[MethodComparison, ...]
    unpaired: tuple[tuple[str, str, int], ...] = ()
    """(method, the file that has it, its items) for methods in one file only."""

    @property
    def tests(self) -> list[EventTest | StatusTest]:
        faithful = list(self.faithfulness.tests) if self.faithfulness else []
        return [*faithful, *(m.test for m in self.methods)]

    def regressions(self, alpha: float) -> list[EventTest | StatusTest]:
        """The tests that show a significant rise at level ``alpha`` (Bonferroni over every
        test of every method)."""
        tests = self.tests
        level = alpha / len(tests) if tests else alpha
        return [t for t in tests if t.worse and t.p_value < level]


def compare_runs(base: RunFile, new: RunFile) -> RunComparison:
    """Compare every method the two runs share."""
    shared = method_compare.shared_methods(base, new)
    if not shared:
        raise RunFileError(
            f"{base.path} and {new.path} share no evaluation method "
            f"({', '.join(base.methods) or 'none'} vs {', '.join(new.methods) or 'none'})")
    return RunComparison(
        base, new,
        faithfulness=compare(base, new) if DEFAULT_METHOD in shared else None,
        methods=tuple(compare_method(base, new, m) for m in shared if m != DEFAULT_METHOD),
        unpaired=tuple(method_compare.unpaired_methods(base, new)),
    )


def compare(base: RunFile, new: RunFile) -> Comparison:
    """Pair the faithfulness cases of two runs and compare them."""
    base_records = _by_id(base)
    new_records = _by_id(new)
    if not base_records or not new_records:
        empty = base if not base_records else new
        raise RunFileError(f"{empty.path}: no faithfulness cases to compare")
    common = [cid for cid in base_records if cid in new_records]
    if not common:
        raise RunFileError(
            f"{base.path} and {new.path} share no case id: they ran different suites "
            f"(e.g. {next(iter(base_records))!r} vs {next(iter(new_records))!r})")
    pairs = [(base_records[c], new_records[c]) for c in common]
    evaluated = [(b, n) for b, n in pairs if not b.excluded and not n.excluded]
    return Comparison(
        base=base, new=new, paired=len(evaluated),
        only_base=tuple(c for c in base_records if c not in new_records),
        only_new=tuple(c for c in new_records if c not in base_records),
        excluded=len(pairs) - len(evaluated),
        metrics=_metric_changes(evaluated),
        tests=tuple(_event_test(name, event, evaluated) for name, event in EVENTS.items()),
        changes=_changes(evaluated),
    )


def _by_id(run: RunFile) -> dict[str, PairRecord]:
    out: dict[str, PairRecord] = {}
    for record in records(run.steps_of(DEFAULT_METHOD)):
        if record.case_id in out:
            raise RunFileError(f"{run.path}: case {record.case_id!r} appears twice; a result "
                               "file holds each case once")
        out[record.case_id] = record
    return out


_CASE_METRICS: dict[str, Callable[[PairRecord], bool]] = {
    "FNR": lambda r: r.error_induction,
    "FPR": lambda r: r.silent_correction,
    "TPR": lambda r: r.proved_original,
}


def _metric_changes(pairs: Sequence[tuple[PairRecord, PairRecord]]) -> tuple[MetricChange, ...]:
    base_m = metrics(b for b, _ in pairs)
    new_m = metrics(n for _, n in pairs)
    counts: dict[str, PairedCounts] = {}
    for name, unit in _CASE_METRICS.items():
        tally = PairedCounts()
        for b, n in pairs:
            tally = tally.add(unit(b), unit(n))
        counts[name] = tally
    # AFFR and UFLB are shares of the 2N sides: each side pairs with the same side.
    affr = uflb = PairedCounts()
    for b, n in pairs:
        affr = affr.add(b.af_fail_original, n.af_fail_original)
        affr = affr.add(b.af_fail_perturbed, n.af_fail_perturbed)
        uflb = uflb.add(b.original_failed, n.original_failed)
        uflb = uflb.add(b.perturbed_failed, n.perturbed_failed)
    counts["AFFR"], counts["UFLB"] = affr, uflb
    out = []
    for name in ("FNR", "FPR", "AFFR", "UFLB", "TPR"):
        out.append(MetricChange(name, getattr(base_m, name), getattr(new_m, name),
                                paired_difference_interval(counts[name]),
                                "sides" if name in ("AFFR", "UFLB") else "cases"))
    return tuple(out)


def _event_test(name: str, event: Callable[[PairRecord], bool],
                pairs: Sequence[tuple[PairRecord, PairRecord]]) -> EventTest:
    fixed = sum(event(b) and not event(n) for b, n in pairs)
    new = sum(event(n) and not event(b) for b, n in pairs)
    return EventTest(name, fixed, new, mcnemar_exact(fixed, new))


def _changes(pairs: Sequence[tuple[PairRecord, PairRecord]]) -> dict[str, tuple[CaseChange, ...]]:
    groups: dict[str, list[CaseChange]] = {name: [] for name in GROUPS}
    for b, n in pairs:
        change = CaseChange(b.case_id, b.outcome, n.outcome)
        placed = False
        for label, attr in (("error induction", "error_induction"),
                            ("silent correction", "silent_correction"),
                            ("AF failure", "af_failure")):
            before, after = getattr(b, attr), getattr(n, attr)
            if after and not before:
                groups[f"new {label}"].append(change)
                placed = True
            elif before and not after:
                groups[f"fixed {label}"].append(change)
                placed = True
        if not placed and b.outcome != n.outcome:
            groups["other outcome change"].append(change)
    return {name: tuple(cases) for name, cases in groups.items()}


# --- output -------------------------------------------------------------------------------


def to_json(result: Comparison, alpha: float) -> dict[str, Any]:
    return {
        "schema": "afcheck-compare",
        "version": 1,
        "base": {"path": str(result.base.path), "label": result.base.label},
        "new": {"path": str(result.new.path), "label": result.new.label},
        "paired": result.paired,
        "excluded": result.excluded,
        "only_base": list(result.only_base),
        "only_new": list(result.only_new),
        "metrics": {m.name: {"base": m.base, "new": m.new, "difference": m.difference,
                             "ci95": [m.interval.low, m.interval.high], "units": m.units}
                    for m in result.metrics},
        "events": {t.event: {"fixed": t.fixed, "new": t.new, "p_value": t.p_value}
                   for t in result.tests},
        "changes": {name: [{"case_id": c.case_id, "base": c.base_outcome, "new": c.new_outcome}
                           for c in cases] for name, cases in result.changes.items()},
        "alpha": alpha,
        "regressions": [t.event for t in result.regressions(alpha)],
    }


def run_to_json(result: RunComparison, alpha: float) -> dict[str, Any]:
    """The comparison as JSON: the faithfulness comparison's keys (when both runs have that
    method), ``methods`` with every other method's, and the regressions over all tests."""
    if result.faithfulness is not None:
        doc = to_json(result.faithfulness, alpha)
    else:
        doc = {"schema": "afcheck-compare", "version": 1,
               "base": {"path": str(result.base.path), "label": result.base.label},
               "new": {"path": str(result.new.path), "label": result.new.label}}
    doc["methods"] = {m.method: method_compare.to_json(m) for m in result.methods}
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
    if result.faithfulness is not None:
        if result.methods:
            print("\n[faithfulness]", file=out)
        _write_faithfulness(result.faithfulness, show, out)
    for method in result.methods:
        print("", file=out)
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


def _write_faithfulness(result: Comparison, show: int, out: TextIO) -> None:
    extra = []
    if result.only_base:
        extra.append(f"{len(result.only_base)} only in base")
    if result.only_new:
        extra.append(f"{len(result.only_new)} only in new")
    if result.excluded:
        extra.append(f"{result.excluded} excluded in either run")
    print(f"{result.paired} paired cases" + (f" ({', '.join(extra)}; left out)" if extra
                                             else ""), file=out)
    print("", file=out)
    print(f"{'metric':<7}{'base':>8}{'new':>8}{'new−base':>10}  95% interval", file=out)
    for m in result.metrics:
        print(f"{m.name:<7}{m.base:>8.3f}{m.new:>8.3f}{m.difference:>+10.3f}  "
              f"[{m.interval.low:+.3f}, {m.interval.high:+.3f}]", file=out)
    print("", file=out)
    print("failure events on paired cases (McNemar's exact test):", file=out)
    for t in result.tests:
        print(f"  {t.event:<18} new {t.new:>6}  fixed {t.fixed:>6}  p = {t.p_value:.3g}",
              file=out)
    for name, cases in result.changes.items():
        if not cases:
            continue
        print(f"\n{name} ({len(cases)}):", file=out)
        for case in cases[:show]:
            print(f"  {case.case_id}  {case.base_outcome} → {case.new_outcome}", file=out)
        if len(cases) > show:
            print(f"  … {len(cases) - show} more (--show N, or --json for all)", file=out)


# --- command ------------------------------------------------------------------------------


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add ``afcheck compare``'s arguments to ``parser``; return its handler."""
    parser.description = ("Compare two result files case by case: metric differences with "
                          "intervals, changed cases, McNemar's exact test.")
    parser.add_argument("base", help="the base run's JSON result file (afcheck --json)")
    parser.add_argument("new", help="the new run's JSON result file")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.add_argument("--fail-on-regression", action="store_true",
                        help="exit 1 when failures rose significantly (any method)")
    parser.add_argument("--alpha", type=_probability, default=0.05,
                        help="significance level of --fail-on-regression (default 0.05)")
    parser.add_argument("--show", type=int, default=20,
                        help="changed cases listed per group (default 20)")
    return handle


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text}")
    return value


def handle(args: argparse.Namespace) -> int:
    result = compare_runs(load(args.base), load(args.new))
    if args.json:
        json.dump(run_to_json(result, args.alpha), sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        write_text(result, args.alpha, max(0, args.show), sys.stdout)
    if args.fail_on_regression and result.regressions(args.alpha):
        return 1
    return 0
