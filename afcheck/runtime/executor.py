"""Where a stage's chunks run: executors, a kind of component plugins register.

:meth:`afcheck.runtime.Runtime.cached` splits a stage's uncached work into chunks and hands
them to the run's executor; the executor yields each finished chunk as soon as it is done, in
whatever order chunks finish, and the runtime stores it in the cache and advances progress at
once. So the cache, resume and progress behave the same wherever the work runs.

An executor never receives a live component: it receives the stage's :class:`Recipe` (the
plugin that registered the component, its kind, name and options), which a remote worker uses
to build its own copy once, with the stage's :attr:`Stage.rebuild`, and keep it warm across
chunks.

An object a stage's call holds that already spreads its work over this machine's CPUs (a pool
of worker processes of its own) says so with the class attribute ``parallel = True``: an
executor that spreads chunks over the processes of one machine then leaves the stage where it
is, since its processes would only share the same CPUs and start pools of their own.

This module is also the core's one essential plugin (:class:`afcheck.plugins.Plugins`
registers it before any entry point, as pytest registers its own essential plugins): it
registers :class:`LocalExecutor` as ``local``, the executor a run uses unless ``--executor``
names another (``afcheck list executors``; the ``ray`` plugin adds a Ray cluster).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from afcheck import hookimpl
from afcheck.components import Built
from afcheck.errors import AfcheckError, UsageError

if TYPE_CHECKING:
    from afcheck.registry import Register

T = TypeVar("T")
R = TypeVar("R")

DEFAULT = "local"
"""The executor a run uses unless ``--executor`` names another."""


@dataclass(frozen=True)
class Recipe:
    """How to build a component anywhere: what its plugin registered, under which name, with
    which options. ``origin`` says where the plugin came from (see
    :attr:`afcheck.plugins.Plugins.origins`): a worker loads entry-point plugins itself and
    imports ``module X`` plugins; one registered in process cannot be rebuilt elsewhere."""

    kind: str
    name: str
    options: tuple[tuple[str, str], ...]
    plugin: str
    origin: str


Builder = Callable[[Recipe], object]
"""Builds a component from its :class:`Recipe`."""


class ExecutorStopped(AfcheckError):
    """An executor cannot finish a stage: its workers are gone (a lost cluster) or the run
    was told to stop (SIGTERM). Raised from :meth:`Executor.run`; every chunk it yielded
    before is in the cache, so the same command resumes. The run stops with this one line
    and exit status 2 (interrupted), not as a failure of its cases."""


@dataclass(frozen=True)
class Stage:
    """What an executor knows of the stage it runs."""

    name: str
    built: Built[object]
    recipe: Recipe | None
    """``None`` for a component the runtime did not build from a registry."""
    recipes: Callable[[object], Recipe | None]
    """The recipe of any component the run built (a ``call`` may hold more than one)."""
    rebuild: Callable[[], Builder] | None = None
    """Picklable; called once in another process (a cluster worker), it returns a
    :data:`Builder` with a plugin manager of its own, loaded the way the run's was, so the
    worker builds each component from its recipe. ``None`` when the run gave none: then no
    component can be built elsewhere."""


@dataclass(frozen=True)
class Done(Generic[R]):
    """One finished chunk: its position in the list of chunks, its results in the order of
    its items, and the seconds the component spent on it."""

    chunk: int
    results: list[R]
    seconds: float


class Executor(Protocol):
    """Runs ``call`` over each chunk and yields each chunk as it finishes."""

    name: str

    def run(self, stage: Stage, chunks: Sequence[list[T]],
            call: Callable[[list[T]], Sequence[R]]) -> Iterator[Done[R]]:
        """One :class:`Done` per chunk, in the order they finish. An exception ``call``
        raises is raised here (the runtime reports it as the component's failure);
        :class:`ExecutorStopped` when the executor itself cannot go on."""
        ...

    def close(self) -> None:
        """Release workers; called once at the end of a run."""
        ...

    def describe(self) -> str:
        """One line for the end of the run (where the work ran), or ``""``."""
        ...


class LocalExecutor:
    """The default: each chunk in this process, one after the other (a component
    parallelises inside its own call: a process pool of solvers, a vLLM batch)."""

    name = "local"

    def run(self, stage: Stage, chunks: Sequence[list[T]],
            call: Callable[[list[T]], Sequence[R]]) -> Iterator[Done[R]]:
        from time import perf_counter

        for number, chunk in enumerate(chunks):
            began = perf_counter()
            made = list(call(chunk))
            yield Done(number, made, perf_counter() - began)

    def close(self) -> None:
        return None

    def describe(self) -> str:
        return ""


def check_options(executor: str, options: Mapping[str, str], known: Iterable[str]) -> None:
    """:class:`UsageError` in one line when ``options`` holds one that ``executor`` does not
    take."""
    taken = list(known)
    unknown = sorted(set(options) - set(taken))
    if unknown:
        raise UsageError(f"--executor-opt {', '.join(unknown)}: unknown option of the "
                         f"{executor} executor; it takes {', '.join(taken)}")


def _local(options: Mapping[str, str]) -> LocalExecutor:
    if options:
        raise UsageError(f"--executor-opt {', '.join(sorted(options))}: the local executor "
                         "takes no options")
    return LocalExecutor()


@hookimpl
def afcheck_register_executors(register: Register) -> None:
    register(DEFAULT, _local, description="each chunk in this process, one after the other "
             "(the default)", details={"options": "none"})
