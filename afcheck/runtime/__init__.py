"""How a run executes its batched stages: components, result cache, chunks, progress, time.

Every evaluation method sends its work through :meth:`Runtime.cached`, so every method gets
the content-addressed cache, chunking, resume after a kill, progress and time accounting the
same way. Where a stage runs is the runtime's business, not the method's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from afcheck.budget import Budget
from afcheck.components import Built, describe
from afcheck.errors import AfcheckError
from afcheck.runtime.cache import Cache, CacheError
from afcheck.runtime.executor import Executor, LocalExecutor, Recipe, Stage
from afcheck.runtime.progress import Progress, running
from afcheck.runtime.spool import Spool

if TYPE_CHECKING:
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.registry import Kind

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")


@dataclass
class StageTimes:
    """Seconds spent inside each kind of component (the rest is the runner's own cost)."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] += seconds

    @property
    def total(self) -> float:
        return sum(self.seconds.values())


class Components:
    """Builds each chosen component once per run, and closes them all at its end."""

    def __init__(self, plugins: Plugins) -> None:
        self.plugins = plugins
        self._built: dict[tuple[str, Choice], Built[object]] = {}
        self._recipes: dict[int, Recipe] = {}

    def get(self, kind: Kind[C], choice: Choice) -> Built[C]:
        key = (kind.name, choice)
        if key not in self._built:
            options = dict(choice.options)
            made = self.plugins.create(kind, choice.name, options, self._part)
            entry = self.plugins.registry(kind).get(choice.name)
            self._built[key] = describe(made, choice.name, options, entry.volatile)
            plugin = entry.plugin
            self._recipes[id(made)] = Recipe(kind.name, choice.name,
                                             tuple(sorted(options.items())), plugin,
                                             self.plugins.origins.get(plugin, ""))
        return self._built[key]  # type: ignore[return-value]

    def _part(self, kind: str, name: str, options: Mapping[str, str]) -> object:
        """A component another one is made of: one of the run's own, built once, recorded
        and closed with the others."""
        from afcheck.method import Choice

        return self.get(self.plugins.kinds.get(kind), Choice.of(name, options)).component

    def recipe(self, component: object) -> Recipe | None:
        """How ``component`` was built, when this run built it from a registry."""
        return self._recipes.get(id(component))

    def summaries(self) -> list[str]:
        """Lines components give for the end of the run (``summary_lines() -> list[str]``,
        optional: a formaliser's replicas, a remote Lean server's counts)."""
        lines: list[str] = []
        for built in self._built.values():
            summary = getattr(built.component, "summary_lines", None)
            if callable(summary):
                try:
                    lines += [str(line) for line in summary()]
                except Exception as exc:  # noqa: BLE001 - a summary must not sink the run
                    lines.append(f"{built.name}: no summary ({type(exc).__name__}: {exc})")
        return lines

    def close(self) -> None:
        """Let components that hold processes or servers release them."""
        for built in self._built.values():
            if built.close is not None:
                built.close()

    def versions(self) -> dict[str, str]:
        return {f"{kind}:{choice.name}": built.version
                for (kind, choice), built in self._built.items()}


@dataclass(frozen=True)
class Batch(Generic[R]):
    """A stage's results in the order of its inputs, with the backend seconds of each (0 for
    one the cache held)."""

    results: list[R]
    seconds: list[float]


@dataclass
class Runtime:
    """How a run executes: components, result cache, chunk size, progress, time accounting."""

    components: Components
    cache: Cache | None = None
    chunk_size: int = 256
    """Work is sent to a component in chunks of this size, and each finished chunk is
    queued for the cache at once, so a killed run loses at most the chunk being worked on and
    those the cache's writer has not committed yet (:data:`afcheck.runtime.cache.QUEUED`)."""
    progress: Progress = field(default_factory=lambda: Progress(enabled=False))
    times: StageTimes = field(default_factory=StageTimes)
    spool: Spool | None = None
    """Where raw model outputs go, so that records in memory stay small; ``None`` keeps them
    in the records."""
    executor: Executor = field(default_factory=LocalExecutor)
    """Where chunks run (see :mod:`afcheck.runtime.executor`)."""
    budgets: Mapping[str, Mapping[str, Budget]] = field(default_factory=dict)
    """Each method's budgets by stage, the user's changes applied (:mod:`afcheck.budget`)."""
    notes: list[str] = field(default_factory=list)
    """Lines for the end of the run: the cache could not be written, a damaged cache row."""
    _damage_noted: bool = False

    def budget(self, method: str, stage: str) -> Budget:
        """What one item of ``method`` may spend in ``stage``: the method's declared budget
        with the user's ``--budget`` changes; unbounded when it declares none."""
        return self.budgets.get(method, {}).get(stage, Budget())

    def component(self, kind: Kind[C], choice: Choice) -> Built[C]:
        return self.components.get(kind, choice)

    def budgeted(self, kind: Kind[C], choice: Choice, method: str, stage: str) -> Choice:
        """``choice`` with the budget in force for ``method``'s ``stage`` as the options that
        carry it to the component (its registration's ``budget``), so that the component
        enforces it, its fingerprint (and so the cache) names it, and an executor that
        rebuilds it elsewhere builds the same. Without a ``seconds`` or ``memory_mb`` bound
        the choice is unchanged and the component's own limits hold.

        :class:`~afcheck.errors.UsageError` when a bound is set and the component takes no
        budget, or when one of the user's options sets the same limit to another value: the
        budget and the option would contradict each other, and neither silently wins."""
        from afcheck.errors import UsageError
        from afcheck.method import Choice

        budget = self.budget(method, stage)
        if budget.seconds is None and budget.memory_mb is None:
            return choice
        where = f"--budget {method}.{stage}"
        entry = self.components.plugins.registry(kind).get(choice.name)
        if entry.budget is None:
            raise UsageError(f"{where}: the {kind.name.replace('_', ' ')} '{choice.name}' "
                             f"takes no budget; bound it with its own options (--{kind.option}"
                             f"-opt), or leave {method}.{stage} at its default")
        given = dict(choice.options)
        try:
            carried = dict(entry.budget(budget, given))
        except ValueError as exc:  # a bound the component cannot enforce
            raise UsageError(f"{where}: {exc}") from None
        for option, value in sorted(carried.items()):
            if option in given and not _same_value(given[option], value):
                raise UsageError(f"{where} ({budget.describe()}) sets {choice.name}'s option "
                                 f"{option}={value}, and --{kind.option}-opt gives "
                                 f"{option}={given[option]}; keep one of them")
        return Choice.of(choice.name, {**given, **carried})

    def cached(
        self,
        stage: str,
        built: Built[object],
        batch: Sequence[T],
        *,
        key: Callable[[T], tuple[object, ...]],
        call: Callable[[list[T]], Sequence[R]],
        load: Callable[[Mapping[str, Any]], R],
        dump: Callable[[R], object],
        keep: Callable[[R], bool] = lambda record: True,
        failed: Callable[[T, str], R] | None = None,
    ) -> Batch[R]:
        """``call`` over the items the cache does not hold, in chunks; each chunk cached as
        soon as it is done.

        ``key(item)`` gives what the result depends on besides the component (its fingerprint
        is added). The chunks put are committed before this returns (or raises): the values
        ``dump`` made are written to JSON on the cache's writer thread meanwhile, and nothing
        else holds them until then. ``keep(result)`` says whether a result may be stored: a
        backend error (a server that answered 500, a timeout) is that item's result in this
        run, never a result for the next one, which then asks again. ``failed(item, reason)``,
        when given, is the result of an item the component crashed on
        (:mod:`afcheck.runtime.isolate`): that item's own result, one ``keep`` refuses, so that
        the other items and the run go on.
        """
        from afcheck.runtime import cache as cache_module

        store = self.cache if built.cacheable else None
        keys = (cache_module.keys((stage, built.fingerprint), [key(item) for item in batch])
                if store is not None else [])
        found = store.get_many(stage, keys) if store is not None else {}
        out: list[R | None] = [None] * len(batch)
        seconds = [0.0] * len(batch)
        unusable: set[bytes] = set()
        for i, k in enumerate(keys):
            if k in found and k not in unusable:
                try:
                    out[i] = load(found[k])
                except Exception:  # noqa: BLE001 - a damaged or hand-edited row is a miss
                    unusable.add(k)
        if store is not None and unusable:
            store.unusable(len(unusable))
        if store is not None and store.damaged:
            self._note_damage(store)
        missing = [i for i, item in enumerate(out) if item is None]
        progress = self.progress.stage(f"{stage} ({built.name})", len(missing))
        parts = [missing[start:start + self.chunk_size]
                 for start in range(0, len(missing), self.chunk_size)]
        where = Stage(stage, built, self.components.recipe(built.component),
                      self.components.recipe, self.components.plugins.rebuilder())
        if failed is not None:
            from afcheck.runtime.isolate import Isolated

            call = Isolated(call, failed, f"{built.name} at the {stage} stage")
        done = self.executor.run(where, [[batch[i] for i in indices] for indices in parts],
                                 call) if parts else iter(())
        try:
            while True:
                try:
                    # A component that reports each request (a model client) moves the
                    # stage's progress within a chunk.
                    with running(progress):
                        finished = next(done)
                except StopIteration:
                    break
                except AfcheckError:
                    raise
                except Exception as exc:
                    raise ComponentError(
                        f"{built.name} failed at the {stage} stage: "
                        f"{type(exc).__name__}: {exc}") from exc
                indices = parts[finished.chunk]
                made = finished.results
                self.times.add(stage, finished.seconds)
                if len(made) != len(indices):
                    raise PipelineError(f"{built.name} returned {len(made)} results for "
                                        f"{len(indices)} inputs at the {stage} stage")
                if any(record is None for record in made):
                    raise PipelineError(f"{built.name} returned None for an input at the "
                                        f"{stage} stage")
                for i, record in zip(indices, made, strict=True):
                    out[i] = record
                    seconds[i] = finished.seconds / len(indices)
                if store is not None:
                    try:
                        store.put_many(stage, [(keys[i], dump(r))
                                               for i, r in zip(indices, made, strict=True)
                                               if keep(r)])
                    except CacheError as exc:
                        self._cache_failed(exc)
                        store = None
                progress.advance(len(indices))
        finally:
            close = getattr(done, "close", None)
            if close is not None:
                close()
            progress.close()
            if store is not None:
                try:
                    store.flush()
                except CacheError as exc:
                    self._cache_failed(exc)
        return Batch([r for r in out if r is not None], seconds)

    def _note_damage(self, store: Cache) -> None:
        """Say once which cache file holds damaged rows."""
        if self._damage_noted:
            return
        self._damage_noted = True
        self.notes.append(f"the result cache {store.path} holds damaged results (read as "
                          "missing and computed again); `afcheck cache clear` removes them")

    def _cache_failed(self, error: CacheError) -> None:
        """The cache cannot be written (a full disk): the run goes on without it, so that
        its results are still reported and written; the end of the run says so."""
        broken, self.cache = self.cache, None
        self.notes.append(f"results of this run from here on are not kept: {error}")
        if broken is not None:
            try:
                broken.close()
            except CacheError:
                pass  # the same failure, said once already


def _same_value(given: str, carried: str) -> bool:
    """``30`` and ``30.0`` are one limit."""
    try:
        return given == carried or float(given) == float(carried)
    except ValueError:
        return False


class PipelineError(AfcheckError):
    """A component broke its contract."""


class ComponentError(AfcheckError):
    """A component raised instead of returning a result: a bug in that plugin."""
