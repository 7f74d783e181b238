"""One nl2fol item decided, its outcome, its JSON record, and the metrics over a batch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_fol.language import TARSKI
from afcheck_fol.syntax import parse
from afcheck_nl2fol.decide import Settings, decide, decide_all, outcome
from afcheck_nl2fol.metrics import summarise
from afcheck_nl2fol.records import (
    CORRECT,
    NO_OUTPUT,
    SEMANTIC_ERROR,
    SYNTAX_ERROR,
    Candidate,
    to_json,
)
from afcheck_nl2fol.suite import Item


def item(item_id: str, difficulty: str, *gold: str) -> Item:
    return Item(item_id, f"sentence {item_id}", gold, tuple(parse(g, TARSKI) for g in gold),
                difficulty, TARSKI)


SMALLER = item("s", "low", "Smaller(b, c)", "Larger(c, b)")
CUBES = item("c", "high", "∀x (Cube(x) → Small(x))", "¬∃x (Cube(x) ∧ ¬Small(x))")


def test_correct_prefers_a_gold_equivalent_in_pure_logic() -> None:
    decision = decide(SMALLER, Candidate("s", "Larger(c, b)"))
    assert decision.status == CORRECT
    assert (decision.gold, decision.verdict.theory if decision.verdict else None) == (1, "none")
    analytic = decide(SMALLER, Candidate("s", "Smaller(b, c) ∧ ¬SameSize(b, c)"))
    assert analytic.status == CORRECT and analytic.verdict is not None
    assert analytic.verdict.theory == "analytic"
    assert outcome(analytic).status == "passed"


def test_theory_none_makes_analytic_answers_wrong() -> None:
    decision = decide(SMALLER, Candidate("s", "Smaller(b, c) ∧ ¬SameSize(b, c)"),
                      Settings(theory="none"))
    assert decision.status == SEMANTIC_ERROR


def test_semantic_error_names_the_nearest_gold_and_shows_the_world() -> None:
    decision = decide(CUBES, Candidate("c", "∀x (Cube(x) ∧ Small(x))"))
    assert decision.status == SEMANTIC_ERROR
    assert (decision.nearest, decision.ted) == (0, 1)
    shown = outcome(decision)
    assert shown.status == "failed"
    assert "nearest gold 0 at tree edit distance 1" in shown.message
    assert "row 0 at the back" in shown.details


def test_syntax_error_and_no_output() -> None:
    decision = decide(CUBES, Candidate("c", "∀x Cube(x) → Small(x)"))
    assert decision.status == SYNTAX_ERROR and decision.error_class == "constants and variables"
    shown = outcome(decision)
    assert shown.status == "failed" and "[free-variable]" in shown.message
    assert "^" in shown.details
    missing = decide(CUBES, Candidate("c", None, error="backend error: timeout"))
    assert missing.status == NO_OUTPUT
    assert outcome(missing).message == "no formula: backend error: timeout"


def test_json_record_round_trips() -> None:
    record = to_json(decide(CUBES, Candidate("c", "∀x (Cube(x) ∧ Small(x))", output="= …")))
    again = json.loads(json.dumps(record, ensure_ascii=False))
    assert again["decision"] == "not-equivalent" and again["ted"] == 1
    assert again["equivalence"]["equivalent"] is False
    assert again["equivalence"]["counter_model"]["blocks"]


def test_metrics_overall_and_by_difficulty() -> None:
    items = [SMALLER, SMALLER, CUBES, CUBES, CUBES]
    candidates = [
        Candidate("s", "Larger(c, b)"),                      # correct
        Candidate("s", "Smaller(b c)"),                      # syntax: constants and variables
        Candidate("c", "∀y (Cube(y) → Small(y))"),           # correct
        Candidate("c", "∀x (Cube(x) ∧ Small(x))"),           # semantic error, TED 1
        Candidate("c", "∃x (Cube(x) ∧ Small(x))"),           # semantic error, TED 2
    ]
    summary = summarise(decide_all(items, candidates))
    overall = summary.overall
    assert (overall.n, overall.correct, overall.syntax_errors, overall.semantic_errors) == (
        5, 2, 1, 2)
    assert overall.accuracy == 0.4
    interval = overall.accuracy_interval
    assert 0.0 < interval.low < 0.4 < interval.high < 1.0
    assert overall.error_classes["constants and variables"] == 1
    assert overall.mean_ted == 1.5
    assert summary.by_difficulty["low"].accuracy == 0.5
    assert summary.by_difficulty["high"].correct == 1
    assert json.loads(json.dumps(summary.to_json()))["overall"]["N"] == 5
    assert "all" in summary.render()


def test_a_formula_over_the_ted_budget_is_still_decided_and_says_why() -> None:
    """Over its size budget the distance is not computed (its cost explodes on big trees);
    the equivalence verdict, which is what the item is judged on, still is."""
    from dataclasses import replace

    from afcheck.budget import Budget

    small = replace(Settings(), ted=Budget(size=3, unit="nodes"))
    right = decide(CUBES, Candidate("c", "∀y (Cube(y) → Small(y))"), small)
    assert right.status == CORRECT and right.ted is None
    assert right.ted_skipped.startswith("over budget: tree edit distance on ")
    wrong = decide(CUBES, Candidate("c", "∀y (Cube(y) → Large(y))"), small)
    assert wrong.status == SEMANTIC_ERROR
    shown = outcome(wrong)
    assert "(tree edit distance not computed: over budget: tree edit distance" in shown.message
    assert json.loads(json.dumps(to_json(wrong)))["ted"] is None


def _records_fast_and_fresh(pairs: list[tuple[Item, str]],
                            monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], list[object]]:
    """Each pair's record with the shortcuts (the quick call in the thread's kept z3 context,
    the nearest gold known without distances), in order, and with every quick call in a new
    context and every distance computed first, in reverse order: whether the kept context's
    history can show in a record. (What the decisions are is pinned apart: by the hand labels
    in ``tests/test_nl2fol_labels.py``.)"""
    import afcheck_fol.equiv as equiv
    import afcheck_nl2fol.decide as decide_module
    import z3

    def records(order: list[tuple[Item, str]]) -> list[object]:
        found = []
        for one, text in order:
            record = to_json(decide(one, Candidate(one.id, text)))
            record.pop("seconds")
            found.append(record)
        return found

    fast = records(pairs)
    with monkeypatch.context() as fresh:
        fresh.setattr(equiv._shared, "kept_context", z3.Context)
        fresh.setattr(decide_module, "nearest_known", lambda *args: None)
        slow = records(pairs[::-1])[::-1]
    return fast, slow


@pytest.mark.parametrize("every", [
    pytest.param(1, marks=pytest.mark.slow, id="all"),
    pytest.param(7, id="every-seventh"),
])
@pytest.mark.heavy
def test_the_shortcuts_change_no_record_of_the_labelled_set(
        every: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every record (decision, theory, steps, counter-model) of the 374 labelled candidates
    and the 87 gold-as-candidate items of ``suites/tarski`` is the one of the path without
    the shortcuts, run in the other order (every seventh outside the slow profile)."""
    from afcheck_nl2fol.labels import load_labels
    from afcheck_nl2fol.suite import load_jsonl

    folder = Path(__file__).resolve().parent.parent / "suites" / "tarski"
    items = {one.id: one for one in load_jsonl(folder / "sentences.jsonl", TARSKI).items}
    entries, _ = load_labels(folder / "labelled.jsonl")
    pairs = [(one, one.gold[0]) for one in items.values()]
    pairs += [(items[e.item], e.candidate) for e in entries]
    fast, slow = _records_fast_and_fresh(pairs[::every], monkeypatch)
    assert [n for n, (a, b) in enumerate(zip(fast, slow, strict=True)) if a != b] == []


@pytest.mark.realdata
@pytest.mark.parametrize("every", [
    pytest.param(1, marks=pytest.mark.slow, id="all"),
    pytest.param(10, id="every-tenth"),
])
def test_the_shortcuts_change_no_record_of_folio(
        every: int, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same on FOLIO's gold premises, each its own candidate (every tenth outside the slow
    profile)."""
    from afcheck_nl2fol.suite import folio_path, load_folio

    path = folio_path(str(data_dir))
    if path is None:
        pytest.skip("no folio/folio-train.jsonl under AFCHECK_DATA_DIR")
    pairs = [(one, one.gold[0]) for one in load_folio(path).items if one.formulas]
    assert len(pairs) > 1000
    fast, slow = _records_fast_and_fresh(pairs[::every], monkeypatch)
    assert [n for n, (a, b) in enumerate(zip(fast, slow, strict=True)) if a != b] == []
