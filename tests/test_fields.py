"""Reading a record's fields back (:mod:`afcheck.fields`): typed or neutral, never raising."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from afcheck import fields

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), json_values))
def test_every_reader_takes_any_json_without_raising(data: dict[str, object]) -> None:
    data = json.loads(json.dumps(data))
    assert isinstance(fields.text(data, "a", "b"), str)
    assert fields.maybe_text(data, "a") is None or isinstance(data["a"], str)
    for value in data.values():
        assert fields.whole(value) is None or type(fields.whole(value)) is int
        assert all(type(i) is int for i in fields.wholes(value))
        assert isinstance(fields.number(value), float)
        assert fields.flag(value) in (True, False, None)
        assert isinstance(fields.listed(value), list)


def test_the_first_non_empty_text_wins() -> None:
    record = {"class": "", "analysis": "no translation", "status": "failed"}
    assert fields.text(record, "class", "analysis", "status") == "no translation"
    assert fields.text({"class": 3, "status": "passed"}, "class", "status") == "passed"
    assert fields.text({}, "class") == ""


def test_a_boolean_is_no_number() -> None:
    assert fields.whole(True) is None and fields.number(True) == 0.0
    assert fields.wholes([1, True, "2", 3]) == (1, 3)
    assert fields.whole(7) == 7 and fields.number(2) == 2.0 and fields.number(0.5) == 0.5


def test_a_present_but_empty_text_is_kept_where_it_may_be_empty() -> None:
    assert fields.maybe_text({"fol": ""}, "fol") == ""
    assert fields.maybe_text({"fol": None}, "fol") is None
