"""The spool: raw outputs by key for the length of a run."""

from __future__ import annotations

from afcheck.runtime.spool import Spool


def test_a_text_put_is_read_back_and_a_key_never_put_reads_as_none() -> None:
    spool = Spool()
    try:
        spool.put_many([("a#original", "Let me think. theorem t : 1 = 1 := by sorry")])
        assert spool.get("a#original") == "Let me think. theorem t : 1 = 1 := by sorry"
        assert spool.get("a#perturbed@regex/0") is None
        assert spool.get("") is None
    finally:
        spool.close()


def test_a_key_put_again_reads_as_its_last_text() -> None:
    spool = Spool()
    try:
        spool.put_many([("k", "first")])
        spool.put_many([("k", "second"), ("other", "")])
        assert spool.get("k") == "second"
        assert spool.get("other") == ""
    finally:
        spool.close()


def test_a_lone_surrogate_reads_back_unchanged() -> None:
    spool = Spool()
    try:
        spool.put_many([("k", "broken \ud83d reply")])
        assert spool.get("k") == "broken \ud83d reply"
    finally:
        spool.close()
