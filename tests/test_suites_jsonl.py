"""The ``jsonl`` suite kind on bad lines: each is one load error, the other lines still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_faithfulness.records import Step
from conftest import write_suite

from afcheck.errors import LoadError
from afcheck.plugins import get_plugins
from afcheck.suites import load_spec

GOOD = {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 2 + 3 = 6"}


def load(folder: Path) -> list[Step | LoadError]:
    spec = load_spec(folder).with_settings({})
    return list(get_plugins().create("suite_kind", spec.kind).load(spec))


def lines(tmp_path: Path, *bad: bytes) -> list[Step | LoadError]:
    """Load a suite of a good line, the ``bad`` lines, and another good line."""
    first = json.dumps(GOOD).encode()
    last = json.dumps({**GOOD, "node_id": "9"}).encode()
    folder = write_suite(tmp_path, "s", [])
    (folder / "steps.jsonl").write_bytes(b"\n".join([first, *bad, last]) + b"\n")
    loaded = load(folder)
    assert [item.node_id for item in loaded if isinstance(item, Step)] == ["1", "9"]
    return [item for item in loaded if isinstance(item, LoadError)]


def one_error(tmp_path: Path, row: dict[str, object] | bytes) -> LoadError:
    raw = row if isinstance(row, bytes) else json.dumps({**GOOD, "node_id": "2", **row}).encode()
    errors = lines(tmp_path, raw)
    assert len(errors) == 1
    assert errors[0].location.line == 2
    return errors[0]


@pytest.mark.parametrize("metadata", ["abc", [1, 2], 3])
def test_metadata_of_the_wrong_type(tmp_path: Path, metadata: object) -> None:
    error = one_error(tmp_path, {"metadata": metadata})
    assert "'metadata' must be an object" in error.message
    assert error.name == "p/2"


def test_a_line_that_is_not_utf8(tmp_path: Path) -> None:
    error = one_error(tmp_path, b'{"problem_id": "p", "node_id": "2", "step": "caf\xe9"}')
    assert error.message == "not UTF-8 (byte 0xe9 at column 49); save the file as UTF-8"


@pytest.mark.parametrize("row", [
    {"step": "So: 2 + 3 = 5 \ud800"},
    {"metadata": {"deep": ["x\udfff"]}},
    {"note": "\udc80"},
])
def test_a_lone_surrogate_anywhere(tmp_path: Path, row: dict[str, object]) -> None:
    error = one_error(tmp_path, row)
    field = next(iter(row))
    assert error.message.startswith(f"'{field}' holds a lone surrogate")
    assert "write the character itself" in error.message


def test_a_surrogate_pair_is_a_character(tmp_path: Path) -> None:
    folder = write_suite(tmp_path, "s", [{**GOOD, "step": "So: 2 + 3 = 5 \U0001f600"}])
    (step,) = load(folder)
    assert isinstance(step, Step) and step.text.endswith("\U0001f600")


def test_a_perturbation_that_is_not_a_string(tmp_path: Path) -> None:
    error = one_error(tmp_path, {"perturbed": 7})
    assert error.message == "'perturbed' must be a string, not an integer"


@pytest.mark.parametrize(("node_id", "shown"), [([1], "a list"), (True, "a boolean"),
                                                 (1.5, "a number"), ({}, "an object")])
def test_a_node_id_of_the_wrong_type_is_not_called_missing(tmp_path: Path, node_id: object,
                                                           shown: str) -> None:
    error = one_error(tmp_path, {"node_id": node_id})
    assert error.message == f"'node_id' must be a string or an integer, not {shown}"
    assert error.name == ""  # named by its line, not by a made-up id


def test_an_integer_node_id_is_an_id(tmp_path: Path) -> None:
    folder = write_suite(tmp_path, "s", [{**GOOD, "node_id": 3}])
    (step,) = load(folder)
    assert isinstance(step, Step) and step.case_name == "p/3"


def test_an_id_with_a_terminal_escape(tmp_path: Path) -> None:
    error = one_error(tmp_path, {"problem_id": "p\x1b[2J"})
    assert "'problem_id' holds control or bidirectional characters (p\\x1b[2J)" in (
        error.message)
    assert error.name == ""


@pytest.mark.parametrize("lean", [{"original": 1}, {"original": ["a"]}])
def test_reference_statements_must_be_strings(tmp_path: Path, lean: object) -> None:
    error = one_error(tmp_path, {"lean": lean})
    assert error.message == ("'lean' must be an object with keys 'original' and/or "
                             "'perturbed', each a string")


def test_the_run_reports_each_bad_line_and_runs_the_rest(arith: pytest.Pytester) -> None:
    good = [{"problem_id": "p", "node_id": str(i), "step": "So: 2 + 3 = 5",
             "perturbed": "So: 2 + 3 = 6"} for i in range(3)]
    bad = [
        json.dumps({**good[0], "node_id": "m", "metadata": "abc"}),
        json.dumps({**good[0], "node_id": "s", "step": "So: 2 + 3 = 5 \ud800"}),
        json.dumps({**good[0], "node_id": "t", "perturbed": 7}),
        json.dumps({**good[0], "node_id": [1]}),
    ]
    folder = write_suite(arith.path, "demo", [], {"perturber": "given", "formaliser": "arith",
                                                  "prover": "arith"})
    body = "\n".join([json.dumps(good[0]), *bad, json.dumps(good[1])]).encode()
    (folder / "steps.jsonl").write_bytes(body + b'\n{"step": "\xff"}\n' +
                                         json.dumps(good[2]).encode() + b"\n")
    out = arith.path / "r.json"
    junit = arith.path / "r.xml"
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line",
                             "--afcheck-json", str(out), "--afcheck-junitxml", str(junit))
    result.assert_outcomes(passed=3, failed=5)
    text = result.stdout.str()
    assert "Traceback" not in text
    assert "steps.jsonl:2: 'metadata' must be an object, not a string" in text
    assert "steps.jsonl:3: 'step' holds a lone surrogate" in text
    assert "steps.jsonl:4: 'perturbed' must be a string, not an integer" in text
    assert "steps.jsonl:5: 'node_id' must be a string or an integer, not a list" in text
    assert "steps.jsonl:7: not UTF-8 (byte 0xff at column 11)" in text
    assert json.loads(out.read_text())["details"]["overall"]["N"] == 3
    # Every item is in every result file: the bad records are failed test cases there too.
    assert junit.read_text().count("<testcase") == 8
    assert 'tests="8" failures="5"' in junit.read_text()
    assert len(json.loads(out.read_text())["steps"]) == 8
