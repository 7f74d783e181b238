"""The hard limit per pair: batches decided in worker processes that build the real criterion
from its recipe (the ``stuck`` test criterion, loaded by module name as ``--plugin`` loads
it), a killed batch split until only the offending pair is left."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from pathlib import Path

import pytest
from afcheck_equivalence.kinds import CRITERION
from afcheck_equivalence.limit import BATCH, PairLimit
from afcheck_equivalence.records import DecisionKind, Pair
from afcheck_equivalence.syntactic import Syntactic
from processes import gone_within

from afcheck.budget import Budget
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.runtime import Components

SAME = "theorem t{n} (x : ℕ) : x + {n} = {n} + x := by sorry"
OTHER = "theorem t{n} (x : ℕ) : x + {n} = x := by sorry"


def good_pairs(count: int) -> list[Pair]:
    """Pairs ``syntactic`` decides, alternately Eq and not Eq."""
    return [Pair(f"p{n}", SAME.format(n=n), (SAME if n % 2 else OTHER).format(n=n))
            for n in range(count)]


def marked(word: str) -> Pair:
    statement = f"theorem {word} : 1 = 1 := by sorry"
    return Pair(word, statement, statement)


def limit_of(tmp_path: Path, budget: Budget, jobs: int = 2) -> tuple[PairLimit, Path]:
    log = tmp_path / "batches.jsonl"
    plugins = Plugins(autoload=True)
    plugins.register_module("stuckcriterion")
    components = Components(plugins)
    built = components.get(CRITERION, Choice.of("stuck", {"log": str(log)}))
    recipe = components.recipe(built.component)
    assert recipe is not None
    return PairLimit("stuck", recipe, plugins.rebuilder(), budget, jobs=jobs), log


@pytest.fixture
def no_child_left() -> Callable[[], None]:
    """Asserts that no process this test started is still running (other tests' pools may
    be)."""
    before = set(multiprocessing.active_children())

    def check() -> None:
        assert set(multiprocessing.active_children()) <= before

    return check


def batches(log: Path) -> list[list[str]]:
    return [json.loads(line)[1] for line in log.read_text().splitlines()]


@pytest.mark.heavy
def test_a_hanging_pair_alone_is_stopped_the_rest_decided_in_batches(
        tmp_path: Path, no_child_left: Callable[[], None]) -> None:
    limit, log = limit_of(tmp_path, Budget(seconds=3))
    good = good_pairs(7)
    pairs = good[:3] + [marked("stuck")] + good[3:]
    try:
        decided = limit.decide(pairs)
    finally:
        limit.close()
    no_child_left()
    hung = decided[3]
    assert hung.kind is DecisionKind.INCONCLUSIVE
    assert hung.reason.startswith("time limit: no decision within 3 s")
    assert hung.transient
    # the others exactly as the criterion decides them without any limit
    expected = Syntactic().decide(good)
    assert [d for i, d in enumerate(decided) if i != 3] == expected
    assert not any(d.transient for d in expected)
    asked = batches(log)
    # batching kept: one decide call held several pairs
    assert max(len(batch) for batch in asked) > 1
    assert max(len(batch) for batch in asked) <= BATCH
    # the hanging pair was tried alone in the end
    assert ["stuck"] in asked


def test_a_memory_hog_is_its_own_inconclusive_and_the_workers_go_on(
        tmp_path: Path, no_child_left: Callable[[], None]) -> None:
    limit, log = limit_of(tmp_path, Budget(seconds=60, memory_mb=1024))
    good = good_pairs(4)
    try:
        decided = limit.decide([good[0], marked("hog"), *good[1:]])
    finally:
        limit.close()
    hog = decided[1]
    assert hog.kind is DecisionKind.INCONCLUSIVE
    assert hog.reason.startswith("over budget: the pair needs more than 1,024 MiB of memory")
    assert hog.transient
    assert [decided[0], *decided[2:]] == Syntactic().decide(good)
    no_child_left()


def test_a_pair_whose_criterion_raises_is_inconclusive_with_the_reason(
        tmp_path: Path, no_child_left: Callable[[], None]) -> None:
    limit, _ = limit_of(tmp_path, Budget(seconds=60))
    good = good_pairs(3)
    try:
        decided = limit.decide([*good, marked("boom")])
        # the same pool decides the next chunk
        again = limit.decide(good)
    finally:
        limit.close()
    assert decided[3].reason == ("the criterion failed: RuntimeError: the criterion broke on "
                                 "a marked pair")
    assert decided[3].transient
    assert decided[:3] == again == Syntactic().decide(good)
    no_child_left()


def test_one_pool_serves_every_chunk_and_each_worker_builds_once(
        tmp_path: Path, no_child_left: Callable[[], None]) -> None:
    limit, log = limit_of(tmp_path, Budget(seconds=60), jobs=1)
    try:
        for start in range(0, 12, 4):
            limit.decide(good_pairs(12)[start:start + 4])
    finally:
        limit.close()
    workers = {json.loads(line)[0] for line in log.read_text().splitlines()}
    assert len(workers) == 1
    assert [len(b) for b in batches(log)] == [4, 4, 4]
    no_child_left()


@pytest.mark.parametrize("count", [1, 5, 20])
@pytest.mark.heavy
def test_batches_spread_over_the_workers_and_stay_at_most_batch(tmp_path: Path,
                                                                 count: int) -> None:
    limit, log = limit_of(tmp_path, Budget(seconds=60), jobs=2)
    try:
        decided = limit.decide(good_pairs(count))
    finally:
        limit.close()
    assert decided == Syntactic().decide(good_pairs(count))
    sizes = [len(b) for b in batches(log)]
    assert sum(sizes) == count
    assert max(sizes) == min(BATCH, -(-count // 2))


@pytest.mark.heavy
def test_a_pool_that_cannot_start_leaves_its_pairs_inconclusive_and_starts_again(
        tmp_path: Path, no_child_left: Callable[[], None]) -> None:
    from refused_processes import NoProcesses

    limit, _ = limit_of(tmp_path, Budget(seconds=60), jobs=1)
    good = good_pairs(2)
    try:
        assert limit.decide(good) == Syntactic().decide(good)
        pool = limit._pool
        assert pool is not None
        for worker in pool._workers:  # the worker died, and no process can start now
            worker.process.kill()
            worker.process.join()
        real, pool.ctx = pool.ctx, NoProcesses(pool.ctx)  # type: ignore[assignment]
        failed = limit.decide(good)
        assert all(d.reason.startswith("could not start a worker process: BlockingIOError")
                   and d.transient for d in failed)
        assert limit._pool is None  # a fresh pool, with the real context, for the next chunk
        assert limit.decide(good) == Syntactic().decide(good)
    finally:
        limit.close()
    assert real is not None
    no_child_left()


def test_only_what_cannot_outlive_the_limit_is_decided_in_process() -> None:
    from afcheck_equivalence.limit import limit_for

    from afcheck.plugins import get_plugins

    pytest.importorskip("z3")
    components = Components(get_plugins())
    budget = Budget(seconds=60, memory_mb=4096)
    try:
        syntactic = components.get(CRITERION, Choice.of("syntactic")).component
        sae = components.get(CRITERION, Choice.of("sae", {"prover": "smt"})).component
        # syntactic runs no solver: in process; sae runs z3 here through smt: in workers
        assert limit_for(components, syntactic, "syntactic", budget) is None
        limited = limit_for(components, sae, "sae", budget)
        assert isinstance(limited, PairLimit) and limited._pool is None  # nothing started yet
        assert limit_for(components, sae, "sae", Budget()) is None
        # A pair budget the user set holds for a contained criterion too: in workers.
        asked = limit_for(components, syntactic, "syntactic", budget, asked=True)
        assert isinstance(asked, PairLimit)
    finally:
        components.close()


def test_a_pair_budget_the_user_set_is_refused_for_a_criterion_no_worker_can_build() -> None:
    from afcheck_equivalence.limit import limit_for

    from afcheck import hookimpl
    from afcheck.errors import UsageError

    class InProcess:
        @staticmethod
        @hookimpl(specname="afcheck_register_criteria")
        def register(register):  # type: ignore[no-untyped-def]
            register("here", lambda options: Syntactic())

    plugins = Plugins(autoload=True)
    plugins.register(InProcess, "in-process criteria")
    components = Components(plugins)
    budget = Budget(seconds=60, memory_mb=4096)
    try:
        here = components.get(CRITERION, Choice.of("here")).component
        assert limit_for(components, here, "here", budget) is None  # the default: in process
        with pytest.raises(UsageError, match=r"^--budget equivalence.pair: the criterion "
                           r"'here' was registered in this process"):
            limit_for(components, here, "here", budget, asked=True)
    finally:
        components.close()


_CHILD = """
import os, sys
from afcheck_equivalence.kinds import CRITERION
from afcheck_equivalence.limit import PairLimit
from afcheck_equivalence.records import Pair
from afcheck.budget import Budget
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.runtime import Components

plugins = Plugins(autoload=True)
plugins.register_module("stuckcriterion")
components = Components(plugins)
recipe = components.recipe(components.get(CRITERION, Choice.of("stuck", {})).component)
limit = PairLimit("stuck", recipe, plugins.rebuilder(), Budget(seconds=60), jobs=2)
statement = "theorem t : 1 = 1 := by sorry"
limit.decide([Pair("a", statement, statement), Pair("b", statement, statement)])
print(" ".join(str(w.process.pid) for w in limit._pool._workers), flush=True)
if sys.argv[1] == "killed":
    import threading, time
    stuck = "theorem stuck : 1 = 1 := by sorry"
    threading.Thread(target=limit.decide, args=([Pair("s", stuck, stuck)],), daemon=True).start()
    time.sleep(1)  # a worker is now deciding the pair that never ends
    os._exit(0)  # no atexit, no finalizer, no close: the workers must notice on their own
"""


@pytest.mark.parametrize("ending", ["exits", "killed"])
@pytest.mark.heavy
def test_no_worker_outlives_the_process_that_used_the_limit(ending: str) -> None:
    # A cluster actor unpickles its own limit, which the run never closes: its pool must go
    # with the actor's process.
    import os
    import subprocess
    import sys

    from conftest import TEST_PLUGINS

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TEST_PLUGINS),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _CHILD, ending], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    workers = [int(pid) for pid in done.stdout.split()]
    assert len(workers) == 2
    assert gone_within(10, *workers)


def test_a_copy_of_a_used_limit_starts_its_own_pool(tmp_path: Path) -> None:
    import pickle

    limit, _ = limit_of(tmp_path, Budget(seconds=60), jobs=1)
    try:
        assert [d.kind for d in limit.decide(good_pairs(2))] == [
            d.kind for d in Syntactic().decide(good_pairs(2))]
        copy = pickle.loads(pickle.dumps(limit))
        assert copy._pool is None and limit._pool is not None
        try:
            assert [d.kind for d in copy.decide(good_pairs(2))] == [
                d.kind for d in Syntactic().decide(good_pairs(2))]
        finally:
            copy.close()
    finally:
        limit.close()
