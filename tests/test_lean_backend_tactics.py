"""Prover ``lean-tactics`` against the fake REPL: portfolio order, witnesses, verdicts."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from afcheck_lean.judge import ProcessJudge
from afcheck_lean.tactics import PORTFOLIO, LeanTacticsProver, binder_names, witness_values
from fake_repl.harness import FakeLean, make_fake_lean, negate_for_tests
from fake_toolchain.harness import afcheck_judge

from afcheck.types import ProofTask, Verdict, VerdictKind

LINEAR = "theorem lin (x : ℝ) (h : 2 * x + 3 = 11) : x = 4 := by sorry"
WRONG = "theorem bad (x : ℚ) (h₀ : x = 5) : 2 * x + 1 = 12 := by sorry"

@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


@pytest.fixture
def judge(fake: FakeLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ProcessJudge:
    """afcheck's judge over the fake toolchain (:mod:`fake_toolchain`)."""
    return afcheck_judge(tmp_path, fake.settings, monkeypatch)


class _Smt:
    """Answers with fixed verdicts, as the smt prover does for these statements."""

    name = "smt"
    version = "test"

    def __init__(self, verdicts: dict[str, Verdict]) -> None:
        self.verdicts = verdicts

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        none = Verdict(VerdictKind.INCONCLUSIVE, "smt", reason="outside the fragment")
        return [self.verdicts.get(t.statement, none) for t in tasks]


REFUTED_BY_SMT = Verdict(VerdictKind.REFUTED, "smt", reason="sat", evidence="x = 5",
                         counterexample={"x": "5"})


def _prover(fake: FakeLean, smt: _Smt | None = None, judge: ProcessJudge | None = None,
            **kw: bool) -> LeanTacticsProver:
    return LeanTacticsProver(fake.pool(), negate_for_tests, smt=smt, judge=judge, **kw)


def _tactics_tried(fake: FakeLean, marker: str) -> list[str]:
    tried = []
    for cmd in fake.commands():
        if marker in cmd and "#print axioms" in cmd:
            tried.append(cmd.split(":=\nby\n  ", 1)[1].split("\n")[0])
    return tried


@pytest.mark.heavy
def test_portfolio_runs_in_order_and_stops_at_the_first_accepted_tactic(
        fake: FakeLean, judge: ProcessJudge) -> None:
    prover = _prover(fake, judge=judge)
    (verdict,) = prover.prove([ProofTask("k", LINEAR)])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and verdict.certified
    assert verdict.judged_by == "afcheck"
    assert verdict.backend == "lean-tactics" and "linarith" in verdict.reason
    assert "theorem afcheck_target (x : ℝ) (h : 2 * x + 3 = 11) : x = 4" in verdict.evidence
    assert _tactics_tried(fake, "x = 4") == list(PORTFOLIO[: PORTFOLIO.index("linarith") + 1])


def test_smt_counterexample_becomes_a_certified_refutation(fake: FakeLean,
                                                          judge: ProcessJudge) -> None:
    prover = _prover(fake, _Smt({WRONG: REFUTED_BY_SMT}), judge=judge)
    (verdict,) = prover.prove([ProofTask("k", WRONG)])
    prover.close()
    assert verdict.kind is VerdictKind.REFUTED and verdict.certified
    assert verdict.counterexample == {"x": "5"}
    assert "use (5)" in verdict.evidence and "certifies the smt verdict" in verdict.reason
    assert len(_tactics_tried(fake, "¬(∀")) == 1


def test_sorry_axiom_in_print_axioms_is_not_a_proof(fake: FakeLean) -> None:
    prover = _prover(fake)
    (verdict,) = prover.prove([ProofTask("k", "theorem t : (3 : ℕ) < 2 := by sorry")])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and not verdict.certified


def test_uncertified_smt_verdict_is_kept_only_with_trust_smt(fake: FakeLean) -> None:
    smt = _Smt({LINEAR.replace("x = 4", "x = 5"): REFUTED_BY_SMT})
    task = ProofTask("k", LINEAR.replace("x = 4", "x = 5"))
    (plain,) = _prover(fake, smt).prove([task])
    (trusted,) = _prover(fake, smt, trust_smt=True).prove([task])
    assert plain.kind is VerdictKind.INCONCLUSIVE
    assert not plain.transient  # every tactic answered: Lean's answer, kept in the cache
    assert trusted.kind is VerdictKind.REFUTED and trusted.backend == "smt"
    assert not trusted.certified and "not certified by Lean" in trusted.reason


@pytest.mark.heavy
def test_timeouts_make_the_task_inconclusive_with_the_reason(fake: FakeLean) -> None:
    prover = LeanTacticsProver(fake.pool(timeout_s=0.3), negate_for_tests)
    (verdict,) = prover.prove([ProofTask("k", LINEAR, header="-- fake:timeout")])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE
    assert "timed out" in verdict.reason
    assert verdict.transient  # a limit, not the statement's answer: never cached
    assert len(fake.commands()) <= 2 * 2


def test_a_header_with_an_axiom_is_never_proved(fake: FakeLean) -> None:
    task = ProofTask("k", "theorem t : (2 : ℕ) + 2 = 4 := by sorry",
                     header="axiom cheat : False")
    (verdict,) = _prover(fake).prove([task])
    assert verdict.kind is VerdictKind.INCONCLUSIVE
    assert fake.commands() == []


def test_witness_values_follow_binder_order_and_refuse_non_numerals() -> None:
    statement = "theorem t (a b : ℚ) {c : ℤ} [inst : Fact True] (h : a < b) : a + b = c := by sorry"
    assert binder_names("(a b : ℚ) {c : ℤ} [inst : Fact True] (h : a < b) : a + b = c") == [
        "a", "b", "c", "h"]
    assert witness_values(statement, {"c": "-3", "a": "1/2", "b": "7"}) == ["1/2", "7", "-3"]
    assert witness_values(statement, {"a": "sqrt(2)"}) is None


def test_without_a_judge_what_lean_accepted_stays_uncertified(fake: FakeLean) -> None:
    prover = _prover(fake, _Smt({WRONG: REFUTED_BY_SMT}))
    (verdict,) = prover.prove([ProofTask("k", WRONG)])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.unjudged is VerdictKind.REFUTED
    assert not verdict.certified and "no judge; --trust repl counts it" in verdict.reason
    counted = LeanTacticsProver(fake.pool(), negate_for_tests, smt=_Smt({WRONG: REFUTED_BY_SMT}),
                                trust="repl")
    (repl,) = counted.prove([ProofTask("k", WRONG)])
    counted.close()
    assert repl.kind is VerdictKind.REFUTED and not repl.certified
    assert repl.counterexample == {"x": "5"} and "agrees with the smt verdict" in repl.reason
    trusted = _prover(fake, _Smt({WRONG: REFUTED_BY_SMT}), trust_smt=True)
    (smt,) = trusted.prove([ProofTask("k", WRONG)])
    trusted.close()
    assert smt.kind is VerdictKind.REFUTED and smt.backend == "smt" and not smt.certified
    assert "not certified: uncertified: negation closed by" in smt.reason


def test_refutation_through_the_front_end_negation(fake: FakeLean,
                                                  judge: ProcessJudge) -> None:
    lean = pytest.importorskip("afcheck.lean")
    if not hasattr(lean, "negate"):
        pytest.skip("the front end has no negation yet")
    from afcheck_lean.negation import front_end_negation

    prover = LeanTacticsProver(fake.pool(), front_end_negation, smt=_Smt({WRONG: REFUTED_BY_SMT}),
                               judge=judge)
    (verdict,) = prover.prove([ProofTask("k", WRONG)])
    prover.close()
    assert verdict.kind is VerdictKind.REFUTED and verdict.certified
    assert "¬(∀ (x : ℚ) (h₀ : x = 5), 2 * x + 1 = 12)" in verdict.evidence


def test_the_run_stops_in_one_line_when_lean_cannot_start(fake: FakeLean) -> None:
    from afcheck_lean.pool import LeanUnavailable

    prover = LeanTacticsProver(fake.pool(header="import Mathlb"), negate_for_tests)
    with pytest.raises(LeanUnavailable, match="^prover lean-tactics: Lean could not start"):
        prover.prove([ProofTask("a", "theorem t : (2 : ℕ) + 2 = 4 := by sorry")])
    prover.close()


@pytest.mark.heavy
def test_a_statement_whose_attempts_exceed_its_budget_is_stopped_and_the_others_decided(
        fake: FakeLean, judge: ProcessJudge) -> None:
    # Each command of the slow statement takes 0.4 s: its five attempts up to linarith need
    # 2 s, more than its 1 s; the other statement's first attempt decides it.
    slow = ProofTask("slow", LINEAR, header="-- fake:slow")
    quick = ProofTask("quick", "theorem t : (2 : ℕ) + 2 = 4 := by sorry")
    prover = LeanTacticsProver(fake.pool(), negate_for_tests, statement_s=1.0, judge=judge)
    stopped, decided = prover.prove([slow, quick])
    prover.close()
    assert stopped.kind is VerdictKind.INCONCLUSIVE and stopped.transient
    assert stopped.reason.startswith("time limit: no decision within 1 s of Lean commands")
    assert 2 <= len(_tactics_tried(fake, "x = 4")) <= 3
    assert decided.kind is VerdictKind.PROVED and "norm_num" in decided.reason


@pytest.mark.heavy
def test_the_last_attempt_within_a_budget_gets_only_what_is_left(fake: FakeLean) -> None:
    # 0.75 s: the first attempt (at least 0.4 s) leaves at most 0.35 s, too little for the
    # second, which is stopped at that, not at the pool's 10 s; a loaded machine may slow
    # the first by up to 0.3 s before the second is no longer tried.
    prover = LeanTacticsProver(fake.pool(), negate_for_tests, statement_s=0.75)
    (verdict,) = prover.prove([ProofTask("slow", LINEAR, header="-- fake:slow")])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.transient
    assert "got no answer: Lean timed out after 0." in verdict.reason
    assert len(_tactics_tried(fake, "x = 4")) == 2


@pytest.mark.heavy
def test_without_a_budget_the_slow_statement_is_decided(fake: FakeLean,
                                                        judge: ProcessJudge) -> None:
    prover = LeanTacticsProver(fake.pool(), negate_for_tests, judge=judge)
    (verdict,) = prover.prove([ProofTask("slow", LINEAR, header="-- fake:slow")])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and "linarith" in verdict.reason


@pytest.mark.heavy
def test_the_factory_carries_the_statement_budget_to_the_prover(fake: FakeLean) -> None:
    from afcheck.plugins import get_plugins

    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    options = {"project": str(settings.project), "repl_dir": str(settings.repl_dir),
               "lake": settings.lake, "sandbox": "off", "memory_mb": "0", "smt": "off",
               "kernel_checks": "off", "statement_s": "0.6"}
    prover = get_plugins().create("prover", "lean-tactics", options)
    assert isinstance(prover, LeanTacticsProver) and prover.statement_s == 0.6
    (verdict,) = prover.prove([ProofTask("slow", LINEAR, header="-- fake:slow")])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.transient
    assert verdict.reason.startswith("time limit: no decision within 0.6 s of Lean commands")


def test_with_smt_hints_the_prover_stays_contained_their_z3_runs_in_killed_workers(
        fake: FakeLean) -> None:
    """A criterion with ``lean-tactics`` is decided in the run's process (no REPL pool per
    pair worker), which holds only because the hints' z3 is isolated in the smt pool."""
    from afcheck.plugins import get_plugins

    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    options = {"project": str(settings.project), "repl_dir": str(settings.repl_dir),
               "lake": settings.lake, "sandbox": "off", "kernel_checks": "off"}
    hinted = get_plugins().create("prover", "lean-tactics", {**options, "smt": "on"})
    plain = get_plugins().create("prover", "lean-tactics", {**options, "smt": "off"})
    try:
        assert isinstance(hinted, LeanTacticsProver) and hinted.smt is not None
        assert getattr(hinted.smt, "isolate", False) and hinted.contained
        assert plain.contained
    finally:
        hinted.close()
        plain.close()
