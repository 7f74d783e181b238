"""The one result type of the chains method and its codec: what a run decides is what its
result file reads back, and the metrics of both are the same."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from afcheck_chains.formalise import FolChains, RuleFormaliser
from afcheck_chains.metrics import metrics
from afcheck_chains.outcome import outcome
from afcheck_chains.pipeline import run_chains
from afcheck_chains.records import (
    ANALYSES,
    ChainRecord,
    ChainResult,
    ConclusionResult,
    GoldFol,
    Label,
    SentenceQuality,
    StepResult,
    Translation,
    from_json,
    to_json,
)
from afcheck_fol.provers import make_fol_prover
from hypothesis import given
from hypothesis import strategies as st

from afcheck.types import Location

PREMISES = ("Jompuses are yumpuses.", "Yumpuses are not sour.", "Numpuses are sour.",
            "Max is a jompus.")
GOOD = ("Max is a jompus.", "Jompuses are yumpuses.", "Max is a yumpus.",
        "Yumpuses are not sour.", "Max is not sour.")
T, F, U = Label.TRUE, Label.FALSE, Label.UNKNOWN


def chain(rid: str, steps: Sequence[str], answer: Label | None = F, **extra: object
          ) -> ChainRecord:
    return ChainRecord(id=rid, dataset="demo", premises=PREMISES, conclusion="Max is sour.",
                       label=F, steps=tuple(steps), answer=answer,
                       location=Location("demo.jsonl", 3), **extra)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def results() -> list[ChainResult]:
    """A chain of every outcome the rule translator reaches: T1–T4, F1, F2, label only,
    an analysis failure, no answer, cut off, a repeat dropped, a path valid only by
    restating the conclusion, a sentence compared with gold FOL."""
    gold = GoldFol(("∀x (Jompus(x) → Yumpus(x))", "∀x (Yumpus(x) → ¬Sour(x))",
                    "∀x (Numpus(x) → Sour(x))", "IsJompus(max)"), "Sour(max)",
                   tuple(None for _ in GOOD))
    items = [
        chain("t1", GOOD, gold_step_labels=(T,) * 5, metadata={"model": "m"}),
        chain("t2", (*GOOD[:2], "Max is a wumpus.", *GOOD[2:]),
              gold_step_labels=(T, T, U, T, T, T)),
        chain("t3", ("Max is a jompus.", "Numpuses are sour.")),
        chain("t4", ("Max is sour.",), expected_class="T4"),
        chain("f1", GOOD, answer=T), chain("f2", ("Max is sour.",), answer=T),
        chain("only", (), answer=None),
        chain("odd", ("Max might be sour.",)),
        chain("silent", GOOD, answer=None),
        chain("cut", ("Max is a jompus.",), answer=None, cut_off="finish_reason 'length'",
              response="Max is a jompus. Jompuses are", answer_cut=""),
        chain("rep", ("Max is a jompus.", "Jompuses are yumpuses.",
                      "Every jompus is a yumpus.", *GOOD[2:])),
        chain("echo", ("Max is a wumpus.", "Max is not sour.")),
        chain("gold", GOOD, gold_fol=gold),
    ]
    return run_chains(items, FolChains(RuleFormaliser()), make_fol_prover("z3-fol"))


def test_every_outcome_is_reached(results: list[ChainResult]) -> None:
    assert {r.analysis for r in results} == {"classified", "label_only", "analysis_failure",
                                             "no_answer", "cut_off"}
    assert any(r.repeated for r in results) and any(r.restating for r in results)
    assert any(r.quality for r in results)


def test_a_result_read_back_from_its_record_is_the_result(results: list[ChainResult]) -> None:
    for result in results:
        # Through JSON text, as a result file holds it.
        data = json.loads(json.dumps(to_json(result)))
        back = from_json(data)
        assert back == result, result.id
        assert to_json(back) == data


def test_the_outcome_and_metrics_of_a_read_back_result_are_the_runs(
        results: list[ChainResult]) -> None:
    back = [from_json(json.loads(json.dumps(to_json(r)))) for r in results]
    assert [outcome(r) for r in back] == [outcome(r) for r in results]
    assert metrics(back).to_json() == metrics(results).to_json()


def test_this_runs_prover_time_is_not_written() -> None:
    result = from_json({"id": "c", "analysis": "classified", "class": "T1"})
    assert result.fresh_seconds == 0.0 and "fresh_seconds" not in to_json(result)


def test_a_record_missing_parts_reads_as_unknown() -> None:
    result = from_json({"case_id": "s::c", "group": "g", "steps": [{"text": "x", "label": 3}],
                        "path": [0, "1"], "first_executed": "yes"})
    assert (result.id, result.dataset, result.analysis) == ("s::c", "g", "")
    assert result.steps[0].label is None and result.path == (0,)
    assert result.first_executed is None and result.gold_label is None
    unreadable = from_json({"unreadable": {"file": "x", "line": 1, "message": "bad"}})
    assert unreadable.dataset == "(none)" and unreadable.analysis == ""


# -- any result the type can hold ------------------------------------------------------------

texts = st.text(max_size=12)
labels = st.sampled_from(list(Label))
maybe_label = st.none() | labels
flags = st.none() | st.booleans()
indices = st.integers(min_value=0, max_value=40)

step_results = st.builds(
    StepResult, text=texts, fol=st.none() | texts, label=maybe_label,
    statuses=st.lists(texts, max_size=2).map(tuple), in_path=st.booleans(), gold=maybe_label)
qualities = st.builds(SentenceQuality, role=texts,
                      bleu=st.floats(min_value=0, max_value=1, allow_nan=False),
                      equivalent=flags)
translations = st.none() | st.builds(
    Translation, premises=st.lists(texts, max_size=3).map(tuple),
    steps=st.lists(texts, max_size=3).map(tuple), conclusion=texts)


@st.composite
def chain_results(draw: st.DrawFn) -> ChainResult:
    return ChainResult(
        id=draw(texts.filter(bool)), dataset=draw(texts.filter(bool)), location=draw(texts),
        premises=tuple(draw(st.lists(texts, max_size=3))),
        conclusion=draw(st.builds(ConclusionResult, text=texts, fol=st.none() | texts,
                                  label=maybe_label)),
        gold_label=draw(labels), answer=draw(maybe_label),
        analysis=draw(st.sampled_from(ANALYSES)), reason=draw(texts),
        attempts=draw(indices), first_executed=draw(flags), first_matched=draw(flags),
        prover=draw(texts), chain_class=draw(st.none() | texts.filter(bool)),
        expected_class=draw(st.none() | texts.filter(bool)),
        answer_correct=draw(flags), valid_path=draw(flags),
        steps=tuple(draw(st.lists(step_results, max_size=3))),
        path=tuple(draw(st.lists(indices, max_size=3))),
        path_conclusion_label=draw(maybe_label),
        restating=tuple(draw(st.lists(indices, max_size=2))),
        path_without_restating_label=draw(maybe_label),
        restatement_only=draw(flags),
        prover_seconds=draw(st.floats(min_value=0, max_value=1e4, allow_nan=False)),
        repeated=tuple(draw(st.lists(st.tuples(indices, indices, texts), max_size=2))),
        quality=tuple(draw(st.lists(qualities, max_size=2))),
        translation=draw(translations), response=draw(texts), answer_cut=draw(texts),
        raw_outputs=tuple(draw(st.lists(texts, max_size=2))),
        metadata=draw(st.dictionaries(texts, texts, max_size=2)))


@given(chain_results())
def test_from_json_is_the_inverse_of_to_json(result: ChainResult) -> None:
    data = json.loads(json.dumps(to_json(result)))
    assert from_json(data) == result
    assert to_json(from_json(data)) == data
