"""The report in real headless Chromium: it loads without console errors, draws its charts,
and its step browser filters, pages, opens a step and unpacks raw outputs."""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_faithfulness.synthetic import document
from afcheck_report.headless import Browser, browser, chromium_path
from afcheck_report.page import build
from afcheck_report.runfile import load, unique_labels
from report_fixtures import case, run_document, write

pytest.importorskip("websocket")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_path() is None,
                                 reason="needs Chromium at /usr/bin/chromium "
                                 "(apt-get install -y chromium)")]

PAYLOAD = "</script><script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with browser() as session:
        yield session


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    big = write(folder / "goedel.json", document(180, seed=3, formaliser="goedel"))
    evil = run_document([case("evil/1", "P", "P", text=PAYLOAD,
                              perturbed=PAYLOAD.replace("2", "3")),
                         *[case(f"p/{i}", "P", "R") for i in range(5)]], "herald")
    evil["steps"][1]["perturbation"]["text"] = "So \\(2 + 3 = 7\\)."  # formalised as = 6
    # What the numeral-fidelity detector of the run recorded for that side.
    evil["steps"][1]["warnings"] = [{"detector": "numeral_fidelity", "side": "perturbed",
                                     "message": "the step's result 7 is not in the statement "
                                                "(it has 6 instead)"}]
    small = write(folder / "herald.json", evil)
    page = folder / "report.html"
    runs = unique_labels([load(big), load(small)])
    page.write_text(build(runs), encoding="utf-8")
    return page


def wait_for(session: Browser, expression: str, timeout_s: float = 10.0) -> object:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = session.evaluate(expression)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"never true: {expression}")


def test_loads_without_errors_and_draws_charts(chromium: Browser, report: Path) -> None:
    load_ = chromium.open(report)
    assert load_.ready_ms is not None, "the step browser never became ready"
    assert load_.errors == ()
    sizes = chromium.evaluate(
        "Array.from(document.querySelectorAll('svg.chart')).map(s => "
        "[s.getAttribute('class'), s.getBoundingClientRect().width > 100, "
        "s.querySelectorAll('rect').length])")
    assert [s[0] for s in sizes] == ["chart uflb"] * 2 + ["chart contingency"] * 2
    assert all(s[1] and s[2] > 0 for s in sizes)
    assert chromium.evaluate("document.querySelectorAll('table.metrics tbody tr').length") > 8


def test_step_browser_pages_and_filters(chromium: Browser, report: Path) -> None:
    chromium.open(report)
    assert chromium.evaluate("document.querySelectorAll('#rows tr.row').length") == 50
    assert chromium.evaluate("document.getElementById('count').textContent") == \
        "steps 1–50 of 186"
    chromium.evaluate("document.getElementById('next').click()")
    assert chromium.evaluate("document.getElementById('count').textContent") == \
        "steps 51–100 of 186"
    chromium.evaluate("""(() => { const s = document.querySelector('select[name=outcome]');
        s.value = 'sycophancy'; s.dispatchEvent(new Event('change', {bubbles: true})); })()""")
    outcomes = chromium.evaluate("Array.from(document.querySelectorAll('#rows tr.row td span'))"
                                 ".map(s => s.textContent)")
    assert outcomes and set(outcomes) == {"sycophancy"}
    count = chromium.evaluate("document.getElementById('count').textContent")
    assert "(filtered from 186)" in count
    chromium.evaluate("""(() => { const s = document.querySelector('select[name=run]');
        s.value = 'herald'; s.dispatchEvent(new Event('change', {bubbles: true})); })()""")
    assert chromium.evaluate("document.getElementById('count').textContent") == \
        "steps 1–1 of 1 (filtered from 186)"


def test_drift_warnings_filter_and_show(chromium: Browser, report: Path) -> None:
    chromium.open(report)
    chromium.evaluate("""(() => { const s = document.querySelector('select[name=warning]');
        s.value = 'numeral_fidelity';
        s.dispatchEvent(new Event('change', {bubbles: true})); })()""")
    assert chromium.evaluate("document.getElementById('count').textContent") == \
        "steps 1–1 of 1 (filtered from 186)"
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    warnings = chromium.evaluate("Array.from(document.querySelectorAll('tr.detail ul.warn li'))"
                                 ".map(li => li.textContent)")
    assert warnings == ["numeral_fidelity (perturbed): the step's result 7 is not in the "
                        "statement (it has 6 instead)"]


def test_a_step_shows_edit_statements_verdicts_and_raw_output(chromium: Browser,
                                                               report: Path) -> None:
    chromium.open(report)
    chromium.evaluate("""document.querySelector('#rows tr.row').dispatchEvent(
        new KeyboardEvent('keydown', {key: 'Enter'}))""")
    detail = chromium.evaluate("document.querySelector('tr.detail').innerText")
    assert "theorem step_" in detail and "z = " in detail and "z̄ = " in detail
    marks = chromium.evaluate("Array.from(document.querySelectorAll('tr.detail mark'))"
                              ".map(m => [m.className, m.textContent])")
    assert [m[0] for m in marks] == ["del", "ins"] and marks[0][1] != marks[1][1]
    chromium.evaluate("document.querySelector('tr.detail details:last-of-type').open = true")
    raw = wait_for(chromium, "(() => { const p = document.querySelector("
                   "'tr.detail details:last-of-type pre'); return p && p.textContent !== "
                   "'unpacking…' && p.textContent; })()")
    assert "```lean" in str(raw) or "cannot formalise" in str(raw)
    assert chromium.errors() == []


def test_injected_markup_stays_text(chromium: Browser, report: Path) -> None:
    chromium.open(report)
    chromium.evaluate("""(() => { const q = document.querySelector('input[name=q]');
        q.value = 'evil'; q.dispatchEvent(new Event('input', {bubbles: true})); })()""")
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    shown = chromium.evaluate("document.querySelector('tr.detail pre').textContent")
    assert shown == PAYLOAD
    assert chromium.evaluate("typeof window.__pwned") == "undefined"
    assert chromium.evaluate("document.querySelectorAll('img').length") == 0


def test_screenshot_of_a_small_run(chromium: Browser, tmp_path: Path) -> None:
    data = write(tmp_path / "r.json", document(60, seed=5, formaliser="stepfun"))
    page = tmp_path / "small.html"
    page.write_text(build([load(data)]), encoding="utf-8")
    assert chromium.open(page).errors == ()
    shot = tmp_path / "small.png"
    chromium.screenshot(shot, width=1200, height=1400)
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (1200, 1400)
    assert len(png) > 40_000  # charts, tables and rows, not a blank page


def test_bidirectional_overrides_in_data_are_shown_escaped(chromium: Browser,
                                                           tmp_path: Path) -> None:
    doc = run_document([case("p/1", "P", "R", text="So ref\u202eabc.")], "herald")
    page = tmp_path / "bidi.html"
    page.write_text(build([load(write(tmp_path / "r.json", doc))]), encoding="utf-8")
    assert chromium.open(page).errors == ()
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    text = chromium.evaluate("document.querySelector('tr.detail').textContent")
    assert "ref\\u202eabc" in text and "\u202e" not in text
