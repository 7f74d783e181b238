"""Progress lines: redrawn in place on a terminal, full lines every few seconds in a log."""

from __future__ import annotations

import pytest

from afcheck.runtime.progress import Progress, log_interval


def test_a_log_gets_full_lines_and_a_last_one() -> None:
    written: list[str] = []
    stage = Progress(True, written.append, interval=0.0).stage("formalise (m)", 30)
    stage.advance(10)
    stage.advance(10)
    stage.advance(10)
    stage.close()
    text = "".join(written)
    assert "\r" not in text
    lines = text.strip("\n").splitlines()
    assert lines[0].startswith("afcheck formalise (m): 10/30 [")
    assert "/s, ETA " in lines[0]
    assert lines[1].startswith("afcheck formalise (m): 20/30 [")
    assert lines[-1].startswith("afcheck formalise (m): 30/30 done in 0:00 [")


def test_a_short_stage_prints_nothing_in_a_log() -> None:
    written: list[str] = []
    stage = Progress(True, written.append, interval=60.0).stage("prove (smt)", 5)
    stage.advance(5)
    stage.close()
    assert written == []


def test_a_terminal_redraws_one_line() -> None:
    written: list[str] = []
    stage = Progress(True, written.append).stage("prove (smt)", 2)
    stage.advance(2)
    stage.close()
    assert written[0].startswith("\rafcheck prove (smt): 2/2 [")
    assert written[-1] == "\n"


def test_interval_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFCHECK_PROGRESS_INTERVAL", "2.5")
    assert log_interval() == 2.5
    monkeypatch.setenv("AFCHECK_PROGRESS_INTERVAL", "soon")
    assert log_interval() == 10.0
