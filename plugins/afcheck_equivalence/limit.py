"""The hard limit per pair: a criterion decides batches of pairs in worker processes that are
killed past their allowance, and a killed batch is split until only the pair that exceeds its
own limit is left.

:class:`PairLimit` holds one :class:`~afcheck.runtime.workers.WorkerPool` for one criterion
of a run, started when the first pair needs it and reused for every chunk until
:meth:`PairLimit.close`. Each worker builds the criterion once from its recipe (before its
first batch, so start-up is nobody's time) with ``AFCHECK_JOBS=1``: a prover that sizes its
own pool by the CPUs decides in the worker's process, because the worker is the isolation.

Pairs go to the workers in batches, each decided by one ``criterion.decide(batch)`` call, so
a criterion still sends the obligations of all the batch's pairs to its prover at once. Every
batch, whatever its size, gets the pair limit as its allowance (a batch of ordinary pairs
takes a small part of it). A batch whose worker is killed (past the allowance), runs out of
memory, dies or raises is split in halves, retried on the pool's workers side by side, until
the batch is one pair: that pair is Inconclusive with the reason (``time limit: …``,
``over budget: … memory``, ``the criterion failed: …``) and ``transient``, so that the
result cache never keeps it. A pair that hangs costs at most
``1 + log2(batch)`` allowances of one worker, while the other workers go on.

A pool that cannot start leaves that round's pairs Inconclusive with the reason, and is
started afresh for the next chunk; a worker that died is replaced by the pool.

A copy of a limit (a cluster actor unpickles its own) starts its own pool, which no
:meth:`PairLimit.close` of the driver reaches: each pool is also closed when its limit is
collected or the interpreter exits, and its workers die with the process that started them.
"""

from __future__ import annotations

import math
import os
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from afcheck.budget import Budget
from afcheck.plugins import IN_PROCESS_ORIGIN
from afcheck.runtime import Components
from afcheck.runtime.executor import Builder, Recipe
from afcheck.runtime.workers import JOBS_VARIABLE, PoolError, WorkerPool, default_jobs
from afcheck_equivalence.kinds import EquivalenceCriterion
from afcheck_equivalence.records import Decision, Inconclusive, Pair

__all__ = ["BATCH", "PairLimit", "TIME_LIMIT", "limit_for"]

BATCH = 8
"""The most pairs one worker decides in one call."""

TIME_LIMIT = "time limit"
OVER_MEMORY = "over budget"
FAILED = "the criterion failed"


@dataclass(frozen=True)
class _Stopped:
    """What a worker gave instead of decisions: killed by the clock, or failed with why."""

    why: str
    timed_out: bool


_Batch = tuple[Pair, ...]
_Answer = list[Decision] | _Stopped


class PairLimit:
    """Decides pairs with the criterion built from ``recipe`` in worker processes under
    ``budget`` (``seconds`` per batch, ``memory_mb`` per worker); see the module's
    docstring. ``jobs``: the workers, by default the CPUs of the process that decides (read
    when it decides: a cluster worker that received this object sizes the pool by its own
    share, ``AFCHECK_JOBS``)."""

    parallel = True
    """It spreads its pairs over the CPUs itself (see :mod:`afcheck.runtime.executor`)."""

    def __init__(self, name: str, recipe: Recipe, rebuild: Callable[[], Builder],
                 budget: Budget, jobs: int | None = None) -> None:
        self.name = name
        self.recipe = recipe
        self.rebuild = rebuild
        self.seconds = float(budget.seconds or 0)
        self.memory_mb = budget.memory_mb
        self.jobs = jobs
        self._pool: WorkerPool[_Batch, _Answer] | None = None
        self._closer: weakref.finalize[[], PairLimit] | None = None

    def __getstate__(self) -> dict[str, object]:
        # A copy starts its own pool: the processes of this one stay with this process.
        state = dict(self.__dict__)
        state["_pool"] = state["_closer"] = None
        return state

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        """One decision per pair, in order."""
        out: dict[int, Decision] = {}
        jobs = self.jobs or default_jobs()
        size = max(1, min(BATCH, math.ceil(len(pairs) / jobs)))
        todo = [list(range(start, min(start + size, len(pairs))))
                for start in range(0, len(pairs), size)]
        while todo:
            answers = self._map([tuple(pairs[i] for i in batch) for batch in todo])
            again: list[list[int]] = []
            for batch, answer in zip(todo, answers, strict=True):
                if not isinstance(answer, _Stopped):
                    out.update(zip(batch, answer, strict=True))
                elif len(batch) > 1:
                    half = len(batch) // 2
                    again += [batch[:half], batch[half:]]
                else:
                    out[batch[0]] = Inconclusive(self.name, self._reason(answer),
                                                 transient=True)
            todo = again
        return [out[i] for i in range(len(pairs))]

    def close(self) -> None:
        """Stop the workers (a later :meth:`decide` starts them again)."""
        if self._closer is not None:
            self._closer()
        self._pool = self._closer = None

    def _map(self, batches: list[_Batch]) -> list[_Answer]:
        if self._pool is None:
            self._pool = WorkerPool(
                _Decide(self.rebuild, self.recipe), self.jobs or default_jobs(), self.seconds,
                on_timeout=lambda batch, s: _Stopped(f"{s:g}", True),
                on_error=lambda batch, why: _Stopped(why, False),
                memory_mb=self.memory_mb, prepare=_Prepare(self.rebuild, self.recipe))
            # At exit too: a copy on a cluster actor is never closed by the run's driver.
            self._closer = weakref.finalize(self, self._pool.close)
        try:
            return self._pool.map(batches)
        except PoolError as exc:
            self.close()
            return [[Inconclusive(self.name, f"{exc}; the workers are started again for "
                                  "the next chunk", transient=True) for _ in batch]
                    for batch in batches]

    def _reason(self, answer: _Stopped) -> str:
        if answer.timed_out:
            return (f"{TIME_LIMIT}: no decision within {answer.why} s (--budget "
                    "equivalence.pair.seconds); the worker was stopped")
        if answer.why.startswith(OVER_MEMORY):
            return (f"{OVER_MEMORY}: the pair needs more than {self.memory_mb or 0:,} MiB of "
                    "memory (--budget equivalence.pair.memory_mb); the worker stopped it")
        return f"{FAILED}: {answer.why}"


def limit_for(components: Components, criterion: EquivalenceCriterion, name: str,
              budget: Budget | None, asked: bool = False) -> PairLimit | None:
    """The limit ``criterion`` (built by ``components`` as ``name``) is decided under, or
    ``None`` when it is decided in this process: no ``seconds`` in ``budget``, a criterion
    that is ``contained`` (see :class:`~afcheck_equivalence.kinds.EquivalenceCriterion`), or
    one registered in this process (no worker could build it). Starts nothing.

    ``asked``: the user set ``equivalence.pair`` on the command line. A contained criterion
    is then decided in workers too (its own bounds are not the ones asked for), and one that
    no worker can build is refused with :class:`~afcheck.errors.UsageError`: a limit that
    silently did not hold would be worse than none."""
    from afcheck.errors import UsageError

    if budget is None or budget.seconds is None:
        return None
    recipe = components.recipe(criterion)
    if recipe is None or recipe.origin == IN_PROCESS_ORIGIN:
        if asked:
            raise UsageError(f"--budget equivalence.pair: the criterion '{name}' was registered "
                             "in this process, and no worker process can build it to hold "
                             "the limit; install it as a plugin, or leave equivalence.pair "
                             "at its default")
        return None
    if criterion.contained and not asked:
        return None
    return PairLimit(name, recipe, components.plugins.rebuilder(), budget)


# -- in the worker -------------------------------------------------------------------------------

_BUILT: dict[Recipe, EquivalenceCriterion] = {}
"""The criterion this worker built, kept for every batch."""


def _criterion(rebuild: Callable[[], Builder], recipe: Recipe) -> EquivalenceCriterion:
    if recipe not in _BUILT:
        # The worker is the isolation: a prover that would start a pool of its own decides
        # here, in this process, under this worker's deadline and memory.
        os.environ[JOBS_VARIABLE] = "1"
        _BUILT[recipe] = cast(EquivalenceCriterion, rebuild()(recipe))
    return _BUILT[recipe]


@dataclass(frozen=True)
class _Prepare:
    rebuild: Callable[[], Builder]
    recipe: Recipe

    def __call__(self) -> object:
        return _criterion(self.rebuild, self.recipe)


@dataclass(frozen=True)
class _Decide:
    rebuild: Callable[[], Builder]
    recipe: Recipe

    def __call__(self, batch: _Batch) -> list[Decision]:
        made = _criterion(self.rebuild, self.recipe).decide(list(batch))
        if len(made) != len(batch):
            raise RuntimeError(f"{len(made)} decisions for {len(batch)} pairs")
        return made
