"""``afcheck report`` end to end, on a result file the runner wrote."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from report_fixtures import case, run_document, write

ROOT = Path(__file__).resolve().parent.parent


def afcheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def examples_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "literal.json"
    done = afcheck("suites/examples", "-q", "--json", str(out), "-p", "no:cacheprovider")
    assert out.exists(), done.stdout + done.stderr
    return out


def test_report_of_a_real_run(examples_run: Path, tmp_path: Path) -> None:
    page = tmp_path / "out" / "report.html"
    done = afcheck("report", str(examples_run), "--html", str(page), "--title", "examples")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"wrote {page}: 1 run(s), 68 steps")
    html = page.read_text(encoding="utf-8")
    assert "<title>examples</title>" in html and 'data-method="faithfulness"' in html
    assert html.count('class="chart uflb"') == 1
    # the figures shown are the run's own
    overall = json.loads(examples_run.read_text())["details"]["overall"]
    assert re.search(rf"<td>all</td><td class=num>{overall['N']}</td>"
                     rf"<td class=num>{overall['FNR']:.3f} ", html)


def test_the_page_shows_the_drift_warnings_the_run_recorded(tmp_path: Path) -> None:
    silent = case("gsm8k-390/3", "P", "P", text="Compute orange candies: O = 2× 54 = 108.",
                  perturbed="Compute orange candies: O = 2× 54 = 118.")
    data = run_document([silent])
    for side in ("original", "perturbed"):  # the formaliser wrote the correct value twice
        data["steps"][0][side]["statement"] = "theorem t : 2 * 54 = 108 := by sorry"
    unchecked = write(tmp_path / "unchecked.json", data)  # a run with --detectors none
    warning = {"detector": "numeral_fidelity", "side": "perturbed",
               "message": "the step's result 118 is not in the statement (it has 108 instead)"}
    data["steps"][0]["warnings"] = [warning]
    checked = write(tmp_path / "checked.json", data)
    page = tmp_path / "r.html"
    assert afcheck("report", str(checked), "--html", str(page)).returncode == 0
    blob = re.search(r'id="afcheck-steps">(.*?)</script>', page.read_text(), re.S)
    assert blob is not None
    [record] = json.loads(blob.group(1))["steps"]
    assert record["w"] == [{"d": "numeral_fidelity", "sd": "perturbed",
                            "g": warning["message"]}]
    # The report shows what the run found: it runs no detector of its own.
    plain = tmp_path / "plain.html"
    assert afcheck("report", str(unchecked), "--html", str(plain)).returncode == 0
    assert "numeral_fidelity" not in plain.read_text()
    refused = afcheck("report", str(unchecked), "--html", str(plain), "--drift")
    assert refused.returncode != 0 and "--drift" in refused.stderr


def test_bad_arguments_are_one_line(examples_run: Path, tmp_path: Path) -> None:
    labels = afcheck("report", str(examples_run), "--html", str(tmp_path / "x.html"),
                     "--label", "a", "--label", "b")
    assert labels.returncode == 4
    assert labels.stderr.strip() == ("afcheck: error: --label given 2 times for 1 runs: give "
                                     "one per run, in order, or none")
    missing = afcheck("report", str(tmp_path / "none.json"), "--html", str(tmp_path / "x.html"))
    assert missing.returncode == 4 and missing.stderr.count("\n") == 1
    assert not (tmp_path / "x.html").exists()
    blocked = tmp_path / "file"
    blocked.write_text("")
    unwritable = afcheck("report", str(examples_run), "--html", str(blocked / "x.html"))
    assert unwritable.returncode == 4 and "cannot write" in unwritable.stderr
    assert unwritable.stderr.count("\n") == 1
