"""A decided case item's call report, made without ``pytest_runtest_makereport``, is the one
pytest's hook makes: a pytest that changes its report fails here instead of drifting."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from conftest import write_suite
from test_runner import ARITH, ROWS

from afcheck.pytest_plugin import CaseItem, _CaseRepr, _decided_report, run_key

TIMES = ("duration", "start", "stop")


class BothReports:
    """After the loop, each case item's direct report beside the hook's own for the same
    decided result (``runtest`` through ``CallInfo`` and ``pytest_runtest_makereport``)."""

    def __init__(self) -> None:
        self.pairs: list[tuple[str, pytest.TestReport | None, pytest.TestReport]] = []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Iterator[None]:
        result = yield
        run = session.config.stash[run_key]
        for item in session.items:
            assert isinstance(item, CaseItem)
            direct = _decided_report(item, run)
            call = pytest.CallInfo.from_call(item.runtest, "call")
            hooked = item.ihook.pytest_runtest_makereport(item=item, call=call)
            self.pairs.append((item.nodeid, direct, hooked))
        return result


def fields(report: pytest.TestReport) -> dict[str, object]:
    """Every attribute of a report but its times, a long report by what it shows."""
    found = {k: v for k, v in vars(report).items() if k not in TIMES}
    longrepr = found["longrepr"]
    if isinstance(longrepr, _CaseRepr):
        # pytest's ReprFileLocation compares by identity: by its fields here.
        found["longrepr"] = (type(longrepr), str(longrepr), vars(longrepr.reprcrash))
    else:
        assert not hasattr(longrepr, "toterminal"), longrepr  # a case item's is a _CaseRepr
    return found


@pytest.fixture
def demo(arith: pytest.Pytester) -> pytest.Pytester:
    write_suite(arith.path, "demo", ROWS, ARITH)
    return arith


def both(p: pytest.Pytester, *args: str) -> list[tuple[str, pytest.TestReport | None,
                                                      pytest.TestReport]]:
    seen = BothReports()
    p.inline_run("demo", "--afcheck-plugin", "arith", *args, plugins=[seen])
    return seen.pairs


@pytest.mark.parametrize("tb", ["auto", "line", "long"])
def test_direct_report_equals_the_hooks_for_passed_failed_and_skipped(
        demo: pytest.Pytester, tb: str) -> None:
    pairs = both(demo, f"--tb={tb}")
    assert {hooked.outcome for _, _, hooked in pairs} == {"passed", "failed", "skipped"}
    for nodeid, direct, hooked in pairs:
        assert direct is not None, nodeid
        assert fields(direct) == fields(hooked), nodeid
        assert direct.duration >= 0 and direct.start <= direct.stop, nodeid
    failed = [direct for _, direct, _ in pairs if direct is not None and direct.failed]
    assert failed
    # The long report shows the method's details only where the traceback style asks for it.
    assert all(bool(d.longreprtext.strip()) == (tb != "line") for d in failed)


def test_an_expected_failure_is_left_to_the_hook(demo: pytest.Pytester) -> None:
    """An item the baseline expects to fail is an xfail, which pytest's skipping plugin makes
    of the exception ``runtest`` raises: no direct report for it."""
    baseline = demo.path / "baseline.json"
    baseline.write_text(json.dumps({"failures": ["demo::p1/2"]}) + "\n")
    pairs = both(demo, "--afcheck-baseline", str(baseline))
    expected = {nodeid: (direct, hooked) for nodeid, direct, hooked in pairs}
    direct, hooked = expected.pop("demo::p1/2")
    assert direct is None
    assert hooked.skipped and hasattr(hooked, "wasxfail")
    assert all(d is not None and fields(d) == fields(h) for d, h in expected.values())


def test_decided_items_skip_the_report_hook_unless_a_plugin_implements_it(
        demo: pytest.Pytester) -> None:
    """Only the first item (the run executes inside it, through pytest's protocol) goes
    through ``pytest_runtest_makereport``; a conftest's own implementation gets every item's
    call. (hypothesis's plugin, when installed, takes part in a test's call: left out here as
    the ``afcheck`` command leaves it out.)"""
    args = ("demo", "--afcheck-plugin", "arith", "-p", "no:hypothesispytest")
    fast = demo.inline_run(*args)
    first = "demo::p1/1"
    assert [(c.item.nodeid, c.call.when) for c in fast.getcalls("pytest_runtest_makereport")
            ] == [(first, "setup"), (first, "call"), (first, "teardown")]
    demo.makeconftest(
        "seen = []\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    seen.append(item.nodeid)\n")
    hooked = demo.inline_run(*args)
    calls = [(c.item.nodeid, c.call.when) for c in hooked.getcalls("pytest_runtest_makereport")]
    assert [nodeid for nodeid, when in calls if when == "call"] == [
        r.nodeid for r in fast.getreports("pytest_runtest_logreport") if r.when == "call"]
    assert len(calls) == 3 + 5
    assert ([(r.nodeid, r.outcome, r.longrepr is None)
             for r in fast.getreports("pytest_runtest_logreport")]
            == [(r.nodeid, r.outcome, r.longrepr is None)
                for r in hooked.getreports("pytest_runtest_logreport")])


def test_direct_keywords_are_the_items_marks_then_its_suites_in_pytests_order(
        demo: pytest.Pytester) -> None:
    demo.makeconftest(
        "def pytest_configure(config):\n"
        "    for name in ('slow', 'suite_wide'):\n"
        "        config.addinivalue_line('markers', name + ': a mark')\n"
        "def pytest_collection_modifyitems(items):\n"
        "    items[0].parent.add_marker('suite_wide')\n"
        "    for item in items:\n"
        "        item.add_marker('slow')\n"
        # The suite has it too: one key, in the item's place.
        "        item.add_marker('suite_wide')\n")
    pairs = both(demo)
    for nodeid, direct, hooked in pairs:
        assert direct is not None, nodeid
        assert list(direct.keywords) == list(hooked.keywords), nodeid
        assert {"slow", "suite_wide", "demo"} <= set(direct.keywords)
        assert fields(direct) == fields(hooked), nodeid
