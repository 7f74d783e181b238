"""afcheck.runtime.alarm: a block past its seconds is stopped, in the main thread only."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from afcheck.runtime.alarm import alarm


class Late(Exception):
    pass


def test_a_block_past_its_seconds_raises_and_the_previous_handler_is_back() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(Late):
        with alarm(0.05, Late):
            time.sleep(2)
    assert signal.getsignal(signal.SIGALRM) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_block_within_its_seconds_is_not_stopped_later() -> None:
    with alarm(0.2, Late):
        pass
    time.sleep(0.3)  # the timer was cleared when the block ended


@pytest.mark.parametrize("seconds", [None, 0, -1])
def test_no_seconds_is_no_bound(seconds: float | None) -> None:
    with alarm(seconds, Late):
        time.sleep(0.05)


def test_outside_the_main_thread_the_block_runs_unbounded() -> None:
    done: list[bool] = []

    def work() -> None:
        with alarm(0.01, Late):
            time.sleep(0.1)
        done.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert done == [True]
