"""The smt prover against an evaluator of Lean's own elaboration and arithmetic.

The evaluator below is written from Lean 4's ``binop%`` elaborator (``Lean/Elab/Extra.lean``:
the tree of ``binop%``/``unop%``/``rightact%`` nodes, ``processLeaf`` elaborating each leaf with
no expected type, the maximal type of the leaves seeded by the expected type, coercions at the
leaves, ``binrel%`` over both sides of a relation), from Lean's application elaborator (an
argument elaborated against the type fixed by the arguments before it; the expected type of
a whole application propagated to its result type) and from the definitions of ``Nat.sub``,
``Int.ediv``/``Int.emod``, ``x / 0 = 0``, ``min``, ``max``, ``abs``, ``Finset.sum`` and
``Finset.prod`` over ``Finset.range`` (of a literal or of a parameter the hypotheses pin). It
reads its own expression trees, never afcheck's parser, elaborator or encoder. The prover may
answer INCONCLUSIVE; it may never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from afcheck_smt.prover import SmtProver
from hypothesis import given, settings
from hypothesis import strategies as st

from afcheck.types import ProofTask, VerdictKind

PROVER = SmtProver(timeout_ms=5000)
RANK = {"ℕ": 0, "ℤ": 1, "ℚ": 2, "ℝ": 3}


class Rejected(Exception):
    """Lean does not elaborate the statement (a type error)."""


# --- the expressions --------------------------------------------------------------------
@dataclass(frozen=True)
class Num:  # an untyped natural numeral: ``OfNat ?α n``
    value: int


@dataclass(frozen=True)
class Lit:  # ``(n : T)``
    value: int
    ty: str


@dataclass(frozen=True)
class Var:  # a parameter, pinned to a value by a hypothesis
    name: str
    ty: str


@dataclass(frozen=True)
class Index:  # the index of the enclosing ``∑``/``∏`` (over ``Finset.range``: ℕ)
    pass


@dataclass(frozen=True)
class Bin:  # ``binop%``
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg:  # ``unop% Neg.neg``
    operand: Expr


@dataclass(frozen=True)
class Pow:  # ``rightact% HPow.hPow``: only the base is in the tree
    base: Expr
    exponent: int


@dataclass(frozen=True)
class Fn:  # ``min a b``, ``max a b``, ``|a|``: applications, hence leaves
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Big:  # ``∑ i in Finset.range n, body`` / ``∏ …``; ``n`` a literal or a ℕ parameter
    op: str
    count: int
    body: Expr
    bound: str | None = None  # the ℕ parameter whose value is the count, if any


@dataclass(frozen=True)
class Asc:  # ``(e : T)``
    expr: Expr
    ty: str


Expr = Num | Lit | Var | Index | Bin | Neg | Pow | Fn | Big | Asc
TREE = (Bin, Neg, Pow)


def render(e: Expr) -> str:
    if isinstance(e, Num):
        return str(e.value)
    if isinstance(e, Lit):
        return f"({e.value} : {e.ty})" if e.value >= 0 else f"(-{-e.value} : {e.ty})"
    if isinstance(e, Var):
        return e.name
    if isinstance(e, Index):
        return "i"
    if isinstance(e, Bin):
        return f"({render(e.left)} {e.op} {render(e.right)})"
    if isinstance(e, Neg):
        return f"(-{render(e.operand)})"
    if isinstance(e, Pow):
        return f"({render(e.base)} ^ {e.exponent})"
    if isinstance(e, Fn):
        if e.fn == "abs":  # bracketed: the parser reads ``|a|`` as an argument only so
            return f"(|{render(e.args[0])}|)"
        return f"({e.fn} {' '.join(render(a) for a in e.args)})"
    if isinstance(e, Big):
        symbol = "∑" if e.op == "+" else "∏"
        return f"({symbol} i in Finset.range {e.bound or e.count}, {render(e.body)})"
    return f"({render(e.expr)} : {e.ty})"


# --- Lean's elaboration -------------------------------------------------------------------
def _larger(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if RANK[a] >= RANK[b] else b


def tree_leaves(e: Expr) -> list[Expr]:
    if isinstance(e, Bin):
        return tree_leaves(e.left) + tree_leaves(e.right)
    if isinstance(e, Neg):
        return tree_leaves(e.operand)
    if isinstance(e, Pow):
        return tree_leaves(e.base)
    return [e]


def own_type(e: Expr, env: Env) -> str | None:
    """The type ``elabTerm e none`` gives; ``None`` when it is still a metavariable."""
    if isinstance(e, TREE):
        found: str | None = None
        for leaf in tree_leaves(e):
            found = _larger(found, own_type(leaf, env))
        return found
    if isinstance(e, Num):
        return None
    if isinstance(e, (Lit, Var, Asc)):
        return e.ty
    if isinstance(e, Index):
        return "ℕ"
    if isinstance(e, Fn):  # ``min : α → α → α``: α from the first argument that fixes it
        for arg in e.args:
            found = own_type(arg, env)
            if found is not None:
                return found
        return None
    assert isinstance(e, Big)
    return own_type(e.body, env)


@dataclass(frozen=True)
class Env:
    values: dict[str, Fraction]
    index: Fraction | None = None


def operate(op: str, a: Fraction, b: Fraction, ty: str) -> Fraction:
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "-":  # Nat.sub truncates
        return max(a - b, Fraction(0)) if ty == "ℕ" else a - b
    if op == "/":
        if b == 0:
            return Fraction(0)
        if ty in ("ℚ", "ℝ"):
            return a / b
        # Int.ediv (Nat.div on naturals): q = sign(b) · ⌊a / |b|⌋
        return Fraction((int(a) // abs(int(b))) * (1 if b > 0 else -1))
    assert op == "%"
    if ty in ("ℚ", "ℝ"):
        raise Rejected("no % on a field")
    if b == 0:
        return a
    return a - b * operate("/", a, b, ty)


def tree_value(e: Expr, ty: str, env: Env) -> Fraction:
    """A node of a tree whose type is ``ty``; leaves are coerced to ``ty``."""
    if isinstance(e, Bin):
        return operate(e.op, tree_value(e.left, ty, env), tree_value(e.right, ty, env), ty)
    if isinstance(e, Neg):
        if ty == "ℕ":
            raise Rejected("no Neg ℕ")
        return -tree_value(e.operand, ty, env)
    if isinstance(e, Pow):
        return tree_value(e.base, ty, env) ** e.exponent
    own = own_type(e, env)
    if own is None:  # a metavariable type: unified with the tree's type
        return leaf_value(e, ty, env, expected=True)
    return leaf_value(e, own, env, expected=False)  # then ``↑``, which keeps the value


def with_expected(e: Expr, ty: str, env: Env) -> Fraction:
    """``elabTerm e (some ty)`` and ``ensureHasType ty``."""
    if isinstance(e, TREE):
        found = ty
        for leaf in tree_leaves(e):
            found = _larger(found, own_type(leaf, env)) or ty
        if found != ty:
            raise Rejected(f"{found} does not coerce to {ty}")
        return tree_value(e, ty, env)
    if isinstance(e, (Fn, Big)):
        return leaf_value(e, ty, env, expected=True)
    own = own_type(e, env)
    if own is not None and RANK[own] > RANK[ty]:
        raise Rejected(f"{own} does not coerce to {ty}")
    return leaf_value(e, own or ty, env, expected=False)


def leaf_value(e: Expr, ty: str, env: Env, expected: bool) -> Fraction:
    if isinstance(e, (Num, Lit)):
        return Fraction(e.value)
    if isinstance(e, Var):
        return env.values[e.name]
    if isinstance(e, Index):
        assert env.index is not None
        return env.index
    if isinstance(e, Asc):
        return with_expected(e.expr, e.ty, env)
    if isinstance(e, Fn):
        at = ty if expected else (own_type(e, env) or ty)
        args = [with_expected(a, at, env) for a in e.args]
        if e.fn == "abs":
            if at == "ℕ":
                raise Rejected("no |·| on ℕ")
            return abs(args[0])
        return min(args) if e.fn == "min" else max(args)
    assert isinstance(e, Big)
    at = ty if expected else (own_type(e.body, env) or ty)
    total = Fraction(0 if e.op == "+" else 1)
    for i in range(e.count if e.bound is None else int(env.values[e.bound])):
        term = with_expected(e.body, at, Env(env.values, Fraction(i)))
        total = total + term if e.op == "+" else total * term
    return total


def relation_holds(rel: str, left: Expr, right: Expr, env: Env) -> bool:
    """``binrel%``: both sides are one tree, with no expected type; ℕ by default."""
    ty: str | None = None
    for leaf in tree_leaves(left) + tree_leaves(right):
        ty = _larger(ty, own_type(leaf, env))
    ty = ty or "ℕ"
    a, b = tree_value(left, ty, env), tree_value(right, ty, env)
    return {"=": a == b, "≠": a != b, "<": a < b, "≤": a <= b}[rel]


# --- the generator -------------------------------------------------------------------------
VARIABLES = (("a", "ℕ"), ("b", "ℕ"), ("z", "ℤ"), ("q", "ℚ"), ("x", "ℝ"))


def expressions(in_body: bool = False) -> st.SearchStrategy[Expr]:
    atoms: list[st.SearchStrategy[Expr]] = [
        st.builds(Num, st.integers(0, 7)),
        st.builds(Lit, st.integers(0, 5), st.sampled_from(list(RANK))),
        st.builds(Lit, st.integers(-5, -1), st.sampled_from(["ℤ", "ℚ", "ℝ"])),
        st.sampled_from([Var(n, t) for n, t in VARIABLES]),
    ]
    if in_body:
        atoms.append(st.just(Index()))
    base = st.one_of(*atoms)

    def extend(inner: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        options = [
            st.builds(Bin, st.sampled_from(["+", "-", "*", "/", "%"]), inner, inner),
            st.builds(Neg, inner),
            st.builds(Pow, inner, st.integers(0, 3)),
            st.builds(lambda f, a, b: Fn(f, (a, b)), st.sampled_from(["min", "max"]), inner,
                      inner),
            st.builds(lambda a: Fn("abs", (a,)), inner),
            st.builds(Asc, inner, st.sampled_from(list(RANK))),
        ]
        if not in_body:
            bounds = st.sampled_from([None, None, "a", "b"])  # a, b: ℕ, pinned below 7
            options.append(st.builds(Big, st.sampled_from(["+", "*"]), st.integers(0, 4),
                                     expressions(in_body=True), bounds))
        return st.one_of(*options)

    return st.recursive(base, extend, max_leaves=6)


def _value_text(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    v = abs(value)
    if v.denominator == 1:
        return f"{sign}{v.numerator}"
    return f"{sign}{v.numerator} / {v.denominator}"


@st.composite
def statements(draw: st.DrawFn) -> tuple[str, bool | None]:
    """A statement whose parameters are pinned by hypotheses, and its truth in Lean
    (``None``: Lean rejects it)."""
    values: dict[str, Fraction] = {}
    for name, ty in VARIABLES:
        if ty == "ℕ":
            values[name] = Fraction(draw(st.integers(0, 6)))
        elif ty == "ℤ":
            values[name] = Fraction(draw(st.integers(-6, 6)))
        else:
            values[name] = Fraction(draw(st.integers(-12, 12)), 2)
    left, right = draw(expressions()), draw(expressions())
    rel = draw(st.sampled_from(["=", "≠", "<", "≤"]))
    params = " ".join(f"({n} : {t})" for n, t in VARIABLES)
    hyps = " ".join(f"(h{n} : {n} = {_value_text(values[n])})" for n, _ in VARIABLES)
    text = f"theorem g {params} {hyps} : {render(left)} {rel} {render(right)} := by sorry"
    try:
        truth: bool | None = relation_holds(rel, left, right, Env(values))
    except Rejected:
        truth = None
    return text, truth


def _check(case: tuple[str, bool | None]) -> None:
    text, truth = case
    got = PROVER.prove([ProofTask("g", text)])[0]
    if truth is None:  # Lean rejects the statement: nothing may be decided about it
        assert got.kind is VerdictKind.INCONCLUSIVE, (text, got.kind, got.reason)
        return
    wrong = VerdictKind.REFUTED if truth else VerdictKind.PROVED
    assert got.kind is not wrong, (text, truth, got.reason, got.evidence)


@settings(max_examples=80)
@given(statements())
def test_the_prover_never_disagrees_with_leans_elaboration(case: tuple[str, bool | None]) -> None:
    _check(case)


@pytest.mark.slow
@settings(max_examples=5000)
@given(statements())
def test_the_prover_never_disagrees_with_leans_elaboration_5k(
        case: tuple[str, bool | None]) -> None:
    _check(case)


def test_most_generated_statements_are_decided() -> None:
    """The differential test above must test something: a prover that decides nothing
    never disagrees."""
    decided = []

    @settings(max_examples=40, database=None, derandomize=True)
    @given(statements())
    def collect(case: tuple[str, bool | None]) -> None:
        text, truth = case
        if truth is None:
            return
        got = PROVER.prove([ProofTask("g", text)])[0]
        decided.append(got.kind is not VerdictKind.INCONCLUSIVE)

    collect()
    assert len(decided) >= 15 and sum(decided) >= 0.8 * len(decided), decided
