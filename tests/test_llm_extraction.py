"""Extraction rules of each preset on realistic model outputs (fenced, unfenced, several blocks,
``<think>`` sections, truncated output), end to end through the formaliser."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from afcheck_llm.presets import FRONTIER, GOEDEL, HERALD, KIMINA, STEPFUN
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.lean.extract import ExtractionError
from afcheck.llm import Preset, PresetFormaliser, lean_source
from afcheck.llm.postprocess import OutputRule, answer_part, code_blocks
from afcheck.llm.vllm_client import VLLMClient
from afcheck.types import FormalisationStatus, FormaliseRequest

KIMINA_UNFENCED = """import Mathlib

open Real

theorem my_favorite_theorem (x : ℝ) (h : (3 : ℝ) ^ x = 5) : (3 : ℝ) ^ (x + 2) = 45 := by sorry"""

KIMINA_FENCED_SORRY_LINE = """```lean4
import Mathlib

theorem my_favorite_theorem (T R O : ℕ) (h₀ : T = 232) (h₁ : R = 54) (h₂ : O = 2 * R) :
    O = 108 :=
sorry
```"""

GOEDEL_THINK = """<think>
The statement says 2 * 54 = 118. A first idea:
```lean4
theorem draft : 2 * 54 = 108 := by norm_num
```
but I must keep the claim as written.
</think>
Here is the formalization:

```lean4
import Mathlib

theorem my_favorite_theorem : (2 : ℕ) * 54 = 118 := by sorry
```"""

GOEDEL_NO_FENCE = """<think>
Easy.
</think>
theorem my_favorite_theorem : (2 : ℕ) * 54 = 118 := by sorry"""

GOEDEL_CUT_IN_THINK = """<think>
We need to formalize 1000 - 2 = 686. Let me think about whether the numbers are natural and"""

STEPFUN_TWO_BLOCKS = """Okay, the problem asks for 5000 + 4000 + 8000. First try:
```Lean4
theorem my_favorite_theorem : 5000 + 4000 + 8000 = 17000 := by sorry
```
Wait, keep it as stated.
</think>

```Lean4
import Mathlib

open Real

theorem my_favorite_theorem : (5000 : ℕ) + 4000 + 8000 = 14365 := by sorry
```"""

HERALD_RAW = """import Mathlib
open Filter Finset

/-- The sum of the first n odd numbers is n squared. -/
theorem sum_odd_eq_sq (n : ℕ) : ∑ i ∈ range n, (2 * i + 1) = n ^ 2 := sorry"""

FRONTIER_CHATTY = """Sure! Here is the faithful formalization:

```lean
import Mathlib
import Aesop

set_option maxHeartbeats 0

open BigOperators Real Nat Topology Rat

-- Note: this fails in Lean, but it is faithful.
theorem my_favorite_theorem : ((-2 : ℝ)^2 - 11) / (-2 + 1) = 7 ∧ (7 : ℝ) < -1 := by sorry
```

This keeps the error in the input."""

TRUNCATED_OPEN_FENCE = """```lean4
import Mathlib

theorem my_favorite_theorem (x : ℝ) (h : x = 2) : x + 1 = 3 := by
  norm_num [h"""

TRUNCATED_UNFENCED = """import Mathlib

theorem my_favorite_theorem (x : ℝ) (h : x = 2) : x +"""

TRUNCATED_AFTER_BLOCK = """```lean4
theorem my_favorite_theorem : (7 : ℤ) - 9 = -2 := by sorry
```
Explanation: the subtraction is over the integers so that"""


@dataclass(frozen=True)
class Case:
    preset: Preset
    output: str
    finish: str
    statement: str | None
    reason: str = ""


CASES = {
    "kimina-unfenced": Case(
        KIMINA, KIMINA_UNFENCED, "stop",
        "theorem my_favorite_theorem (x : ℝ) (h : (3 : ℝ) ^ x = 5) : (3 : ℝ) ^ (x + 2) = 45"
        " := by sorry",
    ),
    "kimina-fenced-sorry-on-next-line": Case(
        KIMINA, KIMINA_FENCED_SORRY_LINE, "stop",
        "theorem my_favorite_theorem (T R O : ℕ) (h₀ : T = 232) (h₁ : R = 54) (h₂ : O = 2 * R) :"
        "\n    O = 108 := by sorry",
    ),
    "goedel-think-with-draft-block": Case(
        GOEDEL, GOEDEL_THINK, "stop", "theorem my_favorite_theorem : (2 : ℕ) * 54 = 118 := by sorry"
    ),
    "goedel-needs-a-fence": Case(GOEDEL, GOEDEL_NO_FENCE, "stop", None, "no code block"),
    "goedel-cut-inside-think": Case(
        GOEDEL, GOEDEL_CUT_IN_THINK, "length", None, "output truncated at max_tokens"
    ),
    "stepfun-last-block-after-think": Case(
        STEPFUN, STEPFUN_TWO_BLOCKS, "stop",
        "theorem my_favorite_theorem : (5000 : ℕ) + 4000 + 8000 = 14365 := by sorry",
    ),
    "stepfun-never-closes-think": Case(
        STEPFUN, "Let me think about 2 + 2 = 5 for a while", "stop", None, "no </think>"
    ),
    "herald-docstring-and-bare-sorry": Case(
        HERALD, HERALD_RAW, "stop",
        "theorem sum_odd_eq_sq (n : ℕ) : ∑ i ∈ range n, (2 * i + 1) = n ^ 2 := by sorry",
    ),
    "frontier-chatty-fenced": Case(
        FRONTIER, FRONTIER_CHATTY, "stop",
        "theorem my_favorite_theorem : ((-2 : ℝ)^2 - 11) / (-2 + 1) = 7 ∧ (7 : ℝ) < -1"
        " := by sorry",
    ),
    "frontier-refuses": Case(
        FRONTIER, "I cannot formalize this statement.", "stop", None, "no theorem"
    ),
    "kimina-truncated-open-fence": Case(
        KIMINA, TRUNCATED_OPEN_FENCE, "length", None, "block is not closed"
    ),
    "kimina-truncated-unfenced": Case(KIMINA, TRUNCATED_UNFENCED, "length", None, "no ':='"),
    "frontier-truncated-before-any-theorem": Case(
        FRONTIER, "```lean4\nimport Mathlib\n\nopen Real\n\nlet total = 12.5 + 3 * ", "length",
        None, "no theorem yet",
    ),
    "frontier-truncated-after-closed-block": Case(
        FRONTIER, TRUNCATED_AFTER_BLOCK, "length",
        "theorem my_favorite_theorem : (7 : ℤ) - 9 = -2 := by sorry",
    ),
}


def _formalise(case: Case) -> tuple[FormalisationStatus, str | None, str, str]:
    prefix = case.preset.template.assistant_prefix

    def respond(prompt: str, params: FakeSamplingParams, index: int) -> tuple[str, str]:
        # The engine returns only what the model generated after the prompt's prefix.
        return case.output.removeprefix(prefix), case.finish

    client = VLLMClient("m", engine=FakeEngine(respond), sampling_params=FakeSamplingParams)
    formaliser = PresetFormaliser(case.preset, client)
    request = FormaliseRequest("s/p/1#original", "2 * 54 = 118")
    [result] = formaliser.formalise([request])
    return result.status, result.statement, result.reason, result.header


@pytest.mark.parametrize("name", sorted(CASES))
def test_preset_extraction_rules(name: str) -> None:
    case = CASES[name]
    status, statement, reason, _ = _formalise(case)
    if case.statement is None:
        assert status is FormalisationStatus.AF_FAIL
        assert case.reason in reason
        assert "\n" not in reason
    else:
        assert status is FormalisationStatus.OK, reason
        assert statement == case.statement


def test_header_and_auxiliary_definitions_travel_with_the_statement() -> None:
    output = (
        "import Mathlib\nopen Real\n\ndef f (x : ℝ) : ℝ := 2 * x\n\n"
        "theorem t : f 3 = 6 := by sorry"
    )
    status, statement, _, header = _formalise(Case(KIMINA, output, "stop", None))
    assert status is FormalisationStatus.OK
    assert statement == "theorem t : f 3 = 6 := by sorry"
    assert header == "import Mathlib\nopen Real\n\ndef f (x : ℝ) : ℝ := 2 * x"


def test_stepfun_prefix_is_part_of_the_text_the_rule_sees() -> None:
    # The prompt opened <think>; the completion closes it. Without the prefix, "required"
    # would still find </think>, and a completion lacking it must fail.
    rule = STEPFUN.rule
    assert answer_part("<think>\nreasoning</think>\nanswer", rule.think) == "\nanswer"
    with pytest.raises(ExtractionError, match="no </think>"):
        answer_part("<think>\nstill reasoning", rule.think)


def test_code_blocks_marks_the_unclosed_last_block() -> None:
    blocks = code_blocks("```lean\na\n```\ntext\n```Lean4\nb")
    assert [(b.language, b.body.strip(), b.closed) for b in blocks] == [
        ("lean", "a", True),
        ("Lean4", "b", False),
    ]


def test_fence_languages_are_filtered_case_insensitively() -> None:
    rule = OutputRule(think="none", fence="required", languages=("lean4",))
    text = "```python\ntheorem = 1\n```\n```LEAN4\ntheorem t : 1 = 1 := by sorry\n```"
    assert lean_source(text, rule).strip() == "theorem t : 1 = 1 := by sorry"
    with pytest.raises(ExtractionError, match="no code block"):
        lean_source("```python\ntheorem t : 1 = 1 := by sorry\n```", rule)


def test_declaration_words_inside_comments_do_not_count() -> None:
    rule = OutputRule(think="none", fence="optional")
    text = "```lean4\n-- theorem in a comment\n#eval 1\n```\ntheorem t : 2 = 2 := by sorry"
    assert lean_source(text, rule) == text
