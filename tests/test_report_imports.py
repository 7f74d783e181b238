"""The report plugin imports no evaluation method: each method's view lives in its own
package and reaches the report through the plugins (DESIGN.md, "The shape of a method
package")."""

from __future__ import annotations

import ast
from pathlib import Path

import afcheck_report
import pytest

METHOD_PACKAGES = ("afcheck_faithfulness", "afcheck_fol", "afcheck_chains",
                   "afcheck_equivalence", "afcheck_drift")
REPORT = Path(afcheck_report.__file__).parent
MODULES = sorted(REPORT.rglob("*.py"))


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in it (functions, TYPE_CHECKING blocks)."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.lineno, node.module))
    return out


def test_every_module_is_checked() -> None:
    names = {p.name for p in MODULES}
    assert {"__init__.py", "page.py", "compare.py", "views.py", "view.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_imports_a_method_package(path: Path) -> None:
    found = [f"{path.name}:{line}: {name}" for line, name in imported(path)
             if name.split(".")[0] in METHOD_PACKAGES]
    assert found == []


def test_nor_does_its_script() -> None:
    # The step browser draws no method's detail itself: each view brings its own.
    script = (REPORT / "assets" / "browser.js").read_text("utf-8")
    for name in ("faithDetail", "folDetail", "chainDetail", "eqDetail", "nl2fol", "chains"):
        assert name not in script
