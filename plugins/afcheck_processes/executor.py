"""The ``processes`` executor: a stage's chunks run in worker processes on this machine.

A run's components mostly compute in Python (the ``regex`` perturber, the ``literal``
formaliser, the drift detectors, the ``smt`` prover reading Lean), one chunk after another in
the driver while every other core idles. Here each chunk goes to one of ``jobs`` worker
processes (:class:`~afcheck.runtime.workers.WorkerPool`, started with ``spawn``, so no state
is inherited), which builds its own copy of each component once from the component's recipe
and keeps it for every later chunk and stage (:class:`~afcheck.runtime.shipping.Host`); the
stage's call travels with each chunk, its components replaced by their recipes. A stage of
fewer chunks than workers has each chunk cut in pieces, one for each worker. The driver yields
each chunk as soon as its pieces are back, so the runtime caches it at once and advances the
progress, exactly as a local run does; items are independent and components deterministic
per item, so the results are a local run's (save where a solver stops at a time limit, which
a loaded machine may reach sooner, as in any two runs).

A component's own pool would multiply with the workers, so each worker tells its components it
has one CPU (:data:`~afcheck.runtime.workers.JOBS_VARIABLE`): the ``smt`` prover then decides
in its worker. What stays in the driver (the end of the run says so, and why, for all but the
first and the last):

- components that are not cacheable (``reference`` and ``replay`` read the driver's files;
  others cost less than sending their work);
- a component that declares GPUs in its ``resources`` (an offline vLLM engine): one copy in
  each worker would not fit;
- a call that reaches a component not built from a registry, or one of a plugin registered in
  process (no worker could build it), or an object that spreads its work over the CPUs itself
  (the equivalence method's pair limit: ``parallel``, see :mod:`afcheck.runtime.executor`),
  or that cannot be pickled (it holds an open database, a lock);
- while no worker runs yet, a stage whose work would take less than :data:`START_WORTH_S` in
  the driver, at the pace of a probe of its first items there: starting the workers costs
  about that much (a suite of a few items never starts them). A stage named in ``stages``
  is not probed: it goes to the workers as asked, whatever its size.

Options (``--executor-opt K=V``): see :data:`OPTIONS`.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

from afcheck.errors import AfcheckError, UsageError
from afcheck.plugins import IN_PROCESS_ORIGIN
from afcheck.runtime.executor import Builder, Done, LocalExecutor, Recipe, Stage, check_options
from afcheck.runtime.shipping import Host, Shipped, dumps, refusal
from afcheck.runtime.workers import JOBS_VARIABLE, PoolError, WorkerPool, default_jobs

T = TypeVar("T")
R = TypeVar("R")

OPTIONS: dict[str, str] = {
    "jobs": "worker processes (default: one per CPU this process may use; AFCHECK_JOBS when "
            "set)",
    "stages": "only these stages run in the workers, comma-separated (default all, each "
              "only when its work outweighs starting the workers; a stage named here always)",
}
"""The ``--executor-opt`` options, with what each means (``afcheck list executors``)."""

START_WORTH_S = 1.0
"""While no worker runs, a stage whose work would take less than this in the driver (at the
pace of a probe there) stays there: starting the workers costs about as much."""

PROBE_SHARE = 8
"""The probe: this share of the stage's first piece (at least one item)."""

_Chunk = tuple[str, bytes, list[Any]]
"""What a worker is given: the call's digest, the call, the chunk."""


class WorkerError(Exception):
    """A component raised in a worker process, or the worker died; the message says which."""


class ProcessExecutor:
    """Chunks in worker processes on this machine (see the module's docstring)."""

    name = "processes"

    def __init__(self, options: Mapping[str, str]) -> None:
        check_options("processes", options, OPTIONS)
        self.jobs = _jobs(options.get("jobs"))
        self.stages = {s.strip() for s in options.get("stages", "").split(",") if s.strip()}
        self._pool: WorkerPool[_Chunk, Shipped] | None = None
        self.chunks: Counter[str] = Counter()
        """Chunks each stage ran in the workers."""
        self.on_driver: dict[str, str] = {}
        """Stages that ran in the driver though they were to go to the workers, with why."""

    def run(self, stage: Stage, chunks: Sequence[list[T]],
            call: Callable[[list[T]], Sequence[R]]) -> Iterator[Done[R]]:
        payload = self._payload(stage, call)
        if payload is None:
            yield from LocalExecutor().run(stage, chunks, call)
            return
        pieces = _pieces(chunks, self.jobs)
        assembly: _Assembly[R] = _Assembly([len(chunk) for chunk in chunks])

        def here(number: int, offset: int, items: list[T]) -> Done[R] | None:
            began = time.perf_counter()
            made = list(call(items))
            return assembly.add(number, offset, len(items), made, time.perf_counter() - began)

        if self._pool is None and stage.name not in self.stages:
            # A probe here first: the rest goes to the workers only if it would take longer
            # here than starting them (a stage the user named goes there as asked).
            number, offset, items = pieces[0]
            probe = max(1, len(items) // PROBE_SHARE)
            began = time.perf_counter()
            done = here(number, offset, items[:probe])
            spent = time.perf_counter() - began
            if done is not None:
                yield done
            pieces = ([(number, offset + probe, items[probe:])] if probe < len(items) else []
                      ) + pieces[1:]
            if spent / probe * sum(len(items) for _, _, items in pieces) < START_WORTH_S:
                for number, offset, items in pieces:
                    done = here(number, offset, items)
                    if done is not None:
                        yield done
                return
        if not pieces:
            return
        digest = hashlib.sha256(payload).hexdigest()
        finished = self._workers(stage).each([(digest, payload, items)
                                              for _, _, items in pieces])
        try:
            for index, (status, value, seconds) in finished:
                if status == "afcheck":
                    raise AfcheckError(str(value))
                if status == "error":
                    raise WorkerError(f"{value} (in a worker process of the processes executor)")
                number, offset, items = pieces[index]
                done = assembly.add(number, offset, len(items),
                                    list(cast("Sequence[R]", value)), seconds)
                if done is not None:
                    self.chunks[stage.name] += 1
                    yield done
        except PoolError as exc:
            self._pool = None
            raise AfcheckError(f"the processes executor could not start its workers: {exc}; "
                               "run without --executor processes") from None
        finally:
            finished.close()

    def _payload(self, stage: Stage, call: Callable[[list[T]], Sequence[R]]) -> bytes | None:
        """The call to send to the workers, or ``None`` when the stage stays in the driver
        (noted for the end of the run where the reason is worth saying)."""
        if not self._sent(stage):
            return None
        try:
            return dumps(call, _shippable(stage))
        except _Kept as kept:
            self.on_driver[stage.name] = str(kept)
        except Exception as exc:  # noqa: BLE001 - any object the pickler refuses
            self.on_driver[stage.name] = f"its call cannot be sent to a worker: {refusal(exc)}"
        return None

    def _sent(self, stage: Stage) -> bool:
        """Whether ``stage`` may go to the workers: one the user did not keep here, whose
        component is cacheable (one that is not reads the driver's files, or costs less than
        sending it), uses no GPU (noted) and whose run says how to build components
        elsewhere."""
        if (self.stages and stage.name not in self.stages) or not stage.built.cacheable:
            return False
        gpus = _gpus(stage.built.component)
        if gpus:
            self.on_driver[stage.name] = (f"{stage.built.name} uses {gpus:g} GPU(s): a copy in "
                                          "each worker would not fit")
            return False
        if stage.rebuild is None:
            self.on_driver[stage.name] = "the run says not how to build components elsewhere"
            return False
        return True

    def _workers(self, stage: Stage) -> WorkerPool[_Chunk, Shipped]:
        """The run's worker processes, started for the first stage that needs them (a run
        loads its plugins one way: its first stage's ``rebuild`` serves every stage)."""
        if self._pool is not None:
            return self._pool
        assert stage.rebuild is not None
        self._pool = WorkerPool(
            _run, self.jobs, None,
            on_timeout=lambda item, seconds: ("error", f"no answer within {seconds:g} s", 0.0),
            on_error=lambda item, why: ("error", why, 0.0),
            prepare=functools.partial(_start, stage.rebuild), daemon=False)
        return self._pool

    def close(self) -> None:
        """Stop the workers; what their components started (a Lean REPL, a solver) ends with
        each worker's process group."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def describe(self) -> str:
        parts = []
        if self.chunks:
            stages = ", ".join(f"{name} {n}" for name, n in self.chunks.items())
            parts.append(f"processes executor: {sum(self.chunks.values())} chunks in "
                         f"{self.jobs} worker processes ({stages})")
        parts += [f"the {name} stage ran in this process ({why})"
                  for name, why in sorted(self.on_driver.items())]
        return "; ".join(parts)


class _Kept(Exception):
    """Why a stage's call stays in the driver, in words for the end of the run."""


def _shippable(stage: Stage) -> Callable[[object], Recipe | None]:
    """The stage's recipes for the pickler: each component the call reaches travels as its
    recipe, and a worker builds its own. A component with no recipe that the call reaches
    (the stage's own, not built from a registry) or one from a plugin registered in process
    keeps the call in the driver: no copy of an object only the driver has is ever sent. So
    does an object that spreads its work over the CPUs itself (``parallel = True``, see
    :mod:`afcheck.runtime.executor`)."""
    component = stage.built.component
    own = component if isinstance(component, tuple) else (component,)

    def recipe(obj: object) -> Recipe | None:
        found = stage.recipes(obj)
        if found is None:
            if any(obj is part for part in own):
                raise _Kept(f"{stage.built.name} was not built from a registry")
            if getattr(type(obj), "parallel", False) is True:
                raise _Kept(f"its {type(obj).__name__} spreads the work over the CPUs itself")
            return None
        if found.origin == IN_PROCESS_ORIGIN:
            raise _Kept(f"the {found.kind} '{found.name}' comes from plugin '{found.plugin}', "
                        "which was registered in process")
        return found

    return recipe


def _gpus(component: object) -> float:
    """The GPUs ``component`` declares it needs (its ``resources``), the parts of a group
    together."""
    parts = component if isinstance(component, tuple) else (component,)
    total = 0.0
    for part in parts:
        asked = getattr(part, "resources", None)
        if isinstance(asked, Mapping):
            total += float(asked.get("GPU", 0) or 0)
    return total


def _pieces(chunks: Sequence[list[T]], jobs: int) -> list[tuple[int, int, list[T]]]:
    """``(chunk, offset, items)``: the chunks, each cut in equal pieces when there are fewer
    chunks than workers, so that every worker has one."""
    if len(chunks) >= jobs:
        return [(number, 0, list(chunk)) for number, chunk in enumerate(chunks)]
    per = math.ceil(jobs / len(chunks))
    pieces = []
    for number, chunk in enumerate(chunks):
        size = max(1, math.ceil(len(chunk) / per))
        pieces += [(number, offset, list(chunk[offset:offset + size]))
                   for offset in range(0, len(chunk), size)]
    return pieces


class _Assembly(Generic[R]):
    """A stage's chunks put together again from their pieces, in any order."""

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.parts: dict[int, dict[int, list[R]]] = defaultdict(dict)
        self.items: Counter[int] = Counter()
        self.seconds: dict[int, float] = defaultdict(float)

    def add(self, chunk: int, offset: int, items: int, made: list[R],
            seconds: float) -> Done[R] | None:
        """The chunk, once this piece (``items`` items from ``offset``) completes it."""
        self.parts[chunk][offset] = made
        self.items[chunk] += items
        self.seconds[chunk] += seconds
        if self.items[chunk] < self.sizes[chunk]:
            return None
        parts = self.parts.pop(chunk)
        return Done(chunk, [r for at in sorted(parts) for r in parts[at]], self.seconds[chunk])


def _jobs(text: str | None) -> int:
    if text is None or not text.strip():
        return default_jobs()
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise UsageError(f"--executor-opt jobs={text}: expected a whole number of worker "
                         "processes, at least 1")
    return jobs


# -- in a worker ------------------------------------------------------------------------------

_host: Host | None = None


def _start(rebuild: Callable[[], Builder]) -> None:
    """A worker's start: one CPU for its components' own pools, and its host."""
    global _host
    os.environ[JOBS_VARIABLE] = "1"
    _host = Host(rebuild)


def _run(chunk: _Chunk) -> Shipped:
    if _host is None:
        return "afcheck", "the worker process did not start its host", 0.0
    return _host.run(*chunk)

