"""No criterion ever says Eq on an inequivalent pair, and sae never says Noneq on a rewrite.

Statements are generated in the SMT fragment: ``(x y : T) (h₀ : x = a) (h₁ : y = b) :
c₁ * x + c₂ * y = k`` with ``k`` making it true. Each inequivalent variant is *false*, which
the exact evaluator (:mod:`afcheck.lean.evaluate`) confirms here at a witness point before
any criterion is asked — so a true and a false statement, inequivalent by any criterion's
standard. Equivalent variants are rewrites that keep the meaning and the structure.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

pytest.importorskip("z3")

from afcheck_equivalence.logical import Logical  # noqa: E402
from afcheck_equivalence.records import DecisionKind, Pair  # noqa: E402
from afcheck_equivalence.sae import Sae  # noqa: E402
from afcheck_equivalence.syntactic import Syntactic  # noqa: E402
from afcheck_smt.prover import SmtProver  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from afcheck.lean import parse_theorem  # noqa: E402
from afcheck.lean.elaborate import elaborate  # noqa: E402
from afcheck.lean.evaluate import eval_term, holds  # noqa: E402
from afcheck.lean.typed import Cmp, Statement  # noqa: E402

SLOW = settings.default.max_examples > 1000
EXAMPLES = 200 if SLOW else 8
"""Each example is a batch of pairs; the default profile stays within a few seconds."""


@dataclass(frozen=True)
class Spec:
    ty: str
    a: int
    b: int
    c1: int
    c2: int

    @property
    def k(self) -> int:
        return self.c1 * self.a + self.c2 * self.b


def statement(s: Spec, *, x: str = "x", y: str = "y", k: int | None = None, rel: str = "=",
              c1: int | None = None, square: bool = False, hyps: str = "both",
              order: str = "xy", moved: bool = False, flipped: bool = False) -> str:
    c1 = s.c1 if c1 is None else c1
    k = s.k if k is None else k
    left = f"{c1} * {x}{' ^ 2' if square else ''} + {s.c2} * {y}"
    right = str(k) if k >= 0 else f"-{-k}"
    concl = f"{right} {rel} {left}" if flipped else f"{left} {rel} {right}"
    a, b = (str(s.a) if s.a >= 0 else f"-{-s.a}"), (str(s.b) if s.b >= 0 else f"-{-s.b}")
    h = {"h₀": f"{x} = {a}", "h₁": f"{y} = {b}"}
    names = {"both": ["h₀", "h₁"], "h0": ["h₀"]}[hyps]
    if order == "yx":
        names = list(reversed(names))
    binders = f"({x} {y} : {s.ty})" if order == "xy" else f"({y} : {s.ty}) ({x} : {s.ty})"
    if moved:
        return f"theorem t {binders} : {' → '.join(h[n] for n in names)} → {concl} := by sorry"
    hyp_text = " ".join(f"({n} : {h[n]})" for n in names)
    return f"theorem t {binders} {hyp_text} : {concl} := by sorry"


def false_at(text: str, values: dict[str, int]) -> bool:
    """Whether the premises hold and the conclusion fails at ``values`` (exactly)."""
    typed = elaborate(parse_theorem(text))
    hyps_hold, conclusion_holds = holds(typed, {k: Fraction(v) for k, v in values.items()})
    return hyps_hold and not conclusion_holds


specs = st.builds(Spec, st.sampled_from(["ℤ", "ℝ"]), st.integers(-9, 9), st.integers(-9, 9),
                  st.integers(1, 7), st.integers(1, 7))


@st.composite
def inequivalent(draw: st.DrawFn) -> tuple[str, str, dict[str, int]]:
    s = draw(specs)
    d = draw(st.integers(1, 5)) * draw(st.sampled_from([1, -1]))
    at = {"x": s.a, "y": s.b}
    kind = draw(st.sampled_from(["constant", "relation", "coefficient", "dropped", "square"]))
    if kind == "constant":
        variant = statement(s, k=s.k + d)
    elif kind == "relation":
        variant = statement(s, rel=draw(st.sampled_from(["≠", "<", ">"])))
    elif kind == "coefficient" and s.a != 0:
        variant = statement(s, c1=s.c1 + abs(d))
    elif kind == "square" and s.a not in (0, 1):
        variant = statement(s, square=True)
    else:
        variant = statement(s, hyps="h0")
        at = {"x": s.a, "y": s.b + 1}
    return statement(s), variant, at


@st.composite
def rewrite(draw: st.DrawFn) -> tuple[str, str]:
    s = draw(specs)
    kind = draw(st.sampled_from(["renamed", "reordered", "moved", "flipped"]))
    variant = {
        "renamed": lambda: statement(s, x="u", y="v"),
        "reordered": lambda: statement(s, order="yx"),
        "moved": lambda: statement(s, moved=True),
        "flipped": lambda: statement(s, flipped=True),
    }[kind]()
    return statement(s), variant


PROVER = SmtProver(timeout_ms=3000)
CRITERIA = (Syntactic(), Sae(PROVER), Logical(PROVER))


@settings(max_examples=EXAMPLES)
@given(st.lists(inequivalent(), min_size=1, max_size=4))
def test_no_criterion_says_eq_on_an_inequivalent_pair(cases: list[tuple[str, str,
                                                                         dict[str, int]]]) -> None:
    for reference, variant, at in cases:
        assert not false_at(reference, {"x": at["x"], "y": at["y"]})
        assert false_at(variant, at), (variant, at)  # the generator's claim, checked exactly
    pairs = [Pair(str(i), r, v) for i, (r, v, _) in enumerate(cases)]
    for criterion in CRITERIA:
        for pair, decision in zip(pairs, criterion.decide(pairs), strict=True):
            assert decision.kind is not DecisionKind.EQ, (criterion.name, pair, decision)


@settings(max_examples=EXAMPLES)
@given(st.lists(rewrite(), min_size=1, max_size=4))
def test_sae_proves_structure_preserving_rewrites(cases: list[tuple[str, str]]) -> None:
    pairs = [Pair(str(i), r, v) for i, (r, v) in enumerate(cases)]
    for pair, decision in zip(pairs, Sae(PROVER).decide(pairs), strict=True):
        assert decision.kind is DecisionKind.EQ, (pair, decision)


# --- closed computations and truth values ----------------------------------------------------
@dataclass(frozen=True)
class Tree:
    """A closed ℕ/ℤ term: a constant or ``(left op right)``."""

    op: str
    left: Tree | None = None
    right: Tree | None = None
    value: int = 0

    def text(self) -> str:
        if self.left is None or self.right is None:
            return str(self.value)
        return f"({self.left.text()} {self.op} {self.right.text()})"


trees = st.recursive(
    st.integers(0, 12).map(lambda v: Tree("c", value=v)),
    lambda inner: st.builds(Tree, st.sampled_from(["+", "*", "-", "%", "/"]), inner, inner),
    max_leaves=6)


@st.composite
def mutated(draw: st.DrawFn, tree: Tree) -> Tree:
    """``tree`` with one constant changed to another value or one operator to another: a
    different computation, whatever the two values are."""
    if tree.left is None or tree.right is None:
        return Tree("c", value=draw(st.integers(0, 12).filter(lambda v: v != tree.value)))
    where = draw(st.sampled_from(["op", "left", "right"]))
    if where == "op":
        op = draw(st.sampled_from([o for o in "+*-%/" if o != tree.op]))
        return Tree(op, tree.left, tree.right)
    if where == "left":
        return Tree(tree.op, draw(mutated(tree.left)), tree.right)
    return Tree(tree.op, tree.left, draw(mutated(tree.right)))


def closed_value(text: str, ty: str) -> int:
    typed = elaborate(parse_theorem(f"theorem v : ({text} : {ty}) = 0 := by sorry"))
    conclusion = typed.conclusion
    assert isinstance(conclusion, Cmp)
    return int(eval_term(conclusion.left, {}))


def literal(value: int) -> str:
    return str(value) if value >= 0 else f"-{-value}"


@settings(max_examples=EXAMPLES * 3)
@given(st.data())
def test_sae_never_says_eq_on_two_closed_statements_with_different_computations(
        data: st.DataObject) -> None:
    ty = data.draw(st.sampled_from(["ℕ", "ℤ"]))
    tree = data.draw(trees)
    other = data.draw(mutated(tree))
    # Each side states its own true value: both statements hold, so only the computations
    # tell them apart (a comparison of truth values would call them equivalent).
    reference = (f"theorem a : ({tree.text()} : {ty}) = "
                 f"{literal(closed_value(tree.text(), ty))} := by sorry")
    candidate = (f"theorem b : ({other.text()} : {ty}) = "
                 f"{literal(closed_value(other.text(), ty))} := by sorry")
    decision = Sae(PROVER).decide([Pair("p", reference, candidate)])[0]
    assert decision.kind is not DecisionKind.EQ, (reference, candidate, decision)


@st.composite
def differing_in_truth(draw: st.DrawFn) -> tuple[str, str, int]:
    """Two statements over one binder ``(x : T)`` (so the only alignment is the identity) and
    a point near which one holds and the other fails."""
    ty = draw(st.sampled_from(["ℕ", "ℤ", "ℝ"]))
    a = draw(st.integers(0, 6))
    c1, c2 = draw(st.integers(1, 4)), draw(st.integers(0, 4))
    rel = draw(st.sampled_from(["=", "≤", "<", "≠"]))
    left = f"{c1} * x + {c2}"
    k = c1 * a + c2
    change = draw(st.sampled_from(["relation", "operator", "constant", "premise"]))
    base = f"theorem a (x : {ty}) : {left} {rel} {k} := by sorry"
    if change == "relation":
        other = draw(st.sampled_from([r for r in ["=", "≤", "<", "≠", "≥", ">"] if r != rel]))
        variant = f"theorem b (x : {ty}) : {left} {other} {k} := by sorry"
    elif change == "operator":
        variant = f"theorem b (x : {ty}) : {c1} * x - {c2} {rel} {k} := by sorry"
    elif change == "constant":
        variant = f"theorem b (x : {ty}) : {left} {rel} {k + draw(st.integers(1, 3))} := by sorry"
    else:
        base = f"theorem a (x : {ty}) (h : x ≤ {a}) : {left} {rel} {k} := by sorry"
        variant = f"theorem b (x : {ty}) (h : x ≤ {a + 1}) : {left} {rel} {k} := by sorry"
    return base, variant, a


def truth_differs_somewhere(reference: str, candidate: str, start: int) -> bool:
    """Search a few points exactly for one where the two statements differ in truth."""
    left, right = elaborate(parse_theorem(reference)), elaborate(parse_theorem(candidate))
    for dx in range(-4, 5):
        env = {"x": Fraction(max(0, start + dx))}
        if _true_at(left, env) != _true_at(right, env):
            return True
    return False


def _true_at(statement: Statement, env: dict[str, Fraction]) -> bool:
    premises, conclusion = holds(statement, env)
    return not premises or conclusion


@settings(max_examples=EXAMPLES * 3)
@given(st.lists(differing_in_truth(), min_size=1, max_size=4))
def test_sae_never_says_eq_where_the_two_statements_differ_in_truth(
        cases: list[tuple[str, str, int]]) -> None:
    kept = [(r, v) for r, v, at in cases if truth_differs_somewhere(r, v, at)]
    pairs = [Pair(str(i), r, v) for i, (r, v) in enumerate(kept)]
    for pair, decision in zip(pairs, Sae(PROVER).decide(pairs), strict=True):
        assert decision.kind is not DecisionKind.EQ, (pair, decision)
