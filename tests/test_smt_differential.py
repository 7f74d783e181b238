"""z3's decisions against the exact evaluator of Lean semantics, on random statements."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from afcheck_smt.prover import SmtProver
from hypothesis import given, settings
from hypothesis import strategies as st

from afcheck.lean import parse_theorem
from afcheck.lean.elaborate import elaborate
from afcheck.lean.evaluate import NotExact, eval_formula, holds
from afcheck.types import ProofTask, VerdictKind

PROVER = SmtProver(timeout_ms=5000)
_OPS = ["+", "-", "*", "/", "%", "^"]


@st.composite
def ground(draw: st.DrawFn, ty: str, depth: int = 3) -> str:
    """A ground Lean expression at type ``ty`` (every numeral ascribed)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        value = draw(st.integers(-9 if ty != "ℕ" else 0, 9))
        if ty in ("ℚ", "ℝ") and draw(st.booleans()):
            return f"({value}.5 : {ty})" if value >= 0 else f"(-{-value}.5 : {ty})"
        return f"({value} : {ty})"
    ops = [o for o in _OPS if not (o == "%" and ty in ("ℚ", "ℝ"))]
    op = draw(st.sampled_from(ops))
    left = draw(ground(ty, depth - 1))
    if op == "^":
        return f"({left}) ^ {draw(st.integers(0, 3))}"
    if ty != "ℕ" and draw(st.integers(0, 5)) == 0:
        return f"-({left})"
    return f"({left} {op} {draw(ground(ty, depth - 1))})"


@st.composite
def comparisons(draw: st.DrawFn) -> str:
    ty = draw(st.sampled_from(["ℕ", "ℤ", "ℚ", "ℝ"]))
    rels = ["=", "≠", "<", "≤", ">", "≥"] + (["∣"] if ty in ("ℕ", "ℤ") else [])
    rel = draw(st.sampled_from(rels))
    return f"theorem g : {draw(ground(ty))} {rel} {draw(ground(ty))} := by sorry"


def _check(text: str) -> None:
    statement = elaborate(parse_theorem(text))
    expected = eval_formula(statement.conclusion, {})
    got = PROVER.prove([ProofTask("g", text)])[0]
    want = VerdictKind.PROVED if expected else VerdictKind.REFUTED
    assert got.kind is want, (text, got.reason)


@given(comparisons())
def test_z3_matches_exact_evaluator(text: str) -> None:
    _check(text)


@pytest.mark.slow
@settings(max_examples=10_000)
@given(comparisons())
def test_z3_matches_exact_evaluator_10k(text: str) -> None:
    _check(text)


@st.composite
def open_statements(draw: st.DrawFn) -> str:
    ty = draw(st.sampled_from(["ℕ", "ℤ", "ℚ"]))
    atoms = st.sampled_from(["x", "y", f"(2 : {ty})", f"(3 : {ty})", f"(5 : {ty})"])
    ops = ["+", "-", "*", "/"] + (["%"] if ty != "ℚ" else [])

    def expr() -> str:
        return f"({draw(atoms)} {draw(st.sampled_from(ops))} {draw(atoms)})"

    rel = st.sampled_from(["=", "≠", "<", "≤"])
    return (
        f"theorem g (x y : {ty}) (h : {expr()} {draw(rel)} {expr()}) : "
        f"{expr()} {draw(rel)} {expr()} := by sorry"
    )


@given(open_statements())
def test_every_refutation_is_a_real_counterexample(text: str) -> None:
    verdict = PROVER.prove([ProofTask("g", text)])[0]
    if verdict.kind is not VerdictKind.REFUTED:
        return
    statement = elaborate(parse_theorem(text))
    assert verdict.counterexample is not None
    env = {name: Fraction(value) for name, value in verdict.counterexample.items()}
    assert holds(statement, env) == (True, False), text


def _refutations_hold(statements: list[str]) -> int:
    verdicts = PROVER.prove([ProofTask(str(i), s) for i, s in enumerate(statements)])
    count = 0
    for text, verdict in zip(statements, verdicts, strict=True):
        if verdict.kind is VerdictKind.REFUTED and verdict.counterexample:
            statement = elaborate(parse_theorem(text))
            env = {k: Fraction(v) for k, v in verdict.counterexample.items()}
            try:
                assert holds(statement, env) == (True, False), text
            except NotExact:
                pytest.fail(f"refutation of {text} cannot be checked exactly")
            count += 1
    return count


def test_examples_suite_refutations_are_real() -> None:
    path = Path(__file__).resolve().parent.parent / "suites" / "examples" / "steps.jsonl"
    if not path.is_file():
        pytest.skip("suites/examples/steps.jsonl is not there yet")
    statements = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        for key, value in record.items():
            if isinstance(value, str) and "theorem" in value and key != "text":
                statements.append(value)
    _refutations_hold(statements)
