"""``afcheck compare`` for methods other than faithfulness, on real runs: the Tarski suite with
its reference formaliser against its hand-labelled candidates, the chains examples against a
doctored copy, and a mixed run of faithfulness and nl2fol."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from afcheck_report.compare import compare_runs
from afcheck_report.method_compare import compare_method, metric_pairs, run_metrics
from afcheck_report.runfile import RunFileError, load
from afcheck_report.stats import mcnemar_exact
from report_fixtures import ROOT, afcheck_run, write, write_replay

from afcheck.metrics import Count, Rate, Score


def afcheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("compare")


@pytest.fixture(scope="module")
def tarski(folder: Path) -> tuple[Path, Path]:
    replay = write_replay(folder / "replay.jsonl")
    base = afcheck_run(folder, "reference", "suites/tarski", "--limit", "30")
    new = afcheck_run(folder, "labelled", "suites/tarski", "--limit", "30",
                      "--fol-formaliser", "replay",
                      "--fol-formaliser-opt", f"path={replay}")
    return base, new


@pytest.fixture(scope="module")
def chains(folder: Path) -> Path:
    return afcheck_run(folder, "chains", "suites/chains-examples")


@pytest.mark.heavy
def test_nl2fol_items_pair_by_case_id(tarski: tuple[Path, Path]) -> None:
    base, new = load(tarski[0]), load(tarski[1])
    result = compare_method(base, new, "nl2fol")
    failed = [s["case_id"] for s in new.steps if s["status"] == "failed"]
    assert all(s["status"] == "passed" for s in base.steps)
    assert result.paired == 30 and result.decided == 30
    assert [c.case_id for c in result.newly_failed] == failed and result.fixed == ()
    assert result.test.p_value == mcnemar_exact(0, len(failed))
    change = next(c for c in result.newly_failed)
    step = next(s for s in new.steps if s["case_id"] == change.case_id)
    assert (change.base_outcome, change.new_outcome) == ("correct", step["decision"])
    metrics = {m.name: m for m in result.metrics}
    own = new.header["methods"]["nl2fol"]["details"]["overall"]
    assert metrics["accuracy"].base == 1.0 and metrics["accuracy"].new == own["accuracy"]
    assert metrics["accuracy"].difference == pytest.approx(own["accuracy"] - 1.0)
    assert metrics["accuracy"].new_interval is not None
    assert (metrics["accuracy"].new_interval.low, metrics["accuracy"].new_interval.high) == \
        tuple(own["accuracy_ci95"])
    assert metrics["correct"].count and not metrics["accuracy"].count


def test_nl2fol_command_exit_status_and_json(tarski: tuple[Path, Path]) -> None:
    base, new = map(str, tarski)
    worse = afcheck("compare", base, new, "--fail-on-regression")
    assert worse.returncode == 1, worse.stderr
    assert "[nl2fol]" in worse.stdout and "nl2fol: newly failed (" in worse.stdout
    assert "REGRESSION at alpha = 0.05 (Bonferroni over 1 test(s)): nl2fol: failed" in \
        worse.stdout
    better = afcheck("compare", new, base, "--fail-on-regression")
    assert better.returncode == 0 and "nl2fol: fixed (" in better.stdout
    data = json.loads(afcheck("compare", base, new, "--json").stdout)
    section = data["methods"]["nl2fol"]
    assert section["status"]["fixed"] == 0 and section["status"]["newly_failed"] > 0
    assert len(section["changes"]["newly_failed"]) == section["status"]["newly_failed"]
    assert section["metrics"]["accuracy"]["base"] == 1.0
    assert data["regressions"] == ["nl2fol: failed"]


def test_chains_against_a_doctored_run(chains: Path, tmp_path: Path) -> None:
    data = json.loads(chains.read_text("utf-8"))
    by_id = {s["id"]: s for s in data["steps"]}
    base = json.loads(json.dumps(data))
    base_by_id = {s["id"]: s for s in base["steps"]}
    by_id["t1-gold-walk"].update({"class": "T3", "status": "failed"})
    by_id["t2-stray-rule"].update({"class": None, "analysis": "analysis_failure",
                                   "status": "failed"})
    base_by_id["f1-stops-short"]["status"] = "failed"  # fixed in the new run
    by_id["t3-lucky-guess"].update({"class": "T4"})  # same status, another class
    by_id["t4-wrong-class"].update({"status": "skipped", "class": None,
                                    "analysis": "undecided"})
    old, new = write(tmp_path / "base.json", base), write(tmp_path / "new.json", data)
    result = compare_method(load(old), load(new), "chains")
    assert [(c.case_id.split("::")[1], c.new_outcome) for c in result.newly_failed] == \
        [("t1-gold-walk", "T3"), ("t2-stray-rule", "analysis_failure")]
    assert [c.case_id.split("::")[1] for c in result.fixed] == ["f1-stops-short"]
    assert [(c.case_id.split("::")[1], c.base_outcome, c.new_outcome, c.new_status)
            for c in result.other] == [("t3-lucky-guess", "T3", "T4", "passed"),
                                       ("t4-wrong-class", "T4", "undecided", "skipped")]
    assert result.decided == 6 and (result.test.new, result.test.fixed) == (2, 1)
    assert result.test.p_value == 1.0
    gated = afcheck("compare", str(old), str(new), "--fail-on-regression")
    assert gated.returncode == 0 and "no significant regression" in gated.stdout


def test_run_metrics_are_the_typed_metrics_the_run_wrote(chains: Path) -> None:
    metrics = run_metrics(load(chains), "chains")
    t1 = metrics["T1_rate"]
    assert isinstance(t1, Rate) and (t1.count, t1.total) == (2, 7)
    assert metrics["N"] == Count(7)
    assert metrics["step_label_macro_f1"] == Score(1.0)
    pairs = {m.name: m for m in metric_pairs(metrics, metrics)}
    assert pairs["N"].count and pairs["N"].base == 7
    assert not pairs["T1_rate"].count and pairs["T1_rate"].base_interval == t1.interval


@pytest.mark.heavy
def test_a_mixed_run_keeps_the_faithfulness_comparison(tarski: tuple[Path, Path],
                                                      folder: Path) -> None:
    replay = folder / "replay.jsonl"
    base = afcheck_run(folder, "mixed-base", "suites/examples", "suites/tarski",
                       "--limit", "30")
    new = afcheck_run(folder, "mixed-new", "suites/examples", "suites/tarski", "--limit", "30",
                      "--fol-formaliser", "replay",
                      "--fol-formaliser-opt", f"path={replay}")
    result = compare_runs(load(base), load(new))
    assert result.events is not None and result.events.paired > 0
    assert [m.method for m in result.methods] == ["nl2fol"]
    assert len(result.tests) == 5
    assert [t.event for t in result.regressions(0.05)] == ["nl2fol: failed"]
    data = json.loads(afcheck("compare", str(base), str(new), "--json").stdout)
    assert set(data["events"]) == {"any failure", "error induction", "silent correction",
                                   "AF failure"}
    assert data["paired"] == result.events.paired and "nl2fol" in data["methods"]
    assert data["regressions"] == ["nl2fol: failed"]


def test_runs_of_different_methods_are_refused(tarski: tuple[Path, Path],
                                               chains: Path) -> None:
    with pytest.raises(RunFileError, match="share no evaluation method"):
        compare_runs(load(tarski[0]), load(chains))
    done = afcheck("compare", str(tarski[0]), str(chains))
    assert done.returncode == 4 and len(done.stderr.strip().splitlines()) == 1


def test_an_older_file_without_case_ids_pairs_by_item_id(tarski: tuple[Path, Path],
                                                        tmp_path: Path) -> None:
    data = json.loads(tarski[0].read_text("utf-8"))
    for step in data["steps"]:
        del step["case_id"]
    old = write(tmp_path / "old.json", data)
    result = compare_method(load(old), load(tarski[1]), "nl2fol")
    assert result.paired == 30 and result.newly_failed
