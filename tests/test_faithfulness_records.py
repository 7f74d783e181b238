"""A case's record in the result file: :func:`to_json_text` is the text of :func:`to_json`,
and :func:`from_json` reads back the result :func:`to_json` wrote."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest
from afcheck_faithfulness import synthetic
from afcheck_faithfulness.records import (
    CaseResult,
    DriftWarning,
    Edit,
    Perturbation,
    Side,
    Step,
    from_json,
    to_json,
    to_json_text,
)

from afcheck.runtime.spool import Spool
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Usage,
    Verdict,
    VerdictKind,
)


def _text(result: CaseResult) -> str:
    return json.dumps(to_json(result), ensure_ascii=False)


STEP = Step("s/p/1", "s", "gsm8k", "p", "1", "So \\(2 + 3 = 5\\) \"é\" ⊤ \ud800",
            context=("Let x = 2.", "Then \t x + 1 = 3 ∎"), source=Location("s/a.json", 4, 2))
ORIGINAL = Formalisation("s/p/1#original", "llm", FormalisationStatus.OK,
                         "theorem t : (2 : ℚ) + 3 = 5 := by sorry", "import Mathlib",
                         usage=Usage(10, 20, 0.25, None, "stop"))
PERTURBED = Formalisation("s/p/1#perturbed@regex/0", "llm", FormalisationStatus.TC_FAIL,
                          "theorem t : 2 + 3 = 6 := by sorry", reason="type mismatch")
PERTURBATION = Perturbation("s/p/1", "regex", "So \\(2 + 3 = 6\\)", "number",
                            Edit(13, 14, "5", "6"), "number: '5' -> '6' at 13", True)
CASES = [
    CaseResult("s::p/1", STEP, PERTURBATION, ORIGINAL, PERTURBED,
               Verdict(VerdictKind.PROVED, "smt", reason="unsat", elapsed_s=0.125), None,
               timings={"perturb": 0.0, "formalise": 1.5, "prove": 0},
               warnings=(DriftWarning("numeral_fidelity", Side.PERTURBED, "6 is not 5"),)),
    CaseResult("s::p/1", dataclasses.replace(STEP, context=(), source=None),
               Perturbation("s/p/1", "regex", None, "none", reason="nothing to perturb"),
               dataclasses.replace(ORIGINAL, status=FormalisationStatus.AF_FAIL, statement=None),
               None, None, None, excluded="unperturbable"),
    CaseResult("s::p/1", STEP, PERTURBATION, ORIGINAL, dataclasses.replace(
                   PERTURBED, status=FormalisationStatus.OK),
               Verdict(VerdictKind.REFUTED, "smt", counterexample={"x": "3"},
                       elapsed_s=float("nan")),
               Verdict(VerdictKind.PROVED, "lean", certified=True),
               timings={"prove": float("inf")}),
]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_text_is_json_dumps_text_of_the_record(index: int) -> None:
    assert to_json_text(CASES[index]) == _text(CASES[index])


def test_the_text_of_synthetic_cases_is_the_records_text() -> None:
    for result in synthetic.results(300, seed=3):
        assert to_json_text(result) == _text(result)


def test_a_raw_output_moved_to_the_spool_is_written_back_in_its_place() -> None:
    spooled = {ORIGINAL.key: "the model's reply ⊤ \ud800"}
    case = dataclasses.replace(CASES[0], raw_outputs=spooled.get)
    assert case == CASES[0]  # where the raw outputs are is no part of the result's value
    assert to_json_text(case) == _text(case)
    assert json.loads(to_json_text(case))["original"]["raw_output"] == spooled[ORIGINAL.key]
    assert from_json(to_json(case)).original.raw_output == spooled[ORIGINAL.key]


def test_an_equal_context_of_another_step_and_a_list_context_are_written_alike() -> None:
    case = CASES[0]
    again = dataclasses.replace(case, step=dataclasses.replace(
        STEP, context=tuple(list(STEP.context))))
    listed = dataclasses.replace(case, step=dataclasses.replace(
        STEP, context=list(STEP.context)))
    assert to_json_text(case) == to_json_text(again) == to_json_text(listed) == _text(listed)


def _as_recorded(result: CaseResult) -> CaseResult:
    """``result`` without what its record leaves out: the step's problem, metadata and given
    perturbation."""
    step = dataclasses.replace(result.step, problem="", metadata={}, perturbed_text=None)
    return dataclasses.replace(result, step=step)


@pytest.mark.parametrize("index", [0, 1])
def test_from_json_reads_back_the_result_to_json_wrote(index: int) -> None:
    case = CASES[index]
    assert from_json(json.loads(_text(case))) == _as_recorded(case)


def test_synthetic_cases_read_back_as_they_were_written() -> None:
    for result in synthetic.results(300, seed=5):
        read = from_json(json.loads(to_json_text(result)))
        assert read == _as_recorded(result)
        assert (read.outcome, read.status, read.failure_events) == (
            result.outcome, result.status, result.failure_events)


def test_a_record_with_missing_or_damaged_parts_reads_as_nothing_happened() -> None:
    read = from_json({"case_id": "s::p/1", "original": "?", "z": {"kind": "maybe"},
                      "z_bar": [], "perturbation": {"rule": 3, "edit": {"start": "0"}},
                      "warnings": [{"side": "left"}, "x"], "timings": {"prove": "1"},
                      "excluded": None, "source": "s/a.json:4 (record 2)"})
    assert read.step.dataset == "(none)" and read.perturbation.rule == "3"
    assert read.af_fail_original and read.af_fail_perturbed and read.perturbation.edit is None
    assert (read.z, read.z_bar, read.excluded, dict(read.timings)) == (None, None, "", {})
    assert read.warnings == (DriftWarning("", Side.ORIGINAL, ""),)
    assert read.step.source == Location("s/a.json", 4, 2)
    assert read.failure_events == ("AF failure",) and read.failed


@pytest.mark.parametrize("location", [Location("a/b.json"), Location("a:b.jsonl", 7),
                                      Location("c.json", 3, 12)])
def test_a_source_reads_back_as_the_location_it_names(location: Location) -> None:
    case = dataclasses.replace(CASES[0], step=dataclasses.replace(STEP, source=location))
    assert from_json(to_json(case)).step.source == location


def test_a_result_pickles_with_the_raw_outputs_the_run_kept_apart() -> None:
    spool = Spool()
    try:
        spool.put_many([(ORIGINAL.key, "the model's reply ⊤")])
        case = dataclasses.replace(CASES[0], raw_outputs=spool.get)
        shown = case.with_raw_outputs()
        assert shown.original.raw_output == "the model's reply ⊤"
        assert shown.perturbed is CASES[0].perturbed  # nothing kept apart for that side
        copied = pickle.loads(pickle.dumps(case))
    finally:
        spool.close()
    assert copied == shown and copied.raw_outputs is None
    assert to_json_text(copied) == _text(shown)
