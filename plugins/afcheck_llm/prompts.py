"""Prompt texts, verbatim from the model cards and the FaithformBench appendices."""

from __future__ import annotations

LEAN_EXPERT = "You are an expert in mathematics and Lean 4."

KIMINA_USER = (
    "Please autoformalize the following problem in Lean 4 with a header. "
    "Use the following theorem names: {name}.\n\n{informal}"
)

GOEDEL_USER = (
    "Please autoformalize the following natural language problem statement in Lean 4. "
    "Use the following theorem name: {name}\n"
    "The natural language statement is: \n"
    # The card has no separator before "Think…"; kept as published.
    "{informal}Think before you provide the lean statement."
)

STEPFUN_USER = (
    "Please autoformalize the following problem in Lean 4 with a header. "
    "Use the following theorem names: {name}.\n\n{informal}\n\n"
    "Your code should start with:\n```Lean4\n{header}\n```\n"
)

HERALD_RAW = (
    "You are an expert at Lean 4 and Mathematics.\n\n"
    "User:Please translate the natural language statement to Lean4 code with the header\n"
    "**Name**\n{name}\n**Informal statement**\n{informal}\n\n\nAssistant:"
)

_FRONTIER_HEADER = (
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\n"
    "open BigOperators Real Nat Topology Rat\n\n"
)

FRONTIER_SYSTEM = (
    "You are an expert in Lean 4 formalization. Your task is to autoformalize informal "
    "mathematical problems into Lean 4 code.\n"
    "**Fidelity is paramount**: Do NOT correct the user's mathematical statements. If the input "
    'contains a mathematical error (e.g., "1 + 1 = 3"), you must formalize it exactly as '
    "written (1 + 1 = 3).\n"
    "**Only By Sorry Statements**: Instead of a proof, ALWAYS just conclude the theorem with the "
    'usual Lean placeholder "by sorry": your task is to autoformalize the statement not to '
    "prove it\n"
    "**Goal**: We expect the Lean compiler to throw an error if the statement is false. Do not "
    "try to prevent this error."
)


def _example(number: int, context: str, statement: str, lean: str) -> str:
    return (
        f"## Example Input {number}:\nCONTEXT: {context}\nSTATEMENT: {statement}\n\n"
        f"## Example Output {number}:\n```lean4\n{_FRONTIER_HEADER}{lean}\n```\n"
    )


FRONTIER_USER = (
    "# Examples:\n"
    + _example(
        1,
        "256 = 2^8. We know that log_2(256) = 8.",
        "log_2(256) = 8",
        "theorem my_favorite_theorem : Real.logb 2 256 = 8 := by sorry",
    )
    + _example(
        2,
        "Mr. Josue's initial capital was \\$5000. The first bank gave him \\$4000. "
        "The second bank gave him \\$8000.",
        "5000 + 4000 + 8000 = 14365",
        "-- Note: This theorem will fail in Lean because the math is incorrect,\n"
        "-- but the formalization is faithful to the input.\n"
        "theorem my_favorite_theorem : 5000 + 4000 + 8000 = 14365 := by sorry",
    )
    + _example(
        3,
        "Solve for x in the expression ((-2)^2 - 11) / (-2 + 1).",
        "((-2)^2 - 11) / (-2 + 1) = 7 ∧ 7 < -1",
        "-- Note: This theorem will fail in Lean because 7 is not less than -1.\n"
        "theorem my_favorite_theorem : ((-2 : ℝ)^2 - 11) / (-2 + 1) = 7 ∧ (7 : ℝ) < -1 := by sorry",
    )
    + "\nUser Input:\nCONTEXT: {context}\nSTATEMENT: {statement}\n\nLean 4 Output:"
)

PERTURB_SYSTEM = """\
You will be given a single reasoning step from a Chain-of-Thought mathematical solution. I want \
you to modify the mathematical claim, calculation, or deduction within this step so that it \
becomes mathematically false or logically invalid. Follow these instructions carefully:
1. **Minimal Modification:**
- Only alter the specific mathematical conclusion, equation, or deduction in the step. Keep the \
premise, the introductory text, and the overall formatting of the step intact.
2. **Contradict the Original Truth:**
- The change you make should result in an invalid logical leap or a false mathematical \
statement. If this step were formalized in a theorem prover like Lean, the proof of this \
specific step must fail.
3. **Maintain Plausibility:**
- Do not make the statement obviously nonsensical (e.g., do not write 1 = 2). The error should \
look like a plausible LLM hallucination, a common student misconception, or a subtle algebraic \
mistake.
4. **Avoid Easy Refutations:**
- The new step should not be trivially disprovable at a glance. For example, if modifying a \
polynomial expansion or a derivative, introduce a subtle sign error, drop a coefficient, or \
alter a bound slightly, rather than replacing the whole expression with something unrelated.
5. **Change Key Expressions:**
- Modify values, bounds, formulas, or logical operators (e.g., changing ≤ to <, altering an \
exponent, or changing a congruence relation) so that the step no longer logically follows from \
standard mathematical axioms or the implicit previous steps.
6. **Only Output the Rewritten Step:**
- Your output must be the full, newly rewritten step only. Do not include explanations, \
apologies, or the original prompt.
7. **If Not Perturbable:**
- If the step is pure text or a meta-commentary without any mathematical claim or deduction \
that can be subtly falsified, output "Not applicable."
"""

PERTURB_USER = "Here is the step I want you to modify: {step}"
