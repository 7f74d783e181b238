"""The rooms of ``docs/architecture.md`` for methods and languages: every method package has
the one layout, methods do not import one another nor any output or component plugin, and a
language imports no method and no component."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import afcheck

PLUGINS = Path(afcheck.__file__).parent.parent / "plugins"
LAYOUT = ("records.py", "metrics.py", "method.py", "view.py", "kinds.py", "hookspecs.py")
LANGUAGES = frozenset({"afcheck_arith", "afcheck_fol"})
OUTPUTS = frozenset({"afcheck_reporters"})
"""Output plugins a method may not import (the report's view API, ``afcheck_report``, is
what a method's view is written against)."""


def _registers_a_method(package: Path) -> bool:
    init = package / "__init__.py"
    return init.is_file() and "def afcheck_register_methods" in init.read_text("utf-8")


METHODS = sorted(p.name for p in PLUGINS.iterdir() if _registers_a_method(p))
PACKAGES = sorted(p.name for p in PLUGINS.iterdir()
                  if p.name.startswith("afcheck_") and (p / "__init__.py").is_file())
COMPONENTS = frozenset(PACKAGES) - frozenset(METHODS) - LANGUAGES - OUTPUTS - {
    "afcheck_report", "afcheck_processes", "afcheck_ray", "afcheck_suites"}


def _imported(package: str) -> set[str]:
    """The top-level ``afcheck_*`` packages other than ``package`` its modules import."""
    found: set[str] = set()
    for path in (PLUGINS / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            found.update(n.split(".")[0] for n in names)
    return {n for n in found if n.startswith("afcheck_") and n != package}


def test_the_four_methods_are_found() -> None:
    assert {"afcheck_faithfulness", "afcheck_equivalence", "afcheck_nl2fol",
            "afcheck_chains"} <= set(METHODS)


@pytest.mark.parametrize("package", METHODS)
def test_every_method_package_has_the_one_layout(package: str) -> None:
    missing = [name for name in LAYOUT if not (PLUGINS / package / name).is_file()]
    assert not missing, f"{package} lacks {missing}"


@pytest.mark.parametrize("package", METHODS)
def test_a_method_imports_no_other_method_no_output_and_no_component(package: str) -> None:
    imported = _imported(package)
    assert not imported & (set(METHODS) | OUTPUTS | COMPONENTS), imported


@pytest.mark.parametrize("package", sorted(LANGUAGES))
def test_a_language_imports_no_method_and_no_component(package: str) -> None:
    imported = _imported(package)
    assert not imported & (set(METHODS) | COMPONENTS | OUTPUTS | {"afcheck_report"}), imported
