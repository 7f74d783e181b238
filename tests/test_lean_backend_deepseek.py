"""Prover ``deepseek``: prompt, extraction, statement re-attachment and pass@k verification."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from afcheck_lean.audit import split_file
from afcheck_lean.deepseek import DeepSeekProver, build_prompt, extract_code, proof_body
from afcheck_lean.integrity import proof_violation
from afcheck_lean.judge import ProcessJudge
from afcheck_lean.statement import split_statement
from fake_repl.harness import FakeLean, make_fake_lean, negate_for_tests
from fake_toolchain.harness import FakeJudge, afcheck_judge
from hypothesis import given
from hypothesis import strategies as st

from afcheck.types import ProofTask, VerdictKind

SYSTEM = "theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by sorry"
GOOD = """### Detailed Proof and Analysis
Add the equations.
```lean4
theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by
  have h : 2 * a = 12 := by sorry
  sorry
```
### Complete Lean 4 Proof
```lean4
import Mathlib
import Aesop

theorem sys (a b : ℝ) (h₀ : a + b = 10)
    (h₁ : a - b = 2) : a = 6 := by
  linarith
```
"""
CHANGED = "```lean4\ntheorem sys (a b : ℝ) (h₀ : a + b = 10) : a = 6 := by\n  linarith\n```"
CHEAT = "```lean4\ntheorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n" \
        "  exact?\n```"

@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


@pytest.fixture
def judge(fake: FakeLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ProcessJudge:
    """afcheck's judge over the fake toolchain (:mod:`fake_toolchain`)."""
    return afcheck_judge(tmp_path, fake.settings, monkeypatch)


class _Model:
    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.prompts: list[str] = []

    def __call__(self, prompts: Sequence[str], k: int) -> list[list[str]]:
        self.prompts += prompts
        return [self.answers[:k] for _ in prompts]


def test_prompt_is_the_model_card_format() -> None:
    prompt = build_prompt(SYSTEM, "import Mathlib\nopen Real")
    assert prompt.startswith("Complete the following Lean 4 code:\n\n```lean4\nimport Mathlib\n")
    assert ": a = 6 := by\n  sorry\n```\n" in prompt
    assert prompt.endswith("will guide the construction of the final formal proof.")
    assert not build_prompt(SYSTEM, "", cot=False).endswith("proof.")


def test_extraction_takes_the_last_lean4_block_and_only_its_proof_body() -> None:
    assert "linarith" in (extract_code(GOOD) or "")
    body = proof_body(GOOD, split_statement(SYSTEM))
    assert body.strip() == "by\n  linarith"


@pytest.mark.heavy
def test_pass_at_k_accepts_a_verified_sample_among_bad_ones(fake: FakeLean,
                                                           judge: ProcessJudge) -> None:
    model = _Model([CHEAT, GOOD])
    prover = DeepSeekProver(fake.pool(), model, negate_for_tests, k=2, judge=judge)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and verdict.certified
    assert verdict.judged_by == "afcheck"
    assert verdict.reason.endswith("certified by the judge afcheck with the sandbox turned off "
                                   "(--lean-sandbox off)")
    assert verdict.backend == "deepseek" and "pass@2" in verdict.reason
    assert "theorem afcheck_target (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6" \
        in verdict.evidence
    assert len(model.prompts) == 2 and "¬(∀" in model.prompts[1]


NOT_COMPILED = GOOD.replace("  linarith\n```\n", "  linarith -- fake:error\n```\n")
"""A proof the REPL accepts and Lean's compiler refuses (the fake compiler's ``fake:error``):
the judge rejects it."""


def _judged_solutions(tmp_path: Path) -> list[str]:
    """The solutions the fake judge program was run on, in order (one per judgement that
    reached it; a solution that did not compile never reaches it)."""
    return [call[1] for call in FakeJudge(tmp_path / "judge").calls()]


def test_only_the_first_accepted_sample_of_a_side_is_judged(
        fake: FakeLean, judge: ProcessJudge, tmp_path: Path) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([GOOD, GOOD, GOOD]), negate_for_tests, k=3,
                            judge=judge)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and verdict.certified
    assert len(_judged_solutions(tmp_path)) == 1


def test_a_sample_the_judge_rejects_falls_through_to_the_next_accepted_one(
        fake: FakeLean, judge: ProcessJudge, tmp_path: Path) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([NOT_COMPILED, GOOD, GOOD]), negate_for_tests,
                            k=3, judge=judge)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    # The first was accepted by the REPL, refused by the judge (it never compiled); the
    # second was judged and certified; the third was never judged.
    assert verdict.kind is VerdictKind.PROVED and verdict.certified
    assert verdict.judged_by == "afcheck"
    assert len(_judged_solutions(tmp_path)) == 1
    assert "fake:error" not in verdict.evidence


def test_when_the_judge_rejects_every_accepted_sample_nothing_is_proved(
        fake: FakeLean, judge: ProcessJudge, tmp_path: Path) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([NOT_COMPILED, NOT_COMPILED]), negate_for_tests,
                            k=2, judge=judge)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.unjudged is None
    assert "rejected by the judge afcheck: Lean did not compile Solution" in verdict.reason
    assert _judged_solutions(tmp_path) == []


def test_without_a_judge_the_repls_proof_is_uncertified(fake: FakeLean) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([CHEAT, GOOD]), negate_for_tests, k=2)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.unjudged is VerdictKind.PROVED
    assert not verdict.certified and verdict.transient
    assert "afcheck_target" in verdict.evidence
    assert prover.version == "1+judge=none+trust=judge"
    counted = DeepSeekProver(fake.pool(), _Model([CHEAT, GOOD]), negate_for_tests, k=2,
                             trust="repl")
    (repl,) = counted.prove([ProofTask("k", SYSTEM)])
    counted.close()
    assert repl.kind is VerdictKind.PROVED and not repl.certified and not repl.judged_by
    assert counted.version == "1+judge=none+trust=repl"


def test_k_limits_the_samples_checked(fake: FakeLean) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([CHEAT, GOOD]), negate_for_tests, k=1)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    assert verdict.kind is VerdictKind.INCONCLUSIVE
    assert "no verified proof in 2 sample(s)" in verdict.reason


def test_a_changed_statement_is_inconclusive_even_if_lean_would_accept_it(fake: FakeLean) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([CHANGED]), negate_for_tests, k=1)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    assert verdict.kind is VerdictKind.INCONCLUSIVE
    assert "changed the statement" in verdict.reason or "no declaration" in verdict.reason
    assert not [c for c in fake.commands() if "#print axioms" in c]


@pytest.mark.parametrize("theirs", [
    "theorem sys (a b:ℝ) (h₀:a+b=10) (h₁:a-b=2) : a=6 := by\n  linarith",
    "theorem sys (a : ℝ) (b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n  linarith",
    "theorem sys (a b : ℝ) (h₀ : (a + b) = 10) -- the sum\n    (h₁ : a - b = 2) :\n"
    "    a = 6 := by\n  linarith",
])
def test_a_reformatted_statement_is_the_same_statement(theirs: str) -> None:
    body = proof_body(f"```lean4\n{theirs}\n```", split_statement(SYSTEM))
    assert body.strip() == "by\n  linarith"


@pytest.mark.parametrize("theirs", [
    "theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 3) : a = 6 := by\n  linarith",
    "theorem sys {a b : ℝ} (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n  linarith",
    "theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 ∨ a = 7 := by\n  left",
    "theorem sys (a b : ℤ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n  omega",
    "theorem sys (x b : ℝ) (h₀ : x + b = 10) (h₁ : x - b = 2) : x = 6 := by\n  linarith",
])
def test_a_changed_statement_is_caught_whatever_its_layout(theirs: str) -> None:
    with pytest.raises(ValueError, match="changed the statement"):
        proof_body(f"```lean4\n{theirs}\n```", split_statement(SYSTEM))


SYS_PROOF = "theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n  linarith\n"
HONEST_SHAPES = {
    "namespace": f"namespace Sys\n\n{SYS_PROOF}\nend Sys\n",
    "indented namespace": "namespace Sys\n  theorem sys (a b : ℝ) (h₀ : a + b = 10) "
                          "(h₁ : a - b = 2) : a = 6 := by\n    linarith\n  end Sys\n",
    "noncomputable section": f"noncomputable section\n{SYS_PROOF}end\n",
    "set_option in, one line": f"set_option maxHeartbeats 400000 in {SYS_PROOF}",
    "open in, one line": f"open Real in {SYS_PROOF}",
    "private nonrec": f"private nonrec {SYS_PROOF}",
    "a nonrec helper after": f"{SYS_PROOF}\nnonrec theorem aux : True := trivial\n",
    "a documented helper after": f"{SYS_PROOF}\n/-- A helper. -/\nlemma aux : True := trivial\n",
    "a partial def after": f"{SYS_PROOF}\npartial def loop (n : ℕ) : ℕ := loop n\n",
    "set_option in before the next": f"{SYS_PROOF}\nset_option maxRecDepth 100 in lemma aux : "
                                      "True := trivial\n",
    "the statement in a comment before": "/- theorem sys (a b : ℝ) (h₀ : a + b = 10) "
                                         "(h₁ : a - b = 2) : a = 6 := by nlinarith -/\n"
                                         + SYS_PROOF,
    "the statement in a string before": 'def s := "theorem sys (a b : ℝ) (h₀ : a + b = 10) '
                                        '(h₁ : a - b = 2) : a = 6 := by simp"\n' + SYS_PROOF,
}


@pytest.mark.parametrize("code", HONEST_SHAPES.values(), ids=HONEST_SHAPES.keys())
def test_an_honest_file_shape_yields_the_proof_and_nothing_after_it(code: str) -> None:
    body = proof_body(f"```lean4\nimport Mathlib\n\n{code}```", split_statement(SYSTEM))
    assert body.strip() == "by\n  linarith" or body.strip() == "by\n    linarith"
    assert proof_violation(body) is None


_PREFIXES = ("", "private ", "nonrec ", "private nonrec ", "@[simp] ", "/-- Doc. -/\n",
             "set_option maxHeartbeats 400000 in ", "set_option maxHeartbeats 400000 in\n",
             "open Real in ", "open Real Nat in\n")
_SCOPES = (("", ""), ("namespace Sys\n", "end Sys\n"), ("section\n", "end\n"),
           ("noncomputable section\n", "end\n"), ("open Real\n", ""))
_AFTER = ("", "lemma aux : True := trivial\n", "/-- Doc. -/\ntheorem aux : True := trivial\n",
          "@[simp]\nlemma aux : 1 = 1 := rfl\n", "nonrec theorem aux : True := trivial\n",
          "set_option maxRecDepth 100 in\nexample : True := trivial\n",
          "open Nat in theorem aux : True := trivial\n", "#check Nat\n",
          "noncomputable def f (x : ℝ) : ℝ := x\n", "namespace Other\nend Other\n")
_BEFORE = (*_AFTER, "-- theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := "
           "by simp\n", "/-- theorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : "
           "a = 6 := by simp -/\ndef g := 1\n")


@given(st.sampled_from(_PREFIXES), st.sampled_from(_SCOPES), st.sampled_from(_BEFORE),
       st.sampled_from(_AFTER))
def test_the_proof_is_cut_at_the_next_command_whatever_surrounds_it(
        prefix: str, scope: tuple[str, str], before: str, after: str) -> None:
    opening, closing = scope
    code = f"import Mathlib\n\n{before}{opening}{prefix}{SYS_PROOF}{closing}\n{after}"
    body = proof_body(f"```lean4\n{code}```", split_statement(SYSTEM))
    assert body.strip() == "by\n  linarith", code


@pytest.mark.parametrize("shape", ["namespace", "set_option in, one line", "open in, one line",
                                   "a documented helper after"])
def test_a_proof_in_an_honest_shape_is_proved_and_certified(
        shape: str, fake: FakeLean, judge: ProcessJudge) -> None:
    completion = f"```lean4\nimport Mathlib\nimport Aesop\n\n{HONEST_SHAPES[shape]}```"
    prover = DeepSeekProver(fake.pool(), _Model([completion]), negate_for_tests, k=1,
                            judge=judge)
    (verdict,) = prover.prove([ProofTask("k", SYSTEM)])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and verdict.certified, verdict.reason


@pytest.mark.realdata
def test_the_published_proofs_are_extracted_whole_in_every_honest_shape(data_dir: Path) -> None:
    # Each file's own theorem is the target; its proof as the audit cuts it is the expected
    # body, whether the file stands as published, inside a namespace or behind a one-line
    # `set_option … in`, with a documented helper after it.
    files = sorted((data_dir / "prover_v2_minif2f").glob("*.lean"))
    assert len(files) == 221
    for path in files:
        text = path.read_text(encoding="utf-8").rstrip() + "\n"
        (declaration, *_) = split_file(text) or []
        target = split_statement(text[declaration.start : declaration.body_start] + " by sorry")
        expected = text[declaration.body_start : declaration.proof_end].strip()
        header, theorem = text[: declaration.start], text[declaration.start :]
        for shaped in (text, f"{header}namespace Published\n{theorem}end Published\n",
                       f"{header}set_option maxRecDepth 1000 in {theorem}",
                       f"{text}\n/-- A helper. -/\nlemma aux : True := trivial\n"):
            body = proof_body(f"```lean4\n{shaped}```", target)
            assert body.strip() == expected, path.name


@pytest.mark.heavy
def test_the_run_stops_in_one_line_when_lean_cannot_start(fake: FakeLean) -> None:
    from afcheck_lean.pool import LeanUnavailable

    prover = DeepSeekProver(fake.pool(header="import Mathlb"), _Model([GOOD]), negate_for_tests,
                            k=1)
    with pytest.raises(LeanUnavailable, match="^prover deepseek: Lean could not start"):
        prover.prove([ProofTask("k", SYSTEM)])
    prover.close()


@pytest.mark.heavy
def test_a_sample_whose_check_timed_out_leaves_a_transient_verdict(fake: FakeLean) -> None:
    prover = DeepSeekProver(fake.pool(timeout_s=0.3), _Model([GOOD]), negate_for_tests, k=1)
    (stopped,) = prover.prove([ProofTask("k", SYSTEM, header="-- fake:timeout")])
    (answered,) = prover.prove([ProofTask("k", SYSTEM.replace("a = 6", "a = 7"))])
    prover.close()
    assert stopped.kind is VerdictKind.INCONCLUSIVE and stopped.transient
    assert answered.kind is VerdictKind.INCONCLUSIVE and not answered.transient


WRONG_PROOF = "```lean4\ntheorem sys (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n" \
              "  simp\n```"


@pytest.mark.heavy
def test_a_statement_whose_checks_exceed_its_budget_is_stopped_and_the_others_decided(
        fake: FakeLean, judge: ProcessJudge) -> None:
    # The slow statement's first sample takes 0.4 s to check, more than its 0.3 s: it is
    # stopped there and its verified sample is never checked; the other statement's is.
    slow = ProofTask("slow", SYSTEM, header="-- fake:slow")
    quick = ProofTask("quick", SYSTEM)
    prover = DeepSeekProver(fake.pool(), _Model([WRONG_PROOF, GOOD]), negate_for_tests, k=2,
                            statement_s=0.3, judge=judge)
    stopped, decided = prover.prove([slow, quick])
    prover.close()
    assert stopped.kind is VerdictKind.INCONCLUSIVE and stopped.transient
    assert stopped.reason.startswith("time limit: no decision within 0.3 s of Lean commands "
                                     "(1 command(s) run)")
    assert decided.kind is VerdictKind.PROVED and decided.certified
    assert sum("fake:slow" in c for c in fake.commands()) == 1


@pytest.mark.heavy
def test_without_a_budget_the_slow_statement_is_proved(fake: FakeLean,
                                                       judge: ProcessJudge) -> None:
    prover = DeepSeekProver(fake.pool(), _Model([WRONG_PROOF, GOOD]), negate_for_tests, k=2,
                            judge=judge)
    (verdict,) = prover.prove([ProofTask("slow", SYSTEM, header="-- fake:slow")])
    prover.close()
    assert verdict.kind is VerdictKind.PROVED and verdict.certified
