"""afcheck meets pytest through pytest's public API only: no module of afcheck's or of its
built-in plugins imports pytest's private package or names another project's pytest plugin
module, and the pytest plugin every pytest session of the environment loads stays inert in a
session that is not afcheck's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import afcheck

CORE = Path(afcheck.__file__).parent
PLUGINS = CORE.parent / "plugins"
MODULES = sorted([*CORE.rglob("*.py"), *PLUGINS.rglob("*.py")])

PRIVATE = "_pytest"
"""pytest's private package: what it holds may change in any release."""
FOREIGN = frozenset({"xdist", "pytest_benchmark", "_hypothesis_pytestplugin",
                     "pytest_rerunfailures", "pytest_timeout", "pytest_cov", "pytest_asyncio",
                     "anyio.pytest_plugin", "pytest_subtests"})
"""Other projects' pytest plugin modules: afcheck treats a plugin by what it does, never by
its name."""


def _docstrings(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            out.update(id(stmt.value) for stmt in body
                       if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                       and isinstance(stmt.value.value, str))
    return out


def _forbidden(dotted: str) -> bool:
    first = dotted.split(".", 1)[0]
    return first == PRIVATE or first in FOREIGN or any(
        dotted == name or dotted.startswith(name + ".") for name in FOREIGN)


def _names_in(text: str) -> list[str]:
    """The dotted names in a string (``"_pytest.runner"``, ``"xdist.plugin"``); a product's
    name in a sentence (``pytest-xdist's -n``) is none, and neither is pytest's own public
    way to leave a plugin out by its registered name (``-p no:xdist``, which the ``afcheck``
    command gives by default and a user may override)."""
    if text.startswith("no:"):
        return []
    return [name for name in re.findall(r"[\w.-]+", text) if "-" not in name]


def _found(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if _forbidden(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if _forbidden(node.module):
                found.append(f"{node.lineno}: from {node.module}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs):
            found += [f"{node.lineno}: {node.value!r}" for name in _names_in(node.value)
                      if _forbidden(name)]
    return found


def test_every_module_is_seen() -> None:
    names = {p.relative_to(CORE.parent).as_posix() for p in MODULES}
    assert {"afcheck/pytest_plugin.py", "afcheck/terminal.py", "afcheck/cli.py"} <= names
    assert any(name.startswith("plugins/afcheck_faithfulness/") for name in names)


def test_the_rule_sees_what_it_forbids() -> None:
    assert _forbidden("_pytest.timing") and _forbidden("xdist") and _forbidden("xdist.plugin")
    assert _forbidden("_hypothesis_pytestplugin") and not _forbidden("pytest")
    assert _names_in("pytest_benchmark.plugin") == ["pytest_benchmark.plugin"]
    assert not [n for n in _names_in("pytest-xdist's -n would split them") if _forbidden(n)]
    assert _names_in("no:xdist") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(CORE.parent).as_posix())
def test_no_module_imports_pytests_private_package_or_names_a_plugin_module(
        path: Path) -> None:
    assert _found(path) == []


def test_a_plain_pytest_session_builds_nothing_of_afchecks(pytester: pytest.Pytester) -> None:
    """The plugin is loaded (entry point ``pytest11``), and that is all: neither afcheck's
    plugins nor a run are built, nor their modules imported."""
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    pytester.makeconftest(
        "import sys\n"
        "def pytest_unconfigure(config):\n"
        "    print('LOADED', sorted(m for m in sys.modules if m.startswith('afcheck')))\n")
    result = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    line = next(x for x in result.outlines if x.startswith("LOADED"))
    assert "'afcheck.pytest_plugin'" in line
    for module in ("afcheck.plugins", "afcheck.run", "afcheck.options", "afcheck.terminal",
                   "afcheck.runtime"):
        assert f"'{module}'" not in line, line
