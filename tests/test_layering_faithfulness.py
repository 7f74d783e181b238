"""The faithfulness method in the shape of every method package: its notions (a step, its
original and perturbed sides) are its own, not the core's; one result type with one codec,
counted by the summary and read back by the view; the drift warnings the view shows are the
ones the run recorded; and the method object holds no state of a run."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
from pathlib import Path

import afcheck_faithfulness
import arith
import pytest
from afcheck_faithfulness.method import Faithfulness
from afcheck_faithfulness.records import CaseResult, Step

import afcheck
from afcheck.method import Case, Choice, Selection
from afcheck.plugins import Plugins
from afcheck.runtime import Components, Runtime
from afcheck.runtime.spool import Spool
from afcheck.suites import SuiteSpec
from afcheck.types import FormaliseRequest

CORE = Path(afcheck.__file__).parent
PACKAGE = Path(afcheck_faithfulness.__file__).parent
LAYOUT = ("method.py", "pipeline.py", "records.py", "metrics.py", "view.py", "kinds.py",
          "hookspecs.py")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _imports(tree: ast.Module) -> set[str]:
    """Every module a tree imports, at its top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_core_has_no_side_and_no_step() -> None:
    found = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ClassDef) and node.name == "Side":
                found.append(f"{path.relative_to(CORE)}:{node.lineno}: class Side")
            name = (node.target.id if isinstance(node, ast.AnnAssign)
                    and isinstance(node.target, ast.Name) else
                    node.attr if isinstance(node, ast.Attribute) else
                    node.arg if isinstance(node, ast.arg) else None)
            if name == "step_id":
                found.append(f"{path.relative_to(CORE)}:{getattr(node, 'lineno', 0)}: {name}")
    assert found == []
    assert not hasattr(afcheck, "Side") and "Side" not in afcheck.__all__


def test_the_formalise_request_is_every_methods() -> None:
    assert [f.name for f in dataclasses.fields(FormaliseRequest)] == [
        "key", "text", "context", "problem", "metadata"]


def test_the_package_has_the_layout_of_a_method_package() -> None:
    assert all((PACKAGE / name).is_file() for name in LAYOUT)
    classes = {path.name: [node.name for node in ast.walk(_tree(path))
                           if isinstance(node, ast.ClassDef)]
               for path in PACKAGE.glob("*.py")}
    assert classes["method.py"] == ["Faithfulness"]
    every = [name for names in classes.values() for name in names]
    assert "Counted" not in every and "CaseRecord" not in every  # one result type
    functions = {node.name for node in _tree(PACKAGE / "records.py").body
                 if isinstance(node, ast.FunctionDef)}
    assert {"to_json", "to_json_text", "from_json"} <= functions


def test_the_view_runs_no_drift_detector() -> None:
    imports = {path.name: _imports(_tree(path)) for path in PACKAGE.glob("*.py")}
    assert {name: sorted(m for m in modules if m.split(".")[0] == "afcheck_drift")
            for name, modules in imports.items()} == dict.fromkeys(imports, [])


def _runtime(spool: Spool) -> Runtime:
    plugins = Plugins(autoload=False)
    plugins.register(afcheck_faithfulness, "faithfulness")  # declares the perturber kind
    plugins.register(arith, "arith")
    return Runtime(Components(plugins), spool=spool)


def _selection(tmp_path: Path) -> Selection:
    spec = SuiteSpec(name="s", kind="jsonl", root=tmp_path, settings={
        "perturber": "bump", "formaliser": "arith", "checker": "arith", "prover": "arith",
        "seed": 0})
    return Selection(spec, lambda kind, name: Choice(name), lambda name: None,
                     lambda kind: [])


def test_the_method_object_holds_no_state_of_a_run(tmp_path: Path) -> None:
    method = Faithfulness()
    constructed = copy.deepcopy(vars(method))
    selection = _selection(tmp_path)
    steps = [Step(f"s/p/{i}", "s", "d", "p", str(i), f"So: 2 + {i} = {2 + i}")
             for i in range(3)]
    cases = [Case(f"s::{name}", name, "faithfulness", "s", "d", None, spec)
             for step in steps for name, spec in method.cases(step, selection)]
    spool = Spool()
    try:
        results = method.run(cases, _runtime(spool), None)
        records = [method.to_json(result) for result in results]
        assert [method.to_json_text(r) for r in results] == [
            json.dumps(r, ensure_ascii=False) for r in records]
    finally:
        spool.close()
    assert vars(method) == constructed
    # What the run knew is in its results: their records read back as the same results.
    from afcheck_faithfulness.records import from_json

    assert all(isinstance(r, CaseResult) for r in results)
    assert [from_json(r) for r in records] == results


@pytest.mark.parametrize("name", ["Side", "DriftWarning", "CaseResult"])
def test_the_records_of_a_side_are_the_methods(name: str) -> None:
    from afcheck_faithfulness import records

    assert getattr(records, name).__module__ == "afcheck_faithfulness.records"
