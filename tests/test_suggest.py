"""Command-line mistakes: one ``afcheck: error:`` line with the nearest right spelling,
before any work."""

from __future__ import annotations

from pathlib import Path

import pytest

from afcheck import cli, suggest
from afcheck.errors import UsageError
from afcheck.gates import check_metrics, parse


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line a usage error prints (exit 4, no item run)."""
    assert cli.main(argv) == 4
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert " passed" not in captured.out and " failed" not in captured.out
    return lines[0]


def test_a_misspelt_suite_names_the_nearest_suite(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = _error(["exampels"], capsys)
    assert line.startswith("afcheck: error: exampels: no such file, folder, suite or command")
    assert "did you mean 'examples'?" in line and "afcheck list suites" in line
    # A test id's part after `::` is pytest's: the path before it is what is checked.
    assert "did you mean 'examples'?" in _error(["exampels::arith-001/1"], capsys)


def test_a_misspelt_path_names_the_nearest_entry_of_its_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "gsm8k").mkdir()
    line = _error([str(tmp_path / "gms8k")], capsys)
    assert line == (f"afcheck: error: {tmp_path / 'gms8k'}: no such file or folder; "
                    f"did you mean '{tmp_path / 'gsm8k'}'?")


def test_an_option_value_is_never_read_as_a_path(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    # `-k exampels` is a keyword expression and `--json r.json` a file to write, not paths.
    assert cli.main([str(tmp_path), "-k", "exampels", "--json", str(tmp_path / "r.json"),
                     "-q", "-p", "no:cacheprovider"]) == 5
    assert "no such" not in capsys.readouterr().err


def test_a_misspelt_option_names_the_nearest_option(capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(["examples", "--limt", "5"], capsys)
    assert line.startswith("afcheck: error: --limt: no such option; did you mean --limit?")
    assert "--afcheck-" not in line
    assert "did you mean --formaliser?" in _error(["examples", "--formaliser=x", "--formalser",
                                                   "literal"], capsys)
    # pytest's own options are suggested too.
    assert "did you mean --collect-only?" in _error(["examples", "--colect-only"], capsys)


@pytest.mark.parametrize(("argv", "expected"), [
    (["--limit", "-1"], "--limit: expects a whole number of 1 or more, not '-1'"),
    (["--limit", "0"], "--limit: expects a whole number of 1 or more, not '0'"),
    (["--limit=two"], "--limit: expects a whole number of 1 or more, not 'two'"),
    (["--chunk-size", "0"], "--chunk-size: expects a whole number of 1 or more, not '0'"),
    (["--failure-lines", "-2"], "--failure-lines: expects a whole number of 0 or more, not '-2'"),
])
def test_a_count_out_of_range_is_one_line_naming_the_option(
        capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    assert _error(["examples", *argv], capsys) == f"afcheck: error: {expected}"


def test_pytests_other_usage_errors_read_in_the_commands_spelling() -> None:
    from afcheck.plugins import get_plugins

    spelling = suggest.Spelling(["x", "--limit", "q"], cli.all_options(get_plugins()))
    error = spelling.explain("usage: pytest.main() [options]\npytest.main(): error: argument "
                             "--afcheck-limit: invalid int value: 'q'\n  rootdir: /x", set())
    assert str(error) == "--limit: invalid int value: 'q'"


def test_a_misspelt_gate_method_is_refused_before_any_work(
        capsys: pytest.CaptureFixture[str]) -> None:
    line = _error(["examples", "--gate", "nl2fo.accuracy>=0.5"], capsys)
    assert ("--gate nl2fo.accuracy>=0.5: no method 'nl2fo'; did you mean 'nl2fol'?" in line)
    gate = parse("nl2fo.accuracy>=0.5")
    with pytest.raises(UsageError, match="did you mean 'nl2fol'"):
        check_metrics([gate], {"faithfulness": {"UFLB": "max"}}, ["faithfulness", "nl2fol"])
    # A registered method with no item in this run: left to the end of the run, where the
    # gate fails (it can never hold).
    check_metrics([parse("nl2fol.accuracy>=0.5")], {"faithfulness": {"UFLB": "max"}},
                  ["faithfulness", "nl2fol"])


def test_a_misspelt_gate_metric_names_the_nearest_metric() -> None:
    metrics = {"faithfulness": {"UFLB": "max", "FPR": "max"}, "nl2fol": {"accuracy": "min"}}
    with pytest.raises(UsageError, match="no method of this run has a metric 'UFBL'; .*; did "
                                         "you mean 'UFLB'"):
        check_metrics([parse("UFBL<=0.3")], metrics)
    with pytest.raises(UsageError, match="did you mean 'accuracy'"):
        check_metrics([parse("nl2fol.acuracy>=0.5")], metrics, ["faithfulness", "nl2fol"])


def test_a_gate_threshold_out_of_range_names_the_gate_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UsageError) as caught:
        parse("UFLB<=1.5")
    assert str(caught.value) == ("--gate UFLB<=1.5: a gate's threshold must be a number "
                                 "from 0 to 1")
    from afcheck.gates import threshold

    with pytest.raises(UsageError, match=r"^--max-uflb 2: a gate's threshold"):
        threshold("2", "--max-uflb")


def test_nearest_is_none_when_nothing_is_close() -> None:
    assert suggest.nearest("zzzz", ["examples", "gsm8k"]) is None
    assert suggest.hint("gsm8", ["examples", "gsm8k"]) == "; did you mean 'gsm8k'?"
    assert suggest.hint("zzzz", ["examples"]) == ""
