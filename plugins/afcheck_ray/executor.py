"""The ``ray`` executor: a stage's chunks run on actors of a Ray cluster.

Each component gets a pool of actors (:class:`ComponentHost`). An actor builds its own copy of
the component once, from the component's :class:`~afcheck.runtime.executor.Recipe` (plugin,
kind, name, options) with the builder the stage's ``rebuild`` makes there, and keeps it for
every chunk and stage that uses it: a prover's solver pool or a Lean REPL with Mathlib imported
starts once per actor, not once per chunk. The stage's ``call`` is pickled with every component
it holds replaced by its recipe, so no live object (a process pool, a socket) is ever shipped.

The driver hands chunks to idle actors and yields each chunk as soon as it comes back, so the
runtime caches it at once, exactly as a local run does. An actor that dies (its node lost, its
process killed) is dropped and its chunk is queued again for the others; only unfinished
chunks are redone. Chunks are independent and components are deterministic per item, so the
results equal a local run's. A lost head is another matter: the cluster is gone, and the run
stops with one line (:class:`~afcheck.runtime.executor.ExecutorStopped`) once the head has not
answered for ``lost_after_s``; which cluster is used, and how reaching it is bounded, is
:mod:`afcheck_ray.cluster`'s.

What an actor asks the cluster for (:func:`stage_resources`): ``cpus`` CPUs, and whatever the
stage's component declares in its ``resources`` (an offline vLLM formaliser asks for its
``tensor_parallel_size`` GPUs; a client of a model server asks for none). So no stage is a GPU
stage by name: ``gpu_stages`` only names stages whose component uses GPUs without saying so.

Options (``--executor-opt K=V``): see :data:`OPTIONS`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from afcheck.errors import AfcheckError, MissingDependency, UsageError
from afcheck.plugins import IN_PROCESS_ORIGIN
from afcheck.runtime.executor import (
    Builder,
    Done,
    ExecutorStopped,
    LocalExecutor,
    Recipe,
    Stage,
    check_options,
)
from afcheck.runtime.shipping import Host, dumps, refusal
from afcheck_ray.cluster import AUTO, RESUME, Connection, choose, connect

T = TypeVar("T")
R = TypeVar("R")

OPTIONS: dict[str, str] = {
    "address": "auto (the cluster RAY_ADDRESS or Ray's cluster file names when it answers, "
               "else a local cluster of the run's own), local (always that), HOST:PORT or "
               "ray://HOST:PORT (Ray Client); default auto",
    "cpus": "CPUs per actor, and the processes of a component's own pool (default 1)",
    "gpu_stages": "stages whose component uses GPUs without declaring them in its resources "
                  "(default none)",
    "gpus": "GPUs per actor of the gpu_stages (default 1)",
    "actors": "actors per component (default: as many as the cluster's resources allow)",
    "stages": "only these stages go to the cluster, comma-separated (default all)",
    "timeout_s": "how long to wait to connect (or start the local cluster), and for the "
                 "cluster to place a first actor (default 120)",
    "lost_after_s": "a cluster whose head does not answer for this long is lost: the run "
                    "stops, exit 2 (default 10)",
}
"""The ``--executor-opt`` options, with what each means (``afcheck list executors``)."""


class WorkerError(Exception):
    """A component raised on a Ray worker; the message names the exception and the node."""


@dataclass
class _Pool:
    """The actors of one component: those ready for work, and those still being placed."""

    resources: dict[str, float]
    ready: list[Any] = field(default_factory=list)
    starting: dict[Any, Any] = field(default_factory=dict)
    """``ready()`` reference → actor, until the cluster has placed and warmed it."""
    nodes: dict[Any, str] = field(default_factory=dict)


class RayExecutor:
    """Chunks as calls on warm Ray actors (see the module's docstring)."""

    name = "ray"

    def __init__(self, options: Mapping[str, str]) -> None:
        check_options("ray", options, OPTIONS)
        if importlib.util.find_spec("ray") is None:
            raise MissingDependency("the ray executor", "ray", "pip install 'afcheck[ray]'")
        self.address = options.get("address", AUTO).strip() or AUTO
        self.cpus = _number(options, "cpus", 1.0)
        self.gpu_stages = {s.strip() for s in options.get("gpu_stages", "").split(",")
                           if s.strip()}
        if "gpus" in options and not self.gpu_stages:
            raise UsageError(f"--executor-opt gpus={options['gpus']}: name the stages that use "
                             "them with gpu_stages=STAGE[,STAGE] (a component that declares "
                             "its GPUs in its resources, such as an offline vLLM formaliser, "
                             "needs neither)")
        self.gpus = _number(options, "gpus", 1.0)
        self.actors = int(_number(options, "actors", 0.0)) or None
        self.stages = {s.strip() for s in options.get("stages", "").split(",") if s.strip()}
        self.timeout_s = _number(options, "timeout_s", 120.0)
        self.lost_after_s = _number(options, "lost_after_s", 10.0)
        self._pools: dict[Recipe, _Pool] = {}
        self._host: Any = None
        self.chunks_by_node: Counter[str] = Counter()
        self.retried = 0
        self.lost_actors = 0
        self.on_driver: dict[str, str] = {}
        """Stages whose call could not be shipped, with why; they ran on the driver."""
        # The cluster is chosen before Ray is imported (see afcheck_ray.cluster).
        self.connection: Connection = connect(choose(self.address, self.timeout_s),
                                              self.timeout_s)
        self.ray: Any = self.connection.ray
        self._progress = ""
        """The stage running on the cluster and how far it got, for a stop's message."""

    # -- the cluster ---------------------------------------------------------------------------

    @property
    def cluster(self) -> str:
        """The cluster as messages name it."""
        return self.connection.describe()

    def _check_cluster(self) -> None:
        """Return while the cluster's head answers; when it has not answered for
        ``lost_after_s``, stop the run (Ray would wait 60 s, then end the driver's process)."""
        why = self.connection.unreachable()
        if not why:
            return
        began = time.monotonic()
        while time.monotonic() - began < self.lost_after_s:
            time.sleep(0.5)
            why = self.connection.unreachable() or ""
            if not why:
                return
        self.connection.lost = True
        raise ExecutorStopped(
            f"{self.cluster} was lost: its head at {self.connection.gcs} has "
            f"not answered for {self.lost_after_s:g} s ({why}){self._progress}; {RESUME}, on "
            "a cluster again or without --executor ray")

    def _alive_nodes(self) -> list[dict[str, float]]:
        return [dict(node.get("Resources", {})) for node in self.ray.nodes()
                if node.get("Alive")]

    def _check_fits(self, stage: Stage, resources: Mapping[str, float]) -> list[dict[str, float]]:
        nodes = self._alive_nodes()
        fits = [n for n in nodes if all(n.get(k, 0.0) >= v for k, v in resources.items())]
        if not fits:
            asked = ", ".join(f"{k}={v:g}" for k, v in sorted(resources.items()))
            largest = ", ".join(f"{k}={max((n.get(k, 0.0) for n in nodes), default=0):g}"
                                for k in sorted(resources))
            raise UsageError(
                f"the {stage.name} stage ({stage.built.name}) asks each Ray worker for {asked}, "
                f"which no node of {self.cluster} has (largest: {largest}); "
                "add such a node or lower --executor-opt cpus=/gpus=")
        return fits

    # -- running chunks --------------------------------------------------------------------------

    def _remote(self, stage: Stage) -> bool:
        return (stage.recipe is not None and stage.rebuild is not None
                and stage.built.cacheable and (not self.stages or stage.name in self.stages))

    def run(self, stage: Stage, chunks: Sequence[list[T]],
            call: Callable[[list[T]], Sequence[R]]) -> Iterator[Done[R]]:
        if not self._remote(stage):
            # Components that read the driver's files (not cacheable) or were not built from a
            # registry (or by a run that says how to build them elsewhere) stay here.
            yield from LocalExecutor().run(stage, chunks, call)
            return
        recipe = stage.recipe
        assert recipe is not None
        try:
            payload = dumps(call, stage.recipes)
        except Exception as exc:  # noqa: BLE001 - any object pickle refuses
            # The method's call holds something only this process has (an open cache, a
            # lock): the stage runs here, and the end of the run says so.
            self.on_driver[stage.name] = refusal(exc)
            yield from LocalExecutor().run(stage, chunks, call)
            return
        finished_chunks = 0
        self._progress = f" during the {stage.name} stage, with 0 of {len(chunks)} chunks done"
        self._check_cluster()  # a head lost between stages: asking it for nodes would hang
        digest = hashlib.sha256(payload).hexdigest()
        ref = self.ray.put(payload)
        pool = self._pool(stage, recipe, len(chunks))
        queue = deque(range(len(chunks)))
        running: dict[Any, tuple[Any, int]] = {}
        while queue or running:
            while queue and pool.ready:
                actor = pool.ready.pop()
                number = queue.popleft()
                running[actor.run.remote(digest, ref, chunks[number])] = (actor, number)
            if not running and not pool.starting:
                self._grow(stage, recipe, pool, len(queue))
                self._await_first(stage, pool)
                continue
            waiting = list(running) + list(pool.starting)
            # Not longer than a second: a lost head is noticed here, not by Ray's timeout.
            finished, _ = self.ray.wait(waiting, num_returns=1, timeout=1.0)
            if not finished:
                self._check_cluster()
            for done in finished:
                if done in pool.starting:
                    self._started(stage, pool, done)
                    continue
                actor, number = running.pop(done)
                try:
                    status, value, seconds = self.ray.get(done)
                except self._lost_errors():
                    self._drop(pool, actor)
                    queue.appendleft(number)
                    self.retried += 1
                    # A lost head takes its actors with it; asking it for nodes would hang.
                    self._check_cluster()
                    continue
                node = pool.nodes.get(actor, "?")
                if status == "afcheck":
                    raise AfcheckError(f"on the Ray worker at {node}: {value}")
                if status == "error":
                    raise WorkerError(f"{value} (on the Ray worker at {node})")
                pool.ready.append(actor)
                self.chunks_by_node[node] += 1
                finished_chunks += 1
                self._progress = (f" during the {stage.name} stage, with {finished_chunks} of "
                                  f"{len(chunks)} chunks done")
                yield Done(number, list(value), float(seconds))
        self._progress = ""

    def _lost_errors(self) -> tuple[type[BaseException], ...]:
        exceptions = self.ray.exceptions
        names = ("RayActorError", "ActorDiedError", "ActorUnavailableError",
                 "WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError")
        return tuple(getattr(exceptions, n) for n in names if hasattr(exceptions, n))

    def _pool(self, stage: Stage, recipe: Recipe, chunks: int) -> _Pool:
        if recipe.origin == IN_PROCESS_ORIGIN:
            raise UsageError(
                f"the {recipe.kind} '{recipe.name}' comes from plugin '{recipe.plugin}', which "
                "was registered in process and cannot be built on a Ray worker; install it as a "
                "plugin (entry point) or name its module with --plugin MODULE")
        pool = self._pools.pop(recipe, None) or _Pool(stage_resources(
            stage.built.component, self.cpus, self.gpus if stage.name in self.gpu_stages else 0))
        self._pools[recipe] = pool  # the most recently used last
        self._make_room(recipe, pool, chunks)
        self._grow(stage, recipe, pool, chunks)
        if not pool.ready:
            self._await_first(stage, pool)
        return pool

    def _make_room(self, recipe: Recipe, pool: _Pool, chunks: int) -> None:
        """Release the actors of other components, least recently used first, until the
        cluster has room for this stage's: warm actors are kept only while they cost no
        other stage its workers (stages run one after the other)."""
        wanted = max(0, min(self.actors or chunks, chunks) - len(pool.ready)
                     - len(pool.starting))
        for other in list(self._pools):
            if other == recipe or self._free_for(pool.resources, wanted):
                continue
            self._release(self._pools.pop(other))

    def _free_for(self, resources: Mapping[str, float], count: int) -> bool:
        free = self.ray.available_resources()
        return all(free.get(k, 0.0) + 1e-9 >= v * count for k, v in resources.items())

    def _release(self, pool: _Pool) -> None:
        actors = [*pool.ready, *pool.starting.values()]
        if not actors or self.connection.lost:
            return
        try:
            self.ray.wait([a.close.remote() for a in actors], num_returns=len(actors),
                          timeout=10)
        except Exception:  # noqa: BLE001 - a lost actor has nothing left to close
            pass
        for actor in actors:
            try:
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001
                pass

    def _grow(self, stage: Stage, recipe: Recipe, pool: _Pool, chunks: int) -> None:
        fits = self._check_fits(stage, pool.resources)
        most = self.actors or max(1, sum(
            int(min(node.get(k, 0.0) // v for k, v in pool.resources.items() if v > 0) or 0)
            for node in fits))
        wanted = min(most, max(1, chunks)) - len(pool.ready) - len(pool.starting)
        if wanted <= 0:
            return
        host = self._host_class()
        options: dict[str, Any] = {
            "num_cpus": pool.resources.get("CPU", 0.0),
            "num_gpus": pool.resources.get("GPU", 0.0),
            "max_restarts": 0, "max_task_retries": 0,
        }
        custom = {k: v for k, v in pool.resources.items() if k not in ("CPU", "GPU")}
        if custom:
            options["resources"] = custom
        for _ in range(wanted):
            actor = host.options(**options).remote(pool.resources.get("CPU", 1.0),
                                                   stage.rebuild)
            pool.starting[actor.ready.remote(recipe)] = actor

    def _await_first(self, stage: Stage, pool: _Pool) -> None:
        """Wait until at least one actor of ``pool`` is ready, or say why none will be."""
        deadline = time.monotonic() + self.timeout_s
        while not pool.ready:
            left = deadline - time.monotonic()
            if not pool.starting or left <= 0:
                raise UsageError(
                    f"{self.cluster} started no worker for the {stage.name} "
                    f"stage ({stage.built.name}) within {self.timeout_s:g} s: its nodes are busy "
                    "or gone (raise --executor-opt timeout_s= or free resources)")
            finished, _ = self.ray.wait(list(pool.starting), num_returns=1,
                                        timeout=min(left, 1.0))
            if not finished:
                self._check_cluster()
            for done in finished:
                self._started(stage, pool, done)

    def _started(self, stage: Stage, pool: _Pool, done: Any) -> None:
        actor = pool.starting.pop(done)
        try:
            status, value = self.ray.get(done)
        except self._lost_errors():
            self.lost_actors += 1
            return
        if status != "ok":
            raise AfcheckError(f"the {stage.name} stage's component {stage.built.name} could not "
                               f"be built on a Ray worker: {value}")
        pool.nodes[actor] = str(value)
        pool.ready.append(actor)

    def wait_ready(self, timeout_s: float) -> int:
        """Wait up to ``timeout_s`` for every actor being started to be ready (a warm-up, so
        that timings leave out start-up); the number of ready actors."""
        deadline = time.monotonic() + timeout_s
        for pool in self._pools.values():
            while pool.starting and time.monotonic() < deadline:
                finished, _ = self.ray.wait(list(pool.starting), num_returns=1,
                                            timeout=max(0.0, deadline - time.monotonic()))
                for done in finished:
                    actor = pool.starting.pop(done)
                    status, value = self.ray.get(done)
                    if status == "ok":
                        pool.nodes[actor] = str(value)
                        pool.ready.append(actor)
        return sum(len(pool.ready) for pool in self._pools.values())

    def _drop(self, pool: _Pool, actor: Any) -> None:
        self.lost_actors += 1
        pool.nodes.pop(actor, None)
        try:
            self.ray.kill(actor)
        except Exception:  # noqa: BLE001 - it is gone already
            pass

    def _host_class(self) -> Any:
        if self._host is None:
            self._host = self.ray.remote(ComponentHost)
        return self._host

    # -- the end ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Let every actor close its components, end the actors, and close the connection
        (which stops a local cluster of the run's own)."""
        try:
            for pool in self._pools.values():
                self._release(pool)
            self._pools.clear()
        finally:
            self.connection.close()

    def describe(self) -> str:
        kept = "; ".join(f"the {name} stage ran on the driver (its call cannot be sent to a "
                         f"worker: {why})" for name, why in sorted(self.on_driver.items()))
        note = self.connection.target.note
        kept = "; ".join(part for part in (kept, note) if part)
        if not self.chunks_by_node:
            return f"ray executor ({self.connection.address}): {kept}" if kept else ""
        nodes = ", ".join(f"{node}: {n}" for node, n in sorted(self.chunks_by_node.items()))
        line = (f"ray executor ({self.connection.address}): "
                f"{sum(self.chunks_by_node.values())} chunks on {len(self.chunks_by_node)} "
                f"node(s) ({nodes})")
        if self.retried:
            line += (f"; {self.retried} chunk(s) redone after {self.lost_actors} worker(s) "
                     "were lost")
        return f"{line}; {kept}" if kept else line


def stage_resources(component: object, cpus: float, gpus: float = 0.0) -> dict[str, float]:
    """What each actor running ``component`` asks the cluster for: ``cpus`` CPUs and ``gpus``
    GPUs, then whatever ``component`` declares in its ``resources`` (its own figures win: an
    offline vLLM engine knows how many GPUs it takes). Only amounts above zero."""
    resources = {"CPU": cpus, "GPU": gpus}
    asked = getattr(component, "resources", None)
    if isinstance(asked, Mapping):
        resources.update({str(k): float(v) for k, v in asked.items()})
    return {k: v for k, v in resources.items() if v > 0}


def _number(options: Mapping[str, str], name: str, default: float) -> float:
    text = options.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--executor-opt {name}={text}: expected a number") from None
    if value < 0:
        raise UsageError(f"--executor-opt {name}={text}: expected a number >= 0")
    return value


class ComponentHost(Host):
    """A Ray actor that builds components from recipes and runs chunks on them
    (:class:`~afcheck.runtime.shipping.Host`), with ``cpus`` CPUs of its node.

    Defined here, outside any function, so a worker imports it by name from the same
    installation of afcheck as the driver's.
    """

    def __init__(self, cpus: float = 1.0, rebuild: Callable[[], Builder] | None = None) -> None:
        import os

        from afcheck.runtime.workers import JOBS_VARIABLE

        # A component sizes its own process pool from the actor's share of the node, as Ray
        # sizes OMP_NUM_THREADS, not from the whole node.
        os.environ[JOBS_VARIABLE] = str(max(1, int(cpus)))
        super().__init__(rebuild)

    def ready(self, recipe: Recipe) -> tuple[str, str]:
        """Build the component now (warm start); answer where this actor runs."""
        try:
            self.build(recipe)
        except Exception as exc:  # noqa: BLE001 - reported to the driver in one line
            return "error", f"{type(exc).__name__}: {exc}"
        import ray

        context = ray.get_runtime_context()
        return "ok", f"{ray.util.get_node_ip_address()}/{context.get_node_id()[:6]}"
