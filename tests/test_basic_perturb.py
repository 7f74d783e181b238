"""`afcheck perturb`: one step, any registered perturber, text or JSON output."""

from __future__ import annotations

import io
import json

import pytest
from afcheck_basic.perturb import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_records_the_edit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["Tue = 4 + 1.", "--perturber", "regex", "--seed", "0", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["rule"] in ("number", "operator")
    original = "Tue = 4 + 1."
    assert original[data["start"] : data["end"]] == data["old"]
    assert data["text"] == original[: data["start"]] + data["new"] + original[data["end"] :]
    assert data["text"] != original


def test_same_input_and_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [_run(["So 3 + 4 = 7 and 2 * 5 = 10.", "--seed", "7"], capsys) for _ in range(2)]
    assert runs[0] == runs[1]
    lines = runs[0][1].splitlines()
    assert len(lines) == 2 and lines[1].startswith("rule: ")


def test_seeds_vary_the_edit(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {_run(["3 + 4 = 7 + 10 - 2", "--seed", str(s), "--json"], capsys)[1]
               for s in range(10)}
    assert len(outputs) > 1


def test_perturber_options_are_passed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["3 + 4 = 7", "--perturber-opt", "prefer=operator", "--json"], capsys)
    assert code == 0 and json.loads(out)["rule"] == "operator"


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("It is larger.\n"))
    code, out, _ = _run(["-", "--json"], capsys)
    assert code == 0 and json.loads(out)["text"] == "It is not larger."


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["x = 1", "--perturber", "regx"], "Did you mean 'regex'"),
        (["x = 1", "--perturber-opt", "prefer"], "expects KEY=VALUE"),
        (["x = 1", "--perturber-opt", "colour=red"], "unknown option 'colour'"),
        (["x = 1", "--seed", "abc"], "invalid int value"),
        (["   "], "empty"),
        ([], "required"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err


DEEP = {
    "parentheses": "So " + "(" * 10_000 + "1+2" + ")" * 10_000 + " = 3.",
    "fractions": "So $" + "\\frac{" * 3_000 + "1}{2}" + "}{2}" * 3_000 + " = 1$.",
    "signs": "So " + "-" * 20_000 + "1 = 1.",
    "groups": "So $" + "\\text{" * 3_000 + "4" + "}" * 3_000 + " = 2$.",
}


@pytest.mark.parametrize("name", sorted(DEEP))
@pytest.mark.heavy
def test_deeply_nested_text_is_perturbed_not_a_recursion_error(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run([DEEP[name], "--json"], capsys)
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["rule"] == "number" and record["effective"] is None


def test_escape_sequences_in_the_step_are_shown_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    step = "So 3 + 4 = 7.\x1b]52;c;cm0gLXJm\x07 \x9b31m\u202e"
    code, out, _ = _run([step], capsys)
    assert code == 0
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert "\\x1b]52" in out and "\\u202e" in out
    code, out, _ = _run([step, "--json"], capsys)
    assert code == 0 and not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert json.loads(out)["original"] == step


def test_stdin_that_is_not_utf8_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"3 + 4 = 7 caf\xe9")))
    code, out, err = _run(["-"], capsys)
    assert code == 2 and out == "" and "not UTF-8" in err and len(err.splitlines()) == 1
