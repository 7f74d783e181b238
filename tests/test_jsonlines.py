"""JSON Lines: lines numbered as in the file, blank ones skipped, and a bad record (bad bytes,
bad JSON, too deep, too long) one problem at its own line while the next lines still read."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from afcheck.jsonlines import Limits, depth_problem, json_lines, read_json_lines
from afcheck.types import Location


def test_lines_are_numbered_as_in_the_file_and_blank_ones_skipped(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": "a"}\n\n   \n[1, 2]\nnull\n"text"\n', encoding="utf-8")
    read = list(read_json_lines(path))
    assert [line.location for line in read] == [Location(str(path), n) for n in (1, 4, 5, 6)]
    assert [line.value for line in read] == [{"id": "a"}, [1, 2], None, "text"]
    assert all(line.ok for line in read)


def test_a_line_that_is_not_json_says_where_and_why() -> None:
    read = list(json_lines("f.jsonl", ['{"id": 1}', '{"id": ', "{'id': 2}"]))
    assert [line.value for line in read] == [{"id": 1}, None, None]
    assert read[1].problem.startswith("not JSON (Expecting value at column 8)")
    assert "at column 2" in read[2].problem
    assert str(read[2].location) == "f.jsonl:3"


def test_a_bad_byte_loses_only_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "b\xff"}\n{"id": "c"}\n')
    read = list(read_json_lines(path))
    assert [line.value for line in read] == [{"id": "a"}, None, {"id": "c"}]
    assert read[1].problem == ("not UTF-8 (byte 0xff at column 10); save the file as UTF-8")
    assert read[1].location.line == 2


def test_a_value_nested_5000_deep_is_one_problem_not_a_recursion_error(
        tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    deep = "[" * 5000 + "]" * 5000
    path.write_text(f'{{"id": "a"}}\n{{"id": "b", "x": {deep}}}\n{{"id": "c"}}\n')
    read = list(read_json_lines(path))
    assert [line.value for line in read] == [{"id": "a"}, None, {"id": "c"}]
    assert read[1].problem.startswith("nested more than 256 levels deep (at column ")


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"s": "[" * 1000, "t": "\\\"[{" * 300})
    assert depth_problem(text, 10) == ""
    assert depth_problem("[[[]]]", 2).startswith("nested more than 2 levels deep (at column 3)")


def test_a_line_over_the_size_limit_is_skipped_in_bounded_pieces(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": "a"}\n' + '"' + "x" * 5000 + '"\n{"id": "c"}\n')
    read = list(read_json_lines(path, Limits(line_bytes=1000)))
    assert [line.value for line in read] == [{"id": "a"}, None, {"id": "c"}]
    assert [line.location.line for line in read] == [1, 2, 3]
    assert read[1].problem == "the record is longer than 1,000 bytes; split it, or drop it"


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=20))
def test_any_json_value_within_the_limits_reads_back(value: object) -> None:
    [line] = json_lines("f.jsonl", [json.dumps(value)])
    assert line.ok and line.value == value


def test_array_records_are_read_one_at_a_time_at_their_lines(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    deep = b"[" * 5000 + b"]" * 5000
    path.write_bytes(b'[\n {"id": "a", "s": "x, ]"},\n {"id": "b\xff"},\n {"id": "c", "x": '
                     + deep + b'},\n 7, "text",\n {"id": "d"}\n]\n')
    read = list(read_json_array(path))
    assert [line.value for line in read] == [{"id": "a", "s": "x, ]"}, None, None, 7, "text",
                                             {"id": "d"}]
    assert [(line.location.line, line.location.record) for line in read] == [
        (2, 1), (3, 2), (4, 3), (5, 4), (5, 5), (6, 6)]
    assert read[1].problem == "not UTF-8 (byte 0xff); save the file as UTF-8"
    assert read[2].problem.startswith("nested more than 256 levels deep")


def test_an_array_that_is_not_one_or_never_ends_is_one_problem(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    path.write_text('{"id": 1}')
    [line] = read_json_array(path)
    assert line.problem == "expected a JSON array of records"
    path.write_text('[{"id": 1}, {"id": ')
    first, second = read_json_array(path)
    assert first.value == {"id": 1}
    assert second.problem.startswith("a record that never ends")


def test_a_record_that_never_ends_is_one_bad_record_and_the_array_goes_on(
        tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    # Pretty-printed, as json.dump(indent=2) writes it; record 2 lost its closing brace.
    path.write_text('[\n  {\n    "id": "a"\n  },\n  {\n    "id": "b",\n    "x": [1, 2\n'
                    '  },\n  {\n    "id": "c"\n  },\n  {\n    "id": "d"\n  }\n]\n')
    read = list(read_json_array(path))
    assert [line.value for line in read] == [{"id": "a"}, None, {"id": "c"}, {"id": "d"}]
    assert [line.location.line for line in read] == [2, 5, 9, 12]
    assert read[1].problem.startswith("a record that never ends (an unclosed string or "
                                      "bracket)")
    assert read[1].problem.endswith("(reading goes on at line 9)")
    assert not any(line.fatal for line in read)


def test_an_unclosed_string_loses_only_its_record(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    path.write_text('[\n{"id": "a"},\n{"id": "b, "n": 1},\n{"id": "c"},\n{"id": "d"}\n]\n')
    read = list(read_json_array(path))
    good = [line.value for line in read if line.ok]
    assert good == [{"id": "a"}, {"id": "c"}, {"id": "d"}]
    assert [line.location.line for line in read if not line.ok] == [3]


def test_an_array_without_its_bracket_keeps_its_records(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    path.write_text('[\n{"id": "a"},\n{"id": "b"}\n')
    a, b, end = read_json_array(path)
    assert (a.value, b.value) == ({"id": "a"}, {"id": "b"})
    assert end.problem.startswith("the array is not closed with ']'") and not end.fatal
    assert end.location.line == 4


def test_junk_after_a_record_is_one_problem_and_the_next_record_reads(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "data.json"
    path.write_text('[\n{"id": "a"} oops\n{"id": "b"},\n{"id": "c"}\n]\n')
    read = list(read_json_array(path))
    assert [line.value for line in read if line.ok] == [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    [bad] = [line for line in read if not line.ok]
    assert bad.location.line == 2 and bad.problem.startswith("expected ',' or ']'")


def test_a_record_that_never_ends_costs_at_most_its_size_limit(tmp_path: Path) -> None:
    from afcheck.jsonlines import Limits, read_json_array

    path = tmp_path / "data.json"
    # One line: nowhere to go on from, so the rest of the file is that one record.
    path.write_text('[{"id": "a"}, {"id": "b", "x": [' + "1, " * 200_000 + "\n")
    a, b = read_json_array(path, Limits(line_bytes=1000))
    assert a.value == {"id": "a"}
    assert b.problem == ("a record that never ends (an unclosed string or bracket) or is "
                         "longer than 1,000 bytes; fix it, the rest of the file is this record")


def test_a_lone_bracket_line_in_json_lines_is_one_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('[\n{"id": "a"}\n{"id": "b"}\n')
    bad, a, b = read_json_lines(path)
    assert bad.location.line == 1 and bad.problem.startswith("not JSON")
    assert (a.value, b.value) == ({"id": "a"}, {"id": "b"})


def test_a_json_document_is_read_with_bounds_and_faults_at_their_line(tmp_path: Path) -> None:
    from afcheck.jsonlines import read_json_document

    path = tmp_path / "doc.json"
    path.write_text('{\n  "a": [1, 2],\n  "b": {"c": null}\n}\n')
    assert read_json_document(path).value == {"a": [1, 2], "b": {"c": None}}
    path.write_bytes(b'{\n  "a": 1,\n  "b": "\xff"\n}\n')
    bad = read_json_document(path)
    assert (bad.location.line, bad.problem) == (3, "not UTF-8 (byte 0xff); save the file as "
                                                   "UTF-8")
    path.write_text('{\n  "a": 1,\n  "b": \n}\n')
    cut = read_json_document(path)
    assert cut.location.line == 4 and cut.problem.startswith("not valid JSON (Expecting value")
    path.write_text('{\n"a":\n' + "[" * 600 + "]" * 600 + "}")
    deep = read_json_document(path, Limits(depth=100))
    assert (deep.location.line, deep.problem) == (3, "nested more than 100 levels deep")
    assert read_json_document(path, Limits(line_bytes=10)).problem.startswith(
        "the file is larger than 10 bytes")


def test_a_record_is_numbered_only_where_its_line_holds_another(tmp_path: Path) -> None:
    from afcheck.jsonlines import named_by_line, read_json_array

    path = tmp_path / "rows.json"
    path.write_text('[{"a": 1}, {"a": 2},\n {"a": 3}\n]\n', encoding="utf-8")
    named = named_by_line(list(read_json_array(path)))
    assert [(e.location.line, e.location.record) for e in named] == [(1, 1), (1, 2), (2, None)]
    assert [e.value for e in named] == [{"a": 1}, {"a": 2}, {"a": 3}]


_RECORD = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text("ab,]}{[\"\\\n é"),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("ab{[", max_size=3),
                                                                inner, max_size=3),
    max_leaves=8)
_DAMAGE = st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(
    [b"", b"{", b"}", b"[", b"]", b'"', b",", b"\n", b"\xff", b"x", b"\\"])), max_size=3)


@given(st.lists(_RECORD, max_size=6), st.sampled_from([None, 0, 2]), _DAMAGE,
       st.sampled_from([Limits(), Limits(line_bytes=40, depth=2)]))
@example([[[[1]]], {"a": "[[["}, "x" * 12], None, [], Limits(line_bytes=40, depth=2))
def test_the_c_decoder_reads_every_array_as_the_careful_reader_does(
        records: list[object], indent: int | None, damage: list[tuple[int, bytes]],
        limits: Limits) -> None:
    """Records decoded by the C decoder (the fast way) are exactly those the careful reader
    gives, with the same problems at the same lines, in damaged arrays too: a byte deleted
    (``b""``) or put in at a random place."""
    from afcheck.jsonlines import _array

    raw = json.dumps(records, indent=indent, ensure_ascii=False).encode()
    for at, byte in damage:
        at %= len(raw) + 1
        raw = raw[:at] + byte + raw[at + (not byte):]
    assert list(_array("a.json", raw, limits)) == list(_array("a.json", raw, limits, False))


def test_records_the_c_decoder_may_not_judge_are_read_the_careful_way(tmp_path: Path) -> None:
    """Past the bracket count of the depth limit (here in strings), past a quarter of the
    size limit in characters, or with a bad byte, a record is read the careful way: its
    value when it has one, else its problem, and the records after it by the C decoder."""
    from afcheck.jsonlines import read_json_array

    path = tmp_path / "rows.json"
    path.write_bytes(b'[{"s": "[[[[{{"},\n{"s": "' + b"x" * 20 + b'"},\n{"s": "\xff"},\n'
                     b'{"a": [[[[1]]]]},\n{"s": "ok"}]')
    read = list(read_json_array(path, Limits(line_bytes=64, depth=3)))
    assert [line.value for line in read] == [{"s": "[[[[{{"}, {"s": "x" * 20}, None, None,
                                             {"s": "ok"}]
    assert read[2].problem == "not UTF-8 (byte 0xff); save the file as UTF-8"
    assert read[3].problem.startswith("nested more than 3 levels deep")


def test_a_control_character_is_named_once_with_its_column(tmp_path: Path) -> None:
    # The decoder's own message ends in "at"; the line says where itself, once.
    path = tmp_path / "steps.jsonl"
    path.write_bytes(b'{"step": "a\tb"}\n')
    (line,) = list(read_json_lines(path))
    assert line.problem == ("not JSON (Invalid control character at column 12); write one "
                            "JSON value a line")
