"""Executors as a kind: the core's ``local``, the ``ray`` plugin's, a third party's through
``--plugin``; how a run picks one, and what a bad choice costs (one line, before any work)."""

from __future__ import annotations

import ast
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TEST_PLUGINS

from afcheck import cli
from afcheck.errors import UnknownComponent, UsageError
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import EXECUTOR, PROVER
from afcheck.runtime import Components
from afcheck.runtime.executor import LocalExecutor

EXAMPLES = ROOT / "suites" / "examples"


def _afcheck(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "afcheck", *args], cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": str(TEST_PLUGINS), **env})


def test_the_core_registers_local_whatever_the_plugins() -> None:
    plugins = Plugins(autoload=False)
    entry = plugins.registry(EXECUTOR).get("local")
    assert plugins.registry(EXECUTOR).names() == ["local"]
    assert plugins.origins[entry.plugin] == "afcheck core"
    assert isinstance(plugins.create(EXECUTOR, "local"), LocalExecutor)
    with pytest.raises(UsageError, match="--executor-opt address: the local executor takes "
                                         "no options"):
        plugins.create(EXECUTOR, "local", {"address": "auto"})
    with pytest.raises(UnknownComponent, match="unknown executor 'ray'. Known executors: "
                                               "local"):
        plugins.registry(EXECUTOR).get("ray")


def test_list_executors_shows_each_with_its_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "executors"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
            if line.strip()}
    assert "executor (afcheck core)" in rows["local"]
    assert "ray (afcheck " in rows["ray"] and "address" in rows["ray"]


def test_registering_the_built_in_executors_imports_nothing_of_them() -> None:
    probe = ("import sys; from afcheck.plugins import Plugins; from afcheck.registry import "
             "EXECUTOR; names = Plugins().registry(EXECUTOR).names(); "
             "print(names, 'afcheck_ray.executor' in sys.modules, 'ray' in sys.modules, "
             "'afcheck_processes.executor' in sys.modules, 'cloudpickle' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.split() == ["['local',", "'processes',", "'ray']", "False", "False",
                                   "False", "False"]


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
    assert len(modules) >= 5 and not (ROOT / "afcheck" / "runtime" / "ray_executor.py").exists()
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


@pytest.mark.parametrize("extra", [(), ("--co",)])
def test_an_unknown_executor_stops_the_run_before_any_item(extra: tuple[str, ...]) -> None:
    done = _afcheck(str(EXAMPLES), "--executor", "nope", "--no-cache", *extra)
    output = done.stdout + done.stderr
    assert done.returncode == 4, output
    said = [line for line in output.splitlines() if "nope" in line]
    assert len(said) == 1, output
    assert "unknown executor 'nope'. Known executors: local, processes, ray" in said[0]
    assert "Traceback" not in output
    assert "passed" not in output and "PASSED" not in output and "::" not in output


@pytest.mark.heavy
def test_the_local_executor_refuses_options_in_one_line() -> None:
    done = _afcheck(str(EXAMPLES), "--executor-opt", "address=auto", "--no-cache", "-q")
    output = done.stdout + done.stderr
    assert done.returncode == 4, output
    assert "--executor-opt address: the local executor takes no options" in output
    assert "Traceback" not in output


def _steps(path: Path) -> list[tuple[object, ...]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [(s["case_id"], s["outcome"], s["status"], (s["z"] or {}).get("kind"),
             (s["z_bar"] or {}).get("kind"), s["original"]["statement"] if s["original"]
             else None) for s in doc["steps"]]


@pytest.mark.heavy
def test_a_third_party_executor_runs_every_stage(tmp_path: Path) -> None:
    common = (str(EXAMPLES), "--limit", "12", "--chunk-size", "5", "--no-cache", "-q")
    local = _afcheck(*common, "--json", str(tmp_path / "local.json"))
    log = tmp_path / "chunks.log"
    theirs = _afcheck(*common, "--json", str(tmp_path / "theirs.json"), "--plugin", "lastfirst",
                      "--executor", "last-first", "--executor-opt", f"log={log}")
    assert theirs.returncode == local.returncode, theirs.stdout + theirs.stderr
    assert _steps(tmp_path / "theirs.json") == _steps(tmp_path / "local.json")
    assert len(_steps(tmp_path / "local.json")) == 12
    assert "last-first executor: " in theirs.stdout
    by_stage: dict[str, list[int]] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        stage, _component, chunk, _items = line.split()
        by_stage.setdefault(stage, []).append(int(chunk))
    # Both sides of 12 steps formalised, in chunks of 5: the last chunk ran first.
    assert by_stage["formalise"] == [4, 3, 2, 1, 0]
    assert {"formalise", "prove"} <= set(by_stage)
    for chunks in by_stage.values():
        assert chunks == sorted(range(len(chunks)), reverse=True)


@pytest.mark.heavy
def test_an_executor_that_stops_ends_the_run_with_one_line_and_exit_2(tmp_path: Path) -> None:
    """What a lost cluster or SIGTERM under the ray executor does, through the runner: one
    `afcheck:` line, exit 2 (no case failed), the result files written, and the same command
    with a working executor resumes from the cache."""
    cache = ("--cache-dir", str(tmp_path / "cache"))
    files = ("--json", str(tmp_path / "run.json"), "--junitxml", str(tmp_path / "run.xml"))
    common = (str(EXAMPLES), "--chunk-size", "4", "-q", "--plugin", "lastfirst", *cache, *files)
    stopped = _afcheck(*common, "--executor", "last-first", "--executor-opt",
                       "stop_after=prove:2")
    output = stopped.stdout + stopped.stderr
    assert stopped.returncode == 2, output
    lines = [line for line in output.splitlines() if "afcheck: the workers of the last-first "
             "executor were lost during the prove stage, after 2 chunks" in line]
    assert len(lines) == 1 and "Traceback" not in output and "INTERNALERROR" not in output
    # Nothing of the one method of this run had finished: the files say so, and no case
    # is reported as failed.
    assert json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["steps"] == []
    assert "<testcase" not in (tmp_path / "run.xml").read_text(encoding="utf-8")
    resumed = _afcheck(*common, "--executor", "last-first")
    assert resumed.returncode == 1, resumed.stdout + resumed.stderr  # literal fails cases
    assert "result cache: " in resumed.stdout and " 0 results reused" not in resumed.stdout
    fresh = _afcheck(str(EXAMPLES), "--chunk-size", "4", "-q", "--no-cache", "--json",
                     str(tmp_path / "fresh.json"))
    assert fresh.returncode == 1
    assert _steps(tmp_path / "run.json") == _steps(tmp_path / "fresh.json")
