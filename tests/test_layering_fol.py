"""The FOL language apart from the methods that use it: ``afcheck_fol`` (formulas, languages,
printers, TPTP, z3, provers, the FOL kinds) imports no method package and registers no
method; the two FOL methods, ``afcheck_nl2fol`` and ``afcheck_chains``, use it and not each
other; ``afcheck_nl2fol`` has the layout of every method package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import afcheck

PLUGINS = Path(afcheck.__file__).parent.parent / "plugins"
LANGUAGE = PLUGINS / "afcheck_fol"
NL2FOL = PLUGINS / "afcheck_nl2fol"
CHAINS = PLUGINS / "afcheck_chains"

LAYOUT = ("records.py", "metrics.py", "method.py", "view.py", "view.js", "kinds.py",
          "hookspecs.py", "suite.py")
"""The modules every method package has (``kinds.py`` and ``hookspecs.py`` even when it
declares none: they say so)."""

METHOD_HOOKS = ("afcheck_register_methods", "afcheck_register_suite_kinds",
                "afcheck_register_views")


def _modules(package: Path) -> list[Path]:
    return sorted(package.rglob("*.py")) if package.is_dir() else []


def _docstrings(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            out |= {id(stmt.value) for stmt in body
                    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)}
    return out


def _imports(path: Path, packages: tuple[str, ...]) -> list[str]:
    """Where ``path`` imports one of ``packages``: import statements (at any depth) and
    strings that name a module of one outside docstrings (``lazy("pkg.mod:Name")``)."""

    def named(name: str) -> bool:
        return any(name == p or name.startswith((p + ".", p + ":")) for p in packages)

    tree = ast.parse(path.read_text("utf-8"), str(path))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if named(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if named(node.module):
                found.append(f"{node.lineno}: from {node.module}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs and named(node.value)):
            found.append(f"{node.lineno}: {node.value!r}")
    return found


def _name(path: Path) -> str:
    return path.relative_to(PLUGINS).as_posix()


def test_the_packages_are_there() -> None:
    assert (LANGUAGE / "formula.py").is_file() and (LANGUAGE / "kinds.py").is_file()
    assert (NL2FOL / "__init__.py").is_file() and (CHAINS / "__init__.py").is_file()


@pytest.mark.parametrize("path", _modules(LANGUAGE), ids=_name)
def test_the_language_imports_no_method(path: Path) -> None:
    assert _imports(path, ("afcheck_nl2fol", "afcheck_chains")) == []


def test_the_language_registers_no_method_suite_kind_or_view() -> None:
    tree = ast.parse((LANGUAGE / "__init__.py").read_text("utf-8"))
    hooks = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert hooks & set(METHOD_HOOKS) == set()


@pytest.mark.parametrize("path", _modules(NL2FOL), ids=_name)
def test_nl2fol_does_not_import_chains(path: Path) -> None:
    assert _imports(path, ("afcheck_chains",)) == []


@pytest.mark.parametrize("path", _modules(CHAINS), ids=_name)
def test_chains_does_not_import_nl2fol(path: Path) -> None:
    assert _imports(path, ("afcheck_nl2fol",)) == []


@pytest.mark.parametrize("module", LAYOUT)
def test_nl2fol_has_the_layout_of_a_method_package(module: str) -> None:
    assert (NL2FOL / module).is_file()


def test_nl2fol_registers_its_method_suite_kind_and_view() -> None:
    tree = ast.parse((NL2FOL / "__init__.py").read_text("utf-8"))
    hooks = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert set(METHOD_HOOKS) <= hooks


def test_nl2fol_method_module_holds_the_method_only() -> None:
    tree = ast.parse((NL2FOL / "method.py").read_text("utf-8"))
    defined = [node.name for node in tree.body
               if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
    assert defined == ["Nl2FolMethod"]


def test_nl2fol_has_one_result_type_and_one_codec() -> None:
    tree = ast.parse((NL2FOL / "records.py").read_text("utf-8"))
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {"to_json", "from_json"} <= functions
    classes = {node.name for path in _modules(NL2FOL)
               for node in ast.walk(ast.parse(path.read_text("utf-8")))
               if isinstance(node, ast.ClassDef)}
    # No record read back from a file beside the live type, no protocol between the two.
    assert classes & {"ResultRecord", "Counted"} == set()
