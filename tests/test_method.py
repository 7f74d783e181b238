"""The records methods are given (:mod:`afcheck.method`): a suite's selection."""

from __future__ import annotations

from pathlib import Path

from afcheck.method import Choice, Selection
from afcheck.suites import SuiteSpec


def _selection(root: Path, seed: int) -> Selection:
    spec = SuiteSpec(name="s", kind="jsonl", root=root, settings={"seed": seed})
    return Selection(spec, lambda kind, name: Choice(name), lambda name: None)


def test_what_a_method_derives_is_made_once_per_suite(tmp_path: Path) -> None:
    made: list[object] = []

    def seed(selection: Selection) -> object:
        made.append(selection.setting("seed"))
        return selection.setting("seed")

    first, second = _selection(tmp_path, 1), _selection(tmp_path, 2)
    assert [first.derived("k", seed) for _ in range(3)] == [1, 1, 1]
    assert second.derived("k", seed) == 2
    assert made == [1, 2]
    # Another key is another value of the same suite.
    assert first.derived("other", lambda s: "x") == "x"
