"""A report of a mixed run (faithfulness, nl2fol, chains, and equivalence records in the form
that method writes) in real headless Chromium: each method's section draws, the step browser
filters by method and by the methods' own filters, and an nl2fol item, a chain and an
equivalence pair open with their evidence, with no console error."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_report.headless import Browser, browser, chromium_path
from afcheck_report.page import build
from afcheck_report.runfile import load
from report_fixtures import ROOT, afcheck_run, equivalence_record, write, write_replay

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
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    folder = tmp_path_factory.mktemp("mixed")
    replay = write_replay(folder / "replay.jsonl")
    # The nl2fol suite replays recorded answers; the chains suite keeps its own formaliser.
    tarski = folder / "tarski"
    shutil.copytree(ROOT / "suites" / "tarski", tarski)
    manifest = tarski / "suite.toml"
    manifest.write_text(manifest.read_text("utf-8").replace(
        'fol_formaliser = "reference"',
        f'fol_formaliser = "replay"\nfol_formaliser_opt = {{ path = "{replay}" }}'), "utf-8")
    result = afcheck_run(folder, "mixed", "suites/examples", str(tarski),
                         "suites/chains-examples", "--limit", "30")
    data = json.loads(result.read_text("utf-8"))
    evil_fol = next(s for s in data["steps"] if s["method"] == "nl2fol"
                    and s["decision"] == "correct")
    evil_fol.update(sentence=PAYLOAD, candidate=PAYLOAD)
    evil_chain = next(s for s in data["steps"] if s["method"] == "chains")
    evil_chain["steps"][0]["text"] = PAYLOAD
    data["steps"] += [equivalence_record(i, gold, decision) for i, (gold, decision) in
                      enumerate([("equivalent", "Eq"), ("equivalent", "Noneq"),
                                 ("inequivalent", "Noneq"), (None, "Inconclusive")])]
    counts: dict[str, int] = {}
    for step in data["steps"]:
        counts[step["method"]] = counts.get(step["method"], 0) + 1
    page = folder / "mixed.html"
    page.write_text(build([load(write(folder / "doctored.json", data))]), encoding="utf-8")
    return page, counts


def choose(session: Browser, name: str, value: str) -> None:
    session.evaluate(f"""(() => {{ const s = document.querySelector('select[name="{name}"]');
        s.value = {json.dumps(value)};
        s.dispatchEvent(new Event('change', {{bubbles: true}})); }})()""")


def count(session: Browser) -> str:
    return str(session.evaluate("document.getElementById('count').textContent"))


def test_each_methods_section_draws(chromium: Browser,
                                    mixed: tuple[Path, dict[str, int]]) -> None:
    load_ = chromium.open(mixed[0])
    assert load_.ready_ms is not None and load_.errors == ()
    sections = chromium.evaluate("Array.from(document.querySelectorAll('main > section'))"
                                 ".map(s => s.dataset.method || s.id)")
    assert sections == ["faithfulness", "nl2fol", "chains", "equivalence", "steps"]
    charts = chromium.evaluate(
        "Array.from(document.querySelectorAll('svg.chart')).map(s => "
        "[s.getAttribute('class'), s.getBoundingClientRect().width > 100, "
        "s.querySelectorAll('rect').length > 0])")
    kinds = [c[0] for c in charts]
    for kind in ("chart uflb", "chart contingency", "chart accuracy", "chart syntax-classes",
                 "chart classes", "chart equivalence"):
        assert kind in kinds
    assert all(c[1] and c[2] for c in charts)


def test_filters_by_method_and_the_methods_own(chromium: Browser,
                                               mixed: tuple[Path, dict[str, int]]) -> None:
    page, counts = mixed
    total = sum(counts.values())
    chromium.open(page)
    choose(chromium, "method", "nl2fol")
    assert count(chromium).endswith(f"of {counts['nl2fol']} (filtered from {total})")
    visible = chromium.evaluate(
        "Array.from(document.querySelectorAll('#filters select')).filter(s => "
        "s.parentNode.style.display !== 'none').map(s => s.name)")
    assert {"fx-syntax", "fx-difficulty", "fx-class"} <= set(visible)
    choose(chromium, "fx-syntax", "structure")
    outcomes = chromium.evaluate("Array.from(document.querySelectorAll('#rows tr.row td span'))"
                                 ".map(s => s.textContent)")
    assert outcomes and set(outcomes) == {"syntax-error"}
    choose(chromium, "method", "")
    choose(chromium, "fx-syntax", "")
    choose(chromium, "fx-class", "T4")
    assert count(chromium) == f"steps 1–1 of 1 (filtered from {total})"
    choose(chromium, "status", "failed")
    choose(chromium, "fx-class", "")
    statuses = chromium.evaluate("Array.from(document.querySelectorAll('#rows tr.row'))"
                                 ".map(r => r.children[4].textContent)")
    assert statuses and set(statuses) == {"failed"}


def test_an_nl2fol_item_shows_its_counter_model(chromium: Browser,
                                                mixed: tuple[Path, dict[str, int]]) -> None:
    chromium.open(mixed[0])
    choose(chromium, "outcome", "not-equivalent")
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    text = chromium.evaluate("document.querySelector('tr.detail').innerText")
    assert "candidate" in text and "gold formulas" in text and "not equivalent" in text
    assert "counter-model: a world where" in text
    blocks = chromium.evaluate("document.querySelectorAll('tr.detail svg.board polygon')"
                               ".length")
    assert blocks >= 1
    assert chromium.errors() == []


def test_a_chain_shows_its_steps_and_path(chromium: Browser,
                                          mixed: tuple[Path, dict[str, int]]) -> None:
    chromium.open(mixed[0])
    choose(chromium, "fx-class", "T4")
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    rows = chromium.evaluate("Array.from(document.querySelectorAll('tr.detail table.chain-steps"
                             " tbody tr')).map(r => [r.className, r.children[3].textContent])")
    assert rows == [["", "False"], ["onpath", "True"]]
    assert "proof path: steps 2" in chromium.evaluate(
        "document.querySelector('tr.detail').innerText")


def test_injected_markup_stays_text(chromium: Browser,
                                    mixed: tuple[Path, dict[str, int]]) -> None:
    chromium.open(mixed[0])
    chromium.evaluate("""(() => { const q = document.querySelector('input[name=q]');
        q.value = 'pwned'; q.dispatchEvent(new Event('input', {bubbles: true})); })()""")
    assert count(chromium).startswith("steps 1–2 of 2")
    chromium.evaluate("document.querySelectorAll('#rows tr.row')[0].click()")
    chromium.evaluate("document.querySelectorAll('#rows tr.row')[1].click()")
    shown = chromium.evaluate("Array.from(document.querySelectorAll('tr.detail pre, "
                              "tr.detail td')).map(e => e.textContent)")
    assert shown.count(PAYLOAD) == 3  # the sentence and candidate, and the chain step
    assert chromium.evaluate("typeof window.__pwned") == "undefined"
    assert chromium.evaluate("document.querySelectorAll('img').length") == 0
    assert chromium.errors() == []


def test_an_equivalence_pair_shows_alignment_and_obligations(
        chromium: Browser, mixed: tuple[Path, dict[str, int]]) -> None:
    chromium.open(mixed[0])
    choose(chromium, "method", "equivalence")
    choose(chromium, "fx-gold", "equivalent")
    choose(chromium, "outcome", "Noneq")
    assert count(chromium).startswith("steps 1–1 of 1")
    chromium.evaluate("document.querySelector('#rows tr.row').click()")
    rows = chromium.evaluate("Array.from(document.querySelectorAll('tr.detail table.obligations"
                             " tr')).slice(1).map(r => [r.className, r.children[2].textContent])")
    assert rows == [["", "proved"], ["failed", "refuted"]]
    text = chromium.evaluate("document.querySelector('tr.detail').innerText")
    assert "binder alignment" in text and "counterexample: a = 1, b = 2" in text
    assert chromium.errors() == []
