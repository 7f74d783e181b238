"""A stage's call sent to another process: components travel as recipes and are built there
once; a host answers every outcome of a chunk in one shape."""

from __future__ import annotations

import pickle
import threading

import pytest

from afcheck.errors import AfcheckError
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import PROVER
from afcheck.runtime import Components
from afcheck.runtime.executor import Recipe
from afcheck.runtime.shipping import Host, dumps, loads
from afcheck.types import ProofTask, VerdictKind

TWO_AND_TWO = ProofTask("1", "theorem t : 2 + 2 = 4 := by sorry")


def _plugins() -> Plugins:
    plugins = Plugins()
    plugins.register_module("slowprove")
    return plugins


def _shipped(components: Components) -> tuple[Recipe, bytes]:
    built = components.get(PROVER, Choice.of("slow-arith", {"delay": "0"}))
    recipe = components.recipe(built.component)
    assert recipe is not None and recipe.origin == "module slowprove"
    return recipe, dumps(lambda chunk: built.component.prove(chunk), components.recipe)


def test_a_call_ships_its_component_as_a_recipe() -> None:
    recipe, payload = _shipped(Components(_plugins()))
    built_there: list[object] = []

    def build(wanted: Recipe) -> object:
        assert wanted == recipe
        made = _plugins().create(PROVER, recipe.name, dict(recipe.options))
        built_there.append(made)
        return made

    call = loads(payload, build)
    verdicts = call([TWO_AND_TWO])
    assert [v.kind for v in verdicts] == [VerdictKind.PROVED]
    assert len(built_there) == 1


def test_an_object_only_this_process_can_have_is_refused() -> None:
    lock = threading.Lock()
    with pytest.raises(TypeError, match="lock"):
        dumps(lambda chunk: [lock.locked() for _ in chunk], lambda obj: None)


def test_a_host_builds_each_recipe_once_and_keeps_it_for_every_call() -> None:
    recipe, payload = _shipped(Components(_plugins()))
    host = Host(_plugins().rebuilder())
    status, first, seconds = host.run("a", payload, [TWO_AND_TWO])
    assert status == "ok" and seconds >= 0
    assert [v.kind for v in first] == [VerdictKind.PROVED]  # type: ignore[attr-defined]
    again = host.run("a", payload, [TWO_AND_TWO, TWO_AND_TWO])
    assert again[0] == "ok" and len(again[1]) == 2  # type: ignore[arg-type]
    assert list(host._built) == [recipe]
    host.close()
    assert host._built == {}


def test_a_host_answers_a_failure_in_one_line_of_its_kind() -> None:
    host = Host(None)

    def refuse(chunk: list[object]) -> list[object]:
        raise AfcheckError("the model server said no")

    def crash(chunk: list[object]) -> list[object]:
        return [1 // len(chunk)]

    assert host.run("r", dumps(refuse, lambda obj: None), [1]) == (
        "afcheck", "the model server said no", 0.0)
    assert host.run("c", dumps(crash, lambda obj: None), []) == (
        "error", "ZeroDivisionError: integer division or modulo by zero", 0.0)


def test_a_host_told_nothing_of_plugins_says_so() -> None:
    recipe, payload = _shipped(Components(_plugins()))
    status, message, _ = Host(None).run("x", payload, [TWO_AND_TWO])
    assert (status, message) == ("afcheck", "this worker was not told how to build components")
    assert pickle.loads(pickle.dumps(recipe)) == recipe
