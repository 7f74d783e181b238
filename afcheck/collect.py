"""Collection: a suite folder becomes the cases of its method.

A :class:`Collector` reads a suite (its ``suite.toml`` and, through its suite kind, its
records), merges the run's settings into it, and asks the suite's method for the cases of each
record, with a :class:`~afcheck.method.Selection` whose choices the run's
:class:`~afcheck.chooser.Chooser` makes. The flow is one way: collector → suite → method →
chooser; nothing here calls back into the run. What it read is kept for the plan: the methods
it made, each suite's spec (to point a message at its ``suite.toml``) and the suites'
settings for the run record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from afcheck.chooser import Chooser, OptionReader
from afcheck.components import SuiteKind
from afcheck.errors import LoadError, SuiteError, UnknownComponent, UsageError
from afcheck.method import AnyMethod, BadRecord, Case, Choice, Selection, settings_of
from afcheck.plugins import Plugins
from afcheck.printable import name_problem, printable
from afcheck.registry import METHOD, SUITE_KIND
from afcheck.suites import SuiteSpec, check_defaults, load_spec
from afcheck.types import Location


class Collector:
    """Turns the run's suite folders into cases, one folder at a time."""

    def __init__(self, plugins: Plugins, option: OptionReader, chooser: Chooser) -> None:
        self.plugins = plugins
        self._option = option
        self._chooser = chooser
        self._methods: dict[str, AnyMethod] = {}
        self._kinds: dict[str, SuiteKind] = {}
        self._specs: dict[str, SuiteSpec] = {}
        self._settings: dict[str, dict[str, object]] = {}

    def method(self, name: str) -> AnyMethod:
        """The method called ``name``, made once per run (a suite names it, or its kind)."""
        if name not in self._methods:
            self._methods[name] = self.plugins.create(METHOD, name)
        return self._methods[name]

    @property
    def methods(self) -> Mapping[str, AnyMethod]:
        """Every method made so far, by name."""
        return dict(self._methods)

    @property
    def specs(self) -> Mapping[str, SuiteSpec]:
        """Each suite read so far, by name (as its ``suite.toml`` gives it)."""
        return dict(self._specs)

    @property
    def settings(self) -> Mapping[str, Mapping[str, object]]:
        """Per suite, its method and the effective settings it ran with (the run record)."""
        return {name: dict(values) for name, values in self._settings.items()}

    def collect(self, root: Path, nodeid: str) -> Iterator[Case[object] | BadRecord]:
        """The cases of one suite folder, and a :class:`BadRecord` per record that cannot be
        read: a :class:`LoadError` of its suite kind, or a record whose test id another record
        of the suite already has (a later duplicate never shares the earlier one's result)."""
        spec = load_spec(root)
        other = self._specs.get(spec.name)
        if other is not None and other.root != spec.root:
            # Step ids start with the suite's name: two suites of one name would share them.
            raise UsageError(f"{spec.where('name')}: the suite name {spec.name!r} is also "
                             f"{other.manifest}'s; give each suite of a run its own name")
        try:
            kind = self._suite_kind(spec.kind)
        except UnknownComponent as exc:
            raise UsageError(f"{spec.where('kind')}: {exc}") from None
        method_name = spec.method or kind.method
        try:
            method = self.method(method_name)
        except UnknownComponent as exc:
            raise UsageError(f"{spec.where('method')}: {exc}") from None
        self._specs[spec.name] = spec
        settings = settings_of(method)
        check_defaults(spec, [k.name for k in self.plugins.kinds.selectable()], settings)
        spec = spec.with_settings(self._chooser.overrides(settings), method.defaults)
        self._settings.setdefault(spec.name, {
            "method": method_name,
            **{key: spec.setting(key) for key in (*method.kinds, *settings)},
        })

        def choose(kind_name: str, name: str, suite: SuiteSpec = spec) -> Choice:
            return self._chooser.choose(kind_name, name, method_name, suite, kind)

        selection = Selection(spec, choose, self._option, self._registered)
        limit = spec.setting("limit")
        limit = None if limit is None else int(limit)
        count = 0
        first: dict[str, Location | None] = {}
        """Each test name given so far, with where its record is."""

        def bad(error: LoadError) -> BadRecord:
            name = printable(error.name, newlines=False) or f"line-{error.location.line}"
            if name in first:
                name = f"{name}@line-{error.location.line}"
            suffix = 2
            while name in first:
                name, suffix = f"{name.rsplit('#', 1)[0]}#{suffix}", suffix + 1
            first[name] = error.location
            return BadRecord(Case(f"{nodeid}::{name}", name, method_name, spec.name, spec.name,
                                  error.location, error), error)

        for loaded in kind.load(spec):
            if isinstance(loaded, LoadError):
                yield bad(loaded)
                continue
            if limit is not None and count >= limit:
                break
            count += 1
            try:
                made = list(method.cases(loaded, selection))
            except TypeError as exc:
                # A method given a record of another kind refuses it (its cases() says what
                # it reads): the suite's choice of method is wrong, not the record.
                raise SuiteError(spec.where("method" if spec.method else "kind"),
                                 f"the method '{method_name}' cannot read records of the suite "
                                 f"kind '{spec.kind}' ({exc}); use the kind's own method "
                                 f"('{kind.method}') or a kind of '{method_name}'") from None
            unprintable = next((problem for name, _ in made
                                for problem in [name_problem(name)] if problem), None)
            if unprintable is not None:
                # Test names reach the terminal as pytest node ids (``-v``, ``--co``, JUnit):
                # an id with a control character or a lone surrogate is a bad record.
                yield bad(LoadError(loaded.source or Location(str(spec.manifest)),
                                    unprintable, made[0][0]))
                continue
            clash = next((name for name, _ in made if name in first), None)
            if clash is not None:
                earlier = first[clash]
                where = loaded.source or Location(str(spec.manifest))
                yield bad(LoadError(
                    where, f"duplicate id: '{clash}' is also the record at "
                    f"{earlier or 'an earlier line'}; give each record its own id",
                    clash))
                continue
            for name, case in made:
                first[name] = loaded.source
                yield Case(f"{nodeid}::{name}", name, method_name, spec.name, loaded.dataset,
                           loaded.source, case)

    def _suite_kind(self, name: str) -> SuiteKind:
        if name not in self._kinds:
            self._kinds[name] = self.plugins.create(SUITE_KIND, name)
        return self._kinds[name]

    def _registered(self, kind: str) -> list[str]:
        return self.plugins.registry(kind).names()
