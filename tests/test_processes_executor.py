"""The ``processes`` executor: chunks in worker processes on this machine give the results a
local run gives, reach the cache as they finish, and say in one line what failed where."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from afcheck_processes.executor import ProcessExecutor
from conftest import TEST_PLUGINS
from executor_runs import examples_json, kinds, numbered, outcomes, prove, slowprove_plugins

from afcheck import hookimpl
from afcheck.components import Built, Prover
from afcheck.errors import UsageError
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import EXECUTOR, PROVER, Register
from afcheck.runtime import ComponentError, Components, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.executor import LocalExecutor
from afcheck.types import ProofTask, Verdict, VerdictKind

STATEMENTS = [f"theorem s{i} : {i} + {i} = {2 * i + i % 3} := by sorry" for i in range(16)]
"""Claims the ``arith`` prover proves or refutes (every third one is false)."""

SLOW = {"delay": "0.1"}
"""Slow enough that the work after a probe is worth sending to workers (16 statements at 0.1 s
each, over START_WORTH_S)."""


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


@pytest.mark.heavy
def test_results_equal_local_and_reach_the_cache_as_chunks_finish(tmp_path: Path) -> None:
    tasks = numbered(STATEMENTS)
    local = prove(LocalExecutor(), Choice.of("slow-arith", SLOW), tasks)
    executor = ProcessExecutor({"jobs": "2"})
    try:
        shipped = prove(executor, Choice.of("slow-arith", SLOW), tasks, cache_dir=tmp_path)
    finally:
        executor.close()
    assert kinds(shipped) == kinds(local)
    assert {kind for kind, _ in kinds(local)} == {VerdictKind.PROVED, VerdictKind.REFUTED}
    # A probe of the first chunk ran here, to see whether the rest was worth the workers;
    # the workers finished every chunk.
    assert executor.chunks == {"prove": 4}
    assert executor.describe() == "processes executor: 4 chunks in 2 worker processes " \
                                  "(prove 4)"
    # Every chunk is in the cache: a second run sends nothing anywhere.
    again = ProcessExecutor({"jobs": "2"})
    cached = prove(again, Choice.of("slow-arith", SLOW), tasks, cache_dir=tmp_path)
    assert kinds(cached) == kinds(local) and cached.seconds == [0.0] * len(tasks)
    assert not again.chunks and again.describe() == ""


def test_a_stage_too_small_for_the_workers_stays_here() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    batch = prove(executor, Choice.of("slow-arith", {"delay": "0"}), numbered(STATEMENTS))
    assert len(batch.results) == len(STATEMENTS)
    assert executor._pool is None and not executor.chunks and executor.describe() == ""


def test_stages_keeps_the_others_here() -> None:
    executor = ProcessExecutor({"stages": "formalise"})
    prove(executor, Choice.of("slow-arith", SLOW), numbered(STATEMENTS[:8]))
    assert executor._pool is None and executor.describe() == ""


def test_a_component_failing_in_a_worker_is_the_components_failure() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    try:
        with pytest.raises(ComponentError, match=r"slow-arith failed at the prove stage: "
                                                 r"WorkerError: ValueError: cannot read "
                                                 r"'theorem s13 .*' \(in a worker process of the "
                                                 r"processes executor\)"):
            prove(executor, Choice.of("slow-arith", {**SLOW, "fail_on": "s13 "}),
                  numbered(STATEMENTS))
    finally:
        executor.close()


@pytest.mark.heavy
def test_a_worker_that_dies_fails_its_stage_in_one_line_and_the_next_stage_starts_afresh(
        ) -> None:
    executor = ProcessExecutor({"jobs": "2"})
    try:
        with pytest.raises(ComponentError, match=r"slow-arith failed at the prove stage: "
                                                 r"WorkerError: the worker process died"):
            prove(executor, Choice.of("slow-arith", {**SLOW, "die_on": "s9 "}),
                  numbered(STATEMENTS))
        before = executor.chunks["prove"]
        batch = prove(executor, Choice.of("slow-arith", SLOW), numbered(STATEMENTS))
    finally:
        executor.close()
    # The workers are up now: every chunk goes to them, the first one too.
    local = prove(LocalExecutor(), Choice.of("slow-arith", SLOW), numbered(STATEMENTS))
    assert kinds(batch) == kinds(local)
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
        batch = prove(executor, Choice.of("inline"), numbered(STATEMENTS[:8]), plugins=plugins)
    finally:
        executor.close()
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == (
        "the prove stage ran in this process (the prover 'inline' comes from plugin "
        "'inline-plugin', which was registered in process)")


@pytest.mark.heavy
def test_a_stage_of_one_chunk_is_cut_in_pieces_one_for_each_worker() -> None:
    tasks = numbered(STATEMENTS)
    executor = ProcessExecutor({"jobs": "2"})
    try:
        batch = prove(executor, Choice.of("slow-arith", SLOW), tasks, chunk_size=len(tasks))
        assert executor._pool is not None and len(executor._pool._workers) == 2
    finally:
        executor.close()
    assert kinds(batch) == kinds(prove(LocalExecutor(), Choice.of("slow-arith", SLOW), tasks))
    assert executor.chunks == {"prove": 1}


def test_a_component_that_uses_gpus_stays_here_and_the_run_says_so() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    batch = prove(executor, Choice.of("slow-arith", {**SLOW, "gpus": "1"}),
                  numbered(STATEMENTS[:8]))
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == ("the prove stage ran in this process (slow-arith uses 1 "
                                   "GPU(s): a copy in each worker would not fit)")


@pytest.mark.heavy
def test_only_a_component_the_call_reaches_must_come_from_a_registry() -> None:
    from slowprove import SlowProver

    from afcheck.components import describe

    components = Components(slowprove_plugins())
    executor = ProcessExecutor({"jobs": "2"})
    runtime = Runtime(components, chunk_size=4, executor=executor)
    registered = runtime.component(PROVER, Choice.of("slow-arith", SLOW)).component
    own: Built[object] = describe(SlowProver(0.1), "own-prover", {})

    def decide(built: Built[object],
               call: Callable[[list[ProofTask]], Sequence[Verdict]]) -> list[Verdict]:
        return runtime.cached("prove", built, numbered(STATEMENTS), key=lambda t: (t.statement,),
                              call=call, load=codec.load_verdict, dump=codec.dump).results

    try:
        # The stage's component is the driver's own object, and the call reaches it: here.
        decide(own, lambda chunk: own.component.prove(chunk))  # type: ignore[attr-defined]
        assert executor._pool is None
        assert executor.on_driver == {"prove": "own-prover was not built from a registry"}
        # A stage's component the call does not use (a name for its results) is no reason.
        shipped = decide(own, lambda chunk: registered.prove(chunk))
    finally:
        executor.close()
        components.close()
    assert len(shipped) == len(STATEMENTS) and executor.chunks == {"prove": 4}


class _OwnPool:
    """Spreads its work over the CPUs itself, and says so."""

    parallel = True

    def __init__(self, prover: Prover) -> None:
        self.prover = prover

    def prove(self, tasks: list[ProofTask]) -> list[Verdict]:
        return self.prover.prove(tasks)


def test_a_call_that_spreads_its_own_work_stays_here_and_the_run_says_so() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    try:
        batch = prove(executor, Choice.of("slow-arith", SLOW), numbered(STATEMENTS[:8]),
                      call=lambda prover: _OwnPool(prover).prove)
    finally:
        executor.close()
    assert len(batch.results) == 8 and executor._pool is None
    assert executor.describe() == ("the prove stage ran in this process (its _OwnPool spreads "
                                   "the work over the CPUs itself)")


def test_a_call_that_cannot_be_pickled_runs_here_and_the_run_says_so() -> None:
    executor = ProcessExecutor({"jobs": "2"})
    lock = threading.Lock()

    def locked(prover: Prover) -> Callable[[list[ProofTask]], Sequence[Verdict]]:
        def call(chunk: list[ProofTask]) -> Sequence[Verdict]:
            with lock:
                return prover.prove(chunk)
        return call

    try:
        batch = prove(executor, Choice.of("slow-arith", SLOW), numbered(STATEMENTS[:8]),
                      call=locked)
    finally:
        executor.close()
    assert len(batch.results) == 8
    assert "the prove stage ran in this process (its call cannot be sent to a worker: " \
           "TypeError: cannot pickle '_thread.lock' object" in executor.describe()


@pytest.mark.heavy
def test_a_run_in_worker_processes_equals_the_local_run(tmp_path: Path) -> None:
    # `stages=prove` sends that stage to the workers whatever its size: no probe, no timing,
    # decides where it runs, so the run is the same on an idle machine and a loaded one.
    env = {"PYTHONPATH": str(TEST_PLUGINS)}
    run = ("--plugin", "slowprove", "--prover", "slow-arith", "--prover-opt", "delay=0")
    local, _ = examples_json(tmp_path, "local", *run, limit=16, env=env)
    shipped, stdout = examples_json(tmp_path, "processes", *run, "--executor", "processes",
                                    "--executor-opt", "jobs=2,stages=prove", limit=16, env=env)
    assert outcomes(shipped) == outcomes(local)
    assert len(outcomes(local)) == 16
    assert "processes executor: " in stdout and "(prove " in stdout
