"""Proof integrity: the red-team corpus, static rules, and the Lean-side rules."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.deepseek import proof_body
from afcheck_lean.integrity import header_violation, proof_violation
from afcheck_lean.pool import ReplPool
from afcheck_lean.session import lean_interact_starter, require_lean
from afcheck_lean.settings import LeanSettings
from afcheck_lean.statement import split_statement
from afcheck_lean.verify import Candidate, verify
from fake_repl.harness import FakeLean, accept_all_transcript, make_fake_lean
from redteam.corpus import CHANGED_STATEMENTS, CHEATS, FALSE_STATEMENT

HONEST = (
    "by norm_num",
    "by\n  nlinarith [sq_nonneg (a - b), sq_nonneg (a + b)]",
    "by\n  set_option maxHeartbeats 400000 in\n  norm_num [Finset.sum_range_succ]",
    "by\n  intro x hx\n  simp only [Set.mem_setOf_eq] at hx ⊢\n  exact ⟨hx.1, by linarith⟩",
    "by\n  rcases h with ⟨k, rfl⟩\n  ring_nf\n  positivity",
    "by\n  push_neg\n  use (5)\n  all_goals first | (norm_num; done) | decide",
)

@pytest.fixture
def permissive(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean that accepts every proof with the standard axioms."""
    yield from make_fake_lean(tmp_path, accept_all_transcript(tmp_path))


def test_the_corpus_is_large_and_every_cheat_has_a_reason() -> None:
    assert len(CHEATS) >= 30
    assert len({c.name for c in CHEATS}) == len(CHEATS)
    assert all(c.reason for c in CHEATS)


@pytest.mark.parametrize("cheat", CHEATS, ids=[c.name for c in CHEATS])
def test_static_rules_reject_every_cheat(cheat: object) -> None:
    assert proof_violation(cheat.body) is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("body", HONEST)
def test_static_rules_let_honest_proofs_through(body: str) -> None:
    assert proof_violation(body) is None


def test_native_decide_only_when_allowed() -> None:
    assert proof_violation("by native_decide") is not None
    assert proof_violation("by native_decide", allow_native_decide=True) is None


def test_headers_may_define_but_not_cheat() -> None:
    assert header_violation("open Real\nnoncomputable def f (x : ℝ) : ℝ := x ^ 2") is None
    assert header_violation("set_option maxHeartbeats 0\nset_option autoImplicit false") is None
    assert header_violation("axiom cheat : False") is not None
    assert header_violation("set_option debug.skipKernelTC true") is not None


def test_zero_cheats_accepted_even_when_lean_accepts_everything(permissive: FakeLean) -> None:
    candidates = [Candidate(FALSE_STATEMENT, "", c.body) for c in CHEATS]
    with permissive.pool() as pool:
        checks = verify(pool, candidates)
        honest = verify(pool, [Candidate(FALSE_STATEMENT, "", "by norm_num")])
    assert [c for c in checks if c.accepted] == []
    assert honest[0].accepted, "the permissive fake must accept an honest-looking proof"


@pytest.mark.parametrize("completion,why", CHANGED_STATEMENTS)
def test_changed_statements_are_never_taken(completion: str, why: str) -> None:
    with pytest.raises(ValueError):
        proof_body(completion, split_statement(FALSE_STATEMENT))


@pytest.fixture
def lean_pool() -> ReplPool:
    settings = LeanSettings(timeout_s=120.0)
    if shutil.which(settings.lake) is None:
        pytest.skip("no Lean toolchain (run `afcheck lean setup`)")
    require_lean(settings, "test")
    return ReplPool(lean_interact_starter(settings), settings)


@pytest.mark.requires_lean
def test_zero_cheats_accepted_by_real_lean(lean_pool: ReplPool) -> None:
    with lean_pool as pool:
        checks = verify(pool, [Candidate(FALSE_STATEMENT, "", c.body) for c in CHEATS])
        honest = verify(pool, [Candidate("theorem t : (2 : ℕ) + 2 = 4 := by sorry", "",
                                         "by norm_num")])
    assert [c for c in checks if c.accepted] == []
    assert honest[0].accepted, honest[0].reason
