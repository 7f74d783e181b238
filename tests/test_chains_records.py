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
from afcheck_chains.records import ChainRecord, ChainResult, GoldFol, Label, from_json, to_json
from afcheck_fol.provers import make_fol_prover

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
