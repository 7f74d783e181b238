"""The core names no built-in plugin and holds no method's records (DESIGN.md, "The shape of
a method package"): every module under ``afcheck/`` imports only the core and third-party
packages, and the records, codecs and component interfaces that belong to one method live in
that method's package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import afcheck

CORE = Path(afcheck.__file__).parent
MODULES = sorted(CORE.rglob("*.py"))
PLUGINS = CORE.parent / "plugins"
BUILT_IN = sorted(p.name for p in PLUGINS.iterdir()
                  if p.name.startswith("afcheck_") and (p / "__init__.py").is_file())

MOVED = {
    # afcheck_faithfulness.records and .kinds
    "Step", "Edit", "Perturbation", "DetectTask", "DriftWarning", "Outcome", "CaseResult",
    "CaseRecord", "load_perturbation", "Perturber", "Detector",
    # afcheck_equivalence.records and .kinds
    "Pair", "Obligation", "Alignment", "Eq", "Noneq", "Inconclusive", "Decision",
    "DecisionKind", "Settled", "decision_from_json", "ResultRecord", "EquivalenceCriterion",
    # one status type: afcheck.types.Status
    "ItemStatus",
}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants of a module, its classes and functions, and of the
    attribute docstrings that follow an assignment."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)):
                out.add(id(stmt.value))
    return out


def _names_a_plugin(name: str) -> bool:
    return any(name == p or name.startswith((p + ".", p + ":")) for p in BUILT_IN)


def test_every_module_and_plugin_is_seen() -> None:
    names = {p.relative_to(CORE).as_posix() for p in MODULES}
    assert {"__init__.py", "types.py", "components.py", "method.py", "run.py",
            "runtime/cache.py"} <= names
    assert "equivalence.py" not in names
    assert {"afcheck_faithfulness", "afcheck_equivalence", "afcheck_fol",
            "afcheck_chains"} <= set(BUILT_IN)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_no_core_module_imports_a_built_in_plugin(path: Path) -> None:
    tree = _tree(path)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if _names_a_plugin(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if _names_a_plugin(node.module):
                found.append(f"{node.lineno}: from {node.module}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs and _names_a_plugin(node.value)):
            found.append(f"{node.lineno}: {node.value!r}")  # lazy("afcheck_x.y:Z"), import_module
    assert found == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_no_core_module_defines_a_methods_record(path: Path) -> None:
    found = []
    for node in _tree(path).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        else:
            continue
        found += [f"{node.lineno}: {name}" for name in names if name in MOVED]
    assert found == []


def test_the_public_api_is_what_the_lean_kinds_share() -> None:
    assert not MOVED & set(afcheck.__all__)
    assert {"Verdict", "VerdictKind", "Formalisation", "ProofTask", "hookimpl"} <= set(
        afcheck.__all__)


def test_the_records_are_in_their_methods_packages() -> None:
    from afcheck_equivalence.kinds import EquivalenceCriterion
    from afcheck_equivalence.records import Pair, decision_from_json
    from afcheck_faithfulness.kinds import Detector, Perturber
    from afcheck_faithfulness.records import CaseResult, Step, load_perturbation

    for record in (EquivalenceCriterion, Pair, decision_from_json, Detector, Perturber,
                   CaseResult, Step, load_perturbation):
        assert record.__module__.split(".")[0] in ("afcheck_equivalence", "afcheck_faithfulness")
