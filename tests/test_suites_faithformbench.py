"""The ``faithformbench`` suite kind on bad input: a bad row is one load error and the other
rows still load; a file that cannot be read at all is one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError, SuiteError
from afcheck.plugins import get_plugins
from afcheck.suites import load_spec

GOOD = {"problem_id": "gsm8k-1", "node_id": "step_1", "step_content": "2 + 2 = 4",
        "is_perturbed": False, "type_of_perturbation": "unperturbed",
        "statement_type": "computation"}
LAST = {**GOOD, "node_id": "step_9"}


def suite(folder: Path, name: str, body: bytes) -> Path:
    (folder / name).write_bytes(body)
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "ffb"\nkind = "faithformbench"\ndata = "{name}"\n')
    return folder


def load(folder: Path) -> list[Step | LoadError]:
    spec = load_spec(folder).with_settings({})
    return list(get_plugins().create("suite_kind", spec.kind).load(spec))


def errors_around_good_rows(folder: Path) -> list[LoadError]:
    loaded = load(folder)
    assert [s.node_id for s in loaded if isinstance(s, Step)] == ["step_1", "step_9"]
    return [e for e in loaded if isinstance(e, LoadError)]


def jsonl(*rows: object) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n"
                    for r in (GOOD, *rows, LAST))


def test_json_array_rows_that_are_not_objects(tmp_path: Path) -> None:
    body = json.dumps([GOOD, 1, "row", None, [GOOD], LAST], indent=1).encode()
    errors = errors_around_good_rows(suite(tmp_path, "rows.json", body))
    assert [e.message for e in errors] == [
        f"a FaithformBench row is a JSON object, not {kind}; fix or remove the row"
        for kind in ("an integer", "a string", "null", "a list")]
    assert [e.location.record for e in errors] == [2, 3, 4, 5]


def test_jsonl_rows_that_are_not_objects(tmp_path: Path) -> None:
    errors = errors_around_good_rows(suite(tmp_path, "rows.jsonl", jsonl([1], "x")))
    assert [e.location.line for e in errors] == [2, 3]
    assert all("a line must be a JSON object" in e.message for e in errors)


def test_a_jsonl_line_that_is_not_utf8(tmp_path: Path) -> None:
    bad = b'{"problem_id": "gsm8k-1", "node_id": "step_2", "step_content": "caf\xe9"}'
    (error,) = errors_around_good_rows(suite(tmp_path, "rows.jsonl", jsonl(bad)))
    assert str(error).endswith("rows.jsonl:2: not UTF-8 (byte 0xe9 at column 68); save the "
                               "file as UTF-8")


@pytest.mark.parametrize(("name", "body", "line"), [
    ("rows.csv", b"problem_id,node_id,step_content\ngsm8k-1,step_1,2 + 2 = 4\np,n,caf\xe9\n", 3),
])
def test_a_csv_file_that_is_not_utf8(tmp_path: Path, name: str, body: bytes,
                                     line: int) -> None:
    with pytest.raises(SuiteError) as info:
        load(suite(tmp_path, name, body))
    assert str(info.value).endswith(f"{name}:{line}: not UTF-8 (byte 0xe9); save the file as "
                                    "UTF-8")


def test_a_bad_row_of_a_json_array_loses_only_itself(tmp_path: Path) -> None:
    """A row with a bad byte, a row that is not JSON and a row nested 5,000 deep are each one
    bad record at the line they start on; the rows around them load."""
    good = json.dumps(GOOD).encode()
    last = json.dumps(LAST).encode()
    body = (b"[\n" + good + b',\n{"problem_id": "caf\xe9"},\n{oops},\n'
            + b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"},\n" + last + b"\n]")
    errors = errors_around_good_rows(suite(tmp_path, "rows.json", body))
    assert [(e.location.line, e.location.record) for e in errors] == [(3, 2), (4, 3), (5, 4)]
    assert errors[0].message == "not UTF-8 (byte 0xe9); save the file as UTF-8"
    assert errors[1].message.startswith("not JSON (Expecting property name")
    assert errors[2].message.startswith("nested more than 256 levels deep")


def test_a_json_file_that_is_not_an_array(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match=r"rows.json:1: expected a JSON array of records"):
        load(suite(tmp_path, "rows.json", b'{"problem_id": "p"}'))


def test_csv_rows_longer_than_the_header(tmp_path: Path) -> None:
    header = b"problem_id,node_id,step_content,is_perturbed,type_of_perturbation\n"
    body = (header + b"gsm8k-1,step_1,2 + 2 = 4,False,unperturbed\n"
            b"gsm8k-1,step_2,2 + 2 = 4,False,unperturbed,surplus\n"
            b"gsm8k-1,step_9,2 + 2 = 4,False,unperturbed\n")
    errors = errors_around_good_rows(suite(tmp_path, "rows.csv", body))
    assert [str(e).rsplit("/", 1)[1] for e in errors] == [
        "rows.csv:3: the row has more fields than the header (6, not 5); quote fields that "
        "hold commas"]


@pytest.mark.parametrize(("row", "message"), [
    ({"step_content": "2 + 2 = 4 \ud800"}, "'step_content' holds a lone surrogate"),
    ({"dependencies_content": ["x\udc00"]}, "'dependencies_content' holds a lone surrogate"),
    ({"step_content": {"a": 1}}, "'step_content' must be a string, not an object"),
    ({"problem": 3}, "'problem' must be a string, not an integer"),
    ({"node_id": [2]}, "'node_id' must be a string or an integer, not a list"),
    ({"node_id": True}, "'node_id' must be a string or an integer, not a boolean"),
    ({"dependencies_content": [1, 2]},
     "'dependencies_content' must be a string or a list of strings"),
    ({"dependencies_content": {"a": "b"}},
     "'dependencies_content' must be a string or a list of strings"),
    ({"problem_id": "gsm8k-1\x1b[2J"},
     "'problem_id' holds control or bidirectional characters (gsm8k-1\\x1b[2J)"),
])
def test_rows_with_bad_fields(tmp_path: Path, row: dict[str, object], message: str) -> None:
    bad = {**GOOD, "node_id": "step_2", **row}
    (error,) = errors_around_good_rows(suite(tmp_path, "rows.jsonl", jsonl(bad)))
    assert error.location.line == 2
    assert error.message.startswith(message), error.message


def test_a_perturbed_row_with_a_bad_field_is_reported_too(tmp_path: Path) -> None:
    perturbed = {**GOOD, "step_content": ["2 + 2 = 5"], "is_perturbed": True,
                 "type_of_perturbation": "regex_perturbed"}
    (error,) = errors_around_good_rows(suite(tmp_path, "rows.jsonl", jsonl(perturbed)))
    assert error.message == "'step_content' must be a string, not a list"


def test_a_run_over_bad_rows_runs_the_good_ones(tmp_path: Path, pytester: pytest.Pytester) -> None:
    rows = [GOOD, {**GOOD, "is_perturbed": True, "type_of_perturbation": "regex_perturbed",
                   "step_content": "2 + 2 = 5"}]
    body = jsonl(*rows[1:], 7, b'{"step_content": "\xff"}')
    folder = pytester.path / "ffb"
    folder.mkdir()
    suite(folder, "rows.jsonl", body)
    result = pytester.runpytest("ffb", "--afcheck-perturber", "given", "--tb=line")
    result.assert_outcomes(passed=1, failed=2, skipped=1)  # step_9 has no perturbation
    text = result.stdout.str()
    assert "rows.jsonl:3: a line must be a JSON object" in text
    assert "rows.jsonl:4: not UTF-8 (byte 0xff at column 19)" in text
    assert "Traceback" not in text
