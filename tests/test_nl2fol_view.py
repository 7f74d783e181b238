"""The nl2fol report view (records read back, metrics and the report section), on a real run
of the Tarski suite whose candidates are its hand-labelled ones (every kind of decision
occurs)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from afcheck_nl2fol.records import from_json
from afcheck_nl2fol.view import ERROR_CLASSES, Nl2FolView, by_difficulty, group
from afcheck_nl2fol.view import decisions as records
from afcheck_report.embed import Strings
from afcheck_report.page import build
from afcheck_report.runfile import RunFile, load
from afcheck_report.view import BrowseTables, RunSteps
from afcheck_report.views import Views
from report_fixtures import ROOT, afcheck_run, write, write_replay

SECTION = Nl2FolView()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunFile:
    folder = tmp_path_factory.mktemp("nl2fol")
    replay = write_replay(folder / "replay.jsonl")
    return load(afcheck_run(folder, "replay", "suites/tarski", "--limit", "30",
                            "--fol-formaliser", "replay",
                            "--fol-formaliser-opt", f"path={replay}"))


@pytest.mark.heavy
def test_recomputed_metrics_are_the_runs_own(run: RunFile) -> None:
    recs = records(run.steps_of("nl2fol"))
    own = run.header["methods"]["nl2fol"]["details"]
    assert group(recs).to_json() == own["overall"]
    assert {k: v.to_json() for k, v in by_difficulty(recs).items()} == own["by_difficulty"]
    decisions = {r.status for r in recs}
    assert {"correct", "syntax-error", "not-equivalent"} <= decisions


def test_every_record_names_its_case_and_group(run: RunFile) -> None:
    step = run.steps_of("nl2fol")[0]
    assert step["case_id"] == f"suites/tarski::{step['id']}" and step["group"] == "tarski"
    assert from_json(step).item.dataset == "tarski"


def test_a_malformed_record_reads_as_nothing_known() -> None:
    record = from_json({"id": "x", "decision": "not-equivalent", "ted": "3",
                        "syntax_error": "oops", "equivalence": [1]})
    assert (record.item.id, record.ted, record.error_class, record.theory) == \
        ("x", None, None, None)
    assert group([record]).mean_ted is None and group([record]).semantic_errors == 1


def test_section_shows_accuracy_by_difficulty_and_the_syntax_classes(run: RunFile) -> None:
    recs = records(run.steps_of("nl2fol"))
    html = SECTION.render([RunSteps(run, 0, run.steps_of("nl2fol"))])
    tags = by_difficulty(recs)
    assert html.count('class="chart accuracy"') == 1
    values = [float(v) for v in re.findall(r'data-value="([\d.]+)"', html)]
    assert values == pytest.approx([g.accuracy for g in tags.values()]
                                   + [group(recs).accuracy], abs=1e-6)
    total = group(recs)
    assert f"<td class=num>{total.syntax_errors} of {total.n}</td>" in html
    for name, count in total.error_classes.items():
        if count:
            assert re.search(rf"<td>{re.escape(name)}</td><td></td><td class=num>{count} ", html)
    assert "mean TED" in html and f"{total.mean_ted:.2f}" in html


def test_browser_records_hold_the_evidence(run: RunFile) -> None:
    tables = BrowseTables(Strings(), Strings())
    steps = run.steps_of("nl2fol")
    wrong = next(s for s in steps if s["decision"] == "not-equivalent"
                 and s["equivalence"]["counter_model"])
    record = SECTION.browse(wrong, tables)
    assert SECTION.outcome_of(wrong) == "not-equivalent" and record["t"] == wrong["sentence"]
    assert record["cd"] == wrong["candidate"] and record["g"] == wrong["gold"]
    assert record["ng"] == wrong["nearest_gold"] and record["td"] == wrong["ted"]
    model = record["eq"]["cm"]
    assert model["h"] in ("left", "right") and model["b"]
    assert all(len(block) == 5 and 0 <= block[1] < 8 for block in model["b"])
    bad = next(s for s in steps if s["decision"] == "syntax-error")
    record = SECTION.browse(bad, tables)
    assert record["fx"]["syntax"] == bad["syntax_error"]["class"] in ERROR_CLASSES
    assert record["se"]["sp"] == bad["syntax_error"]["span"]


def test_data_in_names_stays_text(run: RunFile, tmp_path: Path) -> None:
    data = json.loads(Path(run.path).read_text("utf-8"))
    for step in data["steps"]:
        step["difficulty"] = "<b>hard</b>"
    data["steps"][0]["syntax_error"] = {"class": "<i>x</i>", "rule": "<u>", "span": [0, 1],
                                        "message": "m"}
    data["steps"][0]["decision"] = "syntax-error"
    page = build([load(write(tmp_path / "evil.json", data))])
    assert "<b>hard</b>" not in page and "&lt;b&gt;hard&lt;/b&gt;" in page
    assert "<i>x</i>" not in page and "<u>" not in page


def test_a_mixed_page_has_each_methods_section(run: RunFile) -> None:
    assert isinstance(Views()("nl2fol"), Nl2FolView)
    page = build([run])
    assert 'data-method="nl2fol"' in page and "<h2>NL→FOL (nl2fol)</h2>" in page
    assert 'name="fx-syntax"' in page and 'name="fx-difficulty"' in page


def test_the_report_command_on_an_nl2fol_run(run: RunFile, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    done = subprocess.run([sys.executable, "-m", "afcheck", "report", str(run.path), "--html",
                           str(page)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"wrote {page}: 1 run(s), 30 steps")
    assert "<h2>NL→FOL (nl2fol)</h2>" in page.read_text("utf-8")


def test_aligned_accuracy_beside_exact_and_the_renaming_in_the_browser(run: RunFile) -> None:
    # A FOLIO-style step: not equivalent as written, equivalent up to the story's renaming.
    step = {"id": "s1/p1", "decision": "not-equivalent", "aligned_decision": "correct",
            "sentence": "Robert Lewandowski is a striker.", "difficulty": "wiki",
            "candidate": "IsStriker(robertLewandowski)", "gold": ["Striker(robertLewandowski)"],
            "ted": 1, "nearest_gold": 0, "gold_index": 0,
            "aligned": {"decision": "correct", "gold_index": 0, "alignment": {
                "group": "s1", "predicates": [{"from": "IsStriker", "arity": 1,
                                               "to": "Striker"}], "constants": []}}}
    (record,) = records([step])
    counted = group([record])
    assert (counted.accuracy, counted.aligned_accuracy) == (0.0, 1.0)
    html = SECTION.render([RunSteps(run, 0, run.steps_of("nl2fol"))])
    assert "<th>exact accuracy</th><th>aligned accuracy</th>" in html
    assert "<b>Aligned</b> accuracy" in html
    shown = SECTION.browse(step, BrowseTables(Strings(), Strings()))
    assert shown["al"] == {"gr": "s1", "m": "IsStriker/1 → Striker", "o": "correct", "gi": 0}
    assert shown["n"] == "TED 1; aligned: correct"
    # A result file that says what accepted each renaming shows it.
    predicates = step["aligned"]["alignment"]["predicates"]  # type: ignore[index]
    predicates[0]["by"] = "the same name up to case; judge: Yes"
    judged = SECTION.browse(step, BrowseTables(Strings(), Strings()))
    assert judged["al"]["why"] == [
        "IsStriker/1 → Striker: the same name up to case; judge: Yes"]
