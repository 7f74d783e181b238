"""Proof integrity: the red-team corpus, static rules, and the Lean-side rules."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.audit import audit_text
from afcheck_lean.deepseek import proof_body
from afcheck_lean.integrity import (
    RESOURCE_BOUNDS,
    bounds_for,
    find_header_violation,
    find_proof_violation,
    header_violation,
    proof_violation,
)
from afcheck_lean.pool import ReplPool
from afcheck_lean.session import lean_interact_starter, require_lean
from afcheck_lean.settings import LeanSettings
from afcheck_lean.statement import split_statement
from afcheck_lean.verify import Candidate, verify
from fake_repl.harness import FakeLean, accept_all_transcript, make_fake_lean
from redteam.corpus import (
    CHANGED_STATEMENTS,
    CHEATS,
    EVASIONS,
    FALSE_STATEMENT,
    HEADER_CHEATS,
    HONEST_BODIES,
    HONEST_HEADERS,
    Cheat,
)

ALL_CHEATS = CHEATS + EVASIONS

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
    assert len(ALL_CHEATS) >= 100
    assert len({c.name for c in ALL_CHEATS}) == len(ALL_CHEATS)
    assert all(c.reason and c.rule for c in ALL_CHEATS + HEADER_CHEATS)


@pytest.mark.parametrize("cheat", ALL_CHEATS, ids=[c.name for c in ALL_CHEATS])
def test_static_rules_reject_every_cheat_with_its_rule(cheat: Cheat) -> None:
    found = find_proof_violation(cheat.body)
    assert found is not None, cheat.reason
    assert found.rule == cheat.rule, str(found)
    assert proof_violation(cheat.body) == f"proof {found}"


@pytest.mark.parametrize("cheat", HEADER_CHEATS, ids=[c.name for c in HEADER_CHEATS])
def test_header_rules_reject_every_cheating_header_with_its_rule(cheat: Cheat) -> None:
    found = find_header_violation(cheat.body)
    assert found is not None, cheat.reason
    assert found.rule == cheat.rule, str(found)


@pytest.mark.parametrize("body", HONEST + HONEST_BODIES)
def test_static_rules_let_honest_proofs_through(body: str) -> None:
    assert proof_violation(body) is None


@pytest.mark.parametrize("header", HONEST_HEADERS)
def test_header_rules_let_honest_headers_through(header: str) -> None:
    assert header_violation(header) is None


def test_a_proof_may_lower_a_resource_bound_but_not_raise_it() -> None:
    bound = RESOURCE_BOUNDS["maxHeartbeats"]
    assert proof_violation(f"by\n  set_option maxHeartbeats {bound} in\n  simp") is None
    assert proof_violation(f"by\n  set_option maxHeartbeats {bound + 1} in\n  simp")
    assert proof_violation("by\n  set_option maxHeartbeats 10 in\n  simp",
                           bounds={"maxHeartbeats": 5}) is not None


def test_the_rule_reports_where_the_offending_text_is() -> None:
    body = "by\n  norm_num\n  exact?"
    found = find_proof_violation(body)
    assert found is not None and found.span == "exact?"
    assert found.located(body) == "3:3: search-tactic: 'exact?' (uses a proof-search or " \
        "suggestion tactic ('exact?'))"


def test_hint_is_a_tactic_only_where_a_tactic_starts() -> None:
    assert proof_violation("by\n  have hint : x = 1 := h\n  simp [hint]") is None
    assert proof_violation("by\n  obtain ⟨hint, -⟩ := h\n  exact hint") is None
    assert proof_violation("by\n  hint") is not None
    assert proof_violation("by\n  first | hint | simp") is not None


@pytest.mark.realdata
def test_every_published_deepseek_prover_v2_minif2f_proof_passes(data_dir: Path) -> None:
    files = sorted((data_dir / "prover_v2_minif2f").glob("*.lean"))
    assert len(files) == 221
    rejected = {f.name: audit_text(f.read_text(encoding="utf-8")).one_line() for f in files}
    assert {name: line for name, line in rejected.items() if line != "accepted"} == {}


@pytest.mark.realdata
def test_the_published_proofs_with_cheats_spliced_in_are_rejected(data_dir: Path) -> None:
    # The same real files, each with one cheat appended to its proof: the audit must not be
    # fooled by a long honest prefix. (Re-indented, a command-position cheat is just an unknown
    # tactic inside the proof, which Lean rejects.)
    files = sorted((data_dir / "prover_v2_minif2f").glob("*.lean"))
    spliceable = [c for c in ALL_CHEATS
                  if c.body.startswith("by") and c.rule != "command-position"]
    for path, cheat in zip(files, spliceable, strict=False):
        text = path.read_text(encoding="utf-8").rstrip()
        tactics = cheat.body.removeprefix("by").strip(" \n")
        spliced = f"{text}\n  {tactics}\n"
        assert not audit_text(spliced).accepted, (path.name, cheat.name)


def test_native_decide_only_when_allowed() -> None:
    assert proof_violation("by native_decide") is not None
    assert proof_violation("by native_decide", allow_native_decide=True) is None


def test_headers_may_define_but_not_cheat() -> None:
    assert header_violation("open Real\nnoncomputable def f (x : ℝ) : ℝ := x ^ 2") is None
    assert header_violation("set_option maxHeartbeats 0\nset_option autoImplicit false") is None
    assert header_violation("axiom cheat : False") is not None
    assert header_violation("set_option debug.skipKernelTC true") is not None


def test_zero_cheats_accepted_even_when_lean_accepts_everything(permissive: FakeLean) -> None:
    candidates = [Candidate(FALSE_STATEMENT, "", c.body) for c in ALL_CHEATS]
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
        checks = verify(pool, [Candidate(FALSE_STATEMENT, "", c.body) for c in ALL_CHEATS])
        honest = verify(pool, [Candidate("theorem t : (2 : ℕ) + 2 = 4 := by sorry", "",
                                         "by norm_num")])
    assert [c for c in checks if c.accepted] == []
    assert honest[0].accepted, honest[0].reason


def test_a_proof_gets_no_more_heartbeats_than_the_pool_header_allows(
        permissive: FakeLean) -> None:
    body = "by\n  set_option maxHeartbeats 300000 in\n  norm_num"
    assert bounds_for("set_option maxHeartbeats 200000")["maxHeartbeats"] == 200_000
    assert bounds_for("set_option maxHeartbeats 0")["maxHeartbeats"] == 400_000
    with permissive.pool(header="import Mathlib\nset_option maxHeartbeats 200000") as pool:
        (tight,) = verify(pool, [Candidate(FALSE_STATEMENT, "", body)])
    with permissive.pool() as pool:
        (default,) = verify(pool, [Candidate(FALSE_STATEMENT, "", body)])
    assert not tight.accepted and "outside 1..200000" in tight.reason
    assert default.accepted


def test_a_line_that_may_start_a_command_after_a_complete_tactic_is_refused() -> None:
    assert proof_violation("by\n  simp\n    erase_aesop_rules [x]") is not None
    assert proof_violation("by\n  exact foo\n    erase_aesop_rules [x]") is not None
    # What cannot be a keyword continues the term: a binder name of the statement, a name
    # introduced in the proof, or a line after a word that needs an argument.
    assert proof_violation("by\n  exact mul_pos\n    ha hb",
                           signature="(a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 0 < a * b") is None
    assert proof_violation("by\n  intro x hx\n  exact foo\n    hx") is None
    assert proof_violation("by\n  exact\n    foo bar") is None


def test_elaboration_time_evaluation_is_refused_in_proofs_and_headers() -> None:
    for body in ("by slim_check", "by plausible", "by polyrith", "by\n  exact eval% 2"):
        assert find_proof_violation(body).rule == "evaluation"  # type: ignore[union-attr]
    found = find_header_violation('def s : String := include_str "/etc/passwd"')
    assert found is not None and found.rule == "evaluation"
    # `eval` as a name, `%` as remainder: no evaluation.
    assert proof_violation("by\n  have eval : 5 % 2 = 1 := by norm_num\n  exact eval") is None


def test_a_signature_and_interpolated_code_are_terms_where_no_command_starts() -> None:
    signature = ("(a : ℝ) (ha : 0 < a) :\n    Tendsto (λ y => y + a)\n    atTop (𝓝 a) ∧\n"
                 "    |a - 1| < 2 →\n    atTop = atTop")
    assert header_violation(signature, term=True) is None
    assert header_violation(signature) is not None  # read as commands, `atTop` could be one
    assert header_violation('def msg (n : ℕ) : String := s!"value {n} of {n + 1}"') is None
    assert header_violation('def msg : String := s!"{IO.getEnv \\"KEY\\"}"') is not None


def test_no_cheating_file_of_any_mechanism_gets_through_the_prover_path(
        permissive: FakeLean) -> None:
    # Each red-team file cut as a prover's task is: its header, afcheck's (false) statement,
    # its body. Lean here accepts everything, so only afcheck's own rules can refuse them. The
    # files whose cheat sits in their own theorem's signature (a binder's default value, an
    # `unsafe` modifier) are left out: the provers never check a formaliser's theorem text,
    # only afcheck's statement.
    from afcheck_lean.audit import split_file
    from redteam.mechanisms import ALL as MECHANISMS

    in_signature = {"signature-string", "unsafe-theorem"}
    candidates = []
    for cheat in MECHANISMS:
        if cheat.name in in_signature:
            continue
        (first, *_) = split_file(cheat.text) or []
        candidates.append(Candidate(FALSE_STATEMENT, cheat.text[: first.start],
                                    cheat.text[first.body_start : first.end]))
    with permissive.pool() as pool:
        checks = verify(pool, candidates)
    assert len(checks) == len(MECHANISMS) - len(in_signature)
    assert [c.reason for c in checks if c.accepted] == []
