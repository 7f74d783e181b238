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
