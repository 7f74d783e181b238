"""Imports read as Lean's header parser reads them, and the header sent to the REPL."""

from __future__ import annotations

import pytest
from afcheck_lean.source import SourceError, header_lines, parse_imports


def test_imports_end_where_lean_ends_them_with_comments_as_spaces() -> None:
    text = "import Mathlib/-x-/axiom cheat : False\n"
    imports = parse_imports(text)
    assert [i.module for i in imports.modules] == ["Mathlib"]
    assert text[imports.end :] == "/-x-/axiom cheat : False\n"
    blanked = imports.blanked(text)
    assert len(blanked) == len(text) and blanked.lstrip().startswith("/-x-/axiom")


def test_several_imports_on_one_line_and_a_prelude() -> None:
    imports = parse_imports("prelude\nimport Init.Core import /- c -/ Init.Data -- x\nopen Nat")
    assert [i.module for i in imports.modules] == ["Init.Core", "Init.Data"]


def test_an_import_without_a_module_is_an_error_at_its_place() -> None:
    with pytest.raises(SourceError) as raised:
        parse_imports("import Mathlib\nimport\n")
    assert raised.value.offset == len("import Mathlib\n")


def test_the_header_keeps_the_command_smuggled_after_an_import() -> None:
    # Lean would run the axiom, so it must reach the header rules, not vanish with the import.
    kept = header_lines("import Mathlib/-x-/axiom cheat : False\nopen Real", "import Mathlib")
    assert "axiom cheat : False" in kept and "import" not in kept


def test_an_unavailable_module_after_a_comment_is_refused() -> None:
    with pytest.raises(SourceError, match="Cheat.Axioms is not available"):
        header_lines("import Mathlib/- -/import Cheat.Axioms\n", "import Mathlib")
