"""The equivalence report view: metrics per criterion and the report section, counted from
records in the form the method writes them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from afcheck_equivalence.view import EquivalenceView, summary
from afcheck_report.embed import Strings
from afcheck_report.method_compare import compare_method, run_metrics
from afcheck_report.page import build
from afcheck_report.runfile import load
from afcheck_report.view import BrowseTables, RunSteps
from report_fixtures import ROOT, afcheck_run, write
from report_fixtures import equivalence_record as pair

from afcheck.metrics import Metrics

SECTION = EquivalenceView()

PLAN = [("equivalent", "Eq")] * 4 + [("equivalent", "Noneq"), ("equivalent", "Inconclusive"),
                                     ("inequivalent", "Eq")] + [("inequivalent", "Noneq")] * 3


def document(steps: list[dict[str, Any]]) -> dict[str, Any]:
    overall = {f"{k}:{name}": metric for k, v in summary(steps).items()
               for name, metric in v.typed().items()}
    return {"schema": "afcheck-results", "version": 1, "config": {},
            "methods": {"equivalence": {"metrics": Metrics(overall).to_json()}}, "steps": steps}


def test_metrics_per_criterion() -> None:
    steps = [pair(i, g, d) for i, (g, d) in enumerate(PLAN)]
    steps += [pair(i, g, "Eq", "syntactic") for i, (g, _) in enumerate(PLAN)]
    result = summary(steps)
    sae = result["sae"]
    assert (sae.coverage.count, sae.coverage.total) == (4, 6)
    assert (sae.false_positive_rate.count, sae.false_positive_rate.total) == (1, 4)
    assert (sae.noneq_rate.count, sae.noneq_rate.total) == (4, 10)
    assert sae.confusion == {"equivalent": {"Eq": 4, "Noneq": 1, "Inconclusive": 1},
                             "inequivalent": {"Eq": 1, "Noneq": 3, "Inconclusive": 0}}
    assert result["syntactic"].false_positive_rate.value == 1.0
    assert summary([pair(0, None, "Eq")])["sae"].coverage.to_json()["value"] is None


def test_a_record_of_an_unreadable_line_is_no_pair() -> None:
    # The run counts no unreadable suite line in its metrics; neither does the report.
    steps = [pair(i, g, d) for i, (g, d) in enumerate(PLAN)]
    bad = {"unreadable": {"file": "items.jsonl", "line": 3, "message": "not JSON"},
           "case_id": "suites/eq::items.jsonl:3", "group": "", "method": "equivalence",
           "status": "failed"}
    assert summary([*steps, bad]) == summary(steps)


def test_section_shows_rates_and_the_confusion_table(tmp_path: Path) -> None:
    steps = [pair(i, g, d) for i, (g, d) in enumerate(PLAN)]
    run = load(write(tmp_path / "r.json", document(steps)))
    html = SECTION.render([RunSteps(run, 0, run.steps_of("equivalence"))])
    values = [float(v) for v in re.findall(r'data-value="([\d.]+)"', html)]
    assert values == pytest.approx([4 / 6, 1 / 4, 4 / 10], abs=1e-6)
    diagonal = [int(x) for x in re.findall(r'<td class="num diag">(\d+)</td>', html)]
    assert diagonal == [4, 3]
    assert "<td class=num>1</td></tr>" in html  # one Inconclusive


def test_browser_record_holds_alignment_and_obligations() -> None:
    tables = BrowseTables(Strings(), Strings())
    record = SECTION.browse(pair(1, "equivalent", "Noneq"), tables)
    assert SECTION.outcome_of(pair(1, "equivalent", "Noneq")) == "Noneq"
    assert record["fx"] == {"criterion": "sae", "gold": "equivalent"}
    assert record["al"] == [["y", "x"]] and record["cp"] == "conclusion"
    assert [(o["ro"], o["v"], o.get("x")) for o in record["ob"]] == [
        ("premises", "proved", None), ("conclusion", "refuted", True)]
    assert record["cx"] == {"a": "1", "b": "2"}


def test_compare_reads_rates_with_null_values(tmp_path: Path) -> None:
    base_steps = [pair(i, g, d) for i, (g, d) in enumerate(PLAN)]
    new_steps = [pair(i, g, "Eq") for i, (g, _) in enumerate(PLAN)]
    base = load(write(tmp_path / "b.json", document(base_steps)))
    new = load(write(tmp_path / "n.json", document(new_steps)))
    metrics = run_metrics(base, "equivalence")
    assert metrics["sae:coverage"].value == pytest.approx(4 / 6)
    assert metrics["sae:coverage"].interval is not None
    result = compare_method(base, new, "equivalence")
    changed = {m.name: m for m in result.metrics}
    assert changed["sae:false_positive_rate"].difference == pytest.approx(1.0 - 0.25)
    # gold-inequivalent pairs called Eq now fail; gold-equivalent ones called Eq now pass
    assert [c.case_id for c in result.newly_failed] == [f"suites/eq::p{i}" for i in (7, 8, 9)]
    assert [c.case_id for c in result.fixed] == ["suites/eq::p4"]
    assert [(c.base_outcome, c.new_outcome) for c in result.other] == [("Inconclusive", "Eq")]


def test_the_page_draws_the_section_and_keeps_data_as_text(tmp_path: Path) -> None:
    steps = [pair(i, g, d) for i, (g, d) in enumerate(PLAN)]
    steps[0]["criterion"] = "<b>sae</b>"
    page = build([load(write(tmp_path / "r.json", document(steps)))])
    assert 'data-method="equivalence"' in page and 'name="fx-criterion"' in page
    assert "<b>sae</b>" not in page and "&lt;b&gt;sae&lt;/b&gt;" in page
    blob = re.search(r'<script type="application/json" id="afcheck-steps">(.*?)</script>',
                     page, re.S)
    assert blob is not None
    assert json.loads(blob.group(1))["steps"][0]["fx"]["criterion"] == "<b>sae</b>"


@pytest.fixture(scope="module")
def criteria(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Real runs of two equivalence suites, with the sae criterion and the syntactic one."""
    folder = tmp_path_factory.mktemp("equivalence")
    suites = ("suites/equivalence-rewrites", "suites/equivalence-perturbations", "--limit", "15")
    return (afcheck_run(folder, "sae", *suites),
            afcheck_run(folder, "syntactic", *suites, "--criterion", "syntactic"))


@pytest.mark.heavy
def test_recomputed_metrics_are_the_runs_own(criteria: tuple[Path, Path]) -> None:
    for path in criteria:
        run = load(path)
        own = run.header["methods"]["equivalence"]["details"]["overall"]
        mine = {k: v.to_json() for k, v in summary(run.steps_of("equivalence")).items()}
        assert mine == own
    sae = summary(load(criteria[0]).steps_of("equivalence"))["sae"]
    assert sae.coverage.total == 15 and sae.false_positive_rate.total == 15


def test_compare_two_criteria_on_the_same_pairs(criteria: tuple[Path, Path]) -> None:
    base, new = load(criteria[0]), load(criteria[1])
    result = compare_method(base, new, "equivalence")
    status = {s["case_id"]: s["status"] for s in new.steps}
    expected = [s["case_id"] for s in base.steps
                if s["status"] == "passed" and status[s["case_id"]] == "failed"]
    assert expected and [c.case_id for c in result.newly_failed] == expected
    assert result.groups == ("sae", "syntactic")
    coverage = next(m for m in result.metrics if m.name == "coverage")
    own = new.header["methods"]["equivalence"]["details"]["overall"]["syntactic"]
    assert coverage.new == own["coverage"]["value"] and coverage.base is not None
    done = subprocess.run([sys.executable, "-m", "afcheck", "compare", str(criteria[0]),
                           str(criteria[1]), "--fail-on-regression"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and "metrics of sae (base) against syntactic (new)" in \
        done.stdout
    page = build([base, new])
    assert page.count('class="chart equivalence"') == 2
