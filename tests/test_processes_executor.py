"""The ``processes`` executor: chunks in worker processes on this machine give the results a
local run gives, reach the cache as they finish, and say in one line what failed where."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from afcheck_processes.executor import ProcessExecutor
from conftest import TEST_PLUGINS
from executor_runs import examples_json, outcomes

from afcheck import hookimpl
from afcheck.errors import UsageError
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import EXECUTOR, PROVER, Register
from afcheck.runtime import Batch, ComponentError, Components, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.executor import Executor, LocalExecutor
from afcheck.types import ProofTask, Verdict, VerdictKind

STATEMENTS = [f"theorem s{i} : {i} + {i} = {2 * i + i % 3} := by sorry" for i in range(16)]
"""Claims the ``arith`` prover proves or refutes (every third one is false)."""

SLOW = {"delay": "0.1"}
"""Slow enough that the chunks after the first are worth sending to workers (4 chunks of 4 at
0.1 s a statement: 1.2 s after the first, over START_WORTH_S)."""


def _plugins() -> Plugins:
    plugins = Plugins()
    plugins.register_module("slowprove")
    return plugins


def _tasks(statements: list[str]) -> list[ProofTask]:
    return [ProofTask(str(i), s) for i, s in enumerate(statements)]


def _prove(executor: Executor, options: dict[str, str], tasks: list[ProofTask], *,
           plugins: Plugins | None = None, cache_dir: Path | None = None,
           name: str = "slow-arith", chunk_size: int = 4) -> Batch[Verdict]:
    components = Components(plugins or _plugins())
    cache = codec.open_cache(cache_dir) if cache_dir is not None else None
    runtime = Runtime(components, cache=cache, chunk_size=chunk_size, executor=executor)
    built = runtime.component(PROVER, Choice.of(name, options))
    try:
        return runtime.cached("prove", built, tasks, key=lambda t: (t.statement, t.header),
                              call=lambda chunk: built.component.prove(chunk),
                              load=codec.load_verdict, dump=codec.dump)
    finally:
        components.close()
        if cache is not None:
            cache.close()


def _kinds(batch: Batch[Verdict]) -> list[tuple[VerdictKind, str]]:
    return [(v.kind, v.evidence) for v in batch.results]


def test_the_processes_plugin_registers_the_executor() -> None:
    executor = Plugins().create(EXECUTOR, "processes", {"jobs": "2"})
    assert isinstance(executor, ProcessExecutor) and executor.jobs == 2


@pytest.mark.parametrize(("options", "message"), [
    ({"address": "auto"}, "--executor-opt address: unknown option of the processes executor; "
                          "it takes jobs, stages"),
    ({"jobs": "0"}, "--executor-opt jobs=0: expected a whole number of worker processes, at "
                    "least 1"),
    ({"jobs": "two"}, "--executor-opt jobs=two: expected a whole number"),
])
def test_bad_options_are_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        ProcessExecutor(options)


def test_results_equal_local_and_reach_the_cache_as_chunks_finish(tmp_path: Path) -> None:
    tasks = _tasks(STATEMENTS)
    local = _prove(LocalExecutor(), SLOW, tasks)
    executor = ProcessExecutor({"jobs": "2"})
    try:
        shipped = _prove(executor, SLOW, tasks, cache_dir=tmp_path)
    finally:
        executor.close()
    assert _kinds(shipped) == _kinds(local)
    assert {kind for kind, _ in _kinds(local)} == {VerdictKind.PROVED, VerdictKind.REFUTED}
    # A probe of the first chunk ran here, to see whether the rest was worth the workers;
    # the workers finished every chunk.
    assert executor.chunks == {"prove": 4}
    assert executor.describe() == "processes executor: 4 chunks in 2 worker processes " \
                                  "(prove 4)"
    # Every chunk is in the cache: a second run sends nothing anywhere.
    again = ProcessExecutor({"jobs": "2"})
    cached = _prove(again, SLOW, tasks, cache_dir=tmp_path)
    assert _kinds(cached) == _kinds(local) and cached.seconds == [0.0] * len(tasks)
    assert not again.chunks and again.describe() == ""


def test_a_stage_too_small_for_the_workers_stays_here() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    batch = _prove(executor, {"delay": "0"}, _tasks(STATEMENTS))
    assert len(batch.results) == len(STATEMENTS)
    assert executor._pool is None and not executor.chunks and executor.describe() == ""


def test_stages_keeps_the_others_here() -> None:
    executor = ProcessExecutor({"stages": "formalise"})
    _prove(executor, SLOW, _tasks(STATEMENTS[:8]))
    assert executor._pool is None and executor.describe() == ""


def test_a_component_failing_in_a_worker_is_the_components_failure() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    try:
        with pytest.raises(ComponentError, match=r"slow-arith failed at the prove stage: "
                                                 r"WorkerError: ValueError: cannot read "
                                                 r"'theorem s13 .*' \(in a worker process of the "
                                                 r"processes executor\)"):
            _prove(executor, {**SLOW, "fail_on": "s13 "}, _tasks(STATEMENTS))
    finally:
        executor.close()


def test_a_worker_that_dies_fails_its_stage_in_one_line_and_the_next_stage_starts_afresh(
        ) -> None:
    executor = ProcessExecutor({"jobs": "2"})
    try:
        with pytest.raises(ComponentError, match=r"slow-arith failed at the prove stage: "
                                                 r"WorkerError: the worker process died"):
            _prove(executor, {**SLOW, "die_on": "s9 "}, _tasks(STATEMENTS))
        before = executor.chunks["prove"]
        batch = _prove(executor, SLOW, _tasks(STATEMENTS))
    finally:
        executor.close()
    # The workers are up now: every chunk goes to them, the first one too.
    assert _kinds(batch) == _kinds(_prove(LocalExecutor(), SLOW, _tasks(STATEMENTS)))
    assert executor.chunks["prove"] == before + 4


class _InProcess:
    """A plugin given as an object: nothing a worker process could import."""

    @hookimpl
    def afcheck_register_provers(self, register: Register[object]) -> None:
        from slowprove import SlowProver

        register("inline", lambda options: SlowProver(0.1))


def test_an_in_process_plugin_runs_here_and_the_run_says_so() -> None:
    plugins = Plugins(autoload=False)
    plugins.register(_InProcess(), "inline-plugin")
    executor = ProcessExecutor({"jobs": "2"})
    try:
        batch = _prove(executor, {}, _tasks(STATEMENTS[:8]), plugins=plugins, name="inline")
    finally:
        executor.close()
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == (
        "the prove stage ran in this process (the prover 'inline' comes from plugin "
        "'inline-plugin', which was registered in process)")


def test_a_stage_of_one_chunk_is_cut_in_pieces_one_for_each_worker() -> None:
    tasks = _tasks(STATEMENTS)
    executor = ProcessExecutor({"jobs": "2"})
    try:
        batch = _prove(executor, SLOW, tasks, chunk_size=len(tasks))
        assert executor._pool is not None and len(executor._pool._workers) == 2
    finally:
        executor.close()
    assert _kinds(batch) == _kinds(_prove(LocalExecutor(), SLOW, tasks))
    assert executor.chunks == {"prove": 1}


def test_a_component_that_uses_gpus_stays_here_and_the_run_says_so() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    batch = _prove(executor, {**SLOW, "gpus": "1"}, _tasks(STATEMENTS[:8]))
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == ("the prove stage ran in this process (slow-arith uses 1 "
                                   "GPU(s): a copy in each worker would not fit)")


def test_only_a_component_the_call_reaches_must_come_from_a_registry() -> None:
    from slowprove import SlowProver

    from afcheck.components import describe

    components = Components(_plugins())
    executor = ProcessExecutor({"jobs": "2"})
    runtime = Runtime(components, chunk_size=4, executor=executor)
    registered = runtime.component(PROVER, Choice.of("slow-arith", SLOW)).component
    own = describe(SlowProver(0.1), "own-prover", {})

    def decide(built: object, call: object) -> list[Verdict]:
        return runtime.cached("prove", built, _tasks(STATEMENTS), key=lambda t: (t.statement,),
                              call=call, load=codec.load_verdict, dump=codec.dump).results

    try:
        # The stage's component is the driver's own object, and the call reaches it: here.
        decide(own, lambda chunk: own.component.prove(chunk))
        assert executor._pool is None
        assert executor.on_driver == {"prove": "own-prover was not built from a registry"}
        # A stage's component the call does not use (a name for its results) is no reason.
        shipped = decide(own, lambda chunk: registered.prove(chunk))  # type: ignore[attr-defined]
    finally:
        executor.close()
        components.close()
    assert len(shipped) == len(STATEMENTS) and executor.chunks == {"prove": 4}


class _OwnPool:
    """Spreads its work over the CPUs itself, and says so."""

    parallel = True

    def __init__(self, prover: object) -> None:
        self.prover = prover

    def prove(self, tasks: list[ProofTask]) -> list[Verdict]:
        return self.prover.prove(tasks)  # type: ignore[attr-defined,no-any-return]


def test_a_call_that_spreads_its_own_work_stays_here_and_the_run_says_so() -> None:
    components = Components(_plugins())
    executor = ProcessExecutor({"jobs": "2"})
    runtime = Runtime(components, chunk_size=4, executor=executor)
    built = runtime.component(PROVER, Choice.of("slow-arith", SLOW))
    own = _OwnPool(built.component)
    try:
        batch = runtime.cached("prove", built, _tasks(STATEMENTS[:8]),
                               key=lambda t: (t.statement,), call=lambda chunk: own.prove(chunk),
                               load=codec.load_verdict, dump=codec.dump)
    finally:
        executor.close()
        components.close()
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == ("the prove stage ran in this process (its _OwnPool spreads "
                                   "the work over the CPUs itself)")


def test_a_call_that_cannot_be_pickled_runs_here_and_the_run_says_so() -> None:
    components = Components(_plugins())
    executor = ProcessExecutor({"jobs": "2"})
    runtime = Runtime(components, chunk_size=4, executor=executor)
    built = runtime.component(PROVER, Choice.of("slow-arith", SLOW))
    lock = threading.Lock()

    def call(chunk: list[ProofTask]) -> list[Verdict]:
        with lock:
            return built.component.prove(chunk)

    try:
        batch = runtime.cached("prove", built, _tasks(STATEMENTS[:8]),
                               key=lambda t: (t.statement,), call=call,
                               load=codec.load_verdict, dump=codec.dump)
    finally:
        executor.close()
        components.close()
    assert len(batch.results) == 8
    assert "the prove stage ran in this process (its call cannot be sent to a worker: " \
           "TypeError: cannot pickle '_thread.lock' object" in executor.describe()


SLOW_RUN = ("--plugin", "slowprove", "--prover", "slow-arith", "--prover-opt", "delay=0.1")
"""The examples with a prover slow enough that the workers are worth starting."""


def test_a_run_in_worker_processes_equals_the_local_run(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(TEST_PLUGINS)}
    local, _ = examples_json(tmp_path, "local", *SLOW_RUN, limit=16, env=env)
    shipped, stdout = examples_json(tmp_path, "processes", *SLOW_RUN, "--executor",
                                    "processes", "--executor-opt", "jobs=2", limit=16, env=env)
    assert outcomes(shipped) == outcomes(local)
    assert len(outcomes(local)) == 16
    assert "processes executor: " in stdout and "(prove " in stdout
