"""A third-party method's own report view: ``afcheck report`` of a run of the toy method
(:mod:`toymethod`, view in :mod:`toymethod_view`) shows its section, not the generic one, and
``afcheck compare`` pairs its items by its keys (the claim), with the plugin named by
``--plugin`` and loaded by entry point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TEST_PLUGINS

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = [
    {"id": "c1", "claim": "2 + 3 = 5", "expected": "proved", "group": "easy"},
    {"id": "c2", "claim": "2 + 3 = 6", "expected": "refuted", "group": "easy"},
    {"id": "c3", "claim": "2 * 3 = 7", "expected": "proved", "group": "hard"},
    {"id": "c4", "claim": "? = 1", "expected": "inconclusive", "group": "hard"},
]
PLUGINS = ("--plugin", "toymethod", "--plugin", "arith")


def afcheck(args: list[str], cwd: Path, extra_path: str = "",
            **env: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(TEST_PLUGINS), extra_path) if p)
    return subprocess.run([sys.executable, "-m", "afcheck", *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": path, **env},
                          capture_output=True, text=True, timeout=120, check=False)


def claims_suite(root: Path, name: str, claims: list[dict[str, str]]) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "{name}"\nkind = "claims"\ndata = "claims.jsonl"\n')
    (folder / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in claims))
    return folder


def toy_run(root: Path, name: str, claims: list[dict[str, str]], *args: str) -> Path:
    claims_suite(root, name, claims)
    out = root / f"{name}.json"
    done = afcheck([name, *args, "-q", "-p", "no:cacheprovider", "--no-cache",
                    "--json", str(out)], root)
    assert out.exists(), done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two runs over the same claims from suites of different names (so their case ids
    differ), the second expecting c1 refuted: one item newly fails."""
    root = tmp_path_factory.mktemp("toy")
    changed = [dict(c, expected="refuted") if c["id"] == "c1" else c for c in CLAIMS]
    return (toy_run(root, "claims", CLAIMS, *PLUGINS),
            toy_run(root, "restated", changed, *PLUGINS))


def page_of(path: Path) -> tuple[str, list[dict[str, object]]]:
    html = path.read_text("utf-8")
    blob = re.search(r'<script type="application/json" id="afcheck-steps">(.*?)</script>',
                     html, re.S)
    assert blob is not None
    return html, json.loads(blob.group(1))["steps"]


def assert_own_section(html: str, records: list[dict[str, object]]) -> None:
    assert "<h2>Claims and their verdicts (verdicts)</h2>" in html
    assert "(generic view)" not in html
    assert 'id=toy-verdicts' in html and 'name="fx-expected"' in html
    # accuracy over the easy group, 2 of 2, with its Wilson interval
    assert re.search(r"<td>easy</td><td class=num>2</td><td class=num>1\.000 ", html)
    assert 'AFCHECK_VIEWS["verdicts"]' in html
    c3 = next(r for r in records if r["t"] == "2 * 3 = 7")
    assert c3["o"] == "refuted" and c3["v"] == "refuted" and c3["s"] == "failed"
    assert c3["fx"] == {"expected": "proved"} and "j" not in c3


@pytest.mark.heavy
def test_the_report_shows_the_methods_own_section(runs: tuple[Path, Path],
                                                  tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    done = afcheck(["report", str(runs[0]), "--html", str(page), *PLUGINS], tmp_path)
    assert done.returncode == 0, done.stderr
    assert_own_section(*page_of(page))


def test_without_the_plugin_the_items_get_the_generic_view(runs: tuple[Path, Path],
                                                          tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    done = afcheck(["report", str(runs[0]), "--html", str(page)], tmp_path)
    assert done.returncode == 0, done.stderr
    html, records = page_of(page)
    assert "verdicts (generic view)" in html and 'AFCHECK_VIEWS["verdicts"]' not in html
    assert all("j" in r for r in records)


@pytest.mark.heavy
def test_compare_pairs_items_by_the_views_keys(runs: tuple[Path, Path],
                                              tmp_path: Path) -> None:
    done = afcheck(["compare", str(runs[0]), str(runs[1]), "--json", *PLUGINS], tmp_path)
    assert done.returncode == 0, done.stderr
    section = json.loads(done.stdout)["methods"]["verdicts"]
    assert section["paired"] == 4 and section["only_base"] == []
    [newly] = section["changes"]["newly_failed"]
    assert newly == {"case_id": "2 + 3 = 5", "base": "passed", "new": "failed",
                     "base_outcome": "proved", "new_outcome": "proved"}
    assert section["metrics"]["accuracy"]["base"] == pytest.approx(3 / 4)
    assert section["metrics"]["accuracy"]["new"] == pytest.approx(2 / 4)
    text = afcheck(["compare", str(runs[0]), str(runs[1]), *PLUGINS], tmp_path).stdout
    assert "over the 4 paired items" in text and "verdicts: newly failed (1):" in text
    # Without the view, items pair by case id, which the two suites do not share.
    plain = afcheck(["compare", str(runs[0]), str(runs[1])], tmp_path)
    assert plain.returncode == 4 and "share no case id (verdicts)" in plain.stderr


@pytest.mark.heavy
def test_the_view_loads_by_entry_point(runs: tuple[Path, Path], tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist = site / "afcheck_toy-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: afcheck-toy\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[afcheck]\ntoy = toymethod\narith = arith\n")
    listing = afcheck(["list", "views"], tmp_path, str(site))
    assert re.search(r"verdicts\s+toy \(afcheck-toy 1\.0\)", listing.stdout), listing.stdout
    page = tmp_path / "r.html"
    done = afcheck(["report", str(runs[0]), "--html", str(page)], tmp_path, str(site))
    assert done.returncode == 0, done.stderr
    assert_own_section(*page_of(page))
    compared = afcheck(["compare", str(runs[0]), str(runs[1]), "--json"], tmp_path, str(site))
    assert json.loads(compared.stdout)["methods"]["verdicts"]["paired"] == 4


@pytest.mark.browser
def test_the_views_detail_opens_in_the_browser(runs: tuple[Path, Path], tmp_path: Path) -> None:
    pytest.importorskip("websocket")
    from afcheck_report.headless import browser, chromium_path

    if chromium_path() is None:
        pytest.skip("needs Chromium at /usr/bin/chromium (apt-get install -y chromium)")
    page = tmp_path / "r.html"
    assert afcheck(["report", str(runs[0]), "--html", str(page), *PLUGINS],
                   tmp_path).returncode == 0
    with browser() as session:
        assert session.open(page).errors == ()
        session.evaluate("""(() => { const s = document.querySelector('select[name="fx-expected"]');
            s.value = 'proved'; s.dispatchEvent(new Event('change', {bubbles: true})); })()""")
        assert session.evaluate("document.getElementById('count').textContent") == \
            "steps 1–2 of 2 (filtered from 4)"
        session.evaluate("document.querySelectorAll('#rows tr.row')[1].click()")
        text = session.evaluate("document.querySelector('tr.detail .toy-claim').innerText")
        assert "2 * 3 = 7" in text and "verdict refuted, expected proved" in text
        assert session.errors() == []
