"""The end of a run (:mod:`afcheck.finish`): the summary of the items reported, the gates, the
files and the exit status."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from run_fixtures import Steps, claims_suite

from afcheck import gates as gating
from afcheck.decided import NOTHING_DECIDED_EXIT
from afcheck.execution import Results
from afcheck.finish import exit_status, finish, update_baseline, write_reports
from afcheck.method import ItemResult
from afcheck.summary import RunSummary
from afcheck.types import Status


def _finished(tmp_path: Path, *gates: str) -> tuple[Steps, RunSummary, list[str]]:
    steps = Steps({"gate": list(gates)})
    folder = claims_suite(tmp_path, rows=[
        {"id": "c1", "claim": "2 + 3 = 5", "expected": "proved"},
        "{not json",
        {"id": "c3", "claim": "2 * 3 = 7", "expected": "proved"}])
    planned = steps.plan(folder)
    results = steps.execute(planned)
    (bad,) = planned.unreadable
    reported = ["claims::c3", bad.case.case_id]  # -x stopped the run after the second
    summary = finish(planned, results, reported, bad={bad.case.case_id: bad.result()},
                     unreadable=1, rootdir=str(tmp_path))
    return steps, summary, reported


def test_only_the_reported_items_are_summarised_in_their_order(tmp_path: Path) -> None:
    _, summary, reported = _finished(tmp_path)
    assert [item.case.case_id for item in summary.items] == reported
    # The unreadable record is a failed item of the summary, not of the method's metrics.
    assert summary.unreadable == 1
    assert summary.methods["verdicts"].metrics().value("accuracy") == 0.0
    assert summary.methods["verdicts"].total == 1  # type: ignore[attr-defined]
    assert summary.candidates["verdicts"].fixed == 2


def test_gates_fail_on_the_metrics_and_on_unreadable_records(tmp_path: Path) -> None:
    _, summary, _ = _finished(tmp_path, "accuracy>=0.5")
    assert summary.gate_failures[0].startswith("accuracy")
    assert "1 record(s) of the suites could not be read" in summary.gate_failures[1]
    assert exit_status(summary, True, 1, True) == (1, None)
    assert exit_status(summary, False, 1, True) == (None, None)


def test_a_gated_run_passes_when_its_gates_hold_whatever_pytest_said(tmp_path: Path) -> None:
    steps = Steps({"gate": ["accuracy>=0.5"]})
    planned = steps.plan(claims_suite(tmp_path))
    results = steps.execute(planned)
    summary = finish(planned, results, list(results.items))
    assert summary.gate_failures == () and summary.gates_held
    assert exit_status(summary, True, 1, True) == (0, None)
    assert exit_status(summary, True, 1, False) == (1, None)  # a file was not written
    assert exit_status(summary, False, 0, False) == (1, None)


def test_a_run_that_decided_nothing_never_exits_0(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    results = steps.execute(planned)
    skipped = Results({case_id: dataclasses.replace(item, status=Status.SKIPPED)
                       for case_id, item in results.items.items()})
    summary = finish(planned, skipped, list(skipped.items))
    status, line = exit_status(summary, False, 0, True)
    assert status == NOTHING_DECIDED_EXIT and line is not None


class _Broken:
    name = "broken"

    def report(self, summary: RunSummary, destination: str) -> None:
        raise RuntimeError("a bug")


class _Csv:
    name = "csv"

    def report(self, summary: RunSummary, destination: str) -> None:
        Path(destination).write_text(f"{len(summary.items)}\n", encoding="utf-8")


def test_a_reporter_that_fails_loses_no_other_file(tmp_path: Path) -> None:
    _, summary, _ = _finished(tmp_path)
    written = write_reports(summary, [(_Broken(), str(tmp_path / "a")),
                                      (_Csv(), str(tmp_path / "b.csv"))])
    assert not written.ok
    assert written.messages == (
        f"could not write broken results to {tmp_path / 'a'}: the reporter failed: "
        "RuntimeError: a bug", f"wrote csv results to {tmp_path / 'b.csv'}")
    assert (tmp_path / "b.csv").read_text(encoding="utf-8") == "2\n"


def test_the_baseline_is_written_only_when_asked_and_to_a_file(tmp_path: Path) -> None:
    _, summary, _ = _finished(tmp_path)
    items: list[ItemResult[object]] = list(summary.items)
    assert update_baseline(str(tmp_path / "b.json"), False, items).messages == ()
    assert update_baseline(None, True, items).messages == (
        "--update-baseline needs --baseline FILE; nothing written",)
    done = update_baseline(str(tmp_path / "b.json"), True, items)
    assert done.ok and done.messages == (f"wrote baseline {tmp_path / 'b.json'} "
                                         "(2 failing cases)",)
    assert len(gating.load_baseline(tmp_path / "b.json")) == 2
