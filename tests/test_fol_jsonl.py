"""JSON Lines: lines numbered as in the file, blank ones skipped, bad JSON kept with its error."""

from __future__ import annotations

from pathlib import Path

from afcheck_fol.jsonl import json_lines

from afcheck.types import Location


def test_lines_are_numbered_as_in_the_file_and_blank_ones_skipped(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": "a"}\n\n   \n[1, 2]\nnull\n"text"\n', encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        read = list(json_lines(path, handle))
    assert [line.location for line in read] == [Location(str(path), n) for n in (1, 4, 5, 6)]
    assert [line.value for line in read] == [{"id": "a"}, [1, 2], None, "text"]
    assert all(line.error is None for line in read)


def test_a_line_that_is_not_json_carries_its_error() -> None:
    read = list(json_lines("f.jsonl", ['{"id": 1}', '{"id": ', "{'id': 2}"]))
    assert [line.value for line in read] == [{"id": 1}, None, None]
    assert read[0].error is None
    assert read[1].error is not None and read[1].error.msg == "Expecting value"
    assert read[2].error is not None and read[2].error.colno == 2
    assert str(read[2].location) == "f.jsonl:3"
