"""The chains method package has the one layout of a method package: ``records.py`` holds
its one result type and codec, ``metrics.py`` its summary, ``method.py`` the Method class
and nothing else, ``view.py``, ``kinds.py`` and ``hookspecs.py`` beside them; its prover
answers go through the run's one result cache (no cache of its own), and no method object
keeps run state."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import afcheck_chains
import pytest

PACKAGE = Path(afcheck_chains.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))

LAYOUT = ("records.py", "metrics.py", "method.py", "view.py", "kinds.py", "hookspecs.py",
          "suite.py", "loaders.py")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _defined(tree: ast.Module) -> list[str]:
    """The classes and functions a module defines at its top level."""
    return [node.name for node in tree.body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("name", LAYOUT)
def test_the_layout_files_exist(name: str) -> None:
    assert (PACKAGE / name).is_file(), f"afcheck_chains/{name} is missing"


def test_the_summary_is_in_metrics_not_summary() -> None:
    assert not (PACKAGE / "summary.py").exists()
    assert not (PACKAGE / "evaluation.py").exists()
    from afcheck_chains.metrics import ChainsSummary

    assert ChainsSummary.__module__ == "afcheck_chains.metrics"


def test_method_py_defines_the_method_only() -> None:
    assert _defined(_tree(PACKAGE / "method.py")) == ["ChainsMethod"]
    from afcheck_chains.method import ChainsMethod

    assert ChainsMethod.__module__ == "afcheck_chains.method"


def test_no_private_proof_cache() -> None:
    """The prover's answers are kept by the run's cache (``runtime.cached``): no module of the
    package defines a cache class or keeps answers in a store of its own."""
    for path in MODULES:
        tree = _tree(path)
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        assert not [c for c in classes if "Cache" in c], f"{path.name}: {classes}"
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                assert node.id != "ProofCache", f"{path.name}:{node.lineno}"
    backends = (PACKAGE / "backends.py").read_text("utf-8")
    assert "runtime.cached(" in backends


def test_one_result_type_and_its_codec_in_records() -> None:
    """The result a run decides is the one the result file reads back and the metrics count:
    no second read-back type, no protocol between two."""
    for path in MODULES:
        for node in _tree(path).body:
            if isinstance(node, ast.ClassDef):
                assert node.name not in ("ResultRecord", "Counted"), f"{path.name}: {node.name}"
    from afcheck_chains import records
    from afcheck_chains.method import ChainsMethod

    assert inspect.signature(records.from_json).return_annotation in (
        "ChainResult", records.ChainResult)
    assert records.ChainResult.__module__ == "afcheck_chains.records"
    assert ChainsMethod().from_json(records.to_json(records.ChainResult(
        id="c", dataset="d", location="f:1", premises=(), conclusion=records.ConclusionResult(
            "C"), gold_label=records.Label.TRUE, answer=None, analysis="label_only",
        reason="", attempts=1, first_executed=True, first_matched=True))).id == "c"


def test_no_run_state_on_the_method_object() -> None:
    """A method object keeps no run's state: ``__init__`` sets nothing and no method assigns
    to an attribute of ``self``."""
    from afcheck_chains.method import ChainsMethod

    tree = _tree(PACKAGE / "method.py")
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                assert not (isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == "self"), f"method.py:{node.lineno}"
    assert vars(ChainsMethod()) == {}
