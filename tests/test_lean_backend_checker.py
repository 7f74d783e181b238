"""Checker ``lean``: `by sorry` type-checking against the fake REPL."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.checker import LeanChecker
from afcheck_lean.pool import LeanUnavailable
from fake_repl.harness import FakeLean, make_fake_lean

from afcheck.types import Formalisation, FormalisationStatus


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


def _ok(statement: str, header: str = "", key: str = "k") -> Formalisation:
    return Formalisation(key=key, formaliser="test", status=FormalisationStatus.OK,
                         statement=statement, header=header)


@pytest.mark.heavy
def test_statements_lean_rejects_become_tc_fail_with_the_first_error(fake: FakeLean) -> None:
    records = [
        _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry"),
        _ok("theorem bad (x : ℝ) : x + y = 1 := by sorry"),
        _ok("theorem typo (n : ℕ) : n + \"a\" = n := by sorry"),
    ]
    with _Checking(fake) as checker:
        good, bad, typo = checker.check(records)
    assert good == records[0]
    assert bad.status is FormalisationStatus.TC_FAIL
    assert bad.reason == "line 1:34: unknown identifier 'y'"
    assert typo.status is FormalisationStatus.TC_FAIL
    assert typo.reason == "line 1:26: failed to synthesize"
    assert bad.statement == records[1].statement and bad.key == "k"


@pytest.mark.heavy
def test_positions_are_counted_inside_the_statement_not_the_header(fake: FakeLean) -> None:
    record = _ok("theorem bad (x : ℝ) : x + y = 1 := by sorry",
                 header="import Mathlib.Tactic\nopen Real\n\nnamespace Foo")
    with _Checking(fake) as checker:
        (checked,) = checker.check([record])
    assert checked.reason == "line 1:34: unknown identifier 'y'"
    sent = fake.commands()[-1]
    assert sent.startswith("open Real") and "import" not in sent


def test_records_that_are_not_ok_pass_through_without_lean(fake: FakeLean) -> None:
    failed = Formalisation(key="a", formaliser="t", status=FormalisationStatus.AF_FAIL,
                           reason="nothing extractable")
    with _Checking(fake) as checker:
        assert checker.check([failed]) == [failed]
    assert fake.requests() == []


def test_an_import_the_project_cannot_provide_is_tc_fail(fake: FakeLean) -> None:
    record = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="import MyLib.Defs")
    with _Checking(fake) as checker:
        (checked,) = checker.check([record])
    assert checked.status is FormalisationStatus.TC_FAIL
    assert checked.reason.startswith("import MyLib.Defs is not available")


def test_a_malformed_statement_is_tc_fail_without_asking_lean(fake: FakeLean) -> None:
    with _Checking(fake) as checker:
        (checked,) = checker.check([_ok("def f : ℕ := 3")])
    assert checked.status is FormalisationStatus.TC_FAIL
    assert "no theorem" in checked.reason


@pytest.mark.heavy
def test_a_check_that_did_not_happen_is_not_a_pass(fake: FakeLean) -> None:
    good = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key="good")
    slow = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:timeout",
               key="slow")
    with _Checking(fake, timeout_s=0.5) as checker:
        checked_good, checked_slow = checker.check([good, slow])
    assert checked_good == good
    assert checked_slow.status is FormalisationStatus.AF_FAIL
    assert checked_slow.reason == "not type-checked: Lean timed out after 0.5s while checking"
    assert checked_slow.transient and not checked_good.transient


@pytest.mark.heavy
def test_a_check_past_its_statement_budget_is_stopped_and_the_others_checked(
        fake: FakeLean) -> None:
    # The pool would give the stalled command 10 s; the statement's budget stops it at 0.5 s,
    # and the statement beside it is checked as without the budget.
    good = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key="good")
    bad = _ok("theorem bad (x : ℝ) : x + y = 1 := by sorry", key="bad")
    stalled = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:timeout",
                  key="stalled")
    checker = LeanChecker(fake.pool(timeout_s=10), statement_s=0.5)
    try:
        checked_good, checked_stalled, checked_bad = checker.check([good, stalled, bad])
    finally:
        checker.close()
    assert checked_good == good
    assert checked_bad.status is FormalisationStatus.TC_FAIL
    assert checked_bad.reason == "line 1:34: unknown identifier 'y'"
    assert checked_stalled.status is FormalisationStatus.AF_FAIL and checked_stalled.transient
    assert checked_stalled.reason == ("not type-checked: Lean timed out after 0.5s while "
                                      "checking")


@pytest.mark.heavy
def test_a_slow_check_passes_without_a_budget_and_is_stopped_under_one(fake: FakeLean) -> None:
    slow = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:slow")
    with _Checking(fake) as checker:
        assert checker.check([slow]) == [slow]  # 0.4 s, under the pool's 10 s
    checker = LeanChecker(fake.pool(), statement_s=0.2)
    try:
        (stopped,) = checker.check([slow])
    finally:
        checker.close()
    assert stopped.status is FormalisationStatus.AF_FAIL and stopped.transient
    assert stopped.reason.startswith("not type-checked: Lean timed out after 0.2s")


@pytest.mark.heavy
def test_the_factory_carries_the_statement_budget_to_the_checker(fake: FakeLean) -> None:
    from afcheck.errors import UsageError
    from afcheck.plugins import get_plugins

    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    options = {"project": str(settings.project), "repl_dir": str(settings.repl_dir),
               "lake": settings.lake, "sandbox": "off", "memory_mb": "0",
               "kernel_checks": "off", "statement_s": "0.5"}
    checker = get_plugins().create("checker", "lean", options)
    assert isinstance(checker, LeanChecker) and checker.statement_s == 0.5
    stalled = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:timeout")
    try:
        (checked,) = checker.check([stalled])
    finally:
        checker.close()
    assert checked.reason == "not type-checked: Lean timed out after 0.5s while checking"
    with pytest.raises(UsageError, match=r"^checker lean: option statement_s='-1' must be a "
                       r"number of seconds above 0"):
        get_plugins().create("checker", "lean", {**options, "statement_s": "-1"})


@pytest.mark.heavy
def test_a_crash_is_recorded_per_command_once_lean_has_answered(fake: FakeLean) -> None:
    good = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key="good")
    crashes = [_ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:crash",
                   key=f"crash{i}") for i in range(3)]
    with _Checking(fake, breaker_limit=2) as checker:
        checked = checker.check([good, *crashes])
    assert checked[0] == good
    assert [c.status for c in checked[1:]] == [FormalisationStatus.AF_FAIL] * 3
    assert all(c.reason.startswith("not type-checked: the Lean REPL stopped while checking")
               for c in checked[1:])


@pytest.mark.heavy
def test_the_run_stops_in_one_line_when_every_command_fails(fake: FakeLean) -> None:
    crashes = [_ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:crash",
                   key=f"crash{i}") for i in range(6)]
    with _Checking(fake, breaker_limit=3) as checker, pytest.raises(LeanUnavailable) as info:
        checker.check(crashes)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("checker lean: the first 3 Lean checks all failed (the Lean REPL "
                              "stopped while checking")
    assert message.endswith("no statement was checked: run `afcheck lean doctor`")
    sent = [c for c in fake.commands() if "afcheck_target" in c]
    assert len(sent) == 3, "the commands after the breaker tripped must not be run"


@pytest.mark.heavy
def test_the_run_stops_when_the_pool_header_does_not_elaborate(fake: FakeLean) -> None:
    record = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry")
    with _Checking(fake, header="import Mathlb") as checker, \
            pytest.raises(LeanUnavailable, match="Lean could not start .*the header does not "
                          "elaborate: .*unknown package 'Mathlb'"):
        checker.check([record, record])


def test_a_header_that_runs_code_is_never_sent_to_lean(fake: FakeLean) -> None:
    records = [
        _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key="eval",
            header="#eval IO.Process.run { cmd := \"sh\" }"),
        _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key="def",
            header="def f : ℕ :=\n  2\n  run_meta Lean.logInfo \"x\""),
        _ok("theorem good (h : (by native_decide : 2 ^ 64 > 1)) : (2 : ℕ) + 2 = 4 := by sorry",
            key="statement"),
    ]
    with _Checking(fake) as checker:
        checked = checker.check(records)
    assert [c.status for c in checked] == [FormalisationStatus.TC_FAIL] * 3
    assert checked[0].reason.startswith("not checked: header contains the command '#eval'")
    assert checked[1].reason.startswith("not checked: header runs meta-level code")
    assert checked[2].reason.startswith("not checked: statement uses native evaluation")
    assert fake.requests() == []


@pytest.mark.heavy
def test_the_header_cannot_lift_afcheck_heartbeat_bound(fake: FakeLean) -> None:
    record = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry",
                 header="set_option maxHeartbeats 0\nopen Real\n"
                 "set_option maxRecDepth 100000 in\ndef f : ℕ := 2")
    with _Checking(fake) as checker:
        (checked,) = checker.check([record])
    assert checked == record
    sent = fake.commands()[-1]
    assert "maxHeartbeats" not in sent and "maxRecDepth" not in sent
    assert sent.splitlines()[1] == "open Real" and sent.splitlines()[3] == "def f : ℕ := 2"


class _Checking:
    def __init__(self, fake: FakeLean, **changes: object) -> None:
        limit = changes.pop("breaker_limit", 20)
        assert isinstance(limit, int)
        self.checker = LeanChecker(fake.pool(**changes), breaker_limit=limit)

    def __enter__(self) -> LeanChecker:
        return self.checker

    def __exit__(self, *exc: object) -> None:
        self.checker.close()


@pytest.mark.heavy
def test_the_run_stops_when_no_repl_can_start(fake: FakeLean) -> None:
    records = [_ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", key=f"k{i}") for i in range(4)]
    header = "import Mathlib\nopen BigOperators Real Nat Topology Rat\n-- fake:crash"
    with _Checking(fake, header=header) as checker, \
            pytest.raises(LeanUnavailable, match="^checker lean: Lean could not start "
                          r"\(the Lean REPL stopped while importing the header"):
        checker.check(records)
    starts = [r for r in fake.requests() if "env" not in r["request"]]
    assert len(starts) == 1, "after the first failed start, the other commands must not run"


@pytest.mark.heavy
def test_a_run_whose_checker_cannot_start_stops_in_one_line(
        fake: FakeLean, arith: pytest.Pytester) -> None:
    from conftest import write_suite

    (fake.settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    rows = [{"problem_id": f"p{i}", "node_id": "1", "step": "So: 2 + 3 = 5",
             "perturbed": "So: 2 + 3 = 6"} for i in range(3)]
    write_suite(arith.path, "demo", rows,
                {"perturber": "given", "formaliser": "arith", "prover": "arith"})
    settings = fake.settings
    options = (f"lake={settings.lake},project={settings.project},repl_dir={settings.repl_dir},"
               "header=import Mathlb,memory_mb=0,timeout_s=10,sandbox=off")
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-checker", "lean",
                             "--afcheck-checker-opt", options, "--tb=line")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    lines = [line for line in result.outlines + result.errlines if "Lean could not start" in line]
    assert len(lines) == 1
    assert "checker lean: Lean could not start (the header does not elaborate" in lines[0]
    assert "passed" not in result.outlines[-1]


@pytest.mark.heavy
def test_a_faithfulness_run_stops_a_stalled_check_at_its_budget(fake: FakeLean,
                                                                 tmp_path: Path) -> None:
    # --budget faithfulness.check.seconds reaches the checker through the run: the stalled
    # side is stopped at 0.5 s (not the pool's 10 s) and is that side's AF-Fail; every other
    # side gets Lean's answer, and only those answers are cached.
    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    suite = tmp_path / "s"
    suite.mkdir()
    (suite / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "checked"\nkind = "jsonl"\ndata = "steps.jsonl"\n\n'
        '[afcheck.defaults]\nperturber = "given"\nformaliser = "reference"\nprover = "smt"\n')
    unknown = "theorem d (x : ℝ) : x + y = 1 := by sorry"
    rows = [(1, "theorem a : (2 : ℕ) + 2 = 4 := by sorry", unknown),
            (2, "theorem c : (2 : ℕ) + 2 = 4 /- fake:timeout -/ := by sorry", unknown)]
    (suite / "steps.jsonl").write_text("".join(json.dumps(
        {"problem_id": "p", "node_id": str(node), "dataset": "d", "problem": "P.",
         "context": [], "step": f"step {node}", "perturbed": f"perturbed {node}",
         "lean": {"original": original, "perturbed": perturbed}}, ensure_ascii=False) + "\n"
        for node, original, perturbed in rows))
    options = (f"lake={settings.lake},project={settings.project},repl_dir={settings.repl_dir},"
               "memory_mb=0,timeout_s=10,sandbox=off,kernel_checks=off")
    cache = tmp_path / "cache"

    def afcheck(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)

    done = afcheck(str(suite), "--cache-dir", str(cache), "--checker", "lean",
                   "--checker-opt", options, "--budget", "faithfulness.check.seconds=0.5")
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert ("steps.jsonl:1: p/1: AF failure on the perturbed step: line 1:34: unknown "
            "identifier 'y'") in text, text
    assert ("steps.jsonl:2: p/2: AF failure on the step: not type-checked: Lean timed out "
            "after 0.5s while checking") in text, text
    info = afcheck("cache", "info", "--json", "--cache-dir", str(cache))
    assert json.loads(info.stdout)["entries"]["check"] == 2  # the statements Lean answered
