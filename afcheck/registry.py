"""Named, lazily built components registered by plugins, one typed registry per kind.

Each kind of thing a plugin can add is a :class:`Kind`: its name, the ``afcheck_register_*``
hook that fills its registry, and the interface its components implement. The hook is called
once with a :class:`Register` callback that writes into the :class:`Registry` of that kind.
Factories run only when a component is selected, so heavy imports (vllm, lean-interact, z3)
happen only then.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from afcheck.errors import UnknownComponent, UsageError
from afcheck.model import MODEL_UNDER_TEST, ModelAdapter

if TYPE_CHECKING:
    from pathlib import Path

    from afcheck.budget import Budget
    from afcheck.components import (
        Checker,
        Formaliser,
        Prover,
        Reporter,
        SuiteKind,
    )
    from afcheck.method import AnyMethod
    from afcheck.model import ModelRef
    from afcheck.runtime.executor import Executor

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

Options = Mapping[str, str]
"""A component's ``--<kind>-opt k=v`` options."""


class Factory(Protocol[T_co]):
    """Builds a component from its options when it is selected."""

    def __call__(self, options: Options, /) -> T_co: ...


class Build(Protocol):
    """``build(kind, name, options)``: what a factory with a parameter named ``build`` (after
    its options) receives, to build the components its own is made of (a criterion's
    prover). Inside a run they are the run's components: built once, recorded in the run
    record and closed at its end."""

    def __call__(self, kind: str, name: str, options: Options, /) -> object: ...


def takes_build(factory: Callable[..., object]) -> bool:
    """Whether ``factory`` takes an argument named ``build`` after its options: opt-in by
    name, as pluggy's hook arguments (a second parameter with a default, ``name=name`` in a
    lambda, is not one)."""
    import inspect

    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "build" in parameters


Handler = Callable[[argparse.Namespace], int]
"""What a subcommand runs with its parsed arguments; returns the exit status."""


class CommandFactory(Protocol):
    """Adds a subcommand's arguments to the parser it is given and returns its handler."""

    def __call__(self, parser: argparse.ArgumentParser, /) -> Handler: ...


@dataclass(frozen=True)
class Kind(Generic[T_co]):
    """One kind of thing plugins register.

    The core declares the kinds every method shares (methods, suite kinds, reporters, and the
    Lean formalisers, provers and checkers of the Lean statement front end); a plugin declares
    its own in :func:`afcheck.hookspecs.afcheck_addkinds`, with the hookspec of its
    registration hook, the way ``pytest_addhooks`` lets xdist add hooks. Everything that
    works per kind reads the declared kinds: ``afcheck list``, the ``--<kind>`` and
    ``--<kind>-opt`` options, suite defaults, validation before work, fingerprints, recipes
    for remote workers and the run record.
    """

    name: str
    """Singular, as in ``--formaliser`` and ``afcheck list``'s headings."""
    plural: str
    hook: str
    """The registration hook that fills this kind's registry."""
    selectable: bool = False
    """Whether a run chooses one by name (``--<name>`` and ``--<name>-opt``)."""
    protocol: type | None = None
    """The interface its components implement (a ``runtime_checkable`` protocol): a built
    component that does not is refused before any work, in one line."""
    many: bool = False
    """Whether a run may choose several at once (``--perturber regex,llm``)."""
    description: str = ""
    """One line for ``afcheck list kinds`` and the option's help."""

    @property
    def option(self) -> str:
        """The command-line name of the choice: ``fol-prover`` for ``fol_prover``."""
        return self.name.replace("_", "-")


FORMALISER: Kind[Formaliser] = Kind(
    "formaliser", "formalisers", "afcheck_register_formalisers", True,
    description="natural language → Lean statements: the model under test")
PROVER: Kind[Prover] = Kind("prover", "provers", "afcheck_register_provers", True,
                            description="decides Lean statements: proved, refuted or neither")
CHECKER: Kind[Checker] = Kind("checker", "checkers", "afcheck_register_checkers", True,
                              description="type-checks extracted Lean statements")
METHOD: Kind[AnyMethod] = Kind("method", "methods", "afcheck_register_methods",
                               description="ways of testing a formaliser")
SUITE_KIND: Kind[SuiteKind] = Kind("suite_kind", "suite_kinds", "afcheck_register_suite_kinds",
                                   description="readers of a suite's data")
REPORTER: Kind[Reporter] = Kind("reporter", "reporters", "afcheck_register_reporters",
                                description="write a run's results somewhere")
EXECUTOR: Kind[Executor] = Kind("executor", "executors", "afcheck_register_executors",
                                description="where batched stages run (--executor NAME)")

SUITE: Kind[Path] = Kind("suite", "suites", "afcheck_register_suites",
                         description="named suites: afcheck NAME runs the suite's folder")

CORE_KINDS: tuple[Kind[object], ...] = (FORMALISER, PROVER, CHECKER, METHOD, SUITE_KIND,
                                         REPORTER, EXECUTOR, SUITE)
"""The kinds the core declares; plugins declare the others (:class:`Kinds`)."""
CORE_MODELS: Mapping[str, ModelAdapter] = {FORMALISER.name: MODEL_UNDER_TEST}
"""The core's kinds that take the model under test: ``--formaliser`` names it."""


class Kinds:
    """The kinds of one plugin manager, in the order they were declared.

    What :func:`afcheck.hookspecs.afcheck_addkinds` receives: ``kinds.add(KIND, hookspecs)``
    declares a kind and adds the hookspec of its registration hook (a module or class with
    the ``@hookspec`` function named ``KIND.hook``); ``model=`` says how the kind's components
    take the model under test (:class:`afcheck.model.ModelAdapter`).
    """

    def __init__(self, add_hookspecs: Callable[[object], None]) -> None:
        self._add_hookspecs = add_hookspecs
        self._kinds: dict[str, Kind[object]] = {}
        self._models: dict[str, ModelAdapter] = dict(CORE_MODELS)
        self._listeners: list[Callable[[Kind[object]], None]] = []
        for kind in CORE_KINDS:
            self._kinds[kind.name] = kind

    def add(self, kind: Kind[object], hookspecs: object | None = None, *,
            model: ModelAdapter | None = None) -> None:
        """Declare ``kind``; ``hookspecs`` holds the spec of its registration hook, ``model``
        is given for a kind whose components write the candidates a method scores."""
        previous = self._kinds.get(kind.name)
        if previous is not None:
            if previous == kind and self._models.get(kind.name) == model:
                return
            raise UsageError(f"the kind '{kind.name}' is declared twice, differently; "
                             "uninstall or disable one of the plugins that declare it")
        if hookspecs is not None:
            self._add_hookspecs(hookspecs)
        self._kinds[kind.name] = kind
        if model is not None:
            self._models[kind.name] = model
        for listener in self._listeners:
            listener(kind)

    def on_add(self, listener: Callable[[Kind[object]], None]) -> None:
        """Call ``listener`` with each kind declared from now on (options of a kind that a
        ``--plugin`` module declares after the command line was built)."""
        self._listeners.append(listener)

    def get(self, name: str) -> Kind[object]:
        """The kind called ``name`` (singular or plural, ``-`` or ``_``)."""
        wanted = name.replace("-", "_")
        for kind in self._kinds.values():
            if wanted in (kind.name, kind.plural):
                return kind
        raise UsageError(f"unknown kind '{name}'; use one of "
                         f"{', '.join(k.plural for k in self)}, commands")

    def __contains__(self, name: object) -> bool:
        return name in self._kinds

    def __iter__(self) -> Iterator[Kind[object]]:
        return iter(list(self._kinds.values()))

    def selectable(self) -> list[Kind[object]]:
        """The kinds a run selects by name on the command line or in a suite's defaults."""
        return [kind for kind in self if kind.selectable]

    def model(self, name: str) -> ModelAdapter | None:
        """How the kind called ``name`` takes the model under test; ``None``: it does not."""
        return self._models.get(name)

    @property
    def models(self) -> Mapping[str, ModelAdapter]:
        """The adapter of each kind that takes the model under test, by kind name."""
        return dict(self._models)


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered component."""

    kind: str
    name: str
    factory: Callable[[Options], T]
    plugin: str
    """The plugin (entry-point name, or module name) that registered it."""
    description: str = ""
    details: Mapping[str, str] = field(default_factory=dict)
    model: ModelRef | None = None
    """Set when the component is a model (an LLM preset): any method that formalises can
    then ask the same model with its own prompt (see :mod:`afcheck.model`)."""
    budget: BudgetOptions | None = None
    """How a method's budget reaches the component: the options that carry its bounds
    (:meth:`afcheck.runtime.Runtime.budgeted`); ``None``: it takes no budget."""
    volatile: frozenset[str] = frozenset()
    """Options that change no result the cache keeps: they only stop work early (a
    request's or a statement's deadline), and what they stop is ``transient``, never cached.
    Left out of the component's fingerprint (:func:`afcheck.components.describe`), so that a
    changed deadline still finds the results paid for before; still in its recipe."""


class BudgetOptions(Protocol):
    """The component's options that hold the bounds of ``budget`` (only those it sets:
    ``seconds``, ``memory_mb``), given the options the user chose (``options``). An option
    that *is* a bound (a prover's wall-clock limit for ``seconds``) is always returned, and
    the run refuses a user's option that says otherwise; one only derived from a bound (a
    CPU limit set from ``seconds``) is left out when the user gave it. ``ValueError`` with
    the reason for a bound the component cannot enforce: a bound silently ignored would be a
    budget that does not hold."""

    def __call__(self, budget: Budget, options: Options, /) -> Mapping[str, str]: ...


@dataclass(frozen=True)
class CommandEntry:
    """One registered subcommand."""

    name: str
    configure: CommandFactory
    plugin: str
    description: str = ""


def lazy(target: str, *, takes_options: bool = True) -> Callable[[Options], object]:
    """A factory that imports ``"module:name"`` only when the component is built, so that
    registering (``afcheck list``, every pytest run) imports nothing heavy. ``name`` is called
    with the options, or with nothing when ``takes_options`` is false (a class without any)."""
    module, _, name = target.partition(":")

    def build(options: Options, build: Build | None = None) -> object:
        import importlib

        made = getattr(importlib.import_module(module), name)
        if not takes_options:
            return made()
        if build is not None and takes_build(made):
            return made(options, build)
        return made(options)

    build.__qualname__ = f"lazy({target})"
    return build


class Register(Protocol[T_co]):
    """What a registration hook receives:
    ``register(name, factory, *, description, details, model, budget, volatile)``."""

    def __call__(
        self,
        name: str,
        factory: Callable[..., object],
        *,
        description: str = "",
        details: Mapping[str, str] | None = None,
        model: ModelRef | None = None,
        budget: BudgetOptions | None = None,
        volatile: Iterable[str] = (),
    ) -> None: ...


class Registry(Generic[T]):
    """The components of one kind, by name."""

    def __init__(self, kind: str, why_missing: str = "") -> None:
        self.kind = kind
        self.why_missing = why_missing
        """Said with an unknown name: why a component may be missing (autoload is off)."""
        self._entries: dict[str, Entry[T]] = {}

    def add(self, entry: Entry[T]) -> None:
        previous = self._entries.get(entry.name)
        if previous is not None and previous.plugin != entry.plugin:
            raise UsageError(
                f"{self.kind} '{entry.name}' is registered twice, by plugins "
                f"'{previous.plugin}' and '{entry.plugin}'; uninstall or disable one of them."
            )
        self._entries[entry.name] = entry

    def get(self, name: str) -> Entry[T]:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownComponent(self.kind, name, list(self._entries),
                                   self.why_missing) from None

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> list[Entry[T]]:
        return [self._entries[n] for n in self.names()]

    def __contains__(self, name: object) -> bool:
        return name in self._entries
