"""The typed elaboration's kept answers and its big-operator expansion."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from afcheck.lean import parse_theorem
from afcheck.lean import typed as T
from afcheck.lean.elaborate import Unsupported, _elaborate, clear_cache, elaborate
from afcheck.lean.extract import extract_statement

ROOT = Path(__file__).resolve().parent.parent
HEADER = "open BigOperators Real Nat Topology Rat\n"


def _outcome(theorem: object, header: str, fresh: bool) -> T.Statement | str:
    try:
        return (_elaborate if fresh else elaborate)(theorem, header)  # type: ignore[arg-type]
    except Unsupported as error:
        return f"unsupported: {error}"


@pytest.mark.parametrize(("written", "expanded"), [
    ("∑ i in Finset.range 3, (i ^ 2 + 1) = 8",
     "((0 : ℕ) ^ 2 + 1) + ((1 : ℕ) ^ 2 + 1) + ((2 : ℕ) ^ 2 + 1) = 8"),
    ("∏ k in Finset.Icc (1 : ℕ) 3, ((4 : ℝ) * k + 4) / (4 * k) = 4",
     "((4 : ℝ) * (1 : ℕ) + 4) / (4 * (1 : ℕ)) * (((4 : ℝ) * (2 : ℕ) + 4) / (4 * (2 : ℕ)))"
     " * (((4 : ℝ) * (3 : ℕ) + 4) / (4 * (3 : ℕ))) = 4"),
    # The inner operator binds its own ``i``: only the outer index is replaced outside it.
    ("∑ i in Finset.range 2, (i + ∑ i in Finset.range 2, i) = 3",
     "((0 : ℕ) + ((0 : ℕ) + (1 : ℕ))) + ((1 : ℕ) + ((0 : ℕ) + (1 : ℕ))) = 3"),
])
def test_a_big_operator_means_its_terms_written_out(written: str, expanded: str) -> None:
    clear_cache()
    left = elaborate(parse_theorem(f"theorem t : {written} := by sorry"), HEADER)
    right = elaborate(parse_theorem(f"theorem t : {expanded} := by sorry"), HEADER)
    assert left == right
    assert isinstance(left.conclusion, T.Cmp)


def test_a_kept_refusal_is_raised_afresh_with_the_same_reason() -> None:
    theorem = parse_theorem("theorem t (x : ℕ) : -x = 0 := by sorry")
    clear_cache()
    errors = []
    for _ in range(2):
        with pytest.raises(Unsupported) as caught:
            elaborate(theorem, "")
        errors.append(caught.value)
    assert str(errors[0]) == str(errors[1]) == "unary minus on ℕ does not exist in Lean"
    assert errors[0] is not errors[1]


def test_every_suite_statement_has_the_same_meaning_kept_and_fresh() -> None:
    """Each statement of the equivalence suites (some with big operators of hundreds of
    terms): elaborated cold, again from the kept answer, and with no cache at all."""
    clear_cache()
    seen = 0
    # Comparing a product of 501 terms recurses once per term.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        seen = _compare_suites()
    finally:
        sys.setrecursionlimit(limit)
    assert seen > 500


def _compare_suites() -> int:
    seen = 0
    for suite in sorted((ROOT / "suites").glob("equivalence-*")):
        for line in (suite / "items.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            for side in ("reference", "candidate"):
                # A side may start with its own declarations (``abbrev I := …``).
                theorem = parse_theorem(extract_statement(item[side]).statement)
                cold = _outcome(theorem, item["header"], fresh=False)
                kept = _outcome(theorem, item["header"], fresh=False)
                fresh = _outcome(theorem, item["header"], fresh=True)
                assert cold == kept == fresh, (suite.name, item["id"], side)
                seen += 1
    return seen


def test_a_restatement_under_another_name_shares_the_answer() -> None:
    clear_cache()
    first = parse_theorem("theorem a (x : ℝ) : ∑ i in Finset.range 4, x * i = 6 * x := by sorry")
    again = parse_theorem("lemma b (x : ℝ) : ∑ i in Finset.range 4, x * i = 6 * x := by sorry")
    assert elaborate(first, HEADER) is elaborate(again, HEADER)
    # A different header can open different names: its answer is its own.
    assert elaborate(first, HEADER) is not elaborate(first, "")


def test_a_power_of_numerals_is_computed_and_a_power_of_anything_else_is_npow() -> None:
    """``Monoid.npow`` of a base of numerals alone is its exact value; a base with a
    variable, or whose exact value has no rational (``Real.sqrt 2``), stays ``npow``."""
    def conclusion(text: str) -> T.Formula:
        return elaborate(parse_theorem(text), "", symbols=True).conclusion

    computed = conclusion("theorem t : ((7 : ℚ) / 16) ^ 111 = 0 := by sorry")
    assert isinstance(computed, T.Cmp)
    assert computed.left == T.Const(Fraction(7, 16) ** 111, "ℚ")
    for text in ("theorem t (x : ℚ) : (x / 16) ^ 111 = 0 := by sorry",
                 "theorem t : (Real.sqrt 2 / 2) ^ 111 = 0 := by sorry"):
        left = conclusion(text)
        assert isinstance(left, T.Cmp) and isinstance(left.left, T.Call), text
        assert left.left.fn == "npow", text
