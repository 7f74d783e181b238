"""The JSON result file: the document :func:`document` holds, streamed as indented head and
one line per step record."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import cast

from afcheck_faithfulness import synthetic
from afcheck_faithfulness.method import Faithfulness
from afcheck_faithfulness.metrics import summarise
from afcheck_faithfulness.records import CaseResult
from afcheck_reporters.json_report import VERSION, JsonReporter, document, header

from afcheck.json_text import utf8_safe
from afcheck.method import AnyMethod, Case, ItemResult, MethodSummary
from afcheck.summary import RunSummary


def _summary(n: int, results: list[CaseResult] | None = None) -> RunSummary:
    method = Faithfulness()
    results = synthetic.results(n, seed=2) if results is None else results
    items: list[ItemResult[object]] = [
        ItemResult(Case(r.case_id, r.step.case_name, method.name, r.step.suite, r.step.dataset,
                        r.step.source, None), r, method.outcome(r), r.status)
        for r in results]
    return RunSummary(items, {method.name: cast(MethodSummary, summarise(results))},
                      {"suites": {"syn": {"formaliser": "synthetic ⊤"}}},
                      implementations={method.name: cast(AnyMethod, method)},
                      metadata={"host": "h"})


def test_the_file_is_the_document_written_as_json_writes_it(tmp_path: Path) -> None:
    summary = _summary(120)
    out = tmp_path / "r.json"
    JsonReporter().report(summary, str(out))
    text = out.read_text(encoding="utf-8")
    doc = document(summary)
    assert json.loads(text) == doc
    assert doc["schema"] == "afcheck-results" and doc["version"] == VERSION
    head = json.dumps(header(summary), indent=1, ensure_ascii=False)
    steps = ",\n  ".join(json.dumps(step, ensure_ascii=False) for step in doc["steps"])
    assert text == head[:-2] + ',\n "steps": [\n  ' + steps + "\n ]\n}\n"


def test_a_run_without_items_has_an_empty_list_of_steps(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    JsonReporter().report(_summary(0), str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["steps"] == []


def test_non_ascii_and_lone_surrogates_are_utf8_that_reads_back_the_same(tmp_path: Path) -> None:
    # More records than one piece of the writer, so that pieces with and without a lone
    # surrogate (a model's reply can decode to one) follow one another.
    texts = ("é ⊤ ∀x, x ≤ x", "half a pair \ud83d here", "\udfff", "plain", "👍 \u202e rtl")
    results = [dataclasses.replace(r, step=dataclasses.replace(r.step, text=texts[i % 5]))
               if i % 7 == 0 or i > 1020 else r
               for i, r in enumerate(synthetic.results(1100, seed=4))]
    summary = _summary(0, results)
    out = tmp_path / "r.json"
    JsonReporter().report(summary, str(out))
    text = out.read_bytes().decode("utf-8")  # strict: raises on anything that is not UTF-8
    doc = document(summary)
    assert json.loads(text) == doc
    assert "é ⊤ ∀x" in text and "👍" in text and "\\ud83d" in text and "\\udfff" in text
    head = json.dumps(header(summary), indent=1, ensure_ascii=False)
    steps = ",\n  ".join(json.dumps(step, ensure_ascii=False) for step in doc["steps"])
    assert text == utf8_safe(head[:-2] + ',\n "steps": [\n  ' + steps + "\n ]\n}\n")
