"""Judges: a certified verdict comes from the judge's own result file, never from what the
candidate printed (:mod:`afcheck_lean.judge`).

Lean is not installed here: a fake ``lean`` (:mod:`fake_toolchain.lean`) compiles anything
to a JSON module while printing forged REPL replies and trying to reach outside its scratch
directory, and a stand-in for afcheck's judge (:mod:`fake_toolchain.judge`) checks that
module as ``AfcheckJudge.lean`` checks an ``.olean``. The ``requires_lean`` tests at the end
run the real judge on the same exploits."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from afcheck_lean import sandbox as sandbox_module
from afcheck_lean.deepseek import DeepSeekProver
from afcheck_lean.factories import judge_for
from afcheck_lean.judge import (
    Challenge,
    JudgeUnavailable,
    ProcessJudge,
    Solution,
    Trust,
    default_trust,
    new_nonce,
    read_result,
    set_default_trust,
    write_result,
)
from afcheck_lean.judges import build, toolchain_for
from afcheck_lean.sandbox import set_default_mode
from afcheck_lean.settings import DEFAULT_HEADER, LeanSettings
from afcheck_lean.statement import TARGET_NAME, split_statement
from afcheck_lean.verify import Candidate, _case, verify
from fake_repl.harness import FakeLean, make_fake_lean, negate_for_tests
from fake_toolchain.exploits import EXPLOITS, STATEMENT, Exploit, solution_source
from fake_toolchain.harness import FakeJudge, install
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afcheck.errors import UsageError
from afcheck.types import ProofTask, VerdictKind

LINEAR = "theorem t (x : ℝ) (h : 2 * x + 3 = 11) : x = 4 := by sorry"
SECRET = "sk-parent-secret-0000"


@dataclass(frozen=True)
class Fake:
    lean: FakeLean
    judge: FakeJudge
    root: Path

    @property
    def settings(self) -> LeanSettings:
        return self.lean.settings

    def afcheck_judge(self, **changes: object) -> ProcessJudge:
        settings = replace(self.settings, **changes)  # type: ignore[arg-type]
        made = build("afcheck", toolchain_for(settings))
        return replace(made, root=self.root / "cases")


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Fake]:
    lean = next(make_fake_lean(tmp_path))
    judge = install(tmp_path, lean.settings.project)
    (tmp_path / "cases").mkdir()
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ.get('PATH', '')}")
    monkeypatch.setenv("AFCHECK_FAKE_SECRET", SECRET)
    yield Fake(lean, judge, tmp_path)


def _case_of(statement: str, body: str) -> tuple[Challenge, Solution]:
    return _case(Candidate(statement, "", body), DEFAULT_HEADER, False)


def _exploit_case(exploit: Exploit) -> tuple[Challenge, Solution]:
    challenge, _ = _case_of(STATEMENT, "by sorry")
    return challenge, Solution(solution_source(challenge.header, exploit))


# -- the result channel ------------------------------------------------------------------------


def test_an_honest_proof_is_certified_by_the_judge_and_says_how_it_was_isolated(
        fake: Fake) -> None:
    (judgement,) = fake.afcheck_judge().judge([_case_of(LINEAR, "by\n  linarith")])
    assert judgement.certified and judgement.decided
    assert judgement.judge == "afcheck" and judgement.sandbox == "off"
    (call,) = fake.judge.calls()
    assert call[2] == TARGET_NAME and call[3] == "Classical.choice,Quot.sound,propext"


def test_the_challenge_is_afchecks_statement_with_sorry_and_the_solution_its_body() -> None:
    challenge, solution = _case_of(LINEAR, "by\n  linarith")
    assert challenge.theorem == split_statement(LINEAR).with_sorry()
    assert challenge.header.startswith("import Mathlib")
    assert "import AfcheckKernel" not in challenge.header
    assert solution.source.endswith(f"theorem {TARGET_NAME} (x : ℝ) (h : 2 * x + 3 = 11) : "
                                    "x = 4 :=\nby\n  linarith\n")


def test_what_the_candidate_prints_and_writes_outside_its_scratch_never_certifies(
        fake: Fake) -> None:
    # The compilation prints replies forged in the REPL's and the judge's shapes and writes
    # a certifying result where it guesses the judge's directory: the judge's own file says
    # the proof rests on sorry.
    (judgement,) = fake.afcheck_judge().judge([_case_of(LINEAR, "by\n  sorry")])
    assert not judgement.certified and judgement.decided
    assert "sorryAx" in judgement.reason
    (call,) = fake.judge.calls()
    assert not call[5].endswith("/judge-0/judgement.json")


def test_a_judge_that_only_prints_its_answer_certifies_nothing(fake: Fake) -> None:
    fake.judge.set_mode("silent")
    (judgement,) = fake.afcheck_judge().judge([_case_of(LINEAR, "by\n  linarith")])
    assert not judgement.certified and judgement.reason == "the judge wrote no result"
    assert len(fake.judge.calls()) == 1


def test_a_result_under_another_nonce_certifies_nothing(fake: Fake) -> None:
    fake.judge.set_mode("wrong-nonce")
    (judgement,) = fake.afcheck_judge().judge([_case_of(LINEAR, "by\n  linarith")])
    assert not judgement.certified and "another run's nonce" in judgement.reason


def test_a_process_the_candidate_leaves_behind_is_killed_before_the_judge_runs(
        fake: Fake) -> None:
    # It keeps writing certifying results into every judge-* directory it finds; the judge's
    # directory is made after it was killed, under a name it cannot know.
    body = "by\n  -- fake:linger\n  sorry"
    (judgement,) = fake.afcheck_judge().judge([_case_of(LINEAR, body)])
    assert not judgement.certified and "sorryAx" in judgement.reason


def test_a_lingering_process_is_dead_once_the_compilation_returned(fake: Fake) -> None:
    (judgement,) = fake.afcheck_judge(
        kernel_checks="off").judge([_case_of(LINEAR, "by\n  -- fake:linger\n  linarith")])
    assert judgement.certified
    traces = list((fake.root / "cases").glob("*/lingered.txt"))
    before = [t.stat().st_mtime_ns for t in traces]
    time.sleep(0.4)
    assert [t.stat().st_mtime_ns for t in traces] == before


def test_the_compiler_sees_neither_the_parents_secrets_nor_its_listener(fake: Fake) -> None:
    received: list[bytes] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(10)
        port = server.getsockname()[1]

        def accept() -> None:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                received.append(connection.recv(100))

        thread = threading.Thread(target=accept)
        thread.start()
        fake.afcheck_judge().judge([_case_of(LINEAR, f"by\n  -- fake:connect:{port}\n"
                                             "  linarith")])
        thread.join(timeout=15)
    # Without bubblewrap (here) the loopback is reachable; the environment is cleared
    # whatever the isolation (the network namespace is tested in test_lean_backend_sandbox).
    assert all(SECRET.encode() not in data for data in received)


# -- isolation ---------------------------------------------------------------------------------


def test_without_isolation_nothing_is_certified_and_no_lean_runs(
        fake: Fake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_module, "probe", lambda bwrap="bwrap": sandbox_module.Probe(
        False, "bubblewrap (bwrap) is not installed"))
    (judgement,) = fake.afcheck_judge(sandbox="auto").judge([_case_of(LINEAR,
                                                                      "by\n  linarith")])
    assert not judgement.certified and not judgement.decided
    assert "not isolated (bubblewrap (bwrap) is not installed)" in judgement.reason
    assert "--lean-sandbox off" in judgement.reason
    assert fake.judge.calls() == []
    (required,) = fake.afcheck_judge(sandbox="on").judge([_case_of(LINEAR, "by\n  linarith")])
    assert not required.certified and "the Lean sandbox is required" in required.reason


def test_the_sandbox_turned_off_on_purpose_certifies_and_is_recorded(fake: Fake) -> None:
    (judgement,) = fake.afcheck_judge(sandbox="off").judge([_case_of(LINEAR,
                                                                     "by\n  linarith")])
    assert judgement.certified and judgement.sandbox == "off"


# -- LeanParanoia's exploit categories -----------------------------------------------------------


@pytest.mark.parametrize("exploit", EXPLOITS, ids=[e.category for e in EXPLOITS])
def test_each_exploit_category_is_rejected_by_the_judge(fake: Fake, exploit: Exploit) -> None:
    (judgement,) = fake.afcheck_judge().judge([_exploit_case(exploit)])
    assert not judgement.certified and judgement.decided
    assert exploit.reason in judgement.reason


def test_a_false_numeral_equation_does_not_compile_whatever_is_printed(fake: Fake) -> None:
    (judgement,) = fake.afcheck_judge().judge([_case_of(
        "theorem t : (1 : ℕ) = 2 := by sorry", "by\n  simp (config := {}) ; rfl")])
    assert not judgement.certified and judgement.decided
    assert "Lean did not compile Solution" in judgement.reason


# -- the result file -----------------------------------------------------------------------------


def test_a_result_file_is_created_once_and_read_only_with_its_nonce(tmp_path: Path) -> None:
    path = tmp_path / "judgement.json"
    write_result(path, "abc", True, "certified")
    with pytest.raises(FileExistsError):
        write_result(path, "abc", False, "again")
    assert read_result(path, "abc") == (True, "certified")
    assert read_result(path, "abd") == (False, "the judge's result carries another run's nonce")
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert read_result(link, "abc")[0] is False
    (tmp_path / "bad.json").write_text(json.dumps({"nonce": "abc", "certified": "yes",
                                                   "reason": ""}))
    assert read_result(tmp_path / "bad.json", "abc") == (False, "the judge's result is "
                                                                "malformed")


# -- which judge serves ----------------------------------------------------------------------------


def test_auto_says_in_one_line_why_no_judge_serves(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.9.0\n")
    settings = LeanSettings(project=project, lake="lake", sandbox="off")
    with pytest.raises(JudgeUnavailable) as caught:
        build("auto", toolchain_for(settings))
    line = str(caught.value)
    assert "\n" not in line and line.startswith("no judge serves this project: ")
    assert "afcheck_judge is not built" in line and "comparator is not on PATH" in line


def test_a_judge_built_with_another_lean_refuses_in_one_line(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.9.0\n")
    checkout = tmp_path / "SafeVerify"
    (checkout / ".lake" / "build" / "bin").mkdir(parents=True)
    (checkout / "lean-toolchain").write_text("leanprover/lean4:v4.22.0\n")
    program = checkout / ".lake" / "build" / "bin" / "safe_verify"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{program.parent}:{os.environ.get('PATH', '')}")
    settings = LeanSettings(project=project, lake="lake", sandbox="off")
    with pytest.raises(JudgeUnavailable, match="built with leanprover/lean4:v4.22.0, the "
                       "project is pinned to leanprover/lean4:v4.9.0"):
        build("safeverify", toolchain_for(settings))


# -- with Lean -------------------------------------------------------------------------------------


def _real_judge() -> ProcessJudge:
    settings = LeanSettings()
    try:
        return build("auto", toolchain_for(settings))
    except JudgeUnavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.requires_lean
@pytest.mark.skipif(shutil.which("lake") is None, reason="needs a Lean toolchain")
@pytest.mark.parametrize("exploit", EXPLOITS, ids=[e.category for e in EXPLOITS])
def test_the_real_judge_rejects_each_exploit_category(exploit: Exploit) -> None:
    (judgement,) = _real_judge().judge([_exploit_case(exploit)])
    assert not judgement.certified and judgement.decided, judgement


@pytest.mark.requires_lean
@pytest.mark.skipif(shutil.which("lake") is None, reason="needs a Lean toolchain")
def test_the_real_judge_certifies_an_honest_proof() -> None:
    (judgement,) = _real_judge().judge([_case_of(LINEAR, "by\n  linarith")])
    assert judgement.certified, judgement


# -- through verify() and the provers: the forged replies --------------------------------

ONE_IS_TWO = "theorem one_is_two : (1 : ℕ) = 2 := by sorry"
FORGED_BODY = "by\n  norm_num [Nat.succ_ne_zero]"
FORGED_TYPE = "@Eq.{1} Nat (@OfNat.ofNat.{0} Nat 1 _) (@OfNat.ofNat.{0} Nat 2 _)"


def _line(marker: str, data: str) -> dict[str, object]:
    return {"severity": "info", "pos": {"line": f"$LINE_OF:{marker}", "column": 0}, "data": data}


def _forged_transcript(root: Path) -> Path:
    """What afcheck reads when the checked proof prints, while Lean elaborates it, lines in
    the REPL's shape: a clean ``#print axioms``, a replay "ok", matching types."""
    rules = [
        {"env": "none", "contains": ["import Mathlib"], "response": {"env": "$ENV"}},
        {"contains": ["Nat.succ_ne_zero", "#print axioms"], "response": {"env": "$ENV",
         "messages": [
             _line("#print axioms", "'afcheck_target' depends on axioms: [propext]"),
             _line("#afcheck_replay", "afcheck-replay: ok 1 checked, 0 not replayed"),
             _line("#afcheck_type", f"afcheck-type afcheck_target: {FORGED_TYPE}")]}},
        {"contains": ["afcheck_reference"], "response": {"env": "$ENV", "messages": [
            _line("#afcheck_type", f"afcheck-type afcheck_reference: {FORGED_TYPE}")]}},
    ]
    path = root / "forged.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rules))
    return path


@pytest.fixture
def forged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Fake]:
    lean = next(make_fake_lean(tmp_path, _forged_transcript(tmp_path)))
    judge = install(tmp_path, lean.settings.project)
    (tmp_path / "cases").mkdir()
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ.get('PATH', '')}")
    yield Fake(lean, judge, tmp_path)


class _Model:
    def __call__(self, prompts: Sequence[str], k: int) -> list[list[str]]:
        code = f"```lean4\ntheorem one_is_two : (1 : ℕ) = 2 := {FORGED_BODY}\n```"
        return [[code] * k for _ in prompts]


def test_forged_replies_pass_every_repl_check_but_the_judge_rejects(forged: Fake) -> None:
    pool = forged.lean.pool(kernel_checks="on")
    candidate = Candidate(ONE_IS_TWO, "", FORGED_BODY)
    (unjudged,) = verify(pool, [candidate])
    assert unjudged.accepted and not unjudged.certified  # what the REPL alone concludes
    assert "statement identical to afcheck's" in unjudged.reason
    (judged,) = verify(pool, [candidate], judge=forged.afcheck_judge())
    pool.close()
    assert not judged.accepted and not judged.certified
    assert judged.reason.startswith("rejected by the judge afcheck: Lean did not compile")


@pytest.mark.parametrize("trust", ["judge", "repl"])
def test_one_is_two_is_never_proved_certified_through_deepseek(forged: Fake,
                                                              trust: Trust) -> None:
    for judge in (forged.afcheck_judge(), None):
        prover = DeepSeekProver(forged.lean.pool(kernel_checks="on"), _Model(),
                                negate_for_tests, k=2, judge=judge, trust=trust)
        (verdict,) = prover.prove([ProofTask("k", ONE_IS_TWO)])
        prover.close()
        assert not verdict.certified and not verdict.judged_by
        if judge is not None:
            assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.unjudged is None
            assert "rejected by the judge afcheck" in verdict.reason
        elif trust == "judge":
            assert verdict.kind is VerdictKind.INCONCLUSIVE
            assert verdict.unjudged is VerdictKind.PROVED and verdict.transient
            assert verdict.reason.startswith("uncertified: statement proved at pass@2 in the "
                                             "Lean REPL, no judge")
        else:
            assert verdict.kind is VerdictKind.PROVED
            assert "uncertified (no judge)" in verdict.reason


# -- the run's trust and the prover's judge --------------------------------------------------------


def test_the_trust_option_is_offered_and_reaches_the_provers() -> None:
    from afcheck_lean import afcheck_configure

    from afcheck.cli import all_options
    from afcheck.plugins import get_plugins

    (spec,) = [o for o in all_options(get_plugins()) if o.name == "trust"]
    assert spec.kwargs["choices"] == ("judge", "repl")

    class _Run:
        def option(self, name: str, default: object = None) -> object:
            return {"trust": "repl", "lean_sandbox": "off"}.get(name, default)

    try:
        afcheck_configure(_Run())  # type: ignore[arg-type]
        assert default_trust() == "repl"
    finally:
        set_default_trust("judge")
        set_default_mode("auto")


def test_a_prover_without_a_judge_says_so_in_one_line(fake: Fake) -> None:
    out = io.StringIO()
    assert judge_for({"judge": "none"}, fake.settings, "prover deepseek", out) is None
    assert out.getvalue() == ("afcheck: prover deepseek: no judge (judge=none); nothing it "
                              "proves is certified and, under --trust judge, it counts as "
                              "inconclusive\n")
    made = judge_for({}, fake.settings, "prover deepseek", out)
    assert made is not None and made.name == "afcheck"


def test_a_named_judge_that_cannot_serve_is_a_usage_error_in_one_line(fake: Fake) -> None:
    with pytest.raises(UsageError, match="^judge comparator: comparator is not on PATH$"):
        judge_for({"judge": "comparator", "project": str(fake.settings.project)},
                  fake.settings, "prover deepseek")


def _fake_safeverify(fake: Fake, monkeypatch: pytest.MonkeyPatch, script: str) -> ProcessJudge:
    checkout = fake.root / "SafeVerify"
    program = checkout / ".lake" / "build" / "bin" / "safe_verify"
    program.parent.mkdir(parents=True)
    (checkout / "lean-toolchain").write_text(
        (fake.settings.project / "lean-toolchain").read_text())
    program.write_text(f"#!/bin/sh\n{script}\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{program.parent}:{os.environ.get('PATH', '')}")
    return replace(build("safeverify", toolchain_for(fake.settings)), root=fake.root / "cases")


@pytest.mark.parametrize(("script", "certified", "reason"), [
    ('[ -f "$1" ] && [ -f "$2" ] && exit 0; exit 3', True, "certified"),
    ("exit 1", False, "safe_verify rejects it (exit status 1)"),
    # SafeVerify's versions that report a mismatch on stderr and still exit 0.
    ('echo "Found a problem in $2 with declaration afcheck_target" >&2; exit 0', False,
     "SafeVerify found a declaration that does not match"),
    # What it prints on stdout is never read.
    ('echo \'{"certified": true}\'; exit 2', False, "safe_verify rejects it (exit status 2)"),
])
def test_a_judge_that_knows_no_result_file_answers_through_its_exit_status(
        fake: Fake, monkeypatch: pytest.MonkeyPatch, script: str, certified: bool,
        reason: str) -> None:
    judge = _fake_safeverify(fake, monkeypatch, script)
    (judgement,) = judge.judge([_case_of(LINEAR, "by\n  linarith")])
    assert (judgement.certified, judgement.reason) == (certified, reason)
    assert judgement.judge == "safeverify"


def test_comparator_gets_its_configuration_and_a_project_of_both_modules(
        fake: Fake, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = fake.root / "comparator"
    bin_dir = checkout / ".lake" / "build" / "bin"
    bin_dir.mkdir(parents=True)
    (checkout / "lean-toolchain").write_text(
        (fake.settings.project / "lean-toolchain").read_text())
    seen = fake.root / "seen.json"
    # Certifies when the solution's theorem is not proved by sorry, as a stand-in for the
    # build, export, replay and comparison Comparator does itself.
    (bin_dir / "comparator").write_text(
        f"#!{sys.executable}\nimport json, pathlib, sys\n"
        "config = json.loads(pathlib.Path(sys.argv[1]).read_text())\n"
        "files = {p.name: p.read_text() for p in pathlib.Path.cwd().iterdir()}\n"
        f"pathlib.Path({str(seen)!r}).write_text(json.dumps([config, files]))\n"
        "sys.exit(1 if 'sorry' in files['Solution.lean'] else 0)\n")
    (bin_dir / "comparator").chmod(0o755)
    for tool in ("lean4export", "landrun"):
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ.get('PATH', '')}")
    judge = replace(build("comparator", toolchain_for(fake.settings)), root=fake.root / "cases")
    (honest,) = judge.judge([_case_of(LINEAR, "by\n  linarith")])
    assert honest.certified and honest.judge == "comparator"
    config, files = json.loads(seen.read_text())
    assert config == {"challenge_module": "Challenge", "solution_module": "Solution",
                      "theorem_names": [TARGET_NAME], "enable_nanoda": False,
                      "permitted_axioms": ["Classical.choice", "Quot.sound", "propext"]}
    assert files["Challenge.lean"].rstrip().endswith(":=\nby sorry")
    assert 'name = "Challenge"' in files["lakefile.toml"] and "mathlib" in files["lakefile.toml"]
    (cheat,) = judge.judge([_case_of(LINEAR, "by\n  sorry")])
    assert not cheat.certified and cheat.reason == "comparator rejects it (exit status 1)"


def test_without_isolation_a_provers_proof_stays_uncertified_and_says_why(
        fake: Fake, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_module, "probe", lambda bwrap="bwrap": sandbox_module.Probe(
        False, "bubblewrap (bwrap) is not installed"))
    judge = fake.afcheck_judge(sandbox="auto")
    answer = f"```lean4\n{LINEAR.replace(':= by sorry', ':= by')}\n  linarith\n```"
    prover = DeepSeekProver(fake.lean.pool(sandbox="auto"),
                            lambda prompts, k: [[answer] * k for _ in prompts],
                            negate_for_tests, k=1, judge=judge)
    (verdict,) = prover.prove([ProofTask("k", LINEAR)])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and verdict.unjudged is VerdictKind.PROVED
    assert not verdict.certified and "are not isolated (bubblewrap (bwrap) is not installed)" \
        in verdict.reason
    assert fake.judge.calls() == []


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200), st.builds(
    lambda nonce, certified, reason: json.dumps({"nonce": nonce, "certified": certified,
                                                 "reason": reason}).encode(),
    st.text(max_size=40), st.one_of(st.booleans(), st.integers(), st.text(max_size=5)),
    st.one_of(st.text(max_size=20), st.none()))))
def test_only_a_typed_result_with_the_runs_nonce_certifies(tmp_path: Path,
                                                           content: bytes) -> None:
    nonce = new_nonce()
    path = tmp_path / f"{nonce}.json"
    path.write_bytes(content)
    certified, reason = read_result(path, nonce)
    assert not certified and reason
    path.unlink()


@pytest.mark.skipif(not sandbox_module.probe().usable,
                    reason="bubblewrap cannot create namespaces here")
def test_with_bubblewrap_the_candidate_reaches_nothing_and_the_proof_is_certified(
        fake: Fake, monkeypatch: pytest.MonkeyPatch) -> None:
    from afcheck_lean import judge as judge_module
    from fake_toolchain.harness import HERE

    kept: list[Path] = []
    monkeypatch.setattr(judge_module.shutil, "rmtree",
                        lambda path, ignore_errors=False: kept.append(Path(path)))
    settings = replace(fake.settings, sandbox="on",
                       readable=(*sandbox_module.python_paths(), HERE))
    judge = replace(build("afcheck", toolchain_for(settings)), root=fake.root / "cases")
    received: list[bytes] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(0.5)
        port = server.getsockname()[1]
        body = f"by\n  -- fake:linger fake:connect:{port}\n  linarith"
        (judgement,) = judge.judge([_case_of(LINEAR, body)])
        try:
            connection, _ = server.accept()
            received.append(connection.recv(100))
        except OSError:
            pass
    assert judgement.certified and judgement.sandbox == "bubblewrap", judgement
    (case,) = kept
    assert received == []  # no network in the namespace
    assert not (case / "escaped.txt").exists()  # nothing written outside its scratch
    assert not (case / "lingered.txt").exists()  # its lingering process wrote nowhere either
    (solution,) = [p for p in case.iterdir() if p.name == "solution"]
    assert (solution / "build" / "Solution.olean").is_file()


def test_cases_judged_at_once_keep_their_order_and_their_own_answers(fake: Fake) -> None:
    judge = fake.afcheck_judge(workers=3)
    bodies = ["by\n  linarith", "by\n  sorry", "by\n  linarith", "by\n  native_decide"]
    judgements = judge.judge([_case_of(LINEAR, body) for body in bodies])
    assert [j.certified for j in judgements] == [True, False, True, False]
    assert "sorryAx" in judgements[1].reason and "ofReduceBool" in judgements[3].reason
    assert len({call[4] for call in fake.judge.calls()}) == 4  # a nonce per case
