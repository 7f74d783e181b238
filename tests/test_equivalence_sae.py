"""The ``sae`` criterion with the real ``smt`` prover."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

pytest.importorskip("z3")

from afcheck_equivalence.records import Eq, Inconclusive, Noneq, Pair  # noqa: E402
from afcheck_equivalence.sae import Sae  # noqa: E402
from afcheck_smt.prover import SmtProver  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from afcheck.types import ProofTask, Verdict, VerdictKind  # noqa: E402


class CountingProver:
    """The real smt prover, counting its batches."""

    name = "smt"
    version = "1"

    def __init__(self) -> None:
        self.inner = SmtProver(timeout_ms=2000)
        self.batches: list[int] = []

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        self.batches.append(len(tasks))
        return self.inner.prove(tasks)


def decide(reference: str, candidate: str, **kw: int) -> Eq | Noneq | Inconclusive:
    return Sae(SmtProver(timeout_ms=2000), **kw).decide([Pair("p", reference, candidate)])[0]


def test_renamed_and_reordered_hypotheses_are_eq_with_the_alignment() -> None:
    d = decide("theorem a (x y : ℝ) (h₀ : x ≥ 2) (h₁ : y = 1) : x + y > 0 := by sorry",
               "theorem b (q p : ℝ) (h : q = 1) (h2 : 2 <= p) : 0 < (p + q) := by sorry")
    assert isinstance(d, Eq)
    assert dict(d.alignment) == {"p": "x", "q": "y"}
    assert {o.role for o in d.certificate} >= {"premises", "conclusion"}
    assert all(o.proved for o in d.certificate if o.role in ("premises", "conclusion"))


def test_hypotheses_moved_into_the_conclusion_and_curried_are_eq() -> None:
    d = decide("theorem a (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b := by sorry",
               "theorem b (a b : ℝ) : 0 < a → 0 < b → 0 < a * b := by sorry")
    assert isinstance(d, Eq)


def test_forall_pulled_out_of_the_conclusion() -> None:
    d = decide("theorem a (a : ℝ) (h : 0 < a) : ∀ b : ℝ, 0 < b → 0 < a * b := by sorry",
               "theorem b (a b : ℝ) (h₀ : 0 < b) (h₁ : 0 < a) : 0 < b * a := by sorry")
    assert isinstance(d, Eq)


def test_odd_versus_mod_two() -> None:
    d = decide("theorem a (n : ℕ) (h₀ : n % 2 = 1) : n ^ 2 % 2 = 1 := by sorry",
               "theorem b (n : ℕ) (h₀ : Odd n) : n ^ 2 % 2 = 1 := by sorry")
    assert isinstance(d, Eq)


def test_changed_constant_is_noneq_in_the_conclusion_with_a_counterexample() -> None:
    d = decide("theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry",
               "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 5 := by sorry")
    assert isinstance(d, Noneq)
    assert d.component == "conclusion"
    assert d.failed is not None and d.counterexample is not None
    assert d.counterexample["x"] in ("2", "-2") or d.failed.refuted


def test_changed_hypothesis_is_noneq_in_the_premises() -> None:
    d = decide("theorem a (x : ℝ) (h : x = 2) : x + 1 = 3 := by sorry",
               "theorem a (x : ℝ) (h : x = 3) : x + 1 = 3 := by sorry")
    assert isinstance(d, Noneq) and d.component == "premises"


def test_binder_type_change_without_a_refutation_is_inconclusive_in_the_prefix() -> None:
    """Both statements hold: the prefixes differ, but nothing shows the meanings do."""
    d = decide("theorem a (x : ℝ) (h : x = 2) : x + 1 = 3 := by sorry",
               "theorem a (x : ℤ) (h : x = 2) : x + 1 = 3 := by sorry")
    assert isinstance(d, Inconclusive) and d.component == "prefix"
    assert "x : ℝ" in d.reason and "not a proof that the meanings differ" in d.reason


def test_quantifier_alternation_is_kept() -> None:
    d = decide("theorem a : ∀ x : ℤ, ∃ y : ℤ, y > x := by sorry",
               "theorem b : ∃ y : ℤ, ∀ x : ℤ, y > x := by sorry")
    assert isinstance(d, Noneq) and d.component == "prefix"


def test_premise_bearing_versus_premise_free_is_noneq_only_when_refuted() -> None:
    d = decide("theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry",
               "theorem b (x : ℝ) : x ^ 2 = 4 := by sorry")
    assert isinstance(d, Noneq) and d.component == "premises" and d.evidence == "refuted"
    assert d.counterexample is not None and d.counterexample["x"] != "2"
    both_true = decide("theorem a (x : ℝ) (h : x = 2) : x = 2 := by sorry",
                       "theorem b (x : ℝ) : x = x := by sorry")
    assert isinstance(both_true, Inconclusive) and both_true.component == "premises"


def test_unrelated_true_statements_are_not_eq() -> None:
    d = decide("theorem a : (2 : ℕ) + 2 = 4 := by sorry", "theorem b : (3 : ℕ) * 3 = 9 := by sorry")
    assert isinstance(d, Noneq) and d.component == "conclusion"


def test_premise_free_reversed_orientation_is_eq() -> None:
    d = decide("theorem a (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
               "theorem b (y : ℝ) : 0 ≤ y * y := by sorry")
    assert isinstance(d, Eq)
    assert any("reversed" in o.role for o in d.certificate)


def test_leaves_keep_their_type_out_of_context() -> None:
    # ``7 / 2`` is 3 in ℕ but 3.5 in ℝ: the leaf obligation must stay in ℝ.
    assert isinstance(decide("theorem a : (7 : ℝ) / 2 = 3.5 := by sorry",
                             "theorem b : (7 : ℝ) / 2 = 7 / 2 := by sorry"), Eq)
    assert isinstance(decide("theorem a : (7 : ℝ) / 2 = 3.5 := by sorry",
                             "theorem b : (7 : ℝ) / 2 = 3 := by sorry"), Noneq)


def test_vacuous_premises_are_flagged_not_eq() -> None:
    d = decide("theorem a (x : ℝ) (h : x > 0) (h2 : x < 0) : x = 1 := by sorry",
               "theorem b (x : ℝ) (h : x > 0) (h2 : x < 0) : x = 1 := by sorry")
    assert isinstance(d, Inconclusive)
    assert "vacuous-reference" in d.flags and "vacuous-candidate" in d.flags


def test_capped_enumeration_never_claims_noneq() -> None:
    reference = "theorem a (x y z : ℝ) (h : x = 1) : x + y + z = 7 := by sorry"
    candidate = "theorem b (x y z : ℝ) (h : x = 1) : x + y + z = 8 := by sorry"
    d = decide(reference, candidate, cap=2)
    assert isinstance(d, Inconclusive)
    assert "alignments-capped" in d.flags
    assert isinstance(decide(reference, candidate), Noneq)


def test_unreadable_statement_is_inconclusive() -> None:
    d = decide("theorem a (x : ℝ) : x = := by sorry", "theorem b : True := by sorry")
    assert isinstance(d, Inconclusive) and "cannot read" in d.reason


def test_all_pairs_go_to_the_prover_in_two_batches() -> None:
    prover = CountingProver()
    pairs = [Pair(str(k), f"theorem a (x : ℝ) (h : x = {k}) : x + 1 = {k + 1} := by sorry",
                  f"theorem b (y : ℝ) (h : y - {k} = 0) : y = {k} := by sorry")
             for k in range(4)]
    decisions = Sae(prover).decide(pairs)
    assert [type(d) for d in decisions] == [Eq] * 4
    # premises and conclusions of all pairs, then for the four Eq pairs the vacuity checks
    # and whether the reference conclusion holds (or fails), and its premises hold, whatever
    # x is: they do not
    assert prover.batches == [8, 20]
    assert all(any(o.role.startswith("vacuity") and o.refuted for o in d.certificate)
               for d in decisions)


def test_a_candidate_constant_is_never_captured_by_a_reference_binder() -> None:
    d = decide("theorem a (e : ℝ) (h : e > 0) : e > 0 := by sorry",
               "theorem b (y : ℝ) (h : y > 0) : e > 0 := by sorry")
    assert isinstance(d, Inconclusive) and "uses 'e' as a constant" in d.reason


def test_a_point_where_the_premises_hold_refutes_the_conclusion_obligation() -> None:
    # z3's first model of ¬(x² = 4 ↔ x³ = 4) is irrational (x = ∛4) and cannot be checked;
    # under the premises the counterexample is x = 2, which refutes the same obligation.
    d = decide("theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry",
               "theorem a (x : ℝ) (h : x = 2) : x ^ 3 = 4 := by sorry")
    assert isinstance(d, Noneq) and d.component == "conclusion"
    assert d.failed is not None and d.failed.role == "conclusion under premises"
    assert d.counterexample == {"x": "2"}


def test_identical_parts_outside_the_fragment_are_proved_by_normalisation() -> None:
    d = decide("theorem a (f : ℕ → ℕ) (h₀ : ∀ x, f x = 2 * x) (h₁ : f 1 = 2) : f 3 = 6 := by "
               "sorry",
               "theorem b (g : ℕ → ℕ) (h₁ : g 1 = 2) (h₀ : ∀ y, g y = 2 * y) : g 3 = 6 := by "
               "sorry")
    assert isinstance(d, Eq)
    by_role = {o.role: o.verdict for o in d.certificate}
    assert by_role["premises"] is not None and by_role["premises"].backend == "normalisation"
    assert by_role["conclusion"] is not None and by_role["conclusion"].backend == "normalisation"
    changed = decide("theorem a (f : ℕ → ℕ) (h₀ : ∀ x, f x = 2 * x) : f 3 = 6 := by sorry",
                     "theorem b (f : ℕ → ℕ) (h₀ : ∀ x, f x = 3 * x) : f 3 = 6 := by sorry")
    assert isinstance(changed, Inconclusive)  # outside the fragment: smt cannot refute it


# --- relational content, names, binders (the false positives on real data) ------------------
def test_bare_pi_under_open_real_is_not_real_pi_which_is_protected() -> None:
    d = Sae(SmtProver(timeout_ms=2000)).decide([Pair(
        "p", "theorem a : Real.sin (pi / 12) = 1 := by sorry",
        "theorem b : Real.sin (Real.pi / 12) = 1 := by sorry", "open Real")])[0]
    assert not isinstance(d, Eq)
    scoped = Sae(SmtProver(timeout_ms=2000)).decide([Pair(
        "p", "theorem a : Real.sin (π / 12) = 1 := by sorry",
        "theorem b : Real.sin (Real.pi / 12) = 1 := by sorry", "open scoped Real")])[0]
    assert isinstance(scoped, Eq)  # π is Real's scoped notation for Real.pi
    assert [o.verdict.backend for o in scoped.certificate if o.verdict] == ["normalisation"]


def test_two_closed_computations_with_the_same_value_are_not_eq() -> None:
    d = decide("theorem a : (54 : ℕ) % 6 = 0 := by sorry",
               "theorem b : (2000 + 2001 + 2002 + 2003 + 2004 + 2005 + 2006) % 7 = 0 := by sorry")
    assert isinstance(d, Noneq) and "different closed computations" in d.reason
    assert d.evidence == "structural" and d.failed is None
    assert d.to_json()["evidence"] == "structural"
    same = decide("theorem a : (54 : ℕ) % 6 = 0 := by sorry",
                  "theorem b : 0 = (54 : ℕ) % 6 := by sorry")
    assert isinstance(same, Eq)


def test_a_constant_edit_that_keeps_the_value_is_not_eq() -> None:
    d = decide("theorem a (x : ℝ) : x = 3 := by sorry",
               "theorem b (x : ℝ) : x = 1 + 2 := by sorry")
    assert isinstance(d, Inconclusive) and "different closed computations" in d.reason


@pytest.mark.parametrize("variant", [
    "∃ m, m ≥ n ∧ ∃ p, m * p ≤ m + p",  # > → ≥
    "∃ m, m > n ∧ ∃ p, m * p ≤ m - p",  # + → -
])
def test_perturbations_of_a_conclusion_that_always_holds_are_not_eq(variant: str) -> None:
    """amc12a_2002_p6: every version of the conclusion holds for every n, so C ↔ C′ is
    provable; the conclusions are compared leaf by leaf instead. A refuted leaf is a Noneq;
    a relation changed under ``∃`` (``>`` → ``≥``) is a structural difference with no
    refutation (both versions hold), so Inconclusive."""
    reference = ("theorem a (n : ℕ) (h₀ : 0 < n) : ∃ m, m > n ∧ ∃ p, m * p ≤ m + p "
                 ":= by sorry")
    d = decide(reference, f"theorem b (n : ℕ) (h₀ : 0 < n) : {variant} := by sorry")
    assert not isinstance(d, Eq) and "compares truth values only" in d.reason
    if isinstance(d, Noneq):
        assert d.evidence == "refuted" and d.failed is not None and d.failed.refuted
    else:
        assert "not a proof that the meanings differ" in d.reason
    renamed = decide(reference, "theorem b (k : ℕ) (h : 0 < k) : ∃ m, m > k ∧ ∃ p, m * p ≤ m + p "
                     ":= by sorry")
    assert isinstance(renamed, Eq)


def test_binders_of_unknown_types_keep_their_names_and_types() -> None:
    d = decide("theorem a (x : setS) (y : setT) : P x y := by sorry",
               "theorem b (x : setT) (y : setS) : P x y := by sorry")
    assert not isinstance(d, Eq)


def test_auto_bound_implicits_are_the_binders_lean_adds() -> None:
    """Lean binds an undeclared single letter met in a binder's type: ``(x : s) (y : t)`` and
    ``(x : t) (y : s)`` are then the same statement, and ``(f : α → β)`` is
    ``{α β : Type*} (f : α → β)``."""
    d = decide("theorem a (x : s) (y : t) : P x y := by sorry",
               "theorem b (x : t) (y : s) : P x y := by sorry")
    assert not isinstance(d, Noneq)
    declared = decide("theorem a {α β : Type*} (f : α → β) (s : Set α) : f '' s ⊆ f '' s "
                      ":= by sorry",
                      "theorem b (f : α → β) (s : Set α) : f '' s ⊆ f '' s := by sorry")
    assert isinstance(declared, Eq)


def test_every_eq_has_a_proved_obligation_in_its_certificate() -> None:
    d = decide("theorem a {G : Type*} [Group G] (x : G) : x * 1 = x := by sorry",
               "theorem b {H : Type*} [Group H] (y : H) : y * 1 = y := by sorry")
    assert isinstance(d, Eq) and d.alignment == (("H", "G"), ("y", "x"))
    assert d.certificate and all(o.proved for o in d.certificate)


def test_a_sum_of_a_hundred_terms_is_eq_to_itself() -> None:
    big = " + ".join(f"({i} : ℝ) * x ^ 2" for i in range(1, 101))
    statement = f"theorem a (x : ℝ) : {big} = 5050 * x ^ 2 := by sorry"
    assert isinstance(decide(statement, statement), Eq)


def test_obligations_outside_the_smt_fragment_are_kernel_checked_through_the_repl(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``--prover lean-tactics`` the same obligations go to Lean (here the fake REPL,
    replaying the protocol, and the fake judging toolchain): a conclusion z3 cannot read is
    proved by a tactic and certified by a judge, and the Eq's certificate says so."""
    pytest.importorskip("lean_interact")
    from afcheck_lean.tactics import LeanTacticsProver
    from fake_repl.harness import make_fake_lean, negate_for_tests
    from fake_toolchain.harness import afcheck_judge

    axioms = {"severity": "info", "pos": {"line": "$LINE_OF:#print axioms", "column": 0},
              "data": "'afcheck_target' depends on axioms: [propext, Classical.choice, "
                      "Quot.sound]"}
    rules = [
        {"env": "none", "contains": ["import Mathlib"], "response": {"env": "$ENV"}},
        {"contains": ["Real.cos x ^ 2 = 1 ↔ Real.cos x ^ 2 = 1 * 1", "by\n  norm_num",
                      "#print axioms"], "response": {"env": "$ENV", "messages": [axioms]}},
    ]
    transcript = tmp_path / "sae.jsonl"
    transcript.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rules))
    for fake in make_fake_lean(tmp_path / "lean", transcript):
        prover = LeanTacticsProver(fake.pool(), negate_for_tests,
                                   smt=SmtProver(timeout_ms=2000),
                                   judge=afcheck_judge(tmp_path / "lean", fake.settings,
                                                       monkeypatch))
        try:
            d = Sae(prover).decide([Pair(
                "p", "theorem a (x : ℝ) (h : Real.sin x = 0) : Real.cos x ^ 2 = 1 := by sorry",
                "theorem b (y : ℝ) (h : Real.sin y = 0) : Real.cos y ^ 2 = 1 * 1 := by sorry",
                "import Mathlib")])[0]
        finally:
            prover.close()
    assert isinstance(d, Eq), d
    conclusion = next(o for o in d.certificate if o.role == "conclusion")
    assert conclusion.verdict is not None and conclusion.verdict.backend == "lean-tactics"
    assert conclusion.verdict.certified and "norm_num" in conclusion.verdict.reason
    assert conclusion.verdict.judged_by == "afcheck"


def test_two_different_premises_that_always_hold_are_not_eq() -> None:
    d = decide("theorem a (x : ℝ) (h : (1 : ℝ) < 2) : x + 0 = x + 0 * x := by sorry",
               "theorem b (x : ℝ) (h : (3 : ℝ) < 5) : x + 0 = x + 0 * x := by sorry")
    assert isinstance(d, Inconclusive) and "compares truth values only" in d.reason
    same = decide("theorem a (x : ℝ) (h : x ≥ 1) : x + 0 = x + 0 * x := by sorry",
                  "theorem b (y : ℝ) (h : 1 ≤ y) : y + 0 = y + 0 * y := by sorry")
    assert isinstance(same, Eq)


class VacuityStopped:
    """The real smt prover, except that the vacuity checks (``… : False``) are stopped at a
    limit, as a z3 timeout stops them: transient INCONCLUSIVE."""

    name = "smt"
    version = "1"

    def __init__(self) -> None:
        self.inner = SmtProver(timeout_ms=2000)

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        decided = self.inner.prove(tasks)
        return [Verdict(VerdictKind.INCONCLUSIVE, self.name, reason="z3 returned unknown "
                        "(timeout)", transient=True) if "sae_vacuity" in t.statement else v
                for t, v in zip(tasks, decided, strict=True)]


def test_an_eq_whose_vacuity_check_a_limit_stopped_is_transient() -> None:
    # Had the check been decided, the pair could be flagged vacuous (not Eq): the Eq holds
    # for this run only, and the next one asks again.
    reference = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"
    candidate = "theorem b (y : ℝ) (h : y = 2) : y ^ 2 = 4 := by sorry"
    (stopped,) = Sae(VacuityStopped()).decide([Pair("p", reference, candidate)])
    assert isinstance(stopped, Eq) and stopped.transient
    (decided,) = Sae(SmtProver(timeout_ms=2000)).decide([Pair("p", reference, candidate)])
    assert isinstance(decided, Eq) and not decided.transient


# --- the premise-free rule outside the typed fragment ----------------------------------------
def test_function_typed_leaves_equal_after_normalisation_are_eq() -> None:
    d = decide("theorem a (f : ℕ → ℕ) : ∀ n : ℕ, f n < f (n + 1) := by sorry",
               "theorem b (g : ℕ → ℕ) : ∀ m : ℕ, g (m + 1) > g m := by sorry")
    assert isinstance(d, Eq)


def test_a_side_with_no_variable_gets_no_equation_out_of_the_typed_fragment() -> None:
    """``7 / 2 = 3`` holds in ℕ: stated out of context the equation would prove too much."""
    d = decide("theorem a (f : ℝ → ℝ) : ∀ x : ℝ, f x = 7 / 2 := by sorry",
               "theorem b (f : ℝ → ℝ) : ∀ x : ℝ, f x = 3 := by sorry")
    assert isinstance(d, Inconclusive) and "mentions no variable" in d.reason
    assert not any(o.statement.endswith("7 / 2 = 3 := by sorry") for o in d.obligations)


class ProvingTheseProver:
    """Stands for a prover that reads function-typed parameters as uninterpreted functions:
    it proves exactly the statements it was given (and says nothing of the others)."""

    name = "uf"
    version = "1"

    def __init__(self, proved: set[str]) -> None:
        self.proved = proved
        self.asked: list[str] = []

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        self.asked.extend(t.statement for t in tasks)
        return [Verdict(VerdictKind.PROVED if t.statement in self.proved
                        else VerdictKind.INCONCLUSIVE, self.name) for t in tasks]


def test_leaf_equations_over_function_parameters_go_to_the_prover_as_lean_statements() -> None:
    equation = "theorem sae_leaf (f : ℝ → ℝ) (x : ℝ) : f (x + 1) = f (x + 2 - 1) := by sorry"
    prover = ProvingTheseProver({equation})
    d = Sae(prover).decide([Pair("p", "theorem a (f : ℝ → ℝ) (x : ℝ) : f (x + 1) = 0 + f x "
                                 ":= by sorry",
                                 "theorem b (f : ℝ → ℝ) (x : ℝ) : f (x + 2 - 1) = 0 + f x "
                                 ":= by sorry")])[0]
    assert equation in prover.asked
    assert isinstance(d, Eq)
    assert {o.role for o in d.certificate} >= {"leaf 1 direct left", "leaf 1 direct right"}


# --- a refuted conclusion is a Noneq only where the premises hold ----------------------------
def _role(d: Noneq | Inconclusive, role: str) -> Verdict | None:
    return next((o.verdict for o in d.obligations if o.role == role), None)


def test_conclusions_agreeing_wherever_the_premises_hold_are_never_noneq() -> None:
    # ``x * 2 = 6 ↔ x ≥ 3`` fails at x = 4, which ``h`` excludes: under ``x = 3`` both
    # conclusions hold, the same proposition in Lean's sense, but not SAE (Definition 2.1).
    d = decide("theorem a (x : ℕ) (h : x = 3) : x * 2 = 6 := by sorry",
               "theorem b (x : ℕ) (h : x = 3) : x ≥ 3 := by sorry")
    assert isinstance(d, Inconclusive) and d.component == "conclusion"
    assert "agree wherever the premises hold" in d.reason
    conclusion, under = _role(d, "conclusion"), _role(d, "conclusion under premises")
    assert conclusion is not None and conclusion.kind is VerdictKind.REFUTED
    assert under is not None and under.kind is VerdictKind.PROVED
    assert not any(f.startswith("vacuous") for f in d.flags)


def test_function_conclusions_agreeing_wherever_the_premises_hold_are_never_noneq() -> None:
    # z3 refutes ``f 3 = 6 ↔ f 4 = 8`` with an ``f`` that is not ``2 * ·``.
    d = decide("theorem a (f : ℝ → ℝ) (h : ∀ y, f y = 2 * y) : f 3 = 6 := by sorry",
               "theorem b (f : ℝ → ℝ) (h : ∀ y, f y = 2 * y) : f 4 = 8 := by sorry")
    assert isinstance(d, Inconclusive) and d.component == "conclusion"
    under = _role(d, "conclusion under premises")
    assert under is not None and under.kind is VerdictKind.PROVED


def test_a_conclusion_refuted_where_the_premises_hold_stays_noneq() -> None:
    d = decide("theorem a (x : ℕ) (h : x > 2) : x > 3 := by sorry",
               "theorem b (y : ℕ) (h : y > 2) : y > 4 := by sorry")
    assert isinstance(d, Noneq) and d.evidence == "refuted" and d.component == "conclusion"
    assert d.failed is not None and d.failed.role == "conclusion under premises"
    assert d.counterexample == {"x": "4"}


def test_a_function_conclusion_refuted_where_the_premises_hold_stays_noneq() -> None:
    d = decide("theorem a (f : ℕ → ℕ) (h : f 1 = 2) : f 1 > 1 := by sorry",
               "theorem b (g : ℕ → ℕ) (h : g 1 = 2) : g 1 > 2 := by sorry")
    assert isinstance(d, Noneq) and d.component == "conclusion"
    assert d.failed is not None and d.failed.role == "conclusion under premises"
    assert d.counterexample is not None and "f" in d.counterexample


def test_a_refutation_under_undecided_premises_is_inconclusive_not_noneq() -> None:
    # z3 cannot read back an ``f`` with ``∀ y, f y = 2 * y``: under the premises nothing is
    # decided, and the unconditional refutation (``f = fun x => 6``) violates them.
    d = decide("theorem a (f : ℝ → ℝ) (h : ∀ y, f y = 2 * y) : f 3 = 6 := by sorry",
               "theorem b (g : ℝ → ℝ) (h : ∀ y, g y = 2 * y) : g 3 = 7 := by sorry")
    assert isinstance(d, Inconclusive) and d.component == "conclusion"
    assert "conclusion under premises undecided" in d.reason


def test_conclusions_under_inconsistent_premises_are_flagged_vacuous_not_noneq() -> None:
    d = decide("theorem a (x : ℕ) (h : x > 2) (h2 : x < 1) : x > 3 := by sorry",
               "theorem b (x : ℕ) (h : x > 2) (h2 : x < 1) : x > 4 := by sorry")
    assert isinstance(d, Inconclusive)
    assert {"vacuous-reference", "vacuous-candidate"} <= set(d.flags)
    assert "vacuous statement" in d.reason


def test_the_premises_under_which_conclusions_are_compared_include_the_candidates() -> None:
    # The candidate's premise ``x ≥ 3`` is equivalent to the reference's over ℤ but written
    # otherwise; the counter-model must satisfy it as written.
    d = decide("theorem a (x : ℤ) (h : x > 2) : x > 3 := by sorry",
               "theorem b (x : ℤ) (h : x ≥ 3) : x > 4 := by sorry")
    assert isinstance(d, Noneq) and d.component == "conclusion"
    assert d.failed is not None and "(h1 : x ≥ 3)" in d.failed.statement
    assert d.counterexample == {"x": "4"}


_OPS = ("=", "<", "≤", ">", "≥")
_FLIP = {"=": "=", "<": ">", "≤": "≥", ">": "<", "≥": "≤"}


def _linear(c: int, d: int, k: int, op: str, x: str, y: str, flipped: bool = False) -> str:
    left = f"{c} * {x} + {d} * {y}".replace("+ -", "- ")
    return f"{k} {_FLIP[op]} {left}" if flipped else f"{left} {op} {k}"


_atom = st.tuples(st.integers(-3, 3).filter(bool), st.integers(-3, 3), st.integers(-6, 6),
                  st.sampled_from(_OPS))


@settings(max_examples=15, deadline=None)
@given(premises=st.lists(_atom, min_size=1, max_size=2), ours=_atom, theirs=_atom,
       flip=st.booleans(), swap=st.booleans())
def test_a_refuted_noneq_counter_model_satisfies_both_sides_premises(
        premises: list[tuple[int, int, int, str]], ours: tuple[int, int, int, str],
        theirs: tuple[int, int, int, str], flip: bool, swap: bool) -> None:
    # The candidate states the same premises in its own words (renamed binders, flipped
    # relations, another order); whatever its conclusion, a refuted Noneq's counter-model is
    # a point where both sides' premises hold and the conclusions differ, evaluated exactly.
    from fractions import Fraction

    from afcheck.lean import parse_theorem
    from afcheck.lean.elaborate import elaborate
    from afcheck.lean.evaluate import holds

    def text(name: str, x: str, y: str, hyps: list[str], conclusion: str) -> str:
        binders = " ".join(f"(h{i} : {h})" for i, h in enumerate(hyps))
        return f"theorem {name} ({x} {y} : ℤ) {binders} : {conclusion} := by sorry"

    reference = text("a", "x", "y", [_linear(*p, "x", "y") for p in premises],
                     _linear(*ours, "x", "y"))
    theirs_hyps = [_linear(*p, "u", "v", flipped=flip) for p in premises]
    candidate = text("b", "u", "v", theirs_hyps[::-1] if swap else theirs_hyps,
                     _linear(*theirs, "u", "v"))
    d = decide(reference, candidate)
    if not isinstance(d, Noneq) or d.evidence != "refuted":
        return
    assert d.counterexample is not None
    point = {k: Fraction(v.strip("()").replace(" ", "")) for k, v in d.counterexample.items()}
    assert set(point) == {"x", "y"}
    renamed = {c: point[r] for c, r in d.alignment}
    ref_premises, ref_conclusion = holds(elaborate(parse_theorem(reference)), point)
    cand_premises, cand_conclusion = holds(elaborate(parse_theorem(candidate)), renamed)
    assert ref_premises and cand_premises
    assert ref_conclusion != cand_conclusion
