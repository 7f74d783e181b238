"""The execution of a run (:mod:`afcheck.execution`): one batched run per method, each result
judged into its item's final status."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

import arith
from run_fixtures import Steps, claims_suite

from afcheck.execution import close_runtime, execute, open_runtime
from afcheck.method import Case
from afcheck.runtime import Runtime, StageTimes
from afcheck.runtime.cache import open_cache
from afcheck.runtime.executor import ExecutorStopped
from afcheck.runtime.progress import Progress
from afcheck.types import Status


def test_each_method_runs_once_with_all_its_cases_and_each_item_is_judged(
        tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path), claims_suite(tmp_path, "more"))
    arith.CALLS.clear()
    results = steps.execute(planned)
    assert results.stopped is None
    assert list(results.items) == [case.case_id for case in planned.cases]
    assert [item.status for item in results.items.values()][:4] == [
        Status.PASSED, Status.PASSED, Status.FAILED, Status.PASSED]
    assert [size for stage, size in arith.CALLS if stage == "prove"] == [8]  # one batch


def test_a_baseline_failure_is_xfailed_and_a_pass_stays_passed(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    expected = dataclasses.replace(planned, expected_failures=frozenset(
        {"claims::c3", "claims::c1"}))
    statuses = {case_id: item.status for case_id, item in steps.execute(expected).items.items()}
    assert statuses["claims::c3"] is Status.XFAILED
    assert statuses["claims::c1"] is Status.PASSED


def test_only_the_cases_given_run_and_observers_see_each_result(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    seen: list[tuple[str, object]] = []

    def observe(method: str) -> Callable[[object], None]:
        return lambda result: seen.append((method, result))

    runtime = open_runtime(planned, steps.plugins, steps.components, cache=None,
                           chunk_size=8, progress=Progress(enabled=False), times=StageTimes())
    try:
        results = execute(planned, runtime, planned.cases[1:3], observe)
    finally:
        close_runtime(runtime, steps.components)
    assert list(results.items) == ["claims::c2", "claims::c3"]
    assert [method for method, _ in seen] == ["verdicts", "verdicts"]
    assert [result for _, result in seen] == [item.result for item in results.items.values()]


class _Lost:
    """A method whose executor loses its cluster after the first method finished."""

    name = "verdicts"

    def run(self, cases: Sequence[Case[object]], runtime: Runtime,
            notify: object) -> list[object]:
        raise ExecutorStopped("the cluster is gone")


def test_a_stopped_executor_keeps_the_items_finished_before(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    first = steps.execute(planned)
    mixed = dataclasses.replace(
        planned, cases=(*planned.cases, dataclasses.replace(planned.cases[0], method="lost",
                                                            case_id="lost::c1")),
        methods={**planned.methods, "lost": _Lost()})  # type: ignore[dict-item]
    results = steps.execute(mixed)
    assert isinstance(results.stopped, ExecutorStopped)
    assert list(results.items) == list(first.items)


def test_closing_the_runtime_says_what_the_cache_kept(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    runtime = open_runtime(planned, steps.plugins, steps.components,
                           cache=open_cache(tmp_path / "cache"), chunk_size=8,
                           progress=Progress(enabled=False), times=StageTimes())
    execute(planned, runtime)
    end = close_runtime(runtime, steps.components)
    assert end.error is None
    assert end.cache_stats == (0, 4) and end.cache_kept == 4
