"""The Lean lexer: a statement's tokens for the parser (the longest symbol written at a
position is the token), and Lean source cut into tokens as Lean's lexer cuts it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afcheck.lean.lexer import (
    _SYMBOLS,
    ASCII,
    hidden_char,
    lex,
    line_column,
    symbol_char,
    tokenize,
)


@pytest.mark.parametrize("symbol", [s for s in _SYMBOLS if not s[0].isalnum()])
def test_each_symbol_alone_is_one_token(symbol: str) -> None:
    tokens = tokenize(f"( {symbol} )")
    assert [t.kind for t in tokens] == ["sym", "sym", "sym", "eof"]
    assert tokens[1].text == ASCII.get(symbol, symbol)
    assert (tokens[1].start, tokens[1].end) == (2, 2 + len(symbol))


def test_the_longest_symbol_wins_over_its_prefixes() -> None:
    # ``≃+*`` has the prefixes ``≃+`` and ``≃``; ``→+*`` has ``→+`` and ``→``.
    assert [t.text for t in tokenize("f : R ≃+* S → T →+* U")][:-1] == [
        "f", ":", "R", "≃+*", "S", "→", "T", "→+*", "U"]
    assert [t.text for t in tokenize("x ≤ y ∧ a..b")][:-1] == ["x", "≤", "y", "∧", "a", "..", "b"]


def test_radix_numerals_are_the_literals_lean_reads() -> None:
    # `0x10` is `OfNat.ofNat 16` to Lean, `0b1x` the literal 1 then the name `x`: never the
    # numeral 0 applied to a name.
    assert [(t.kind, t.text, t.start, t.end) for t in tokenize("0x10 + 0b1x = 0o17")][:-1] == [
        ("num", "16", 0, 4), ("sym", "+", 5, 6), ("num", "1", 7, 10), ("ident", "x", 10, 11),
        ("sym", "=", 12, 13), ("num", "15", 14, 18)]
    assert [t.text for t in tokenize("1.5e1 = 15")][:-1] == ["1.5e1", "=", "15"]


def test_digit_separators_are_one_numeral_as_lean_reads_them() -> None:
    # Lean 4.9+ reads `1_000` as 1000; a `.` with no digit after it ends a sentence.
    assert [(t.kind, t.text) for t in tokenize("1_000 = 10 ^ 3.")][:-1] == [
        ("num", "1000"), ("sym", "="), ("num", "10"), ("sym", "^"), ("num", "3"), ("sym", ".")]


_NUMERALS = st.sampled_from(["0", "7", "12", "1_000", "4__0", "2.", "2.5", "1e5", "2.5E-3",
                              "1e", "3.e2", "0x1F", "0b10", "0o7", "0b", "0b12"])
_BETWEEN = st.sampled_from([" ", " + ", "(", ") * ", " = -"])


@given(st.lists(st.tuples(_NUMERALS, _BETWEEN), max_size=6).map(
    lambda parts: "".join(n + b for n, b in parts)))
def test_the_statement_reader_and_the_source_lexer_cut_numerals_alike(text: str) -> None:
    ours = [(t.start, t.end) for t in tokenize(text) if t.kind == "num"]
    source = [(t.start, t.end - t.text.endswith(".")) for t in lex(text).tokens
              if t.kind == "num"]
    assert ours == source


def test_a_statements_tokens_say_where_they_stand() -> None:
    tokens = tokenize("theorem t :\n  x  = «y»")
    assert [(t.text, t.line_start, t.column, t.space_before) for t in tokens[:-1]] == [
        ("theorem", True, 0, True), ("t", False, 8, True), (":", False, 10, True),
        ("x", True, 2, True), ("=", False, 5, True), ("«y»", False, 7, True)]
    assert [t.escaped for t in tokens[:-1]] == [False] * 5 + [True]



def _texts(text: str) -> list[tuple[str, str]]:
    lexed = lex(text)
    assert lexed.problems == ()
    return [(t.kind, t.text) for t in lexed.tokens]


def test_comments_are_not_code_and_nest() -> None:
    assert _texts("a -- theorem sorry\nb /- x /- sorry -/ y -/ c") == [
        ("ident", "a"), ("ident", "b"), ("ident", "c")]


def test_lean_skips_the_character_after_a_comment_opener() -> None:
    # `/-/-` is not two openers: Lean skips the `/` after `/-`, so the first `-/` closes it.
    assert _texts("/-/- -/ code -- -/") == [("ident", "code")]
    # `/--` and `/-!` open doc comments, which Lean reads as tokens of a command.
    assert _texts("/-- doc -/ x /-! mod -/ y") == [("doc", "/--"), ("ident", "x"),
                                                  ("doc", "/-!"), ("ident", "y")]


def test_guillemet_names_are_normalised_and_dotted_names_are_one_token() -> None:
    assert _texts("«debug».skipKernelTC Matrix.trace h.1 x'") == [
        ("ident", "debug.skipKernelTC"), ("ident", "Matrix.trace"), ("ident", "h"),
        ("sym", "."), ("num", "1"), ("ident", "x'")]


def test_strings_characters_and_raw_strings() -> None:
    assert _texts('"a \\" -- b" \'x\' \'\\n\' r"\\" c r#"d"e"# f') == [
        ("str", '"a \\" -- b"'), ("char", "'x'"), ("char", "'\\n'"), ("str", 'r"\\"'),
        ("ident", "c"), ("str", 'r#"d"e"#'), ("ident", "f")]


def test_symbols_take_the_longest_known_spelling() -> None:
    assert [t for _, t in _texts("a <;> b := c @[simp] #eval ?_ ⟨x, y⟩")] == [
        "a", "<;>", "b", ":=", "c", "@[", "simp", "]", "#", "eval", "?", "_", "⟨", "x", ",",
        "y", "⟩"]


@pytest.mark.parametrize("ch", ["\u00a0", "\u3164", "\u2800", "\u034f", "\ufe0f", "\u200b",
                                "\u0430", "\uff12", "\u0662", "\t"])
def test_characters_lean_does_not_read_are_problems(ch: str) -> None:
    lexed = lex(f"by{ch}rfl")
    assert len(lexed.problems) == 1
    assert lexed.problems[0].start == 2


def test_only_invisible_characters_are_problems_inside_comments() -> None:
    assert lex("-- 是因数, ⇒, ½\nx").problems == ()
    assert lex("-- \u202e\nx").problems[0].start == 3
    assert lex("/- \u3164 -/").problems != ()


def test_unterminated_comments_and_strings_are_problems() -> None:
    assert "unterminated /- comment" in lex("x /- y").problems[0].why
    assert "unterminated string" in lex('x "y').problems[0].why


def test_line_starts_and_columns() -> None:
    tokens = lex("by\n  simp\n    <;> ring").tokens
    assert [(t.text, t.line_start, t.column) for t in tokens] == [
        ("by", True, 0), ("simp", True, 2), ("<;>", True, 4), ("ring", False, 8)]
    assert line_column("ab\ncd", 4) == (2, 2)


def test_character_classes() -> None:
    assert symbol_char("≤") and symbol_char("⟨") and symbol_char("ᶜ") and symbol_char("!")
    assert all(symbol_char(c) for c in "⬝♯⨆⦃⟶≫⇑↥⧸₊𝟙")
    assert not symbol_char("a") and not symbol_char("\u00a0") and not symbol_char("\u2800")
    assert hidden_char("\u200b") and hidden_char("\u3164") and not hidden_char("是")


@pytest.mark.parametrize(("text", "tokens"), [
    # `binNumberFn`, `octalNumberFn`, `hexNumberFn`: the digits of that radix only.
    ("0b1sorry", [("num", "0b1"), ("ident", "sorry")]),
    ("0B101", [("num", "0B101")]),
    ("0o78", [("num", "0o7"), ("num", "8")]),
    ("0xFFg", [("num", "0xFF"), ("ident", "g")]),
    ("0x1Fnative_decide", [("num", "0x1F"), ("ident", "native_decide")]),
    # A radix prefix with no digit is Lean's error: read here as `0` and a name.
    ("0bsorry", [("num", "0"), ("ident", "bsorry")]),
    # `decimalNumberFn`: a dot and its digits, then an exponent with an optional sign.
    ("1.5e10", [("num", "1.5e10")]),
    ("2e-3admit", [("num", "2e-3"), ("ident", "admit")]),
    ("2E+7", [("num", "2E+7")]),
    ("2.foo", [("num", "2."), ("ident", "foo")]),
    ("3exact", [("num", "3"), ("ident", "exact")]),
    # Separators only between digits (`_abc` is a name).
    ("1_000", [("num", "1_000")]),
    ("1_abc", [("num", "1"), ("ident", "_abc")]),
])
def test_numerals_end_where_leans_number_parser_ends_them(
        text: str, tokens: list[tuple[str, str]]) -> None:
    assert _texts(text) == tokens


_RADIXES = {"b": "01", "o": "01234567", "x": "0123456789abcdefABCDEF"}


@given(radix=st.sampled_from(sorted(_RADIXES)), data=st.data())
def test_a_word_glued_to_a_radix_numeral_is_always_read_as_a_name(
        radix: str, data: st.DataObject) -> None:
    digits = data.draw(st.text(_RADIXES[radix], min_size=1, max_size=6))
    first = data.draw(st.sampled_from([c for c in "ghnsuxyzGHNSXYZ" if c not in _RADIXES[radix]]))
    word = first + data.draw(st.text("abcdefsorytm_0123456789", max_size=8))
    assert _texts(f"0{radix}{digits}{word}") == [("num", f"0{radix}{digits}"), ("ident", word)]
