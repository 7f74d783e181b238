"""Named suites: a name where a path would be runs the registered folder; a path on disk and
an option's value are left alone; ``afcheck list suites`` shows method, size and data."""

from __future__ import annotations

from pathlib import Path

import pytest

from afcheck.catalogue import by_name, named_suites, resolve
from afcheck.cli import main
from afcheck.plugins import Plugins

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = str(ROOT / "suites" / "examples")


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_name_in_a_paths_place_is_the_suites_folder(elsewhere: Path) -> None:
    plugins = Plugins()
    flags = frozenset({"--no-cache"})
    assert resolve(["examples"], plugins, flags) == [EXAMPLES]
    assert resolve(["-q", "examples::alg-001/1"], plugins, flags) == [
        "-q", EXAMPLES + "::alg-001/1"]
    assert resolve(["--no-cache", "examples"], plugins, flags) == ["--no-cache", EXAMPLES]
    assert resolve(["--formaliser=literal", "examples"], plugins, flags)[1] == EXAMPLES


def test_option_values_and_paths_on_disk_stay(elsewhere: Path) -> None:
    plugins = Plugins()
    assert resolve(["-k", "examples", "x"], plugins, frozenset()) == ["-k", "examples", "x"]
    assert resolve(["--formaliser", "examples"], plugins, frozenset()) == [
        "--formaliser", "examples"]
    (elsewhere / "examples").mkdir()
    assert resolve(["examples"], plugins, frozenset()) == ["examples"]
    assert resolve(["nosuchsuite"], plugins, frozenset()) == ["nosuchsuite"]


def test_listing_says_method_size_and_where_the_data_is() -> None:
    rows = {row.name: row for row in named_suites(Plugins())}
    examples = rows["examples"]
    assert (examples.method, examples.size) == ("faithfulness", "68 records")
    assert examples.data == "steps.jsonl (in the suite folder)"
    assert examples.folder == Path(EXAMPLES)
    lines = (ROOT / "suites" / "tarski" / "sentences.jsonl").read_text().splitlines()
    assert rows["tarski"].size == f"{sum(1 for line in lines if line.strip())} records"
    assert rows["tarski"].method == "nl2fol"
    assert rows["gsm8k"].size == "external"
    assert rows["gsm8k"].data.startswith("Qwen/ProcessBench gsm8k")
    assert rows["prontoqa"].method == "chains"


def test_afcheck_list_suites(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "suites"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("suites (afcheck NAME runs one):")
    row = next(line for line in out.splitlines() if line.startswith("examples "))
    assert row.split()[:4] == ["examples", "faithfulness", "68", "records"]


def test_afcheck_runs_a_suite_by_name(elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples", "-q", "--no-cache", "-p", "no:cacheprovider"]) == 1
    assert "53 failed, 15 passed" in capsys.readouterr().out


def test_suggested_commands_name_a_shipped_suite_by_its_name(elsewhere: Path) -> None:
    plugins = Plugins()
    assert by_name([EXAMPLES, EXAMPLES + "::alg-001/1", "mine"], plugins) == [
        "examples", "examples::alg-001/1", "mine"]
    (elsewhere / "examples").mkdir()  # the name would run this folder: keep the path
    assert by_name([EXAMPLES], plugins) == [EXAMPLES]


def test_a_data_file_is_counted_as_the_suite_reads_it(tmp_path: Path) -> None:
    from afcheck.catalogue import _records

    data = tmp_path / "rows.json"
    # A deep record and one that never ends are failing items of the suite: they count, and
    # neither stops the listing (json.loads would raise RecursionError on the first).
    data.write_text('[\n{"id": 1},\n{"x": ' + "[" * 5000 + "]" * 5000 + '},\n{"id": 3,\n'
                    '{"id": 4}\n]\n')
    assert _records(data) == 4
    data.write_text('{"id": 1}')
    assert _records(data) == 1
