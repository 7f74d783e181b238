"""The spool: raw outputs by key for the length of a run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from afcheck.runtime.spool import Spool


@pytest.fixture
def spool() -> Iterator[Spool]:
    made = Spool()
    yield made
    made.close()


def test_a_text_put_is_read_back_and_a_key_never_put_reads_as_none(spool: Spool) -> None:
    spool.put_many([("a#original", "Let me think. theorem t : 1 = 1 := by sorry")])
    assert spool.get("a#original") == "Let me think. theorem t : 1 = 1 := by sorry"
    assert spool.get("a#perturbed@regex/0") is None
    assert spool.get("") is None


def test_a_key_put_again_reads_as_its_last_text(spool: Spool) -> None:
    spool.put_many([("k", "first")])
    spool.put_many([("k", "second"), ("other", "")])
    assert spool.get("k") == "second"
    assert spool.get("other") == ""


def test_a_lone_surrogate_reads_back_unchanged(spool: Spool) -> None:
    spool.put_many([("k", "broken \ud83d reply")])
    assert spool.get("k") == "broken \ud83d reply"
