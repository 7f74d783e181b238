"""Reading result files: one clear line for each way a file can be unusable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_report.runfile import RunFileError, load, unique_labels
from report_fixtures import case, run_document, write

from afcheck.metrics import Count, Rate


def test_reads_what_the_json_reporter_writes(tmp_path: Path) -> None:
    run = load(write(tmp_path / "r.json", run_document([case("a/1", "P", "R")], "kimina")))
    assert run.label == "kimina"
    assert [s["case_id"] for s in run.steps] == ["suites/s::a/1"]
    assert run.methods == ["faithfulness"]
    assert run.header["schema"] == "afcheck-results"
    # The run's typed metrics, as it wrote them: a rate is a rate, not a number named so.
    uflb = run.metrics["faithfulness"].overall["UFLB"]
    assert isinstance(uflb, Rate) and (uflb.count, uflb.total) == (0, 2)
    assert run.metrics["faithfulness"].overall["N"] == Count(1)


def test_extra_keys_and_methods_pass_through(tmp_path: Path) -> None:
    data = run_document([case("a/1", "P", "R"), case("a/2", "P", "P")])
    data["methods"] = {"faithfulness": {"version": "1"}, "equivalence": {}}
    data["steps"][1]["method"] = "equivalence"
    data["steps"][1]["criterion"] = "sae"
    run = load(write(tmp_path / "r.json", data))
    assert run.methods == ["faithfulness", "equivalence"]
    assert [s["case_id"] for s in run.steps_of("equivalence")] == ["suites/s::a/2"]
    assert run.steps_of("equivalence")[0]["criterion"] == "sae"


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{\"schema\": ", ":1: not valid JSON"),
    ("[1, 2]", "expected a JSON object, found list"),
    ('{"schema": "other"}', "schema is 'other', expected 'afcheck-results'"),
    ('{"schema": "afcheck-results", "version": 9, "steps": []}', "version 9 is not one"),
    ('{"schema": "afcheck-results", "version": 1}', "'steps' is missing"),
    ('{"schema": "afcheck-results", "version": 1, "steps": [{"x": 1}]}',
     "step 0 has no 'case_id'"),
    ('{"schema": "afcheck-results", "version": 1, "steps": [{"case_id": "s::a"}]}',
     "step 0 names no 'method': the file was written by an older afcheck; re-run afcheck"),
    ('{"schema": "afcheck-results", "version": 1, "methods": {"m": {"metrics": '
     '{"overall": {"N": 3, "FNR": 0.5, "FNR_ci95": [0.1, 0.9]}}}}, "steps": []}',
     "methods.m.metrics are not typed metrics (rates, counts and scores, each with its "
     "'type'): the file was written by an older afcheck; re-run afcheck"),
    ('{"schema": "afcheck-results", "version": 1, "metrics": {"accuracy": 0.75, "N": 4}, '
     '"steps": []}', ": metrics are not typed metrics"),
], ids=["missing", "truncated", "list", "schema", "version", "no-steps", "no-case-id",
        "no-method", "untyped-metrics", "untyped-top-level-metrics"])
def test_unusable_files_give_one_line(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "r.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RunFileError) as error:
        load(path)
    text = str(error.value)
    assert text.startswith(str(path)) and message in text and "\n" not in text


def test_a_document_nested_too_deep_is_one_line_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"schema": "afcheck-results",\n"steps": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(RunFileError) as error:
        load(path)
    assert str(error.value).startswith(f"{path}:2: nested more than 512 levels deep; ")
    assert "\n" not in str(error.value)


def test_binary_file_and_directory(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RunFileError, match="not UTF-8"):
        load(tmp_path / "b.json")
    with pytest.raises(RunFileError, match="is a directory"):
        load(tmp_path)


def test_repeated_labels_are_told_apart(tmp_path: Path) -> None:
    data = run_document([case("a/1", "P", "R")], "literal")
    runs = [load(write(tmp_path / "one.json", data)), load(write(tmp_path / "two.json", data))]
    assert [r.label for r in unique_labels(runs)] == ["literal (one)", "literal (two)"]


def test_label_falls_back_to_the_file_stem(tmp_path: Path) -> None:
    data = run_document([case("a/1", "P", "R")])
    del data["config"]
    assert load(write(tmp_path / "nightly.json", data)).label == "nightly"
    assert json.loads((tmp_path / "nightly.json").read_text())["steps"]
