"""``afcheck compare``: pairing, metric differences, changed cases, McNemar, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from afcheck_faithfulness.metrics import compute as metrics
from afcheck_faithfulness.records import from_json
from afcheck_report.compare import compare
from afcheck_report.runfile import RunFileError, load
from report_fixtures import case, run_document, write

ROOT = Path(__file__).resolve().parent.parent


def afcheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    base = [case(f"p/{i}", "P", "R") for i in range(30)]
    base += [case("q/1", "R", "R"), case("q/2", None, None), case("q/3", "P", "P"),
             case("gone/1", "P", "R")]
    new = [case(f"p/{i}", "P", "P") if i < 12 else case(f"p/{i}", "P", "R") for i in range(30)]
    new += [case("q/1", "P", "R"), case("q/2", "P", "R"), case("q/3", "P", "P"),
            case("added/1", "P", "R")]
    return (write(tmp_path / "base.json", run_document(base, "old")),
            write(tmp_path / "new.json", run_document(new, "new")))


def test_pairs_cases_by_id_and_groups_the_changes(pair: tuple[Path, Path]) -> None:
    result = compare(load(pair[0]), load(pair[1]), "faithfulness")
    assert result.paired == 33
    assert result.only_base == ("suites/s::gone/1",) and result.only_new == ("suites/s::added/1",)
    groups = {name: [c.case_id for c in cases] for name, cases in result.changes.items()}
    assert groups["new silent correction"] == [f"suites/s::p/{i}" for i in range(12)]
    assert groups["fixed error induction"] == ["suites/s::q/1"]
    assert groups["fixed AF failure"] == ["suites/s::q/2"]
    assert groups["new error induction"] == [] and groups["other outcome change"] == []
    [change] = result.changes["fixed AF failure"]
    assert (change.base_outcome, change.new_outcome) == ("inconclusive", "faithful")


def test_metric_values_differences_and_mcnemar(pair: tuple[Path, Path]) -> None:
    result = compare(load(pair[0]), load(pair[1]), "faithfulness")
    fpr = next(m for m in result.metrics if m.name == "FPR")
    assert fpr.base == pytest.approx(1 / 33) and fpr.new == pytest.approx(13 / 33)
    assert fpr.interval.low < fpr.difference < fpr.interval.high
    assert fpr.interval.low > 0  # twelve new silent corrections out of 33: clearly worse
    tests = {t.event: t for t in result.tests}
    assert (tests["silent correction"].new, tests["silent correction"].fixed) == (12, 0)
    assert tests["silent correction"].p_value == pytest.approx(2 * 0.5 ** 12)
    assert (tests["any failure"].new, tests["any failure"].fixed) == (12, 2)
    # any failure: 12 new vs 2 fixed, p = 2·(1 + 14 + 91)/2¹⁴ ≈ .0129, not below .05/4
    assert tests["any failure"].p_value == pytest.approx(2 * 106 / 2 ** 14)
    assert [t.event for t in result.regressions(0.05)] == ["silent correction"]
    assert [t.event for t in result.regressions(0.2)] == ["any failure", "silent correction"]


def test_recomputed_metrics_match_the_runs_own(pair: tuple[Path, Path]) -> None:
    run = load(pair[0])
    assert metrics(map(from_json, run.steps)).to_json() == run.header["details"]["overall"]


def test_no_change_is_no_regression(tmp_path: Path) -> None:
    cases = [case(f"p/{i}", "P", "P" if i % 3 else "R") for i in range(40)]
    a = write(tmp_path / "a.json", run_document(cases))
    result = compare(load(a), load(a), "faithfulness")
    assert result.regressions(0.05) == []
    assert all(m.difference == 0 and m.interval.low < 0 < m.interval.high
               for m in result.metrics if 0 < m.base < 1 and m.interval is not None)


def test_unrelated_files_are_refused(tmp_path: Path) -> None:
    a = write(tmp_path / "a.json", run_document([case("p/1", "P", "R")]))
    b = write(tmp_path / "b.json", run_document([case("z/9", "P", "R")]))
    with pytest.raises(RunFileError, match="share no case id"):
        compare(load(a), load(b), "faithfulness")


@pytest.mark.heavy
def test_command_exit_status_and_json(pair: tuple[Path, Path]) -> None:
    plain = afcheck("compare", str(pair[0]), str(pair[1]))
    assert plain.returncode == 0, plain.stderr
    assert "new silent correction (12):" in plain.stdout
    assert "REGRESSION at alpha = 0.05" in plain.stdout
    gated = afcheck("compare", str(pair[0]), str(pair[1]), "--fail-on-regression")
    assert gated.returncode == 1
    strict = afcheck("compare", str(pair[0]), str(pair[1]), "--fail-on-regression",
                     "--alpha", "1e-6")
    assert strict.returncode == 0  # p = 2·2⁻¹² is not below 1e-6 / 4
    improved = afcheck("compare", str(pair[1]), str(pair[0]), "--fail-on-regression")
    assert improved.returncode == 0
    data = json.loads(afcheck("compare", str(pair[0]), str(pair[1]), "--json").stdout)
    assert data["events"]["silent correction"] == {"fixed": 0, "new": 12,
                                                   "p_value": pytest.approx(2 * 0.5 ** 12)}
    assert len(data["changes"]["new silent correction"]) == 12
    assert data["regressions"] == ["silent correction"]


def test_command_bad_input_is_one_line(tmp_path: Path, pair: tuple[Path, Path]) -> None:
    missing = afcheck("compare", str(tmp_path / "nope.json"), str(pair[1]))
    assert missing.returncode == 4
    assert missing.stderr.strip() == f"afcheck: error: {tmp_path / 'nope.json'}: no such file"
    (tmp_path / "cut.json").write_text(pair[0].read_text()[:200])
    cut = afcheck("compare", str(tmp_path / "cut.json"), str(pair[1]))
    assert cut.returncode == 4 and "not valid JSON" in cut.stderr
    assert len(cut.stderr.strip().splitlines()) == 1


def test_a_case_twice_in_one_file_is_refused(tmp_path: Path) -> None:
    data = run_document([case("p/1", "P", "R"), case("p/2", "P", "R")])
    data["steps"][1]["case_id"] = data["steps"][0]["case_id"]
    doubled = write(tmp_path / "d.json", data)
    with pytest.raises(RunFileError, match="case 'suites/s::p/1' appears twice"):
        compare(load(doubled), load(doubled), "faithfulness")


def test_fi_is_compared_by_value_from_tpr_and_fpr(pair: tuple[Path, Path]) -> None:
    """FI is no proportion of units: its row is the index of each run's paired TPR and FPR,
    with no interval."""
    from afcheck_faithfulness.metrics import faithfulness_index

    result = compare(load(pair[0]), load(pair[1]), "faithfulness")
    rows = {m.name: m for m in result.metrics}
    fi = rows["FI"]
    assert fi.interval is None
    assert fi.base == pytest.approx(faithfulness_index(rows["TPR"].base, rows["FPR"].base))
    assert fi.new == pytest.approx(faithfulness_index(rows["TPR"].new, rows["FPR"].new))
    assert fi.new != fi.base
    text = afcheck("compare", str(pair[0]), str(pair[1])).stdout
    (row,) = [line for line in text.splitlines() if line.startswith("FI ")]
    assert row.split()[1:4] == [f"{fi.base:.3f}", f"{fi.new:.3f}", f"{fi.difference:+.3f}"]
    assert row.endswith("(not a proportion: no interval)")


def test_markdown_for_a_pull_request_comment(pair: tuple[Path, Path]) -> None:
    done = afcheck("compare", str(pair[0]), str(pair[1]), "--markdown", "--show", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "### afcheck compare: old → new"
    assert "| metric | base | new | new − base | 95% interval |" in lines
    assert any(line.startswith("| FI | ") for line in lines)
    assert "| failure event | new | fixed | p (McNemar) |" in lines
    assert "**new silent correction** (12):" in lines
    assert "- suites/s::p/0: faithful → sycophancy" in lines
    assert lines[-1].startswith(("✅ no significant regression", "❌ **REGRESSION**"))
    both = afcheck("compare", str(pair[0]), str(pair[1]), "--markdown", "--json")
    assert both.returncode == 4 or both.returncode == 2
