"""The plugin manager: entry-point loading, isolation of broken plugins, registries, docs."""

from __future__ import annotations

import inspect
import re
from importlib import metadata
from pathlib import Path

import pytest

from afcheck import hookspecs, plugins
from afcheck.errors import UnknownComponent, UsageError
from afcheck.plugins import Plugins, PluginWarning

ROOT = Path(__file__).resolve().parent.parent


def entry_points(*pairs: tuple[str, str]) -> list[metadata.EntryPoint]:
    return [metadata.EntryPoint(name, value, "afcheck") for name, value in pairs]


def test_builtins_load_through_the_entry_point_group() -> None:
    declared = {ep.name for ep in metadata.entry_points(group="afcheck")}
    loaded = Plugins()
    assert {"basic", "reference", "replay", "suites", "reporters"} <= set(loaded.origins)
    # The core's essential plugins are registered directly, never by entry point.
    assert set(loaded.origins) | set(loaded.load_errors) == declared | {
        name for name, _ in plugins.ESSENTIAL}
    assert "reference" in loaded.registry("formaliser")
    assert loaded.registry("formaliser").get("reference").plugin == "reference"


@pytest.mark.filterwarnings("ignore:.*afcheck_register_views:afcheck.plugins.PluginWarning")
def test_a_broken_plugin_is_reported_and_the_others_load(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_entry_points", lambda: entry_points(
        ("broken", "afcheck_no_such_module"), ("basic", "afcheck_basic"),
        ("faithfulness", "afcheck_faithfulness")))
    with pytest.warns(PluginWarning, match="'broken'.*No module named"):
        loaded = Plugins()
    assert "broken" in loaded.load_errors
    assert "given" in loaded.registry("perturber")


def test_two_plugins_with_one_name_are_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_entry_points", lambda: entry_points(
        ("basic", "afcheck_basic"), ("basic", "afcheck_reference")))
    with pytest.raises(UsageError, match="two installed plugins are both named 'basic'"):
        Plugins()


def test_one_component_name_from_two_plugins_is_an_error() -> None:
    loaded = Plugins(autoload=False)

    class A:
        @staticmethod
        @plugins.hookspecs.pluggy.HookimplMarker("afcheck")
        def afcheck_register_provers(register):  # type: ignore[no-untyped-def]
            register("same", lambda options: None)

    class B(A):
        pass

    loaded.register(A(), "a")
    loaded.register(B(), "b")
    with pytest.raises(UsageError, match="prover 'same' is registered twice"):
        loaded.registry("prover")


def test_gating_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFCHECK_PLUGINS", "basic")
    assert set(Plugins().origins) == {"basic", "executor"}
    monkeypatch.setenv("AFCHECK_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert Plugins().origins == {"executor": "afcheck core"}  # essential: the local executor


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(UnknownComponent, match="Did you mean 'reference'"):
        Plugins().registry("formaliser").get("referense")


def test_every_hook_is_documented_where_declared_and_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    hooks = [f for name, f in inspect.getmembers(hookspecs, inspect.isfunction)
             if name.startswith("afcheck_")]
    assert len(hooks) >= 12
    for hook in hooks:
        doc = inspect.getdoc(hook) or ""
        args = list(inspect.signature(hook).parameters)
        for arg in args:
            assert f":param {arg}:" in doc, f"{hook.__name__} does not document {arg}"
        assert "firstresult" in doc.lower() or "historic" in doc.lower(), hook.__name__
        assert f"{hook.__name__}({', '.join(args)})" in readme, hook.__name__


def test_every_kind_has_a_declared_registration_hook() -> None:
    loaded = Plugins()
    for kind in loaded.kinds:
        assert re.fullmatch(r"afcheck_register_\w+", kind.hook)
        assert getattr(loaded.pm.hook, kind.hook).spec is not None, kind.name
    core = {"formaliser", "prover", "checker", "method", "suite_kind", "reporter"}
    assert core <= {kind.name for kind in loaded.kinds}
    assert all(callable(getattr(hookspecs, hook)) for hook in
               (k.hook for k in loaded.kinds if k.name in core))


def test_plugins_declare_the_kinds_of_their_methods() -> None:
    """The FOL plugin declares the FOL kinds (used by nl2fol and chains), the faithfulness
    plugin its perturbers and detectors, the equivalence plugin its criteria."""
    loaded = Plugins()
    declared = {kind.name: kind for kind in loaded.kinds}
    adapter = loaded.kinds.model("fol_formaliser")
    assert adapter is not None and adapter.follows == "formaliser"
    assert {"fol_prover", "perturber", "detector", "criterion"} <= set(declared)
    assert declared["perturber"].many
    only_core = Plugins(autoload=False)
    assert "fol_formaliser" not in only_core.kinds
    with pytest.raises(UsageError, match="no loaded plugin declares the kind 'fol_prover'"):
        only_core.registry("fol_prover")


def test_a_kind_declared_twice_differently_is_refused() -> None:
    from afcheck.registry import Kind

    loaded = Plugins(autoload=False)
    loaded.kinds.add(Kind("grader", "graders", "afcheck_register_graders"))
    loaded.kinds.add(Kind("grader", "graders", "afcheck_register_graders"))  # same: fine
    with pytest.raises(UsageError, match="declared twice"):
        loaded.kinds.add(Kind("grader", "graders", "afcheck_register_grades"))


def test_a_misspelt_hook_is_one_line() -> None:
    from afcheck import hookimpl

    class Typo:
        @hookimpl
        def afcheck_configur(self) -> None: ...

    loaded = Plugins(autoload=False)
    loaded.register(Typo(), "typo")
    with pytest.raises(UsageError, match="typo implement afcheck_configur, which is no afcheck"):
        loaded.registry("formaliser")


def test_a_component_made_of_others_gets_the_runs_own() -> None:
    """A factory that takes ``build`` builds its parts through the run: each part is built
    once, shows in the run record and is closed with the others."""
    from afcheck.method import Choice
    from afcheck.registry import PROVER
    from afcheck.runtime import Components

    closed: list[str] = []

    class Part:
        name, version = "part", "7"

        def prove(self, tasks: object) -> list[object]:
            return []

        def close(self) -> None:
            closed.append("part")

    class Whole(Part):
        name = "whole"

        def __init__(self, part: object) -> None:
            self.part = part

    class Provers:
        @staticmethod
        @plugins.hookspecs.pluggy.HookimplMarker("afcheck")
        def afcheck_register_provers(register) -> None:  # type: ignore[no-untyped-def]
            register("part", lambda options: Part())
            register("whole", lambda options, build: Whole(build("prover", "part", {})))

    loaded = Plugins(autoload=False)
    loaded.register(Provers(), "provers")
    components = Components(loaded)
    whole = components.get(PROVER, Choice.of("whole")).component
    assert whole.part is components.get(PROVER, Choice.of("part")).component
    assert components.versions() == {"prover:part": "7", "prover:whole": "7"}
    components.close()
    assert closed.count("part") == 2  # the part and the whole (a Part too), once each
    outside = loaded.create(PROVER, "whole")  # outside a run: the manager builds the part
    assert isinstance(outside.part, Part)
