"""The Lean lexer's symbols: the longest one written at a position is the token."""

from __future__ import annotations

import pytest

from afcheck.lean.lexer import _SYMBOLS, ASCII, tokenize


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
