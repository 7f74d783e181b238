"""afcheck's own plugin manager and the registries built from it.

afcheck uses its own ``pluggy.PluginManager("afcheck")`` rather than pytest's: pytest only
accepts ``pytest_*`` hooks, and the registries must also serve ``afcheck list`` outside a
pytest session.

Loading policy: every entry point of the group ``afcheck`` is loaded on first use, each one on
its own, so one broken plugin is reported with its name and does not stop the others (pluggy's
own loader would let the first ImportError escape and silently drop duplicate names).
``AFCHECK_DISABLE_PLUGIN_AUTOLOAD=1`` loads none; ``AFCHECK_PLUGINS=a,b`` loads only those.
Built-in plugins live in ``plugins/`` and load through the same entry points.

The core's essential plugins (:data:`ESSENTIAL`: what a run cannot do without, such as the
``local`` executor) are registered first, by every plugin manager, whatever the environment
says, as pytest registers its own essential plugins.
"""

from __future__ import annotations

import functools
import importlib
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from typing import TYPE_CHECKING, TypeVar, overload

import pluggy

from afcheck import hookspecs
from afcheck.errors import UsageError
from afcheck.registry import (
    Build,
    CommandEntry,
    CommandFactory,
    Entry,
    Kind,
    Kinds,
    Registry,
    takes_build,
)

if TYPE_CHECKING:
    from afcheck.model import ModelRef
    from afcheck.registry import BudgetOptions
    from afcheck.runtime.executor import Builder, Recipe

ENTRY_POINT_GROUP = "afcheck"

ESSENTIAL: tuple[tuple[str, str], ...] = (("executor", "afcheck.runtime.executor"),)
"""Plugin name and module of each plugin of the core, registered before any entry point."""

ESSENTIAL_ORIGIN = "afcheck core"
IN_PROCESS_ORIGIN = "registered in process"
"""The origin of a plugin object registered with :meth:`Plugins.register`: no other process
can load it, so no worker can build its components."""

T = TypeVar("T")


class PluginWarning(UserWarning):
    """A plugin that could not be loaded; the others still are."""


class Plugins:
    """The plugin manager plus the registries derived from it.

    Each run and each command has its own: two runs in one process share no hook history
    (``afcheck_configure`` is historic) and no plugin registered with ``--plugin``.
    """

    def __init__(self, autoload: bool = True) -> None:
        self.pm = pluggy.PluginManager("afcheck")
        self.pm.add_hookspecs(hookspecs)
        self.kinds = Kinds(self._add_hookspecs)
        """The kinds the core and the loaded plugins declare."""
        self._specs: set[int] = set()
        # Historic, as pytest_addhooks: each plugin declares its kinds as it is registered,
        # before any registry is built from them.
        self.pm.hook.afcheck_addkinds.call_historic(kwargs={"kinds": self.kinds})
        self.origins: dict[str, str] = {}
        """Plugin name → where it came from (``dist-name version`` or ``module``)."""
        self.load_errors: dict[str, str] = {}
        self._registries: dict[str, Registry[object]] | None = None
        self._commands: dict[str, CommandEntry] | None = None
        self._autoload = autoload
        for name, module in ESSENTIAL:
            self._register(importlib.import_module(module), name, ESSENTIAL_ORIGIN)
        if autoload:
            self._load_entry_points()

    # -- loading -----------------------------------------------------------------------------

    def _load_entry_points(self) -> None:
        if os.environ.get("AFCHECK_DISABLE_PLUGIN_AUTOLOAD"):
            return
        only = os.environ.get("AFCHECK_PLUGINS")
        wanted = None if only is None else {n.strip() for n in only.split(",") if n.strip()}
        for ep in _entry_points():
            if wanted is not None and ep.name not in wanted:
                continue
            if self.pm.get_plugin(ep.name) is not None:
                dist = _dist_label(ep)
                raise UsageError(
                    f"two installed plugins are both named '{ep.name}' "
                    f"({self.origins[ep.name]} and {dist}); uninstall one of them."
                )
            try:
                plugin = ep.load()
            except Exception as exc:  # noqa: BLE001 - any import failure is reported, not fatal
                message = f"{type(exc).__name__}: {exc}"
                self.load_errors[ep.name] = message
                warnings.warn(
                    f"afcheck plugin '{ep.name}' ({_dist_label(ep)}) failed to load: {message}",
                    PluginWarning,
                    stacklevel=2,
                )
                continue
            self._register(plugin, ep.name, _dist_label(ep))

    def register_module(self, dotted: str) -> None:
        """Register a plugin given as an importable module path (``--plugin``)."""
        try:
            module = importlib.import_module(dotted)
        except ImportError as exc:
            raise UsageError(f"cannot import plugin module '{dotted}': {exc}") from None
        self._register(module, dotted, f"module {dotted}")

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register an in-process plugin object (tests, notebooks)."""
        label = name or getattr(plugin, "__name__", None) or repr(plugin)
        self._register(plugin, label, IN_PROCESS_ORIGIN)

    def unregister(self, name: str) -> None:
        self.pm.unregister(name=name)
        self.origins.pop(name, None)
        self._registries = None
        self._commands = None

    def _register(self, plugin: object, name: str, origin: str) -> None:
        if self.pm.get_plugin(name) is not None or self.pm.is_registered(plugin):
            return
        self.pm.register(plugin, name=name)
        self.origins[name] = origin
        self._registries = None
        self._commands = None

    def _add_hookspecs(self, specs: object) -> None:
        if id(specs) not in self._specs:
            self._specs.add(id(specs))
            self.pm.add_hookspecs(specs)  # type: ignore[arg-type]

    def _loads_everything(self) -> bool:
        return self._autoload and not os.environ.get("AFCHECK_DISABLE_PLUGIN_AUTOLOAD") \
            and os.environ.get("AFCHECK_PLUGINS") is None

    def check_hooks(self) -> None:
        """Refuse hooks no loaded plugin declares (a misspelt ``afcheck_*`` name), in one line.

        A registration hook of a kind that is not declared is let be: the plugin that
        declares the kind is not loaded, so nothing could use those components anyway. When
        every installed plugin is loaded that is worth a warning (an uninstalled plugin, or
        a misspelt hook); when a subset is (``AFCHECK_PLUGINS``, ``--plugin`` without
        autoload) it is expected.
        """
        registration = {kind.hook for kind in self.kinds}
        for hook_name in dir(self.pm.hook):
            caller = getattr(self.pm.hook, hook_name)
            if not hook_name.startswith("afcheck_") or getattr(caller, "spec", True):
                continue
            owners = ", ".join(sorted(self.pm.get_name(impl.plugin) or repr(impl.plugin)
                                      for impl in caller.get_hookimpls()))
            if hook_name.startswith("afcheck_register_") and hook_name not in registration:
                if not self._loads_everything():
                    continue  # a chosen subset of plugins: a kind left out is expected
                warnings.warn(f"plugin(s) {owners} implement {hook_name}, the registration "
                              "hook of a kind no loaded plugin declares; those components "
                              "are not used", PluginWarning, stacklevel=2)
                continue
            raise UsageError(f"plugin(s) {owners} implement {hook_name}, which is no afcheck "
                             "hook; see `afcheck help` and afcheck.hookspecs for the hooks")

    def rebuilder(self) -> Callable[[], Builder]:
        """What a worker in another process (a cluster node) calls once to build components
        from their recipes: a plugin manager of its own, loaded as this one was (entry points
        unless autoload is off, where that process's environment allows), plus each recipe's
        ``--plugin`` module. Picklable: it holds no plugin, only how to load them."""
        return functools.partial(_rebuilder, self._autoload)

    # -- registries --------------------------------------------------------------------------

    @overload
    def registry(self, kind: Kind[T]) -> Registry[T]: ...

    @overload
    def registry(self, kind: str) -> Registry[object]: ...

    def registry(self, kind: Kind[T] | str) -> Registry[T] | Registry[object]:
        """The registry of one kind (a :class:`Kind`, or its name as ``afcheck list`` takes)."""
        name = kind if isinstance(kind, str) else kind.name
        if name not in self.kinds:
            raise UsageError(f"no loaded plugin declares the kind '{name}'; "
                             f"declared: {', '.join(k.name for k in self.kinds)}")
        if self._registries is None or name not in self._registries:
            self._registries = self._build_registries()
        return self._registries[name]

    @overload
    def create(self, kind: Kind[T], name: str, options: Mapping[str, str] | None = None,
               build: Build | None = None) -> T: ...

    @overload
    def create(self, kind: str, name: str, options: Mapping[str, str] | None = None,
               build: Build | None = None) -> object: ...

    def create(self, kind: Kind[T] | str, name: str,
               options: Mapping[str, str] | None = None,
               build: Build | None = None) -> T | object:
        """Build the component ``name`` of ``kind`` with its options. A factory with a
        parameter named ``build`` gets ``build(kind, name, options)`` for the components its
        own is made of: ``build``, or, outside a run, this manager's :meth:`create`."""
        entry = self.registry(kind).get(name)
        if takes_build(entry.factory):
            return entry.factory(dict(options or {}), build or self._build)  # type: ignore[call-arg]
        return entry.factory(dict(options or {}))

    def _build(self, kind: str, name: str, options: Mapping[str, str]) -> object:
        return self.create(kind, name, options)

    def commands(self) -> dict[str, CommandEntry]:
        """The subcommands plugins register, by name."""
        if self._commands is None:
            commands: dict[str, CommandEntry] = {}
            for impl in self.pm.hook.afcheck_register_commands.get_hookimpls():
                plugin = self.pm.get_name(impl.plugin) or repr(impl.plugin)

                def register(name: str, configure: CommandFactory, *, description: str = "",
                             plugin: str = plugin) -> None:
                    previous = commands.get(name)
                    if previous is not None and previous.plugin != plugin:
                        raise UsageError(f"command '{name}' is registered twice, by plugins "
                                         f"'{previous.plugin}' and '{plugin}'")
                    commands[name] = CommandEntry(name, configure, plugin, description)

                impl.function(register=register)
            self._commands = commands
        return self._commands

    def _build_registries(self) -> dict[str, Registry[object]]:
        why = ("Plugins are not loaded from entry points (AFCHECK_DISABLE_PLUGIN_AUTOLOAD is "
               "set): name the module that provides it with --plugin MODULE."
               if os.environ.get("AFCHECK_DISABLE_PLUGIN_AUTOLOAD") else "")
        self.check_hooks()
        kinds = list(self.kinds)
        registries: dict[str, Registry[object]] = {kind.name: Registry(kind.name, why)
                                                   for kind in kinds}
        for kind in kinds:
            hook = getattr(self.pm.hook, kind.hook, None)
            for impl in hook.get_hookimpls() if hook is not None else ():
                plugin_name = self.pm.get_name(impl.plugin) or repr(impl.plugin)
                impl.function(register=_registrar(registries[kind.name], kind.name,
                                                  plugin_name))
        return registries


def _rebuilder(autoload: bool) -> Builder:
    plugins = Plugins(autoload)

    def build(recipe: Recipe) -> object:
        if recipe.origin.startswith("module "):
            plugins.register_module(recipe.origin.removeprefix("module "))
        return plugins.create(recipe.kind, recipe.name, dict(recipe.options))

    return build


def _registrar(registry: Registry[object], kind: str, plugin: str) -> Callable[..., None]:
    def register(
        name: str,
        factory: Callable[[Mapping[str, str]], object],
        *,
        description: str = "",
        details: Mapping[str, str] | None = None,
        model: ModelRef | None = None,
        budget: BudgetOptions | None = None,
        volatile: Iterable[str] = (),
    ) -> None:
        registry.add(Entry(kind, name, factory, plugin, description, dict(details or {}),
                           model, budget, frozenset(volatile)))

    return register


def _entry_points() -> Iterable[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)


def _dist_label(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return ep.value
    return _labels_of(dist)


@functools.cache
def _labels_of(dist: metadata.Distribution) -> str:
    # Reading a distribution's METADATA parses the whole file; every built-in plugin shares one.
    return f"{dist.metadata['Name']} {dist.version}"


_shared: Plugins | None = None


def get_plugins() -> Plugins:
    """A :class:`Plugins` with every installed plugin, shared by the callers in one process
    that only build components (notebooks, tests). Runs and commands make their own."""
    global _shared
    if _shared is None:
        _shared = Plugins()
    return _shared


