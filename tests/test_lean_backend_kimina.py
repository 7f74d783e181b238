"""The Lean components on kimina-lean-server, against a fake server on loopback that answers
with the server's request/response shapes and the fake REPL's recorded Lean answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from afcheck_lean.checker import LeanChecker
from afcheck_lean.factories import make_kimina_checker, make_tactics
from afcheck_lean.kimina import KiminaPool, KiminaSettings, parse_kimina, snippet_status
from afcheck_lean.pool import Failure, LeanUnavailable
from afcheck_lean.settings import LeanSettings
from afcheck_lean.verify import Candidate, verify
from fake_kimina import FakeKimina, serve

from afcheck.errors import UsageError
from afcheck.plugins import Plugins
from afcheck.registry import CHECKER
from afcheck.types import Formalisation, FormalisationStatus, ProofTask, VerdictKind

pytest.importorskip("httpx")

GOOD = "theorem good : (2 : ℕ) + 2 = 4 := by sorry"
LINEAR = "theorem lin (x : ℝ) (h : 2 * x + 3 = 11) : x = 4 := by sorry"


@pytest.fixture
def server() -> Iterator[FakeKimina]:
    with serve() as fake:
        yield fake


def _ok(statement: str, header: str = "", key: str = "k") -> Formalisation:
    return Formalisation(key=key, formaliser="test", status=FormalisationStatus.OK,
                         statement=statement, header=header)


def _pool(url: str, **kimina: object) -> KiminaPool:
    settings = LeanSettings(timeout_s=5.0, workers=2)
    return KiminaPool(settings, KiminaSettings(url, **kimina))


def test_statuses_are_kiminas() -> None:
    assert snippet_status({"id": "a", "response": {"env": 0}}) == "valid"
    assert snippet_status({"id": "a", "response": {"env": 0, "sorries": [{"goal": "⊢ p"}]}}) \
        == "sorry"
    error = {"severity": "error", "pos": {"line": 1, "column": 0}, "data": "bad"}
    assert snippet_status({"id": "a", "response": {"env": 0, "messages": [error],
                                                   "sorries": [{}]}}) == "lean_error"
    assert snippet_status({"id": "a", "response": {"message": "Unknown environment."}}) \
        == "repl_error"
    assert snippet_status({"id": "a", "error": "Lean REPL command timed out in 5 seconds"}) \
        == "timeout_error"
    assert snippet_status({"id": "a", "error": "REPL process died"}) == "server_error"


def test_the_checker_on_kimina_answers_as_the_local_one(server: FakeKimina) -> None:
    checker = make_kimina_checker({"url": server.url, "batch_size": "2"})
    records = [
        _ok(GOOD, key="good"),
        _ok("theorem bad (x : ℝ) : x + y = 1 := by sorry", key="bad"),
        _ok("theorem typo (n : ℕ) : n + \"a\" = n := by sorry", key="typo"),
        # Positions count inside the statement, past the task's header and the pool's.
        _ok("theorem bad (x : ℝ) : x + y = 1 := by sorry", key="headed",
            header="import Mathlib.Tactic\nopen Real\n\nnamespace Foo"),
    ]
    good, bad, typo, headed = checker.check(records)
    checker.close()
    assert good == records[0]
    assert (bad.status, bad.reason) == (FormalisationStatus.TC_FAIL,
                                        "line 1:34: unknown identifier 'y'")
    assert (typo.status, typo.reason) == (FormalisationStatus.TC_FAIL,
                                          "line 1:26: failed to synthesize")
    assert headed.reason == "line 1:34: unknown identifier 'y'"
    assert [len(r["snippets"]) for r in server.requests] == [2, 2]
    request = server.requests[0]
    assert request["timeout"] == 60 and request["reuse"] is True
    code = request["snippets"][0]["code"]
    assert code.startswith("import Mathlib\nimport Aesop\n\n-- afcheck\nset_option maxHeartbeats")
    assert code.endswith("theorem afcheck_target : (2 : ℕ) + 2 = 4 :=\nby sorry\n")


def test_a_header_that_runs_code_is_never_sent(server: FakeKimina) -> None:
    checker = make_kimina_checker({"url": server.url})
    (checked,) = checker.check([_ok(GOOD, header="#eval IO.Process.run { cmd := \"sh\" }")])
    assert checked.status is FormalisationStatus.TC_FAIL
    assert checked.reason.startswith("not checked: header contains the command '#eval'")
    assert server.requests == []


def test_a_timeout_or_a_lasting_server_error_is_never_a_pass(server: FakeKimina) -> None:
    pool = _pool(server.url, retries=1)
    checker = LeanChecker(pool)
    good = _ok(GOOD, key="good")
    slow = _ok(GOOD, header="-- fake:timeout", key="slow")
    broken = _ok(GOOD, header="-- fake:server-error", key="broken")
    checked_good, checked_slow, checked_broken = checker.check([good, slow, broken])
    assert checked_good == good
    assert checked_slow.status is FormalisationStatus.AF_FAIL and checked_slow.transient
    assert checked_slow.reason.startswith("not type-checked: Lean timed out after 5s")
    assert checked_broken.status is FormalisationStatus.AF_FAIL and checked_broken.transient
    assert checked_broken.reason == ("not type-checked: kimina-lean-server: REPL process died "
                                     "unexpectedly (after 2 attempts)")
    assert pool.statuses == {"sorry": 1, "timeout_error": 1, "server_error": 1}
    assert "3 snippets (sorry 1, timeout_error 1, server_error 1)" in pool.summary()


@pytest.mark.heavy
def test_server_errors_are_retried(server: FakeKimina) -> None:
    server.fail_requests = 1
    pool = _pool(server.url, retries=2)
    flaky = _ok(GOOD, header="-- fake:flaky")
    (checked,) = LeanChecker(pool).check([flaky])
    assert checked == flaky
    # A 503, a server error for the snippet, then its answer: three requests.
    assert len(server.requests) == 3
    assert pool.statuses == {"sorry": 1}


def test_an_unreachable_server_stops_the_run_in_one_line() -> None:
    with serve() as gone:
        url = gone.url
    checker = LeanChecker(_pool(url, retries=0))
    with pytest.raises(LeanUnavailable) as info:
        checker.check([_ok(GOOD), _ok(GOOD, key="b")])
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"checker lean: Lean could not start (cannot reach "
                              f"kimina-lean-server at {url}")
    assert message.endswith("no statement was checked: check the server's address and logs")


def test_a_refused_request_is_not_retried(server: FakeKimina) -> None:
    server.refuse = 401
    checker = LeanChecker(_pool(server.url, retries=3))
    with pytest.raises(LeanUnavailable, match="refused the request: HTTP 401"):
        checker.check([_ok(GOOD)])
    assert len(server.requests) == 1


def test_proofs_are_judged_with_print_axioms(server: FakeKimina) -> None:
    pool = _pool(server.url)
    statement = "theorem good : (2 : ℕ) + 2 = 4 := by sorry"
    accepted, sorry, violation = verify(pool, [
        Candidate(statement, "", "by\n  norm_num"),
        Candidate(statement, "", "by\n  sorry"),
        Candidate(statement, "", "by\n  native_decide"),
    ])
    assert accepted.accepted and accepted.reason == "accepted by the Lean kernel"
    assert not sorry.accepted and "sorry" in sorry.reason
    assert not violation.accepted and "native" in violation.reason
    # What breaks the integrity rules is never sent.
    assert len([s for r in server.requests for s in r["snippets"]]) == 1


def test_the_tactics_prover_checks_on_kimina(server: FakeKimina,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # No judge is built here: what the server's REPL accepted stays uncertified, and the
    # prover says so in one line when it is made.
    prover = make_tactics({"url": server.url, "smt": "off"})
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("afcheck: prover lean-tactics: no judge (")
    (verdict,) = prover.prove([ProofTask("k", LINEAR)])
    prover.close()
    assert verdict.kind is VerdictKind.INCONCLUSIVE and not verdict.certified
    assert verdict.unjudged is VerdictKind.PROVED
    assert "linarith" in verdict.reason


def test_options_are_checked_in_one_line() -> None:
    plugins = Plugins()
    with pytest.raises(UsageError, match="checker kimina: give the server with --checker-opt"):
        plugins.create(CHECKER, "kimina", {})
    with pytest.raises(UsageError, match="must start with http"):
        parse_kimina({"url": "localhost:8000"}, "checker kimina")
    with pytest.raises(UsageError, match="batch_size needs url"):
        parse_kimina({"batch_size": "4"}, "checker lean")
    with pytest.raises(UsageError, match="kimina_key_env=NO_SUCH_VARIABLE_X names"):
        parse_kimina({"url": "http://h:1", "kimina_key_env": "NO_SUCH_VARIABLE_X"}, "checker")


@pytest.mark.heavy
def test_a_run_with_the_kimina_checker_ends_with_its_summary(server: FakeKimina) -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(root / "suites" / "examples"), "--limit", "3",
         "--checker", "kimina", "--checker-opt", f"url={server.url}", "--no-cache", "-q"],
        capture_output=True, text=True, timeout=300, cwd=root)
    sent = sum(len(r["snippets"]) for r in server.requests)
    assert sent > 0
    assert (f"kimina-lean-server {server.url}: {sent} snippets (lean_error {sent}) in "
            f"{len(server.requests)} requests") in done.stdout


def test_the_deepseek_prover_checks_on_kimina_and_asks_a_cluster_for_its_model(
        server: FakeKimina) -> None:
    from afcheck_lean.factories import _model_resources, make_deepseek

    prover = make_deepseek({"url": server.url, "base_url": "http://127.0.0.1:9/v1"})
    assert isinstance(prover.pool, KiminaPool) and prover.resources == {}
    prover.close()
    assert _model_resources({}) == {"GPU": 1.0}
    assert _model_resources({"tensor_parallel_size": "2"}) == {"GPU": 2.0}


def test_a_batch_is_sent_with_the_least_of_its_commands_limits_and_each_is_timed(
        server: FakeKimina) -> None:
    # One request holds one timeout for its snippets: the least, so that no command runs
    # past its own; each snippet is charged its whole request.
    pool = _pool(server.url, batch_size=2)
    first, second = pool.run_within(["-- fake:timeout\nexample : True := trivial",
                                     "example : True := trivial"], [2.4, 7.0])
    pool.close()
    assert [r["timeout"] for r in server.requests] == [2]
    assert isinstance(first.result, Failure) and first.result.kind == "timeout"
    assert "timed out after 2.4s" in first.result.reason
    assert first.seconds == second.seconds > 0
