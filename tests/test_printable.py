"""What commands print from data cannot act on the terminal: :mod:`afcheck.printable`."""

from __future__ import annotations

import json

import pytest

from afcheck.printable import printable, printable_json


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\x1b[2Jb", "a\\x1b[2Jb"),
        ("\x1b]8;;http://x\x07link", "\\x1b]8;;http://x\\x07link"),
        ("csi\x9b31m", "csi\\x9b31m"),
        ("abc\u202edef", "abc\\u202edef"),
        ("del\x7f", "del\\x7f"),
        ("bad\udcff", "bad\\udcff"),
        ("tab\tand\nnewline, ℕ ≤ ∑ é", "tab\tand\nnewline, ℕ ≤ ∑ é"),
    ],
)
def test_printable_escapes_what_a_terminal_acts_on(text: str, shown: str) -> None:
    assert printable(text) == shown
    shown.encode("utf-8")  # printable output always encodes


def test_one_line_form_escapes_newlines() -> None:
    assert printable("a\nb", newlines=False) == "a\\nb"


def test_printable_json_round_trips_and_hides_c1_and_bidi() -> None:
    value = {"text": "x\x1b[1m\x9b\u202e\u2028y", "n": 1}
    out = printable_json(value)
    assert not any(c in out for c in "\x1b\x9b\u202e\u2028")
    assert json.loads(out) == value


def test_every_character_the_escapes_touch_is_one_isprintable_refuses() -> None:
    """The premise of the shortcut for printable texts, over every code point: a character
    that :func:`printable` changes, on its own, is never one ``str.isprintable`` accepts."""
    from afcheck.printable import _UNSAFE

    everything = "".join(map(chr, range(0x110000)))
    touched = [c for c in _UNSAFE.findall(everything) + ["\n"] if c.isprintable()]
    assert touched == []
    for c in ("\t", "\n", "\x1b", "\x85", "\u200f", "\u2028", "\ud800", "é", "ℕ", " "):
        assert printable(c) == _UNSAFE.sub(
            lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
            else f"\\u{ord(m.group()):04x}", c)


def test_one_line_joins_whitespace_and_cuts_at_the_limit_with_an_ellipsis() -> None:
    from afcheck.printable import one_line

    assert one_line("a\n  b\tc") == "a b c"
    assert one_line("x" * 10, 10) == "x" * 10
    assert one_line("x" * 11, 10) == "x" * 9 + "…"
    assert len(one_line("word " * 100)) == 300
