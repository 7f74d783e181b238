"""Executors: the runtime imports nothing above it, and a component is rebuilt elsewhere from
its recipe by the builder the run hands the stage."""

from __future__ import annotations

import ast
import os
import pickle
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, TEST_PLUGINS

from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import PROVER
from afcheck.runtime import Components


def _upward(path: Path) -> list[str]:
    """The modules of ``afcheck`` above the runtime, and plugin packages, that ``path``
    imports when it runs (imports under ``if TYPE_CHECKING:`` are for types only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test) == "TYPE_CHECKING"
                   for node in ast.walk(block)}
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        found += [n for n in names if n.startswith(("afcheck.plugins", "afcheck.run",
                                                   "afcheck.cli", "afcheck.pytest_plugin",
                                                   "afcheck_"))
                  and not n.startswith("afcheck.runtime")]
    return found


def test_the_runtime_imports_no_plugin_manager_and_no_plugin() -> None:
    modules = sorted((ROOT / "afcheck" / "runtime").glob("*.py"))
    assert len(modules) >= 5
    assert {m.name: _upward(m) for m in modules} == {m.name: [] for m in modules}


def test_a_recipe_is_rebuilt_in_another_process() -> None:
    plugins = Plugins(autoload=False)
    plugins.register_module("slowprove")
    components = Components(plugins)
    built = components.get(PROVER, Choice.of("slow-arith", {"delay": "0"}))
    recipe = components.recipe(built.component)
    assert recipe is not None
    payload = pickle.dumps((plugins.rebuilder(), recipe))
    script = ("import pickle, sys\n"
              "from afcheck.types import ProofTask\n"
              "rebuild, recipe = pickle.loads(sys.stdin.buffer.read())\n"
              "build = rebuild()\n"
              "prover = build(recipe)\n"
              "tasks = [ProofTask('1', 'theorem t : 2 + 2 = 4 := by sorry'),\n"
              "         ProofTask('2', 'theorem t : 2 + 2 = 5 := by sorry')]\n"
              "print(type(prover).__module__, [v.kind.name for v in prover.prove(tasks)])\n")
    done = subprocess.run([sys.executable, "-c", script], input=payload, capture_output=True,
                          timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(TEST_PLUGINS),
                               "AFCHECK_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == ["slowprove", "['PROVED',", "'REFUTED']"]
