"""The end of a run: the summary of the items pytest reported, its gates, its files.

:func:`finish` is the last of a run's three steps (:func:`afcheck.plan.plan` →
:func:`afcheck.execution.execute` → finish): it summarises each method's items, holds them to
the plan's gates and makes the :class:`~afcheck.summary.RunSummary` that every reporter, the
terminal and the ``afcheck_run_summary`` hook read. :func:`write_reports`,
:func:`update_baseline` and :func:`exit_status` then do what the summary says: write the
result files, write the baseline when asked, and decide the exit status.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from afcheck import gates as gating
from afcheck.budget import as_json
from afcheck.components import Reporter
from afcheck.decided import NOTHING_DECIDED_EXIT, undecided_line
from afcheck.execution import Results
from afcheck.method import ItemResult
from afcheck.plan import Plan
from afcheck.summary import RunSummary


@dataclass(frozen=True)
class Written:
    """What writing a run's files did: a line for each, and whether all were written."""

    messages: tuple[str, ...] = ()
    ok: bool = True


def finish(plan: Plan, results: Results, reported: Sequence[str], *,
           bad: Mapping[str, ItemResult[object]] | None = None, unreadable: int = 0,
           config: Mapping[str, object] | None = None,
           timings: Mapping[str, float] | None = None, rootdir: str = "",
           metadata: Mapping[str, object] | None = None) -> RunSummary:
    """The summary of the items pytest ``reported`` (case ids, in order): after ``-x`` stops
    a run, the metrics, JSON and JUnit agree with what the terminal showed. ``bad`` are the
    failed items of the unreadable records reported, which no method's metrics count;
    ``unreadable`` is how many records of the suites could not be read, reported or not."""
    bad = dict(bad or {})
    everything = {**results.items, **bad}
    items = [everything[case_id] for case_id in reported if case_id in everything]
    by_method: dict[str, list[ItemResult[object]]] = {}
    for item in items:
        if item.case.case_id not in bad:
            by_method.setdefault(item.case.method, []).append(item)
    summaries = {name: plan.methods[name].summarise(group)
                 for name, group in by_method.items()}
    failures, held = gating.judge(plan.gates, summaries)
    if plan.gates and unreadable:
        # Metrics over the records that could be read are not the suite's metrics.
        failures += (f"{unreadable} record(s) of the suites could not be read "
                     "(each is a failed item above); fix or remove them",)
    return RunSummary(
        items=items, methods=summaries, config=dict(config or {}), gate_failures=failures,
        gates_held=held, timings=dict(timings or {}),
        implementations={name: plan.methods[name] for name in by_method},
        unreadable=len(bad),
        rootdir=rootdir,
        candidates={name: plan.candidates[name] for name in by_method
                    if name in plan.candidates},
        metadata=dict(metadata or {}))


def config_record(plan: Plan, *, options: Mapping[str, Mapping[str, str]],
                  components: Mapping[str, object], plugins: Mapping[str, str]
                  ) -> dict[str, object]:
    """The run record's ``config``: the suites and their settings, the methods' versions,
    the component options given per kind (``options``, redacted), the components built, the
    plugins, gates and budgets."""
    return {
        "suites": {name: dict(values) for name, values in plan.suites.items()},
        "methods": {name: method.version for name, method in plan.methods.items()
                    if any(s.get("method") == name for s in plan.suites.values())},
        "options": {kind: dict(given) for kind, given in options.items()},
        "components": dict(components),
        "plugins": dict(plugins),
        "gates": [gate.origin for gate in plan.gates],
        "budgets": {method: {stage: as_json(budget) for stage, budget in stages.items()}
                    for method, stages in plan.budgets.items() if stages},
    }


def write_reports(summary: RunSummary, reporters: Sequence[tuple[Reporter, str]]) -> Written:
    """Each reporter's file; one that cannot be written (or whose reporter fails) loses no
    other file, and makes the run fail."""
    messages: list[str] = []
    ok = True
    for reporter, destination in reporters:
        try:
            reporter.report(summary, destination)
        except OSError as exc:
            messages.append(f"could not write {reporter.name} results to "
                            f"{destination}: {exc.strerror or exc}")
            ok = False
            continue
        except Exception as exc:  # noqa: BLE001 - a reporter's bug loses no other file
            messages.append(f"could not write {reporter.name} results to "
                            f"{destination}: the reporter failed: "
                            f"{type(exc).__name__}: {exc}")
            ok = False
            continue
        messages.append(f"wrote {reporter.name} results to {destination}")
    return Written(tuple(messages), ok)


def update_baseline(baseline: object, update: bool,
                    items: Sequence[ItemResult[object]]) -> Written:
    """Write the baseline (the failing items) to ``baseline`` when ``update`` asks for it;
    not ok when it could not be written."""
    if not update:
        return Written()
    if not baseline:
        return Written(("--update-baseline needs --baseline FILE; nothing written",))
    try:
        count = gating.write_baseline(Path(str(baseline)), items)
    except OSError as exc:
        return Written((f"could not write the baseline {baseline}: {exc.strerror or exc}",),
                       ok=False)
    return Written((f"wrote baseline {baseline} ({count} failing cases)",))


def exit_status(summary: RunSummary, gated: bool, exitstatus: int, written: bool
                ) -> tuple[int | None, str | None]:
    """The run's exit status (``None``: pytest's own ``exitstatus`` stands) and the line that
    says why, if any. Gates decide a run that pytest would end 0 or 1; a file not ``written``
    fails a run that would pass; a run that would exit 0 with nothing decided exits with its
    own status instead, after its own line."""
    if gated and exitstatus in (0, 1):
        final: int | None = 1 if summary.gate_failures or not written else 0
    else:
        final = 1 if not written and exitstatus == 0 else None
    status = exitstatus if final is None else final
    line = undecided_line(summary.items) if status == 0 else None
    if line is None:
        return final, None
    return NOTHING_DECIDED_EXIT, line
