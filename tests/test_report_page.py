"""The report page as written: self-contained, escaped, the data the browser reads, charts."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from afcheck_faithfulness.charts import Panel, contingency_bars, uflb_bars
from afcheck_faithfulness.metrics import Metrics
from afcheck_report.page import build
from afcheck_report.runfile import RunFile, load, unique_labels
from report_fixtures import case, run_document, write

PAYLOAD = "</script><script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">"


def blob(page: str, element: str) -> str:
    match = re.search(rf'<script type="[^"]+" id="{element}">(.*?)</script>', page, re.S)
    assert match, element
    return match.group(1)


@pytest.fixture()
def runs(tmp_path: Path) -> list[RunFile]:
    first = [case(f"p/{i}", "P", "R" if i % 4 else "P", dataset="gsm8k" if i % 2 else "math",
                  context=("Earlier step one.", "Earlier step two.")) for i in range(12)]
    first.append(case("evil/1", "P", "P", dataset="<b>ds</b>", text=PAYLOAD,
                      perturbed=PAYLOAD.replace("2", "3"), formaliser="<i>f</i>"))
    second = [case(f"p/{i}", None, None) for i in range(12)]
    return unique_labels([load(write(tmp_path / "a.json", run_document(first, "<i>f</i>"))),
                          load(write(tmp_path / "b.json", run_document(second, "other")))])


def test_page_is_self_contained_with_a_strict_policy(runs: list[RunFile]) -> None:
    page = build(runs)
    assert "<link rel=stylesheet" not in page and "<link rel=\"stylesheet\"" not in page
    urls = set(re.findall(r"(?:src|href)=\"?([a-z]+:)", page))
    assert urls <= {"data:"}, urls
    assert set(re.findall(r"https?://[^\s\"']+", page)) == {"http://www.w3.org/2000/svg"}
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page and "default-src 'none'" in page


def test_data_from_steps_never_becomes_markup(runs: list[RunFile]) -> None:
    page = build(runs)
    assert "<script>window.__pwned" not in page
    assert "<img src=x" not in page
    assert "<b>ds</b>" not in page and "<i>f</i>" not in page
    assert "&lt;b&gt;ds&lt;/b&gt;" in page and "&lt;i&gt;f&lt;/i&gt;" in page
    # exactly three script elements: the two inert data elements and the page's script
    assert len(re.findall(r"<script\b", page)) == 3


def test_step_records_round_trip(runs: list[RunFile]) -> None:
    data = json.loads(blob(build(runs), "afcheck-steps"))
    assert data["runs"] == ["<i>f</i>", "other"]
    assert len(data["steps"]) == 25
    evil = next(s for s in data["steps"] if s["id"] == "suites/s::evil/1")
    assert evil["t"] == PAYLOAD and evil["d"] == "<b>ds</b>"
    assert evil["fo"]["s"] == "theorem t : 2 + 3 = 5 := by sorry"
    assert data["strings"][evil["fo"]["f"]] == "<i>f</i>"
    assert evil["z"]["k"] == "proved" and evil["zb"]["k"] == "proved"
    assert evil["ev"] == ["silent correction"] and evil["o"] == "sycophancy"
    first = data["steps"][0]
    assert [data["strings"][i] for i in first["c"]] == ["Earlier step one.", "Earlier step two."]
    assert first["e"][2:] == ["5", "6"]
    refuted = next(s for s in data["steps"] if s.get("zb", {}) and s["zb"]["k"] == "refuted")
    assert refuted["zb"]["cx"] == {"x": "3"}


def test_raw_outputs_are_packed_and_can_be_left_out(runs: list[RunFile]) -> None:
    page = build(runs)
    data = json.loads(blob(page, "afcheck-steps"))
    raw = json.loads(gzip.decompress(base64.b64decode(blob(page, "afcheck-raw"))))
    first = data["steps"][0]
    assert raw[first["fo"]["raw"]] == "Sure!\n```lean\ntheorem t : 2 + 3 = 5 := by sorry\n```"
    failed = next(s for s in data["steps"] if s["fo"]["st"] == "af_fail")
    assert raw[failed["fo"]["raw"]] == "no code here"
    lean = build(runs, raw_outputs=False)
    assert json.loads(gzip.decompress(base64.b64decode(blob(lean, "afcheck-raw")))) == []
    clipped = build(runs, raw_limit=5)
    texts = json.loads(gzip.decompress(base64.b64decode(blob(clipped, "afcheck-raw"))))
    assert all(t.startswith(("Sure!", "no co")) and len(t) < 80 for t in texts)


def test_two_runs_side_by_side(runs: list[RunFile]) -> None:
    page = build(runs)
    assert page.count('class="chart uflb"') == 2 and page.count('class="chart contingency"') == 2
    assert "<th>run</th>" in page


def test_a_method_without_a_renderer_gets_the_generic_section(tmp_path: Path) -> None:
    data = run_document([case("p/1", "P", "R")])
    data["steps"].append({"case_id": "toy::1", "method": "toy", "status": "passed",
                          "outcome": "Eq", "criterion": "<sae>"})
    page = build([load(write(tmp_path / "r.json", data))])
    assert 'data-method="toy"' in page and "toy (generic view)" in page
    records = json.loads(blob(page, "afcheck-steps"))["steps"]
    generic = next(r for r in records if r["m"] == "toy")
    assert json.loads(generic["j"])["criterion"] == "<sae>"


def metrics_of(n: int, ei: int, sc: int, afo: int, afp: int) -> Metrics:
    return Metrics(n, ei, sc, afo, afp, n - ei - afo, {"faithful": n - ei - sc,
                                                         "sycophancy": sc, "inversion": 0,
                                                         "abstention": ei, "inconclusive": 0})


def test_uflb_bar_segments_add_up_to_uflb() -> None:
    m = metrics_of(100, ei=20, sc=40, afo=10, afp=10)  # FNR .2 FPR .4 AFFR .1 → UFLB .4
    svg = uflb_bars(Panel("run", {"gsm8k": m}), top=0.5)
    heights = {metric: float(h) for h, metric in re.findall(
        r'height="([\d.]+)" fill="[^"]+" data-metric="(\w+)"', svg)}
    assert heights == pytest.approx({"FPR": 180 * 0.2 / 0.5, "FNR": 180 * 0.1 / 0.5,
                                     "AFFR": 180 * 0.1 / 0.5}, abs=0.05)
    assert ">0.40</text>" in svg and "FPR (silent corrections) = 0.400" in svg


def test_contingency_shares() -> None:
    m = Metrics(8, 0, 2, 0, 0, 8, {"faithful": 6, "sycophancy": 2, "abstention": 0,
                                   "inversion": 0, "inconclusive": 0})
    svg = contingency_bars(Panel("run", {"gsm8k": m}))
    widths = dict((o, float(w)) for w, o in re.findall(
        r'width="([\d.]+)" height="26" fill="[^"]+" data-outcome="(\w+)"', svg))
    assert widths == pytest.approx({"faithful": 315.0, "sycophancy": 105.0})
    assert ">75.0</text>" in svg and ">25.0</text>" in svg


def test_dataset_labels_are_shown_whole() -> None:
    # A long dataset name widens its bar's slot or the label column; it is never cut.
    from afcheck_report.plots import Bar, interval_bars, share_bars

    m = metrics_of(10, ei=1, sc=1, afo=1, afp=1)
    names = ["inequalities", "number-theory-olympiad-long-name", "gsm8k"]
    svgs = [uflb_bars(Panel("run", dict.fromkeys(names, m)), top=0.5),
            contingency_bars(Panel("run", dict.fromkeys(names, m))),
            interval_bars("t", [Bar(name, 0.5) for name in names], "k", "rate"),
            share_bars("t", [(name, [("a", 1)]) for name in names], {}, "k")]
    for svg in svgs:
        assert "…" not in svg
        assert ">inequalities<title>" in svg
        assert ">number-theory-olympiad-long-name<title>" in svg
        width = float(re.search(r'width="([\d.]+)"', svg)[1])
        assert width > 0.62 * 11 * len(names[1])


def test_a_registered_view_renders_its_method(tmp_path: Path) -> None:
    from afcheck_report.view import BrowseTables, MethodView, RunSteps
    from afcheck_report.views import Views

    from afcheck import hookimpl
    from afcheck.plugins import Plugins

    class Confusion(MethodView):
        title = "Equivalence"

        def render(self, runs: Sequence[RunSteps]) -> str:
            return f"<p id=confusion>{sum(len(r.steps) for r in runs)} pairs</p>"

        def browse(self, step: Mapping[str, Any], tables: BrowseTables) -> dict[str, Any]:
            return {"crit": step.get("criterion")}

    class Plugin:
        @hookimpl
        def afcheck_register_views(self, register: Any) -> None:
            register("equivalence", lambda options: Confusion())

    plugins = Plugins(autoload=False)
    plugins.register_module("afcheck_report")
    plugins.register(Plugin(), "confusion")
    data = run_document([case("p/1", "P", "R")])
    data["steps"].append({"case_id": "eq::1", "method": "equivalence", "criterion": "sae"})
    page = build([load(write(tmp_path / "r.json", data))], views=Views(plugins))
    assert "<h2>Equivalence</h2><p id=confusion>1 pairs</p>" in page
    records = json.loads(blob(page, "afcheck-steps"))["steps"]
    assert [r.get("crit") for r in records] == [None, "sae"]


def test_lone_surrogates_in_a_run_file_are_shown_replaced(tmp_path: Path) -> None:
    doc = run_document([case("p/1", "P", "R", text="So \\(2 + 3 = 5\\) \ud800.")])
    doc["steps"][0]["original"]["raw_output"] = "Sure \udfff"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc), encoding="ascii")  # as the JSON reporter escapes them
    page = build([load(path)])
    page.encode("utf-8")  # strict: no lone surrogate is left to write
    steps = json.loads(blob(page, "afcheck-steps"))
    assert " \ufffd.\"" in json.dumps(steps, ensure_ascii=False)  # the step's text
    raw = json.loads(gzip.decompress(base64.b64decode(blob(page, "afcheck-raw"))))
    assert "Sure \ufffd" in raw


def test_bidirectional_overrides_are_shown_escaped_as_the_terminal_shows_them(
        tmp_path: Path) -> None:
    doc = run_document([case("p/1", "P", "R", text="So ref\u202eabc.", formaliser="f\u2067x")],
                       "ref\u202eabc")
    page = build([load(write(tmp_path / "r.json", doc))])
    assert not re.search("[\u202a-\u202e\u2066-\u2069]", page)
    assert "ref\\u202eabc" in page
    # Inside the page's JSON the escape is the same value: the data is unchanged.
    steps = json.dumps(json.loads(blob(page, "afcheck-steps")), ensure_ascii=False)
    assert "So ref\u202eabc." in steps


@pytest.mark.heavy
def test_each_section_names_a_run_by_its_own_methods_formaliser(tmp_path: Path) -> None:
    """A run over a faithfulness suite (formaliser literal) and an nl2fol suite (FOL
    formaliser reference): the NL→FOL section says reference, the faithfulness one literal;
    a label given with --label stays in every section."""
    from afcheck_report.runfile import load, method_label
    from report_fixtures import afcheck_run

    path = afcheck_run(tmp_path, "mixed", "suites/examples", "suites/tarski", "--limit", "3")
    run = load(path)
    assert method_label(run, "faithfulness") == "literal"
    assert method_label(run, "nl2fol") == "reference"
    page = build([run])
    nl2fol = page[page.index('data-method="nl2fol"'):]
    nl2fol = nl2fol[:nl2fol.index("</section>")]
    assert ">reference<" in nl2fol and ">literal<" not in nl2fol
    named = load(path, label="mine")
    assert method_label(named, "nl2fol") == "mine"
