"""Typed metrics and declared members: the layering rules that keep the core and the report
from guessing what a method has or what a figure is.

- A method's optional members are declared (:class:`afcheck.method.Method`, with their
  defaults in ``afcheck.method.MethodBase``): no module of the core (``afcheck/``) or of
  the report (``plugins/afcheck_report``) asks ``getattr``/``hasattr`` for a member that the
  method, summary or view protocols declare, and the modules that read methods
  (``afcheck/method.py``, ``summary.py``, ``gates.py``) and the report ask for no attribute
  by a computed name either.
- Every figure a gate may bound (``Method.gates``) is in the method's typed metrics
  (``summary.metrics().overall``), which is what gates read.
- The report names no method (no string but a docstring, no identifier, holds a built-in
  method's name) and imports no reporter (``afcheck_reporters``): what it shares with the
  Markdown reporter is in the core (:mod:`afcheck.markdown`).
- The report's view guesses nothing from key names: no ``flatten``, no ``…_ci95`` keys;
  figures come typed from the file (:class:`afcheck.metrics.Metrics`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import afcheck_report
import pytest
from afcheck_report.view import MethodView

import afcheck
from afcheck import method as method_module
from afcheck.method import Method, MethodSummary
from afcheck.plugins import get_plugins
from afcheck.registry import METHOD

CORE = Path(afcheck.__file__).parent
REPORT = Path(afcheck_report.__file__).parent

BUILT_IN_METHODS = ("faithfulness", "equivalence", "chains", "nl2fol")

OPTIONAL = ("settings", "budgets", "next_steps", "to_json_text", "from_json")
"""The members a method may leave to :class:`MethodBase`'s defaults."""

SHARED = {"name", "version"}
"""Members that components and plugins have as well: asking for them says nothing about a
method."""

READERS = [CORE / "method.py", CORE / "summary.py", CORE / "gates.py",
           *sorted(REPORT.rglob("*.py"))]


def members(protocol: type) -> set[str]:
    names = {*vars(protocol), *getattr(protocol, "__annotations__", {})}
    return {name for name in names if not name.startswith("_")}


PROTOCOL_MEMBERS = (members(Method) | members(MethodSummary) | members(MethodView)
                    | set(OPTIONAL)) - SHARED


def calls(path: Path, names: tuple[str, ...]) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in names and len(node.args) >= 2:
            yield node


def modules() -> list[Path]:
    return [*sorted(CORE.rglob("*.py")), *sorted(REPORT.rglob("*.py"))]


def test_optional_members_are_declared_with_defaults() -> None:
    declared = members(Method)
    assert [name for name in OPTIONAL if name not in declared] == []
    base = getattr(method_module, "MethodBase", object)
    assert [name for name in OPTIONAL if name not in vars(base)] == []
    assert "metrics" in members(MethodSummary) and "metric" not in members(MethodSummary)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(CORE.parent)))
def test_no_declared_member_is_probed(path: Path) -> None:
    found = [f"{path.name}:{call.lineno}: {call.args[1].value}"
             for call in calls(path, ("getattr", "hasattr"))
             if isinstance(call.args[1], ast.Constant) and call.args[1].value in PROTOCOL_MEMBERS]
    assert found == []


@pytest.mark.parametrize("path", READERS, ids=lambda p: str(p.relative_to(CORE.parent)))
def test_no_member_is_asked_for_by_a_computed_name(path: Path) -> None:
    found = [f"{path.name}:{call.lineno}" for call in calls(path, ("getattr", "hasattr"))
             if not isinstance(call.args[1], ast.Constant)]
    assert found == []


@pytest.mark.parametrize("name", ["faithfulness", "chains", "nl2fol"])
def test_every_gate_metric_is_in_the_overall_metrics(name: str) -> None:
    method = get_plugins().create(METHOD, name)
    overall = method.summarise([]).metrics().overall
    assert [gate for gate in method.gates if gate not in overall] == []


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
        # An attribute's docstring: a string expression after an assignment.
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                for before, after in zip(statements, statements[1:], strict=False):
                    if isinstance(before, (ast.Assign, ast.AnnAssign)) \
                            and isinstance(after, ast.Expr) \
                            and isinstance(after.value, ast.Constant):
                        out.add(id(after.value))
    return out


def _names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg] if node.arg else []
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    return []


@pytest.mark.parametrize("path", sorted(REPORT.rglob("*.py")), ids=lambda p: p.name)
def test_the_report_names_no_method(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            found += [f"{path.name}:{node.lineno}: {node.value!r}" for method in BUILT_IN_METHODS
                      if method in node.value.lower()]
        found += [f"{path.name}:{node.lineno}: {name}" for name in _names(node)
                  for method in BUILT_IN_METHODS if method in name.lower()]
    assert found == []


@pytest.mark.parametrize("path", sorted(REPORT.rglob("*.py")), ids=lambda p: p.name)
def test_the_report_imports_no_reporter(path: Path) -> None:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [f"{path.name}:{node.lineno}: {a.name}" for a in node.names
                      if a.name.split(".")[0] == "afcheck_reporters"]
        elif isinstance(node, ast.ImportFrom) and node.module \
                and node.module.split(".")[0] == "afcheck_reporters":
            found.append(f"{path.name}:{node.lineno}: {node.module}")
    assert found == []


def test_the_view_guesses_no_figure_from_its_key() -> None:
    path = REPORT / "view.py"
    tree = ast.parse(path.read_text("utf-8"), str(path))
    keys = [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and (node.value.endswith("_ci95") or node.value in ("ci95", "ci_low", "ci_high"))]
    assert keys == []
    defined = {node.name for module in sorted(REPORT.rglob("*.py"))
               for node in ast.walk(ast.parse(module.read_text("utf-8")))
               if isinstance(node, ast.FunctionDef)}
    assert "flatten" not in defined
