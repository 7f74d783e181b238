"""Languages as data: the shipped files, a bad file's one-line error, pickling by reference."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from afcheck_fol.language import FOLIO, TARSKI, LanguageError, language_named, load_language


def test_shipped_languages() -> None:
    assert TARSKI.predicates["Between"] == 3 and len(TARSKI.predicates) == 18
    assert TARSKI.is_constant("a") and not TARSKI.is_constant("g")
    assert TARSKI.is_variable("x") and not TARSKI.is_variable("a")
    assert TARSKI.default_theory == "analytic"
    assert FOLIO.arity == "first-use" and FOLIO.spelled("xor") == ("⊕",)
    assert FOLIO.is_constant("y1976") and not FOLIO.is_variable("y1976")
    assert language_named("folio") is FOLIO
    with pytest.raises(KeyError, match="known: folio, tarski"):
        language_named("klingon")


def test_languages_pickle_by_reference(tmp_path: Path) -> None:
    assert pickle.loads(pickle.dumps(TARSKI)) is TARSKI
    copy = tmp_path / "mine.toml"
    copy.write_text(TARSKI.path.read_text(encoding="utf-8"), encoding="utf-8")
    mine = load_language(copy)
    assert pickle.loads(pickle.dumps(mine)).path == copy


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("arity = \"fixed\"", "arity = \"sometimes\""), "signature.arity"),
        (("constants = \"[a-f]\"", "constants = \"[a-\""), "signature.constants"),
        (("grammar = \"lpl\"", "grammar = \"nope\""), "no grammars/nope.lark"),
        (("default_theory = \"analytic\"", "default_theory = \"magic\""), "not among theories"),
        (("not = [\"¬\", \"~\"]", "nand = [\"↑\"]"), "unknown symbol(s) nand"),
    ],
)
def test_a_bad_language_file_is_one_line(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = TARSKI.path.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(change[0], change[1]), encoding="utf-8")
    with pytest.raises(LanguageError, match=re.escape(message)) as caught:
        load_language(path)
    assert str(caught.value).startswith(str(path)) and "\n" not in str(caught.value)
