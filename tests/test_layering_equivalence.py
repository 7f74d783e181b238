"""The ``equivalence`` method package has the shape of every method package (DESIGN.md, "The
shape of a method package"): ``records.py`` holds the one result type and its one codec,
``metrics.py`` the summaries computed from it, ``method.py`` the Method class only, ``suite.py``
the item and its loader; the view reads results with the records' codec; no second result
type, no protocol between two; optional members declared, not probed; no run state on the
method object."""

from __future__ import annotations

import ast
from pathlib import Path

import afcheck_equivalence
import pytest

PACKAGE = Path(afcheck_equivalence.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))
LAYOUT = ("records.py", "metrics.py", "method.py", "view.py", "kinds.py", "hookspecs.py",
          "suite.py")
METHOD_MODULES = ("method.py", "decide.py", "candidates.py", "outcome.py", "records.py",
                  "metrics.py", "suite.py", "limit.py", "view.py")
"""The modules of the method itself (not the criteria's algorithms)."""


def _tree(name: str) -> ast.Module:
    path = PACKAGE / name
    return ast.parse(path.read_text("utf-8"), str(path))


def _top(name: str) -> dict[str, ast.stmt]:
    """The classes and functions ``name`` defines at its top level."""
    return {node.name: node for node in _tree(name).body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))}


def _registered(hook: str) -> str:
    """The ``module:Name`` that ``hook`` of the package's plugin registers."""
    for node in _tree("__init__.py").body:
        if isinstance(node, ast.FunctionDef) and node.name == hook:
            for const in ast.walk(node):
                if (isinstance(const, ast.Constant) and isinstance(const.value, str)
                        and const.value.startswith("afcheck_equivalence.")):
                    return const.value
    raise AssertionError(f"{hook} registers nothing")


@pytest.mark.parametrize("name", LAYOUT)
def test_the_package_has_the_layout_module(name: str) -> None:
    assert (PACKAGE / name).is_file()


def test_method_py_defines_the_method_class_only() -> None:
    defined = _top("method.py")
    assert list(defined) == ["Equivalence"]
    assert isinstance(defined["Equivalence"], ast.ClassDef)
    assert _registered("afcheck_register_methods") == "afcheck_equivalence.method:Equivalence"


def test_the_item_and_its_loader_are_the_suite_kinds() -> None:
    assert {"Item", "load", "EquivalenceSuite"} <= set(_top("suite.py"))
    assert _registered("afcheck_register_suite_kinds") == \
        "afcheck_equivalence.suite:EquivalenceSuite"
    assert not (PACKAGE / "suite_kind.py").exists()


def test_records_hold_the_one_result_type_and_its_codec() -> None:
    assert {"Result", "to_json", "from_json", "decision_from_json"} <= set(_top("records.py"))
    imported = {alias.name for node in ast.walk(_tree("method.py"))
                if isinstance(node, ast.ImportFrom)
                and node.module == "afcheck_equivalence.records" for alias in node.names}
    assert {"Result", "to_json", "from_json"} <= imported


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_codec_of_a_result_beside_the_records(path: Path) -> None:
    if path.name == "records.py":
        return
    defined = _top(path.name)
    assert not {"to_json", "from_json", "_text"} & set(defined)


def test_the_summaries_are_in_metrics_and_computed_from_the_one_result() -> None:
    defined = _top("metrics.py")
    assert {"Summary", "EquivalenceSummary", "summarise"} <= set(defined)
    imported = {alias.name for node in ast.walk(_tree("metrics.py"))
                if isinstance(node, ast.ImportFrom)
                and node.module == "afcheck_equivalence.records" for alias in node.names}
    assert "Result" in imported


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_second_result_type_and_no_protocol_between_two(path: Path) -> None:
    classes = [node for node in ast.walk(ast.parse(path.read_text("utf-8")))
               if isinstance(node, ast.ClassDef)]
    assert not [c.name for c in classes if c.name in ("Counted", "ResultRecord")]
    # The one protocol of the package is the interface of its component kind.
    protocols = [c.name for c in classes
                 if any(isinstance(b, ast.Name) and b.id == "Protocol" for b in c.bases)]
    assert protocols == (["EquivalenceCriterion"] if path.name == "kinds.py" else [])


def test_the_view_reads_results_with_the_records_codec() -> None:
    imported = {(node.module, alias.name) for node in ast.walk(_tree("view.py"))
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert ("afcheck_equivalence.records", "from_json") in imported
    assert ("afcheck_equivalence.metrics", "summarise") in imported
    assert not [name for name, node in _top("view.py").items()
                if isinstance(node, ast.ClassDef) and name != "EquivalenceView"]


@pytest.mark.parametrize("name", METHOD_MODULES)
def test_optional_members_are_declared_not_probed(name: str) -> None:
    probes = [f"{node.lineno}: getattr(…, {node.args[1].value!r})"
              for node in ast.walk(_tree(name))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant)]
    assert probes == []


def test_the_criterion_declares_whether_it_is_contained() -> None:
    from afcheck_equivalence.kinds import EquivalenceCriterion

    assert "contained" in EquivalenceCriterion.__dict__


def test_no_run_state_on_the_method_object() -> None:
    assigned = [f"{node.lineno}: self.{target.attr}"
                for node in ast.walk(_tree("method.py"))
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "self"]
    assert assigned == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_one_cache_the_runs(path: Path) -> None:
    # Decisions and candidates are kept by the run's cache (runtime.cached): no memo beside it.
    memos = [f"{node.lineno}: {name}" for node in ast.walk(ast.parse(path.read_text("utf-8")))
             for name in [node.attr if isinstance(node, ast.Attribute)
                          else node.id if isinstance(node, ast.Name) else ""]
             if name in ("lru_cache", "cache", "cached_property")]
    assert memos == []
