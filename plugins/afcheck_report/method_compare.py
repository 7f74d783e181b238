"""Two runs of one evaluation method compared item by item, by pass/fail, for any method.

Items are paired by the keys the method's view names (:meth:`afcheck_report.view.MethodView.
compare_keys`; by default the case id). Per metric: the two runs' values, with their
intervals, and the difference: the view's own figures over the paired items
(:meth:`~afcheck_report.view.MethodView.metrics`) or, for a view that counts none, each run's
own typed metrics (its ``methods.<name>.metrics``, overall). Per item: whether its status changed:
newly failed (passed before, failed now), fixed (failed before, passed now), or another
change (to or from skipped, or the method's outcome, :meth:`~afcheck_report.view.MethodView.
outcome_of`, changed within the same status, such as chain class T3 → T4). McNemar's exact
test on the paired pass/fail outcome (items passed or failed in both runs; an expected
failure counts as a failure) says whether the items that moved moved one way more than
chance.

A method whose view names failure events has the finer comparison of
:mod:`afcheck_report.compare` instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from afcheck.metrics import Count, Interval, Metric, Rate, Score, metric_value
from afcheck_report.runfile import Record, RunFile, RunFileError
from afcheck_report.stats import mcnemar_exact
from afcheck_report.view import MethodView

FAILED = ("failed", "xfailed")
"""Statuses that are a failure of the item (xfailed: a failure the baseline expected)."""
DECIDED = ("passed", *FAILED)

@dataclass(frozen=True)
class MetricPair:
    """One metric of the method in both runs (``None``: the run has no value for it)."""

    name: str
    base: float | None
    new: float | None
    base_interval: Interval | None = None
    new_interval: Interval | None = None
    count: bool = False
    """Both values are whole counts (``N``, ``correct``), not rates."""

    @property
    def difference(self) -> float | None:
        return None if self.base is None or self.new is None else self.new - self.base


@dataclass(frozen=True)
class ItemChange:
    case_id: str
    base_status: str
    new_status: str
    base_outcome: str
    new_outcome: str


@dataclass(frozen=True)
class StatusTest:
    """McNemar's exact test on the paired pass/fail outcome of one method."""

    method: str
    fixed: int
    new: int
    """Items failed only in the new run."""
    p_value: float

    @property
    def event(self) -> str:
        return f"{self.method}: failed"

    @property
    def worse(self) -> bool:
        return self.new > self.fixed


@dataclass(frozen=True)
class MethodComparison:
    method: str
    paired: int
    """Items in both files."""
    decided: int
    """Paired items passed or failed in both runs (the units of the test)."""
    only_base: tuple[str, ...]
    only_new: tuple[str, ...]
    metrics: tuple[MetricPair, ...]
    newly_failed: tuple[ItemChange, ...]
    fixed: tuple[ItemChange, ...]
    other: tuple[ItemChange, ...]
    test: StatusTest
    groups: tuple[str, str] | None = None
    """The base and new run's metric groups when they differ and were paired (criteria)."""
    paired_metrics: bool = False
    """The metrics are the view's, over the paired items (not each run's own, over all)."""

    @property
    def changes(self) -> dict[str, tuple[ItemChange, ...]]:
        return {"newly failed": self.newly_failed, "fixed": self.fixed,
                "other change": self.other}


def pair_items(base: RunFile, new: RunFile, method: str, view: MethodView
               ) -> tuple[dict[str, Record], dict[str, Record], list[str]]:
    """The two runs' items of ``method`` by the key they pair on, and the keys both have:
    the first position of the view's :meth:`~afcheck_report.view.MethodView.compare_keys`
    under which the runs share items (a later position only when every item has a key
    there). Raises :class:`RunFileError` for an item twice in a file, or nothing shared."""
    base_keys = [(step, view.compare_keys(step)) for step in base.steps_of(method)]
    new_keys = [(step, view.compare_keys(step)) for step in new.steps_of(method)]
    depth = max((len(keys) for _, keys in [*base_keys, *new_keys]), default=1)
    first: tuple[dict[str, Record], dict[str, Record]] | None = None
    for position in range(max(1, depth)):
        if position and not all(len(keys) > position for _, keys in [*base_keys, *new_keys]):
            break
        base_steps = _by_key(base, method, base_keys, position)
        new_steps = _by_key(new, method, new_keys, position)
        first = first or (base_steps, new_steps)
        common = [key for key in base_steps if key in new_steps]
        if common:
            return base_steps, new_steps, common
    assert first is not None
    raise RunFileError(
        f"{base.path} and {new.path} share no case id ({method}): they ran different suites "
        f"(e.g. {next(iter(first[0]))!r} vs {next(iter(first[1]))!r})")


def _by_key(run: RunFile, method: str, steps: Sequence[tuple[Record, tuple[str, ...]]],
            position: int) -> dict[str, Record]:
    out: dict[str, Record] = {}
    for step, keys in steps:
        if len(keys) <= position:
            continue
        key = keys[position]
        if key in out:
            raise RunFileError(f"{run.path}: {method} case {key!r} appears twice; a result "
                               "file holds each case once")
        out[key] = step
    if not out:
        raise RunFileError(f"{run.path}: no {method} cases to compare")
    return out


def compare_method(base: RunFile, new: RunFile, method: str,
                   view: MethodView | None = None) -> MethodComparison:
    """Pair the items of ``method`` in two runs and compare them by pass/fail, by ``view``
    (default: the method's view among the installed plugins)."""
    if view is None:
        from afcheck_report.views import Views

        view = Views()(method)
    base_steps, new_steps, common = pair_items(base, new, method, view)
    newly_failed: list[ItemChange] = []
    fixed: list[ItemChange] = []
    other: list[ItemChange] = []
    decided = 0
    for cid in common:
        b, n = base_steps[cid], new_steps[cid]
        change = ItemChange(cid, str(b.get("status") or ""), str(n.get("status") or ""),
                            view.outcome_of(b), view.outcome_of(n))
        if change.base_status in DECIDED and change.new_status in DECIDED:
            decided += 1
            was, now = change.base_status in FAILED, change.new_status in FAILED
            if now and not was:
                newly_failed.append(change)
                continue
            if was and not now:
                fixed.append(change)
                continue
        if change.base_status != change.new_status or change.base_outcome != change.new_outcome:
            other.append(change)
    base_own = view.metrics([base_steps[c] for c in common])
    new_own = view.metrics([new_steps[c] for c in common])
    paired = bool(base_own or new_own)
    if not paired:
        base_own, new_own = run_metrics(base, method), run_metrics(new, method)
    base_metrics, new_metrics, groups = align_groups(base_own, new_own)
    return MethodComparison(
        method=method, paired=len(common), decided=decided,
        only_base=tuple(c for c in base_steps if c not in new_steps),
        only_new=tuple(c for c in new_steps if c not in base_steps),
        metrics=metric_pairs(base_metrics, new_metrics),
        groups=groups,
        newly_failed=tuple(newly_failed), fixed=tuple(fixed), other=tuple(other),
        test=StatusTest(method, len(fixed), len(newly_failed),
                        mcnemar_exact(len(fixed), len(newly_failed))),
        paired_metrics=paired,
    )


def run_metrics(run: RunFile, method: str) -> dict[str, Metric]:
    """The run's own overall typed metrics of ``method`` (``methods.<method>.metrics``);
    empty when the file has none."""
    metrics = run.metrics.get(method)
    return dict(metrics.overall) if metrics is not None else {}


def align_groups(base: Mapping[str, Metric], new: Mapping[str, Metric]
                 ) -> tuple[dict[str, Metric], dict[str, Metric], tuple[str, str] | None]:
    """When each run's metrics sit under one group of its own and the groups differ (an
    equivalence run per criterion: ``sae:coverage`` against ``syntactic:coverage``), the
    metrics without the group, so that they pair; and the two groups. Otherwise as given."""
    def single(names: Mapping[str, Metric]) -> str | None:
        heads = {name.split(":", 1)[0] for name in names}
        return heads.pop() if len(heads) == 1 and all(":" in n for n in names) else None

    left, right = single(base), single(new)
    if left is None or right is None or left == right:
        return dict(base), dict(new), None
    return ({k.split(":", 1)[1]: v for k, v in base.items()},
            {k.split(":", 1)[1]: v for k, v in new.items()}, (left, right))


def metric_pairs(base: Mapping[str, Metric], new: Mapping[str, Metric]
                 ) -> tuple[MetricPair, ...]:
    """Every metric of either run, the base run's order first: a count is shown whole, a
    rate and a score with their intervals."""
    pairs = []
    for name in dict.fromkeys([*base, *new]):
        b, n = base.get(name), new.get(name)
        count = all(isinstance(m, Count) for m in (b, n) if m is not None)
        pairs.append(MetricPair(name, _number(b), _number(n), _interval(b), _interval(n), count))
    return tuple(pairs)


def _number(metric: Metric | None) -> float | None:
    return None if metric is None else metric_value(metric)


def _interval(metric: Metric | None) -> Interval | None:
    if isinstance(metric, Rate):
        return metric.interval if metric.total else None
    return metric.interval if isinstance(metric, Score) else None


# --- output -------------------------------------------------------------------------------


def to_json(result: MethodComparison) -> dict[str, object]:
    def change(c: ItemChange) -> dict[str, str]:
        return {"case_id": c.case_id, "base": c.base_status, "new": c.new_status,
                "base_outcome": c.base_outcome, "new_outcome": c.new_outcome}

    def interval(value: Interval | None) -> list[float] | None:
        return None if value is None else [value.low, value.high]

    return {
        "paired": result.paired,
        "decided": result.decided,
        "only_base": list(result.only_base),
        "only_new": list(result.only_new),
        "metrics": {m.name: {"base": m.base, "new": m.new, "difference": m.difference,
                             "base_ci95": interval(m.base_interval),
                             "new_ci95": interval(m.new_interval)} for m in result.metrics},
        "metric_groups": None if result.groups is None else
        {"base": result.groups[0], "new": result.groups[1]},
        "status": {"newly_failed": result.test.new, "fixed": result.test.fixed,
                   "p_value": result.test.p_value},
        "changes": {name.replace(" ", "_"): [change(c) for c in cases]
                    for name, cases in result.changes.items()},
    }


def write_text(result: MethodComparison, show: int, out: TextIO) -> None:
    print(f"[{result.method}]", file=out)
    extra = []
    if result.only_base:
        extra.append(f"{len(result.only_base)} only in base")
    if result.only_new:
        extra.append(f"{len(result.only_new)} only in new")
    print(f"{result.paired} paired items, {result.decided} passed or failed in both"
          + (f" ({', '.join(extra)}; left out)" if extra else ""), file=out)
    if result.groups is not None:
        print(f"metrics of {result.groups[0]} (base) against {result.groups[1]} (new)",
              file=out)
    if result.metrics:
        width = max(len("metric"), *(len(m.name) for m in result.metrics))
        over = (f"over the {result.paired} paired items" if result.paired_metrics
                else "the runs' own figures, over all their items")
        print(f"{'metric':<{width}}{'base':>9}{'new':>9}{'new−base':>10}   ({over})",
              file=out)
        for m in result.metrics:
            digits = 0 if m.count else 3
            diff = "" if m.difference is None else f"{m.difference:+.{digits}f}"
            print(f"{m.name:<{width}}{_value(m.base, digits):>9}{_value(m.new, digits):>9}"
                  f"{diff:>10}" + _intervals(m), file=out)
    t = result.test
    print(f"pass/fail on paired items (McNemar's exact test): newly failed {t.new}, "
          f"fixed {t.fixed}, p = {t.p_value:.3g}", file=out)
    for name, cases in result.changes.items():
        if not cases:
            continue
        print(f"\n{result.method}: {name} ({len(cases)}):", file=out)
        for case in cases[:show]:
            print(f"  {case.case_id}  {_state(case.base_status, case.base_outcome)} → "
                  f"{_state(case.new_status, case.new_outcome)}", file=out)
        if len(cases) > show:
            print(f"  … {len(cases) - show} more (--show N, or --json for all)", file=out)


def _value(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _intervals(m: MetricPair) -> str:
    if m.base_interval is None and m.new_interval is None:
        return ""

    def shown(i: Interval | None) -> str:
        return "–" if i is None else f"[{i.low:.3f}, {i.high:.3f}]"
    return f"   base {shown(m.base_interval)} new {shown(m.new_interval)}"


def _state(status: str, outcome: str) -> str:
    return status if outcome in ("", status) else f"{status} ({outcome})"


def shared_methods(base: RunFile, new: RunFile) -> list[str]:
    """The methods with items in both runs, in the base run's order."""
    return [m for m in base.methods if m in new.methods]


def unpaired_methods(base: RunFile, new: RunFile) -> Sequence[tuple[str, str, int]]:
    """(method, which file, items) for methods in one file only."""
    out = [(m, "base", len(base.steps_of(m))) for m in base.methods if m not in new.methods]
    out += [(m, "new", len(new.steps_of(m))) for m in new.methods if m not in base.methods]
    return out
