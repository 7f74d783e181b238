"""The execution of a run: one batched :meth:`~afcheck.method.Method.run` per method.

:func:`execute` is the second of a run's three steps (:func:`afcheck.plan.plan` → execute →
:func:`afcheck.finish.finish`). It hands each method all its cases at once, in the
:class:`~afcheck.runtime.Runtime` the plan describes (:func:`open_runtime`), and judges each
result into the item's final status, with the baseline's expected failures applied: the one
place passed / failed / xfailed / skipped is decided. :func:`close_runtime` ends the runtime
and says what the end of the run prints about it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from afcheck.decided import judged
from afcheck.method import Case, ItemResult
from afcheck.plan import Plan
from afcheck.plugins import Plugins
from afcheck.registry import EXECUTOR
from afcheck.runtime import Components, Runtime, StageTimes
from afcheck.runtime.cache import Cache
from afcheck.runtime.executor import Executor, ExecutorStopped
from afcheck.runtime.progress import Progress
from afcheck.runtime.spool import Spool
from afcheck.types import Status

Notify = Callable[[object], None]
"""Called with each result as a method makes it (the ``afcheck_step_result`` observers)."""


@dataclass(frozen=True)
class Results:
    """Every executed item's result by case id, in the order the methods made them."""

    items: Mapping[str, ItemResult[object]] = field(default_factory=dict)
    stopped: ExecutorStopped | None = None
    """Why the execution stopped before the end (a lost cluster, SIGTERM): the items are
    those finished before; the cache keeps the rest."""


@dataclass(frozen=True)
class RuntimeEnd:
    """What the end of a runtime leaves for the run's summary."""

    messages: tuple[str, ...] = ()
    """Where the work ran, the components' own summaries, the cache's notes."""
    cache_stats: tuple[int, int] | None = None
    """The result cache's hits and misses; ``None``: no cache was used."""
    cache_kept: int | None = None
    """Results of this run the cache committed; ``None``: no cache was used."""
    error: Exception | None = None
    """Why the cache could not be closed (its last results may be lost)."""


def execute(plan: Plan, runtime: Runtime, cases: Sequence[Case[object]] | None = None,
            observe: Callable[[str], Notify | None] | None = None) -> Results:
    """Decide every case of ``plan`` (or the selected ``cases`` among them): one batched
    :meth:`Method.run` per method. ``observe(method)`` gives the function told of each
    result of that method, or ``None``."""
    by_method: dict[str, list[Case[object]]] = {}
    for case in plan.cases if cases is None else cases:
        by_method.setdefault(case.method, []).append(case)
    results: dict[str, ItemResult[object]] = {}
    try:
        for name, group in by_method.items():
            method = plan.methods[name]
            notify = observe(name) if observe is not None else None
            made = method.run(group, runtime, notify)
            for case, result in zip(group, made, strict=True):
                outcome = judged(method, result)
                status = outcome.status
                if status is Status.FAILED and case.case_id in plan.expected_failures:
                    status = Status.XFAILED
                results[case.case_id] = ItemResult(case, result, outcome, status,
                                                   method.timings(result))
    except ExecutorStopped as exc:
        # Executed, so the end of the run still writes its result files (with the items
        # pytest reported: the stop comes before the first).
        return Results(results, exc)
    return Results(results)


def open_runtime(plan: Plan, plugins: Plugins, components: Components, *,
                 cache: Cache | None, chunk_size: int, progress: Progress,
                 times: StageTimes) -> Runtime:
    """The runtime of ``plan``: its executor built now (it may connect to a cluster), its
    budgets, a spool for raw outputs, and the run's ``cache``."""
    executor: Executor = plugins.create(EXECUTOR, plan.executor.name,
                                        dict(plan.executor.options))
    return Runtime(components, cache=cache, chunk_size=chunk_size, progress=progress,
                   times=times, spool=Spool(), executor=executor,
                   budgets={name: dict(stages) for name, stages in plan.budgets.items()})


def close_runtime(runtime: Runtime, components: Components) -> RuntimeEnd:
    """Close the executor, the components and the cache; never raises (a cache that could
    not be closed is the end's :attr:`~RuntimeEnd.error`)."""
    runtime.executor.close()
    messages = [line for line in [runtime.executor.describe()] if line]
    messages += components.summaries()
    messages += runtime.notes
    components.close()
    cache = runtime.cache
    if cache is None:
        return RuntimeEnd(tuple(messages))
    stats = (cache.hits, cache.misses)
    try:
        cache.close()
    except Exception as exc:  # noqa: BLE001 - raised by the run, once its end is recorded
        return RuntimeEnd(tuple(messages), stats, cache.stored, exc)
    return RuntimeEnd(tuple(messages), stats, cache.stored)
