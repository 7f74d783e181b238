"""A case's record in the result file: :func:`record_text` is the text of :func:`record`."""

from __future__ import annotations

import dataclasses
import json

import pytest
from afcheck_faithfulness import synthetic
from afcheck_faithfulness.records import (
    CaseResult,
    DriftWarning,
    Edit,
    Perturbation,
    RawOutputs,
    Side,
    Step,
    record,
    record_text,
)

from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Usage,
    Verdict,
    VerdictKind,
)


def _text(result: CaseResult, raw_outputs: RawOutputs | None = None) -> str:
    return json.dumps(record(result, raw_outputs), ensure_ascii=False)


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
    assert record_text(CASES[index]) == _text(CASES[index])


def test_the_text_of_synthetic_cases_is_the_records_text() -> None:
    for result in synthetic.results(300, seed=3):
        assert record_text(result) == _text(result)


def test_a_raw_output_moved_to_the_spool_is_written_back_in_its_place() -> None:
    spooled = {ORIGINAL.key: "the model's reply ⊤ \ud800"}
    case = CASES[0]
    assert record_text(case, spooled.get) == _text(case, spooled.get)
    assert json.loads(record_text(case, spooled.get))["original"]["raw_output"] == \
        spooled[ORIGINAL.key]


def test_an_equal_context_of_another_step_and_a_list_context_are_written_alike() -> None:
    case = CASES[0]
    again = dataclasses.replace(case, step=dataclasses.replace(
        STEP, context=tuple(list(STEP.context))))
    listed = dataclasses.replace(case, step=dataclasses.replace(
        STEP, context=list(STEP.context)))
    assert record_text(case) == record_text(again) == record_text(listed) == _text(listed)
