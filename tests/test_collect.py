"""Collection (:mod:`afcheck.collect`): a suite folder becomes its method's cases, and each
record that cannot be read a failed item of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from run_fixtures import CLAIMS, Steps, claims_suite

from afcheck.errors import UsageError


def test_a_suite_becomes_its_method_s_cases_with_the_run_s_settings(tmp_path: Path) -> None:
    steps = Steps({"grader": "lenient"})
    cases, bad = steps.collect(claims_suite(tmp_path, defaults="limit = 3"))
    assert bad == []
    assert [(case.case_id, case.method, case.group) for case in cases] == [
        ("claims::c1", "verdicts", "easy"), ("claims::c2", "verdicts", "easy"),
        ("claims::c3", "verdicts", "hard")]
    assert steps.collector.settings["claims"] == {"method": "verdicts", "prover": "arith",
                                                  "grader": "lenient"}
    assert set(steps.collector.methods) == {"verdicts"}
    # One choice object for the whole suite: equal work is batched and cached once.
    assert len({id(case.spec.grader) for case in cases}) == 1  # type: ignore[attr-defined]


def test_unreadable_and_duplicate_records_are_failed_items_of_their_own(
        tmp_path: Path) -> None:
    rows = [CLAIMS[0], "{not json", CLAIMS[0], CLAIMS[1]]
    cases, bad = Steps().collect(claims_suite(tmp_path, rows=rows))
    assert [case.name for case in cases] == ["c1", "c2"]
    assert [record.case.name for record in bad] == ["line-2", "c1@line-3"]
    assert "duplicate id: 'c1' is also the record at" in bad[1].error.message


def test_two_suites_of_one_name_are_refused(tmp_path: Path) -> None:
    first = claims_suite(tmp_path / "a")
    second = tmp_path / "b" / "claims"
    shutil.copytree(first, second)
    steps = Steps()
    steps.collect(first)
    with pytest.raises(UsageError, match="the suite name 'claims' is also"):
        steps.collect(second)


def test_an_unknown_suite_kind_points_at_its_line(tmp_path: Path) -> None:
    folder = claims_suite(tmp_path)
    manifest = folder / "suite.toml"
    manifest.write_text(manifest.read_text().replace('kind = "claims"', 'kind = "claimz"'))
    with pytest.raises(UsageError) as caught:
        Steps().collect(folder)
    assert str(caught.value).startswith(f"{manifest}:3: ")
