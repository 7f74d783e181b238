"""Named, lazily built components registered by plugins, one typed registry per kind.

Each kind of thing a plugin can add is a :class:`Kind`: its name, the ``afcheck_register_*``
hook that fills its registry, and the interface its components implement. The hook is called
once with a :class:`Register` callback that writes into the :class:`Registry` of that kind.
Factories run only when a component is selected, so heavy imports (vllm, lean-interact, z3)
happen only then.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from afcheck.errors import UnknownComponent, UsageError

if TYPE_CHECKING:
    from afcheck.components import (
        Checker,
        Detector,
        EquivalenceCriterion,
        FolProver,
        Formaliser,
        Perturber,
        Prover,
        Reporter,
        SuiteKind,
    )
    from afcheck.method import AnyMethod
    from afcheck.runtime.executor import Executor

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

Options = Mapping[str, str]
"""A component's ``--<kind>-opt k=v`` options."""


class Factory(Protocol[T_co]):
    """Builds a component from its options when it is selected."""

    def __call__(self, options: Options, /) -> T_co: ...


Handler = Callable[[argparse.Namespace], int]
"""What a subcommand runs with its parsed arguments; returns the exit status."""


class CommandFactory(Protocol):
    """Adds a subcommand's arguments to the parser it is given and returns its handler."""

    def __call__(self, parser: argparse.ArgumentParser, /) -> Handler: ...


@dataclass(frozen=True)
class Kind(Generic[T_co]):
    """One kind of thing plugins register."""

    name: str
    """Singular, as in ``--formaliser`` and ``afcheck list``'s headings."""
    plural: str
    hook: str
    """The registration hook that fills this kind's registry."""
    selectable: bool = False
    """Whether a run chooses one by name (``--<name>`` and ``--<name>-opt``)."""

    @property
    def option(self) -> str:
        """The command-line name of the choice: ``fol-prover`` for ``fol_prover``."""
        return self.name.replace("_", "-")


FORMALISER: Kind[Formaliser] = Kind("formaliser", "formalisers",
                                    "afcheck_register_formalisers", True)
PROVER: Kind[Prover] = Kind("prover", "provers", "afcheck_register_provers", True)
CHECKER: Kind[Checker] = Kind("checker", "checkers", "afcheck_register_checkers", True)
PERTURBER: Kind[Perturber] = Kind("perturber", "perturbers", "afcheck_register_perturbers", True)
CRITERION: Kind[EquivalenceCriterion] = Kind("criterion", "criteria",
                                             "afcheck_register_criteria", True)
FOL_PROVER: Kind[FolProver] = Kind("fol_prover", "fol_provers",
                                   "afcheck_register_fol_provers", True)
DETECTOR: Kind[Detector] = Kind("detector", "detectors", "afcheck_register_detectors")
METHOD: Kind[AnyMethod] = Kind("method", "methods", "afcheck_register_methods")
SUITE_KIND: Kind[SuiteKind] = Kind("suite_kind", "suite_kinds", "afcheck_register_suite_kinds")
REPORTER: Kind[Reporter] = Kind("reporter", "reporters", "afcheck_register_reporters")
EXECUTOR: Kind[Executor] = Kind("executor", "executors", "afcheck_register_executors")

KINDS: tuple[Kind[object], ...] = (FORMALISER, PROVER, CHECKER, PERTURBER, CRITERION,
                                    FOL_PROVER, DETECTOR, METHOD, SUITE_KIND, REPORTER,
                                    EXECUTOR)
"""Every kind of component, in the order ``afcheck list`` shows them (commands apart)."""

COMPONENT_KINDS: tuple[Kind[object], ...] = tuple(k for k in KINDS if k.selectable)
"""The kinds a run selects by name on the command line or in a suite's defaults."""


def kind_named(name: str) -> Kind[object]:
    """The kind called ``name`` (singular or plural, ``-`` or ``_``)."""
    wanted = name.replace("-", "_")
    for kind in KINDS:
        if wanted in (kind.name, kind.plural):
            return kind
    raise UsageError(f"unknown kind '{name}'; use one of "
                     f"{', '.join(k.plural for k in KINDS)}, commands")


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

    def build(options: Options) -> object:
        import importlib

        made = getattr(importlib.import_module(module), name)
        return made(options) if takes_options else made()

    build.__qualname__ = f"lazy({target})"
    return build


class Register(Protocol[T_co]):
    """What a registration hook receives: ``register(name, factory, *, description, details)``."""

    def __call__(
        self,
        name: str,
        factory: Callable[..., object],
        *,
        description: str = "",
        details: Mapping[str, str] | None = None,
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
