"""Case items honour what pytest evaluates in a test's setup: ``skip``, ``skipif`` and
``xfail`` marks (an item's own or its suite's) and any plugin's setup hook. The shorter
protocol has no setup, so such items go through pytest's own, and a run reports each item as
``--full-protocol`` does."""

from __future__ import annotations

import pytest
from conftest import write_suite
from test_runner import ARITH, ROWS

MARKS = """
import pytest

MARKS = {MARKS}


def pytest_collection_modifyitems(items):
    for item in items:
        mark = MARKS.get(item.name)
        if mark is not None:
            item.add_marker(mark)
"""


@pytest.fixture
def demo(arith: pytest.Pytester) -> pytest.Pytester:
    write_suite(arith.path, "demo", ROWS, ARITH)
    return arith


def outcomes(p: pytest.Pytester, *args: str) -> dict[str, tuple[str, str]]:
    """Each item's outcome (a skip in setup or the call's) and its xfail reason, if any."""
    reports = p.inline_run("demo", "--afcheck-plugin", "arith", "-p", "no:cacheprovider",
                           *args).getreports("pytest_runtest_logreport")
    found = {}
    for report in reports:
        if report.when == "call" or (report.when == "setup" and not report.passed):
            found[report.nodeid.rpartition("::")[2]] = (report.outcome,
                                                        getattr(report, "wasxfail", ""))
    return found


def plain(p: pytest.Pytester) -> dict[str, tuple[str, str]]:
    """The outcomes of the demo suite with nothing marked."""
    return outcomes(p)


def test_marks_added_by_a_conftest_are_evaluated(demo: pytest.Pytester) -> None:
    before = plain(demo)
    failed = sorted(name for name, (outcome, _) in before.items() if outcome == "failed")
    passed = sorted(name for name, (outcome, _) in before.items() if outcome == "passed")
    assert len(failed) >= 3 and passed, before
    marks = {
        failed[0]: 'pytest.mark.xfail(reason="known")',
        failed[1]: 'pytest.mark.skip(reason="not today")',
        passed[0]: 'pytest.mark.xfail(reason="strict", strict=True)',
        failed[2]: 'pytest.mark.skipif(True, reason="never")',
    }
    demo.makeconftest(MARKS.replace("{MARKS}", "{" + ", ".join(
        f"{name!r}: {mark}" for name, mark in marks.items()) + "}"))
    after = outcomes(demo)
    assert after[failed[0]] == ("skipped", "known")  # an expected failure
    assert after[failed[1]] == ("skipped", "")
    assert after[passed[0]][0] == "failed"  # [XPASS(strict)]
    assert after[failed[2]] == ("skipped", "")
    for name in set(before) - set(marks):
        assert after[name] == before[name], name
    assert after == outcomes(demo, "--afcheck-full-protocol")


def test_a_mark_on_the_suite_reaches_every_item(demo: pytest.Pytester) -> None:
    demo.makeconftest("""
import pytest

def pytest_collection_modifyitems(items):
    items[0].parent.add_marker(pytest.mark.skip(reason="the whole suite"))
""")
    after = outcomes(demo)
    assert set(after) == set(plain(demo))
    assert {outcome for outcome, _ in after.values()} == {"skipped"}


def test_the_first_item_skipped_still_runs_the_rest(demo: pytest.Pytester) -> None:
    """The run executes in the first item that runs, whichever that is."""
    before = plain(demo)
    first = next(iter(before))
    demo.makeconftest(MARKS.replace("{MARKS}", f"{{{first!r}: pytest.mark.skip}}"))
    after = outcomes(demo)
    assert after[first][0] == "skipped"
    assert {k: v for k, v in after.items() if k != first} == {
        k: v for k, v in before.items() if k != first}


def test_a_setup_hook_of_a_conftest_is_called(demo: pytest.Pytester) -> None:
    before = plain(demo)
    demo.makeconftest("""
import pytest

def pytest_runtest_setup(item):
    if "p2" in item.name:
        pytest.skip("p2 is off")
""")
    after = outcomes(demo)
    assert any("p2" in name for name in after)
    for name, outcome in after.items():
        assert outcome == (("skipped", "") if "p2" in name else before[name]), name


def test_collected_sorts_the_items_in_one_pass(demo: pytest.Pytester) -> None:
    """The cases, unreadable records and marked items the hooks read after collection, from
    a session with a marked item and an unreadable record, and items hashed by identity."""
    from afcheck.pytest_plugin import BadRecordItem, CaseItem, _collected

    with (demo.path / "demo" / "steps.jsonl").open("a", encoding="utf-8") as data:
        data.write("not json\n")
    first = f"{ROWS[0]['problem_id']}/{ROWS[0]['node_id']}"
    demo.makeconftest(MARKS.replace("{MARKS}", f"{{{first!r}: pytest.mark.skip(reason='x')}}"))
    items, _ = demo.inline_genitems("demo", "--afcheck-plugin", "arith")
    collected = _collected(items)
    assert collected.cases == tuple(i.case for i in items if isinstance(i, CaseItem))
    assert [bad.error for bad in collected.unreadable] == [
        i.error for i in items if isinstance(i, BadRecordItem)]
    assert len(collected.unreadable) == 1 and collected.only_ours
    assert [i.name for i in collected.marked] == [first]
    case = next(i for i in items if isinstance(i, CaseItem))
    # Equal only to itself, so a hash of its identity is consistent with equality.
    assert hash(case) == object.__hash__(case) and case != items[-1]
