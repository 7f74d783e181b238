"""The encoder's terms are z3's own: the ones its Python operators build, created and dropped
in the same order.

What z3 answers on a problem depends on the ids of its terms (they order its search), and
ids are handed out in creation order and reused as terms are freed. The encoder builds its
frequent terms through z3's C API, so this compares it with an encoder written with z3's
operators (the encoder as it was before): every assertion the same term, and, in a fresh
process each, every term of every assertion with the same id.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import z3
from afcheck_smt.encode import Encoding, declare, formula

from afcheck.lean import typed as T
from afcheck.lean.elaborate import Unsupported, elaborate
from afcheck.lean.extract import extract_statement
from afcheck.lean.parser import parse_theorem

ROOT = Path(__file__).resolve().parent.parent

HAND = [
    # A numeral on the right of a relation: Python asks the numeral (a subclass of the
    # left operand's class) first, so z3's operators build ``1 > x``, not ``x < 1``.
    "theorem t (x : ℝ) : x < 1 ∧ 1 < x ∧ x ≤ 2 ∧ x ≥ 3 ∧ x > 4 ∧ x = 5 ∧ x ≠ 6",
    "theorem t (n : ℕ) (m : ℤ) : n - 3 = 2 ∧ (n : ℤ) - m ≥ -1 ∧ 2 * n + 1 ≠ n ^ 3",
    "theorem t (x y : ℝ) (h : x / y = 2) : (x - y) ^ 2 ≥ 0 ∧ -x ≤ |y| ∧ (7 : ℝ) / 2 = 3.5",
    "theorem t (a b : ℤ) : a % b = a - b * (a / b) ∧ (3 ∣ a) ∧ max a b ≥ min a b",
    "theorem t (x : ℝ) : Real.sqrt (x ^ 2) = |x| ∧ ∀ y : ℝ, ∃ z : ℤ, (z : ℝ) ≤ y + x",
    "theorem t : ∑ k in Finset.range 5, (k : ℝ) / 2 = 5 ∧ Nat.factorial 5 = 120",
]


def statements() -> list[T.Statement]:
    """The hand-written statements above and every statement of the shipped equivalence
    suites that the typed fragment reads."""
    texts = [(text, "") for text in HAND]
    for suite in ("unrelated", "perturbations", "rewrites"):
        path = ROOT / "suites" / f"equivalence-{suite}" / "items.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts += [(row["reference"], row.get("header", "")),
                      (row["candidate"], row.get("header", ""))]
    out = []
    for text, header in texts:
        extracted = extract_statement(text)
        try:
            statement = elaborate(parse_theorem(extracted.statement),
                                  "\n".join(filter(None, (header, extracted.header))))
            assertions(statement, formula)
        except Unsupported:  # outside the fragment, or e.g. over 1000!: nothing to compare
            continue
        out.append(statement)
    return out


# --- the encoder written with z3's operators ------------------------------------------------
def _term(t: T.Term, enc: Encoding, env: dict[str, Any]) -> Any:
    from afcheck_smt import encode

    if isinstance(t, T.Const):
        if t.ty in ("ℕ", "ℤ"):
            return z3.IntVal(int(t.value))
        return z3.RealVal(f"{t.value.numerator}/{t.value.denominator}")
    if isinstance(t, T.Sym):
        return env[t.name]
    if isinstance(t, T.Cast):
        inner = _term(t.expr, enc, env)
        return z3.ToReal(inner) if t.expr.ty in ("ℕ", "ℤ") and t.ty in ("ℚ", "ℝ") else inner
    if isinstance(t, T.Neg):
        return -_term(t.operand, enc, env)
    if isinstance(t, T.Pow):
        base = _term(t.base, enc, env)
        result = z3.IntVal(1) if t.ty in ("ℕ", "ℤ") else z3.RealVal(1)
        for _ in range(t.exponent):
            result = result * base
        return result
    if isinstance(t, T.Arith):
        return encode._arith(t, _term(t.left, enc, env), _term(t.right, enc, env))
    return encode._call(t, [_term(a, enc, env) for a in t.args], enc)


def _formula(f: T.Formula, enc: Encoding, env: dict[str, Any]) -> Any:
    if isinstance(f, T.Truth):
        return z3.BoolVal(f.value)
    if isinstance(f, T.Not):
        return z3.Not(_formula(f.operand, enc, env))
    if isinstance(f, T.Logic):
        a, b = _formula(f.left, enc, env), _formula(f.right, enc, env)
        return {"∧": z3.And, "∨": z3.Or, "→": z3.Implies, "↔": lambda x, y: x == y}[f.op](a, b)
    if isinstance(f, T.Cmp):
        a, b = _term(f.left, enc, env), _term(f.right, enc, env)
        if f.op == "∣":
            return z3.If(a == 0, b == 0, b % a == 0)
        ops = {"=": a == b, "≠": a != b, "<": a < b, "≤": a <= b, ">": a > b, "≥": a >= b}
        return ops[f.op]
    assert isinstance(f, T.Quantified)
    var = z3.Int(f"{f.name}!{len(enc.bound)}") if f.ty in ("ℕ", "ℤ") else \
        z3.Real(f"{f.name}!{len(enc.bound)}")
    inner = Encoding(enc.variables, enc.side, enc.fresh, enc.bound | {f.name}, enc.vocabulary)
    body = _formula(f.body, inner, {**env, f.name: var})
    enc.fresh = inner.fresh
    if f.ty == "ℕ":
        guard = var >= 0
        body = z3.Implies(guard, body) if f.q == "∀" else z3.And(guard, body)
    return z3.ForAll([var], body) if f.q == "∀" else z3.Exists([var], body)


def assertions(statement: T.Statement, build: Any) -> list[Any]:
    """What the prover asserts for ``statement``: side conditions, hypotheses, ¬conclusion."""
    enc = Encoding()
    env = {name: declare(enc, name, ty) for name, ty in statement.params}
    hyps = [build(h, enc, env) for _, h in statement.hypotheses]
    conclusion = build(statement.conclusion, enc, env)
    return [*enc.side, *hyps, z3.Not(conclusion)]


@pytest.mark.heavy
def test_every_assertion_is_the_term_z3s_operators_build() -> None:
    found = statements()
    assert len(found) > 300
    for statement in found:
        ours = assertions(statement, formula)
        theirs = assertions(statement, _formula)
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            assert a.eq(b), (statement, a.sexpr(), b.sexpr())


def ids(which: str) -> list[list[int]]:
    """In a fresh process: every term's id, assertion by assertion, over all statements."""
    script = f"""
import json, z3, sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
import test_smt_encode as t
from afcheck_smt.encode import formula
build = formula if {which!r} == "ours" else t._formula
out = []
for statement in t.statements():
    seen, order, stack = set(), [], list(t.assertions(statement, build))
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        order.append(x.get_id())
        if z3.is_quantifier(x):
            stack.append(x.body())
        elif z3.is_app(x):
            stack.extend(x.children())
    out.append(order)
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=300)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.heavy
def test_the_terms_get_the_ids_z3s_operators_give_them() -> None:
    ours, theirs = ids("ours"), ids("theirs")
    assert len(ours) > 300
    assert ours == theirs
