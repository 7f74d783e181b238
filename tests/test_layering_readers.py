"""One reader per language: numerals and math spans are read by ``afcheck_arith`` alone, Lean
is lexed by ``afcheck/lean/lexer.py`` alone and printed by ``afcheck/lean/printer.py`` alone,
and the equivalence method reaches Lean and SMT only through the kinds.

The rules, precisely:

- No module of the ``drift`` or ``regex`` plugins holds a regular expression (any string
  constant that is not a docstring) with a digit class (``\\d``, ``[0-9``, ``0-9]``) or a
  math delimiter (``\\\\(``, ``\\\\[``, ``\\$\\$``), or defines a function named like a numeral
  reader (``find_numerals``, ``step_numbers``, ``math_spans`` …); nor has a module named
  ``numbers``, ``numerals`` or ``spans``. Those are ``afcheck_arith``'s.
- In ``afcheck/lean/`` and the ``lean`` plugin, only ``afcheck/lean/lexer.py`` defines a lexer:
  a function named ``lex`` or ``tokenize``, or a class named ``Token``, ``Lexed`` or ending in
  ``Lexer``.
- In ``afcheck/lean/``, only ``afcheck/lean/printer.py`` defines a top-level ``print_*``
  function (there is no ``typed_printer``).
- ``sae.py`` and ``synthetic.py`` build no theorem text by hand: none of their string
  constants or f-string parts (docstrings aside) starts with ``theorem `` or holds
  ``:= by sorry``; ``afcheck.lean.printer.print_statement`` assembles it.
- No module of the equivalence plugin imports ``afcheck_lean`` or ``afcheck_smt`` or names
  them in a string (``lazy("afcheck_lean…")``), type-checking imports included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import afcheck

CORE = Path(afcheck.__file__).parent
PLUGINS = CORE.parent / "plugins"
LEAN = CORE / "lean"


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants, and of the attribute docstrings after assignments."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            out.update(id(stmt.value) for stmt in body if isinstance(stmt, ast.Expr)
                       and isinstance(stmt.value, ast.Constant)
                       and isinstance(stmt.value.value, str))
    return out


def _strings(tree: ast.Module) -> list[tuple[int, str]]:
    """Every string constant of the module (f-string parts included) but its docstrings."""
    docs = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def _defined(tree: ast.Module) -> list[tuple[int, str]]:
    return [(node.lineno, node.name) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _where(path: Path) -> str:
    return path.relative_to(CORE.parent).as_posix()


_NUMERAL_PATTERN = re.compile(
    r"\\d(?![A-Za-z])|\[0-9|0-9\]|\\\\\\\(|\\\\\\\[|\\\$\\\$")
"""A digit class or an escaped math delimiter in a regular expression's source (``\\div`` is
LaTeX's division, no digit class)."""
_READER_NAMES = {"find_numerals", "step_numbers", "result_numbers", "parse_units",
                 "asserted_text", "math_spans", "in_spans", "numeral_value", "scan"}
_NUMERAL_READERS = [p for name in ("afcheck_drift", "afcheck_regex")
                    for p in _modules(PLUGINS / name)]


@pytest.mark.parametrize("path", _NUMERAL_READERS, ids=_where)
def test_only_afcheck_arith_reads_numerals_and_math_spans(path: Path) -> None:
    tree = _tree(path)
    found = [f"{line}: {text!r}" for line, text in _strings(tree)
             if _NUMERAL_PATTERN.search(text)]
    found += [f"{line}: def {name}" for line, name in _defined(tree) if name in _READER_NAMES]
    if path.stem in ("numbers", "numerals", "spans"):
        found.append(f"a module named {path.stem}")
    assert found == [], f"{_where(path)} reads numerals itself; use afcheck_arith"


_LEXER_NAMES = {"lex", "tokenize", "Token", "Lexed"}
_LEAN_MODULES = _modules(LEAN) + _modules(PLUGINS / "afcheck_lean")


@pytest.mark.parametrize("path", _LEAN_MODULES, ids=_where)
def test_only_afcheck_lean_lexer_lexes_lean(path: Path) -> None:
    if path == LEAN / "lexer.py":
        return
    found = [f"{line}: {name}" for line, name in _defined(_tree(path))
             if name in _LEXER_NAMES or name.endswith("Lexer")]
    assert found == [], f"{_where(path)} lexes Lean itself; use afcheck.lean.lexer"


def test_the_lexer_lexes_both_statements_and_source() -> None:
    names = {name for _, name in _defined(_tree(LEAN / "lexer.py"))}
    assert {"lex", "tokenize", "Token"} <= names
    assert not (PLUGINS / "afcheck_lean" / "tokens.py").exists()


@pytest.mark.parametrize("path", _modules(LEAN), ids=_where)
def test_only_afcheck_lean_printer_prints_lean(path: Path) -> None:
    if path == LEAN / "printer.py":
        return
    found = [f"{node.lineno}: {node.name}" for node in _tree(path).body
             if isinstance(node, ast.FunctionDef) and node.name.startswith("print_")]
    assert found == [], f"{_where(path)} prints Lean itself; use afcheck.lean.printer"


def test_one_printer_prints_both_trees() -> None:
    names = {name for _, name in _defined(_tree(LEAN / "printer.py"))}
    assert {"print_theorem", "print_expr", "print_term", "print_formula",
            "print_statement"} <= names
    assert not (LEAN / "typed_printer.py").exists()


_THEOREM_TEXT = re.compile(r"^theorem |:= by sorry")


@pytest.mark.parametrize("path", [PLUGINS / "afcheck_equivalence" / "sae.py",
                                  PLUGINS / "afcheck_faithfulness" / "synthetic.py"], ids=_where)
def test_theorem_text_is_assembled_by_the_printer(path: Path) -> None:
    tree = _tree(path)
    found = [f"{line}: {text!r}" for line, text in _strings(tree) if _THEOREM_TEXT.search(text)]
    assert found == [], f"{_where(path)} writes theorem text by hand; use print_statement"
    imports = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "afcheck.lean.printer" in imports


def _names_the_backends(name: str) -> bool:
    return any(name == p or name.startswith((p + ".", p + ":"))
               for p in ("afcheck_lean", "afcheck_smt"))


@pytest.mark.parametrize("path", _modules(PLUGINS / "afcheck_equivalence"), ids=_where)
def test_equivalence_reaches_lean_and_smt_only_through_the_kinds(path: Path) -> None:
    tree = _tree(path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if _names_the_backends(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _names_the_backends(node.module):
                found.append(f"{node.lineno}: from {node.module}")
    found += [f"{line}: {text!r}" for line, text in _strings(tree) if _names_the_backends(text)]
    assert found == [], (f"{_where(path)} reaches a backend plugin directly; build the "
                         "component through the registry (the prover or lean_session kind)")
