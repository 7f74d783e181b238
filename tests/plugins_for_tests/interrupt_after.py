"""A pytest plugin that stands in for Ctrl-C pressed while items report: the fifth item's call
report raises KeyboardInterrupt, as SIGINT's default handler does in the main thread
(``-p interrupt_after``)."""

from __future__ import annotations

import pytest

_seen = 0


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    global _seen
    if report.when == "call":
        _seen += 1
        if _seen == 5:
            raise KeyboardInterrupt
