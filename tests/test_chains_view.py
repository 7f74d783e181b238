"""The chains records, metrics and report section, on a real run of the chains examples (one
chain per class, gold step labels)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from afcheck_chains.metrics import macro_f1
from afcheck_chains.metrics import metrics as group
from afcheck_chains.records import ChainResult, from_json
from afcheck_chains.view import ChainsView
from afcheck_report.embed import Strings
from afcheck_report.page import build
from afcheck_report.runfile import RunFile, load
from afcheck_report.view import BrowseTables, RunSteps
from report_fixtures import afcheck_run, write

SECTION = ChainsView()


def records(steps: Sequence[Mapping[str, object]]) -> list[ChainResult]:
    return [from_json(step) for step in steps]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunFile:
    folder = tmp_path_factory.mktemp("chains")
    return load(afcheck_run(folder, "rules", "suites/chains-examples"))


def test_recomputed_metrics_are_the_runs_own(run: RunFile) -> None:
    recs = records(run.steps_of("chains"))
    assert group(recs).to_json() == run.header["methods"]["chains"]["details"]["overall"]
    assert sorted(r.chain_class or "" for r in recs) == ["F1", "F2", "T1", "T1", "T2", "T3",
                                                          "T4"]


def test_macro_f1_by_hand() -> None:
    pairs = [("True", "True"), ("True", "False"), ("False", "False"), ("Unknown", "Error")]
    # True: tp 1 fp 0 fn 1 → 2/3; False: tp 1 fp 1 fn 0 → 2/3; Unknown: tp 0 fn 1 → 0
    assert macro_f1(pairs) == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    assert macro_f1([]) is None


def test_an_older_record_without_first_attempt_fields() -> None:
    record = from_json({"id": "c", "analysis": "classified", "class": "T2"})
    g = group([record])
    assert g.execution_rate is None and g.classes["T2"].count == 1
    assert g.to_json()["execution_rate"] is None


def test_section_shows_the_class_table_and_the_step_labels(run: RunFile) -> None:
    html = SECTION.render([RunSteps(run, 0, run.steps_of("chains"))])
    g = group(records(run.steps_of("chains")))
    categories = re.findall(r'data-category="(\w+)"', html)
    assert categories == ["T1", "T2", "T3", "T4", "F1", "F2"]
    assert re.search(r'<td>all</td><td class=num>7</td><td class=num>2 <span class=ci>0\.286',
                     html)
    # the expected × got table has every chain on its diagonal
    diagonal = [int(x) for x in re.findall(r'<td class="num diag">(\d+)</td>', html)]
    assert sum(diagonal[:6]) == 7
    # the gold × predicted table holds every labelled step
    assert sum(diagonal[6:]) == g.step_pairs == 20
    assert "1.000</td><td class=num>20</td>" in html


def test_browser_record_holds_steps_labels_and_path(run: RunFile) -> None:
    tables = BrowseTables(Strings(), Strings())
    step = next(s for s in run.steps_of("chains") if s["id"] == "t4-wrong-class")
    record = SECTION.browse(step, tables)
    assert SECTION.outcome_of(step) == "T4" and record["fx"] == {"class": "T4", "expected": "T4"}
    assert record["t"] == step["conclusion"]["text"] and record["cl"] == "False"
    assert [tables.strings.items[i] for i in record["pm"]] == step["premises"]
    assert record["pa"] == step["path"] == [1]
    assert [(s["x"], s.get("l"), s.get("g"), s.get("p")) for s in record["sp"]] == [
        ("Ann is a tompus.", "False", "False", None),
        ("Tompuses are bright.", "True", "True", 1)]


def test_data_stays_text(run: RunFile, tmp_path: Path) -> None:
    data = json.loads(Path(run.path).read_text("utf-8"))
    data["steps"][0]["class"] = "<script>x</script>"
    data["steps"][0]["dataset"] = "<img src=x>"
    page = build([load(write(tmp_path / "evil.json", data))])
    assert "<script>x</script>" not in page and "<img src=x>" not in page
    assert "&lt;img src=x&gt;" in page


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> RunFile:
    folder = tmp_path_factory.mktemp("chains-recorded")
    return load(afcheck_run(folder, "recorded", "suites/chains-recorded",
                            "--fol-prover", "z3-fol"))


@pytest.mark.heavy
def test_recorded_run_metrics_read_back_from_the_file(recorded: RunFile) -> None:
    """FB, LE, the path-dependence counts and the no-answer / cut-off outcomes are counted from
    the result file exactly as the run counted them."""
    recs = records(recorded.steps_of("chains"))
    overall = recorded.header["methods"]["chains"]["details"]["overall"]
    assert group(recs).to_json() == overall
    assert overall["T2_valid_only_by_restating"]["count"] == 1
    assert overall["logical_equivalence"]["total"] == 6


def test_section_shows_translation_quality_and_path_dependence(recorded: RunFile) -> None:
    html = SECTION.render([RunSteps(recorded, 0, recorded.steps_of("chains"))])
    assert "Translation quality and path dependence" in html
    assert re.search(r"<td class=num>80\.3</td>", html)  # FOL-BLEU of the one gold chain
    assert "1/1 <span class=ci>" in html                 # T2 valid only by restating C
    assert 'data-category="no_answer"' in html or "no answer found" in html


def test_browser_record_says_what_the_diagnostics_found(recorded: RunFile) -> None:
    steps = {str(s["id"]): s for s in recorded.steps_of("chains")}
    tables = BrowseTables(Strings(), Strings())
    echo = SECTION.browse(steps["demo-a/prontoqa-echo"], tables)
    assert echo["rq"] is True
    repeats = SECTION.browse(steps["demo-a/prontoqa-repeats"], tables)
    assert repeats["rp"] == ["step 4 (Yumpuses are dumpuses.) repeats step 2"]
    smart = SECTION.browse(steps["demo-a/proofwriter-smart"], tables)
    assert "premise 5: FB 0.00, not equivalent" in smart["fq"]  # type: ignore[operator]
    assert "rq" not in SECTION.browse(steps["demo-a/prontoqa-walk"], tables)


def test_browser_record_keeps_what_the_model_wrote(recorded: RunFile) -> None:
    steps = {str(s["id"]): s for s in recorded.steps_of("chains")}
    tables = BrowseTables(Strings(), Strings())
    walk = SECTION.browse(steps["demo-a/prontoqa-walk"], tables)
    assert isinstance(walk["raw"], int) and isinstance(walk["fr"], int)
    assert "cut" not in walk   # the response ends with its answer: nothing was cut
