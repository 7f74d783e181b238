"""The choice of components: which registered component, with which options, a suite's
method gets for a kind it asks for.

One :class:`Chooser` per run makes every :class:`~afcheck.method.Choice`: the command line's
``--<kind> NAME --<kind>-opt K=V`` over the suite's ``[afcheck.defaults]``, the options that
address one of several components (``--perturber-opt llm.model=m``), and the model under test
(:mod:`afcheck.model`): a kind with a model adapter that follows ``formaliser`` takes the
run's ``--formaliser`` when its own option is not given. The same choice is the same object
across the suites of a run, so that equal work is batched and cached once. It reads the
options and the registries, and calls nothing back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from afcheck.components import SuiteKind
from afcheck.method import Choice
from afcheck.model import ModelAdapter, adopt
from afcheck.options import parse_kv
from afcheck.plugins import Plugins
from afcheck.registry import Kind
from afcheck.suites import SETTINGS, SuiteSpec

OptionReader = Callable[[str], object]
"""A command-line option by its ``dest`` name without the prefix (``formaliser_opt``)."""


class Chooser:
    """Makes the run's choices of components, once each."""

    def __init__(self, plugins: Plugins, option: OptionReader) -> None:
        self.plugins = plugins
        self._option = option
        self._choices: dict[tuple[str, str, str], Choice] = {}

    def choose(self, kind: str, name: str, method: str = "", suite: SuiteSpec | None = None,
               suite_kind: SuiteKind | None = None) -> Choice:
        """The component ``name`` of ``kind`` for ``method``'s items of ``suite`` (read by
        ``suite_kind``, which may offer options of its own for the suite's choice)."""
        key = (kind, name, suite.name if suite is not None else "")
        if key not in self._choices:
            self._choices[key] = self._make(self.plugins.kinds.get(kind), name, method, suite,
                                            suite_kind)
        return self._choices[key]

    def overrides(self, settings: Mapping[str, type]) -> dict[str, object]:
        """The command line's settings (the core's and the method's ``settings``) and its
        choice per selectable kind; a kind that follows the model under test takes the model's
        choice when its own is not given, so that the model reaches every method of the run."""
        overrides: dict[str, object] = {key: self._option(key)
                                        for key in (*SETTINGS, *settings)}
        for kind in self.plugins.kinds.selectable():
            overrides[kind.name] = self._option((self.followed(kind) or kind).name)
        return overrides

    def followed(self, kind: Kind[object]) -> Kind[object] | None:
        """The kind whose command-line choice ``kind`` takes now, if any."""
        follows = self._follows(kind)
        if follows is None or self._option(kind.name) is not None \
                or self._option(follows) is None:
            return None
        return self.plugins.kinds.get(follows)

    def given(self, kind: Kind[object]) -> bool:
        """Whether the command line chose ``kind``'s component (its own option, or the model
        it follows): a message about the choice then names the option, not a suite."""
        return self._option(kind.name) is not None or self.followed(kind) is not None

    def followers(self, kind: Kind[object]) -> set[str]:
        """The kinds that take ``kind``'s choice when their own is not given."""
        return {name for name, model in self.plugins.kinds.models.items()
                if model.follows == kind.name}

    def kind_options(self, kind: str) -> dict[str, str]:
        """The ``--<kind>-opt K=V`` options of the command line."""
        values = self._option(f"{kind}_opt") or []
        return parse_kv(list(values) if isinstance(values, (list, tuple)) else [str(values)],
                        kind.replace("_", "-"))

    def _follows(self, kind: Kind[object]) -> str | None:
        model = self._model(kind)
        if model is None or model.follows is None or model.follows not in self.plugins.kinds:
            return None
        return model.follows

    def _model(self, kind: Kind[object]) -> ModelAdapter | None:
        return self.plugins.kinds.model(kind.name)

    def _make(self, kind: Kind[object], name: str, method: str, suite: SuiteSpec | None,
              suite_kind: SuiteKind | None) -> Choice:
        followed = self.followed(kind)
        follows = self._follows(kind)
        if followed is None and follows is not None and name == self._option(follows):
            # The run's model asked by name while the kind has a choice of its own (a method
            # that asks the model to judge besides formalising).
            followed = self.plugins.kinds.get(follows)
        model = self._model(kind)
        if followed is not None and model is not None and name == self._option(followed.name):
            chosen, options = adopt(kind, model, self.plugins.registry(kind),
                                    self.plugins.registry(followed), name,
                                    self.kind_options(followed.name), method or "run's")
            return Choice.of(chosen, options)
        options = self.kind_options(kind.name)
        if kind.many:
            options = self._addressed(kind, name, options)
        if suite is not None and self._option(kind.name) is None:
            # A suite's options for its own choice (``[afcheck.defaults] <kind>_opt``); a
            # ``path`` there is relative to the suite's folder.
            given = suite.component_options(kind.name)
            if "path" in given and not Path(given["path"]).is_absolute():
                given["path"] = str(suite.root / given["path"])
            offered = getattr(suite_kind, "component_options", None)
            if offered is not None:  # the suite kind's own defaults (SuiteKind's docstring)
                given = {**offered(suite, kind.name, name), **given}
            options = {**given, **options}
        return Choice.of(name, options)

    def _addressed(self, kind: Kind[object], name: str,
                   options: Mapping[str, str]) -> dict[str, str]:
        """The options of one component of a multi-component choice: ``NAME.key=value``
        addresses the component ``NAME`` (``--perturber regex,llm --perturber-opt
        llm.model=m``); a key without a component's name goes to each of them."""
        registered = set(self.plugins.registry(kind).names())
        mine: dict[str, str] = {}
        for key, value in options.items():
            owner, dot, rest = key.partition(".")
            if dot and owner in registered:
                if owner == name:
                    mine[rest] = value
            else:
                mine.setdefault(key, value)
        return mine
