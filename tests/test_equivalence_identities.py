"""What Lean identifies, ``sae`` never calls different; a local binder never reads as a global.

- Property: a statement and a rewrite of it that Lean reads as the same statement (binder
  brackets, instance binders of propositions, named and anonymous arrows, ``¬∃``/``∀¬``,
  universe parameters, an ``abbrev`` unfolded, symmetric relations and commutative
  connectives swapped, binders renamed, an auto-bound implicit, an ``abbrev`` of the preamble),
  generated, are never Noneq.
- The shipped suite ``equivalence-lean-identities``: pairs in the style of a formaliser's
  predictions, labelled; no Eq on an inequivalent pair, no Noneq on an equivalent one, and
  every equivalent pair Eq.
- The shadowing family, both ways: under ``open Real`` a binder ``sqrt`` (``exp``, ``cos``,
  ``∀ sqrt``) is a variable, on the reference's side or the candidate's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("z3")

from afcheck_equivalence.records import DecisionKind, Eq, Noneq, Pair  # noqa: E402
from afcheck_equivalence.sae import Sae  # noqa: E402
from afcheck_equivalence.syntactic import Syntactic  # noqa: E402
from afcheck_smt.prover import SmtProver  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SUITE = Path(__file__).resolve().parent.parent / "suites" / "equivalence-lean-identities"
SLOW = settings.default.max_examples > 1000
EXAMPLES = 150 if SLOW else 10


def sae() -> Sae:
    return Sae(SmtProver(timeout_ms=2000))


# --- generated statements and their Lean-identical rewrites -------------------------------
@dataclass(frozen=True)
class Hyp:
    """A hypothesis: its proposition, and whether it is a class (may be an instance binder)."""

    prop: str
    cls: bool = False
    swap: str = ""
    """The proposition with a symmetric relation or a connective swapped (Lean-identical)."""


HYPS = {
    "real": [Hyp("x < y"), Hyp("0 < x"), Hyp("x = 2 * y", swap="2 * y = x"),
             Hyp("0 < x ∧ y < 1", swap="y < 1 ∧ 0 < x"), Hyp("x ≠ y", swap="y ≠ x"),
             Hyp("¬ x < y", swap="y ≤ x"), Hyp("x ∈ Set.Icc (0 : ℝ) 1",
                                             swap="(0 : ℝ) ≤ x ∧ x ≤ 1")],
    "group": [Hyp("IsSolvable G", cls=True), Hyp("IsCyclic G", cls=True),
              Hyp("Fact (1 < Nat.card G)", cls=True)],
}
CONCLUSIONS = {
    "real": ["x + y ≤ x * y + 1", "∃ z : ℝ, x < z ∧ z < x + 1",
             "¬ ∃ z : ℝ, z < x ∧ x < z", "x ^ 2 + y ^ 2 ≥ 0 ∨ x = y"],
    "group": ["∀ a b : G, a * b = b * a", "¬ ∃ a : G, a ≠ a", "Nat.card G ≠ 0"],
}
OBJECTS = {"real": "(x y : ℝ)", "group": "{G : Type*} [Group G]"}


def pushed(conclusion: str) -> str:
    """``¬ ∃ z : T, P`` as ``∀ z : T, ¬ (P)``; anything else unchanged."""
    if not conclusion.startswith("¬ ∃ "):
        return conclusion
    binder, _, body = conclusion[len("¬ ∃ "):].partition(", ")
    return f"∀ {binder}, ¬ ({body})"


def swapped(conclusion: str) -> str:
    for op in (" ∨ ", " = "):
        if op in conclusion and "∃" not in conclusion and "∀" not in conclusion:
            left, _, right = conclusion.partition(op)
            return f"{right}{op}{left}"
    return conclusion


@st.composite
def identical(draw: st.DrawFn) -> tuple[str, str, str]:
    """A statement, a Lean-identical rewrite of it, and the rewrites applied."""
    kind = draw(st.sampled_from(sorted(HYPS)))
    hyps = draw(st.lists(st.sampled_from(HYPS[kind]), min_size=0, max_size=3, unique=True))
    conclusion = draw(st.sampled_from(CONCLUSIONS[kind]))
    objects = OBJECTS[kind]
    applied: list[str] = []

    def maybe(name: str) -> bool:
        if draw(st.booleans()):
            applied.append(name)
            return True
        return False

    ref_binders = " ".join(f"(h{i} : {h.prop})" for i, h in enumerate(hyps))
    reference = f"theorem t {objects} {ref_binders} : {conclusion} := by sorry"
    cand_objects = objects
    if kind == "real" and maybe("brackets"):
        cand_objects = draw(st.sampled_from(["{x y : ℝ}", "⦃x y : ℝ⦄", "(x : ℝ) (y : ℝ)"]))
    if kind == "group" and maybe("universe"):
        cand_objects = "{G : Type u} [Group G]"
    elif kind == "group" and maybe("auto-bound"):
        cand_objects = "[Group G]"
    binders: list[str] = []
    arrows: list[str] = []
    for i, h in enumerate(hyps):
        prop = h.swap if h.swap and maybe(f"swap h{i}") else h.prop
        if h.cls and maybe(f"instance h{i}"):
            binders.append(f"[{prop}]")
        elif maybe(f"arrow h{i}"):
            arrows.append(f"(h{i} : {prop}) → " if maybe(f"named h{i}") else f"{prop} → ")
        else:
            binders.append(f"(hyp{i} : {prop})")
    body = conclusion
    if maybe("prenex"):
        body = pushed(body)
    if maybe("swap conclusion"):
        body = swapped(body)
    name = "t.{u}" if "Type u" in cand_objects else "t"
    candidate = f"theorem {name} {cand_objects} {' '.join(binders)} : {''.join(arrows)}{body}"
    if kind == "real" and maybe("renamed"):
        candidate = candidate.replace("x", "p").replace("y", "q").replace("hyp", "hh")
    if "Set.Icc (0 : ℝ) 1" in candidate and maybe("abbrev"):
        candidate = "abbrev I := Set.Icc (0 : ℝ) 1\n" + candidate.replace("Set.Icc (0 : ℝ) 1",
                                                                          "I")
    candidate += " := by sorry"
    return reference, candidate, ", ".join(applied) or "none"


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(identical(), min_size=1, max_size=4))
def test_sae_never_says_noneq_on_a_lean_identical_rewrite(
        cases: list[tuple[str, str, str]]) -> None:
    decisions = sae().decide([Pair(str(i), r, c) for i, (r, c, _) in enumerate(cases)])
    for (reference, candidate, applied), decision in zip(cases, decisions, strict=True):
        assert not isinstance(decision, Noneq), (applied, reference, candidate,
                                                 decision.reason)


def test_the_rewrites_the_property_draws_are_decided_eq_when_alone() -> None:
    """The generator's rewrites are closed by the normalisations (not just left open)."""
    pairs = [
        ("theorem t {G : Type*} [Group G] (h0 : IsSolvable G) : ∀ a b : G, a * b = b * a",
         "theorem t.{u} {G : Type u} [Group G] [IsSolvable G] : ∀ a b : G, a * b = b * a"),
        ("theorem t (x y : ℝ) (h0 : x < y) : ¬ ∃ z : ℝ, z < x ∧ x < z",
         "theorem t {p q : ℝ} : (h0 : p < q) → ∀ z : ℝ, ¬ (z < p ∧ p < z)"),
        ("theorem t (x y : ℝ) (h0 : x = 2 * y) (h1 : x ≠ y) : x ^ 2 + y ^ 2 ≥ 0 ∨ x = y",
         "theorem t ⦃x y : ℝ⦄ (a : y ≠ x) : 2 * y = x → x = y ∨ x ^ 2 + y ^ 2 ≥ 0"),
    ]
    decisions = sae().decide([Pair(str(i), r + " := by sorry", c + " := by sorry")
                              for i, (r, c) in enumerate(pairs)])
    assert [d.kind for d in decisions] == [DecisionKind.EQ] * len(pairs), \
        [d.reason for d in decisions]


# --- the labelled suite ----------------------------------------------------------------------
def rows() -> list[dict[str, str]]:
    return [json.loads(line) for line in (SUITE / "items.jsonl").read_text(
        encoding="utf-8").splitlines() if line]


def test_the_labelled_suite_has_both_labels_in_every_group() -> None:
    found = rows()
    groups = {r["group"] for r in found}
    assert groups == {"instance-vs-hypothesis", "arrow", "prenex", "binders", "symmetric",
                      "mathlib", "shadowing"}
    for group in groups:
        assert {r["gold"] for r in found if r["group"] == group} == {"equivalent",
                                                                    "inequivalent"}


@pytest.mark.parametrize("criterion", ["sae", "syntactic"])
def test_the_labelled_suite_has_no_eq_on_a_pair_whose_meaning_differs(criterion: str) -> None:
    found = rows()
    judge = sae() if criterion == "sae" else Syntactic()
    decisions = judge.decide([Pair(r["id"], r["reference"], r["candidate"], r["header"])
                              for r in found])
    wrong = [r["id"] for r, d in zip(found, decisions, strict=True)
             if r["gold"] == "inequivalent" and isinstance(d, Eq)]
    assert not wrong


def test_sae_decides_every_equivalent_pair_of_the_suite_eq_and_none_noneq() -> None:
    found = rows()
    decisions = sae().decide([Pair(r["id"], r["reference"], r["candidate"], r["header"])
                              for r in found])
    equivalent = [(r["id"], d) for r, d in zip(found, decisions, strict=True)
                  if r["gold"] == "equivalent"]
    assert not [i for i, d in equivalent if isinstance(d, Noneq)]
    assert [i for i, d in equivalent if not isinstance(d, Eq)] == []


# --- a local binder shadows every global of its name ---------------------------------------
SHADOWED = [
    ("(sqrt : ℝ → ℝ) (x : ℝ)", "sqrt (x ^ 2) = |x|", "Real.sqrt (x ^ 2) = |x|"),
    ("(exp : ℝ → ℝ) (x : ℝ)", "0 < exp x", "0 < Real.exp x"),
    ("(cos : ℝ → ℝ) (x : ℝ)", "cos x ≤ 1", "Real.cos x ≤ 1"),
]


@pytest.mark.parametrize(("binders", "local", "global_"), SHADOWED,
                         ids=["sqrt", "exp", "cos"])
@pytest.mark.parametrize("local_side", ["candidate", "reference"])
@pytest.mark.parametrize("criterion", ["sae", "syntactic"])
def test_a_binder_named_like_an_opened_function_is_a_variable(
        binders: str, local: str, global_: str, local_side: str, criterion: str) -> None:
    shadowed = f"theorem t {binders} : {local} := by sorry"
    meant = f"theorem t {binders} : {global_} := by sorry"
    renamed = f"theorem t (f : ℝ → ℝ) (x : ℝ) : {global_} := by sorry"
    judge = sae() if criterion == "sae" else Syntactic()
    pairs = [(shadowed, meant), (shadowed, renamed)]
    if local_side == "reference":
        pairs = [(b, a) for a, b in pairs]
    decisions = judge.decide([Pair(str(i), a, b, "open Real") for i, (a, b) in enumerate(pairs)])
    assert not any(isinstance(d, Eq) for d in decisions), [d.reason for d in decisions]


@pytest.mark.parametrize("criterion", ["sae", "syntactic"])
def test_a_quantified_binder_named_like_an_opened_function_is_a_variable(
        criterion: str) -> None:
    judge = sae() if criterion == "sae" else Syntactic()
    local = "theorem t : ∀ sqrt : ℝ → ℝ, ∀ x : ℝ, sqrt (x ^ 2) = |x| := by sorry"
    meant = "theorem t : ∀ f : ℝ → ℝ, ∀ x : ℝ, Real.sqrt (x ^ 2) = |x| := by sorry"
    decisions = judge.decide([Pair("a", local, meant, "open Real"),
                              Pair("b", meant, local, "open Real")])
    assert not any(isinstance(d, Eq) for d in decisions)


def test_an_opened_function_not_shadowed_is_still_the_global_one() -> None:
    d = sae().decide([Pair("p", "theorem t (x : ℝ) : sqrt (x ^ 2) = |x| := by sorry",
                           "theorem t (y : ℝ) : Real.sqrt (y ^ 2) = |y| := by sorry",
                           "open Real")])[0]
    assert isinstance(d, Eq)
