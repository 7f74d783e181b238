"""``afcheck prove`` on hostile input: one clear line and exit 2, never a traceback or a hang."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from afcheck_basic.prove import main

ESC = "\x1b"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def _refused(code: int, out: str, err: str, needle: str) -> None:
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("afcheck prove: ") and needle in err, err
    assert len(err) < 600


def theorem(body: str) -> str:
    return f"theorem t : {body} := by sorry"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (theorem("(" * 10_000 + "1" + ")" * 10_000 + " = 1"), "nested more than 100 levels"),
        (theorem("+".join(["1"] * 100_000) + " = 100000"), "nests more than 500 levels deep"),
        (theorem("¬" * 5_000 + "True"), "nested more than 100 levels"),
        (theorem("↑" * 5_000 + "x = 1"), "nested more than 100 levels"),
        (theorem("9" * 5_000 + " = 1"), "a numeral of 5000 digits is longer than the 4300"),
        (theorem("(1e999999999 : ℝ) = 1"), "is over 4000"),
        (theorem("² = 1"), "cannot read the statement"),
        ("²", "cannot read the statement"),
    ],
    ids=["parens", "sum", "negations", "coercions", "digits", "exponent", "square", "bare"],
)
@pytest.mark.heavy
def test_hostile_statements_are_one_line_exit_2(
    text: str, needle: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, text.encode())
    _refused(*_run(["-"], capsys), needle)


def test_a_statement_longer_than_a_file_name_is_read_as_lean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = theorem("+".join(["1"] * 300) + " = 300")
    assert len(text) > 255 and "\n" not in text
    code, out, err = _run([text], capsys)
    assert code == 0 and err == "" and "verdict:   proved" in out


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (bytes(range(256)) * 8, "is a binary file, not Lean text"),
        (theorem("(1 : ℕ) = 1").encode() + b" -- caf\xe9", "is not UTF-8 text (invalid byte"),
    ],
)
def test_unreadable_files_are_one_line(
    data: bytes, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.lean"
    path.write_bytes(data)
    _refused(*_run([str(path)], capsys), needle)


def test_a_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(*_run([str(tmp_path / "nope.lean")], capsys), "nope.lean: no such file")


def test_escape_sequences_from_the_input_are_not_printed_raw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run([theorem("(1 : ℕ) + 1 = 2") + f"\n-- {ESC}]0;owned\a"], capsys)
    assert code == 0 and ESC not in out + err
    _refused(*_run([f"theorem t{ESC}[2J : 1 = 1 := by sorry"], capsys), "\\x1b")


def test_json_output_escapes_what_a_terminal_would_act_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run([theorem("(1 : ℕ) + 1 = 2"), "--json"], capsys)
    assert code == 0 and json.loads(out)["verdict"] == "proved"


@pytest.mark.parametrize("term", ["(1000000 : ℕ)!", "Nat.choose 100000 50000"])
def test_huge_combinatorics_is_inconclusive_not_a_long_computation(
    term: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run([theorem(f"{term} = 0"), "--json"], capsys)
    record = json.loads(out)
    assert code == 0 and record["verdict"] == "inconclusive"
    assert "is over 1000, outside the fragment" in record["reason"]
