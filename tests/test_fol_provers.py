"""FOL provers: SZS statuses from E's output lines and from z3, with limits and versions."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from afcheck_fol.formula import Const, Forall, Implies, Not, Pred, Var
from afcheck_fol.provers import (
    EProver,
    FolProver,
    Szs,
    eprover_budget,
    find_eprover,
    make_fol_prover,
    parse_szs,
    z3_fol_budget,
)
from afcheck_fol.tptp import Problem, SymbolMap, problem
from processes import gone_within, marked

from afcheck.budget import Budget
from afcheck.errors import UnknownComponent, UsageError

x = Var("x")
max_ = Const("max")
RULE = Forall(x, Implies(Pred("Jompus", (x,)), Not(Pred("Shy", (x,)))))
FACT = Pred("Jompus", (max_,))
SHY = Pred("Shy", (max_,))


def _problem(axioms: list, conjecture: object) -> Problem:
    return problem(axioms, conjecture, SymbolMap())  # type: ignore[arg-type]


# Lines as E 2.6 and E 3.5.1 print them (measured; see the module docstring).
@pytest.mark.parametrize(("output", "status"), [
    ("# Proof found!\n# SZS status Theorem\n", Szs.THEOREM),
    ("% SZS status CounterSatisfiable\n", Szs.COUNTER_SATISFIABLE),
    ("%% Failure: Resource limit exceeded (time)\n%% SZS status ResourceOut\n", Szs.RESOURCE_OUT),
    ("% Failure: Out of unprocessed clauses!\n% SZS status GaveUp\n", Szs.GAVE_UP),
    ("% SZS status Timeout for problem.p\n", Szs.TIMEOUT),
    ("# SZS status ContradictoryAxioms\n", Szs.CONTRADICTORY_AXIOMS),
    ("% SZS status SomethingNew\n", Szs.UNKNOWN),
    ("eprover: f.p:1:(Column 16): Formula has free variables\n", None),
])
def test_statuses_come_from_the_szs_line(output: str, status: Szs | None) -> None:
    assert parse_szs(output) is status


def test_gave_up_is_a_limit_never_a_counter_model() -> None:
    assert Szs.GAVE_UP.limit and not Szs.GAVE_UP.disproved
    assert Szs.COUNTER_SATISFIABLE.disproved and not Szs.COUNTER_SATISFIABLE.proved
    assert Szs.CONTRADICTORY_AXIOMS.proved


def _provers() -> list[str]:
    names = ["z3-fol"]
    if find_eprover() is not None:
        names.append("eprover")
    return names


@pytest.fixture(params=_provers())
def prover(request: pytest.FixtureRequest) -> FolProver:
    return make_fol_prover(request.param)


def test_one_batch_gets_every_status_right(prover: FolProver) -> None:
    problems = [
        _problem([RULE, FACT], Not(SHY)),            # follows
        _problem([RULE, FACT], SHY),                 # refuted, so not a consequence
        _problem([RULE], Not(SHY)),                  # independent
        _problem([FACT, Not(FACT)], SHY),            # inconsistent axioms
        _problem([RULE, FACT], None),                # axioms alone, consistent
    ]
    results = prover.prove(problems)
    assert [r.status for r in results] == [
        Szs.THEOREM, Szs.COUNTER_SATISFIABLE, Szs.COUNTER_SATISFIABLE,
        Szs.CONTRADICTORY_AXIOMS, Szs.SATISFIABLE,
    ]
    assert all(r.prover == prover.version and r.seconds >= 0 for r in results)


def test_z3_refuses_two_arities_and_free_variables_as_input_errors() -> None:
    prover = make_fol_prover("z3-fol")
    two_arities = _problem([FACT, Pred("Jompus", (max_, max_))], None)
    # problem() refuses open formulas; a Problem built by hand reaches the prover with one.
    open_axiom = Problem((Pred("Shy", (x,)),), None, "fof(p, axiom, shy(X)).\n")
    results = prover.prove([two_arities, open_axiom, _problem([RULE, FACT], Not(SHY))])
    assert [r.status for r in results] == [Szs.INPUT_ERROR, Szs.INPUT_ERROR, Szs.THEOREM]
    assert results[0].detail == "predicate Jompus used with 1 and 2 arguments"
    assert results[1].detail == "free variable x"


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_reports_bad_input_without_a_status_line_as_input_error() -> None:
    prover = make_fol_prover("eprover")
    bad = Problem((), None, "fof(c, conjecture, p(a)\n")
    [result] = prover.prove([bad])
    assert result.status is Szs.INPUT_ERROR
    assert "expected" in result.detail or "Column" in result.detail


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_version_and_complete_strategy() -> None:
    prover = make_fol_prover("eprover")
    assert isinstance(prover, EProver)
    assert prover.version.startswith("E ")
    assert "sine" not in prover.fingerprint.lower()
    assert "satauto" in prover.fingerprint


def _pigeonhole(holes: int) -> Problem:
    """``holes + 1`` pigeons in ``holes`` holes: unsatisfiable, and hard for resolution."""
    from afcheck_fol.formula import And, Or

    pigeons = [Const(f"p{i}") for i in range(holes + 1)]
    names = [f"H{j}" for j in range(holes)]
    axioms = [Or(tuple(Pred(h, (p,)) for h in names)) for p in pigeons]
    for h in names:
        for i in range(holes + 1):
            for k in range(i + 1, holes + 1):
                axioms.append(Not(And((Pred(h, (pigeons[i],)), Pred(h, (pigeons[k],))))))
    return _problem(axioms, None)


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_wall_limit_reads_as_timeout_not_as_an_answer() -> None:
    prover = make_fol_prover("eprover", {"wall_limit_s": "0.05"})
    [result] = prover.prove([_pigeonhole(9)])
    assert result.status is Szs.TIMEOUT
    assert "wall-clock" in result.detail


@pytest.mark.slow
@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_cpu_limit_is_a_limit_status() -> None:
    prover = make_fol_prover("eprover", {"cpu_limit_s": "1"})
    [result] = prover.prove([_pigeonhole(9)])
    assert result.status.limit, result


def test_unknown_prover_and_bad_options_are_one_line_errors() -> None:
    with pytest.raises(UnknownComponent, match="eprover"):
        make_fol_prover("vampire")
    with pytest.raises(UsageError, match="timeout_ms"):
        make_fol_prover("z3-fol", {"timeout": "5"})
    with pytest.raises(UsageError, match="timeout_ms=soon: expected a whole number"):
        make_fol_prover("z3-fol", {"timeout_ms": "soon"})


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
@pytest.mark.parametrize(("key", "raw", "says"), [
    ("cpu_limit_s", "nan", "expected a whole number"),
    ("jobs", "inf", "expected a whole number"),
    ("jobs", "1.5", "expected a whole number"),
    ("memory_mb", "0", "must be at least 1"),
    ("wall_limit_s", "inf", "must be a number above 0"),
    ("wall_limit_s", "-2", "must be a number above 0"),
])
def test_an_es_limit_that_means_nothing_is_one_line_naming_it(key: str, raw: str,
                                                              says: str) -> None:
    written = re.escape(f"{key}={raw}")
    with pytest.raises(UsageError, match=f"^--fol-prover-opt {written}: {says}$"):
        make_fol_prover("eprover", {key: raw})


def test_a_budget_is_es_wall_clock_cpu_and_memory_limit() -> None:
    assert eprover_budget(Budget(seconds=2.5, memory_mb=512), {}) == {
        "wall_limit_s": "2.5", "cpu_limit_s": "2", "memory_mb": "512"}
    # E stops itself at its CPU limit; a user's own CPU limit stands, the wall clock is the
    # budget's.
    assert eprover_budget(Budget(seconds=0.2), {"cpu_limit_s": "7"}) == {"wall_limit_s": "0.2"}
    assert eprover_budget(Budget(seconds=0.2), {}) == {"wall_limit_s": "0.2", "cpu_limit_s": "1"}


def test_a_budget_splits_over_z3_fols_two_checks_and_never_bounds_its_memory() -> None:
    assert z3_fol_budget(Budget(seconds=3), {}) == {"timeout_ms": "1500"}
    assert z3_fol_budget(Budget(seconds=0.001), {}) == {"timeout_ms": "1"}
    with pytest.raises(ValueError, match="cannot bound its memory"):
        z3_fol_budget(Budget(memory_mb=100), {})


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_under_a_budgets_options_stops_at_the_budget() -> None:
    options = eprover_budget(Budget(seconds=0.3), {})
    prover = make_fol_prover("eprover", options)
    [hard, easy] = prover.prove([_pigeonhole(9), _problem([RULE, FACT], Not(SHY))])
    assert hard.status is Szs.TIMEOUT and hard.detail == "wall-clock limit of 0.3 s"
    assert easy.status is Szs.THEOREM


def _wrapped_e(tmp_path: Path, body: str) -> Path:
    """A script in front of the real E: ``--version`` goes straight to E; every other call
    runs ``body`` (shell, ``$E`` the real binary, ``$LOG`` a log file) first."""
    real = find_eprover()
    assert real is not None
    script = tmp_path / "eprover"
    script.write_text(f'#!/bin/sh\nE="{real}"\nLOG="{tmp_path / "log"}"\n'
                      f'if [ "$1" = "--version" ]; then exec "$E" --version; fi\n{body}\n')
    script.chmod(0o755)
    return script


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_proves_a_repeated_problem_once(tmp_path: Path) -> None:
    binary = _wrapped_e(tmp_path, 'echo run >> "$LOG"\nexec "$E" "$@"')
    prover = make_fol_prover("eprover", {"binary": str(binary)})
    follows, refuted = _problem([RULE, FACT], Not(SHY)), _problem([RULE, FACT], SHY)
    results = prover.prove([follows, refuted, follows, follows])
    assert [r.status for r in results] == [Szs.THEOREM, Szs.COUNTER_SATISFIABLE,
                                          Szs.THEOREM, Szs.THEOREM]
    assert (tmp_path / "log").read_text().split() == ["run", "run"]


@pytest.mark.skipif(not Path("/proc/self/environ").is_file() or find_eprover() is None,
                    reason="needs E and Linux's /proc")
def test_the_wall_clock_limit_stops_the_strategies_e_forks(tmp_path: Path) -> None:
    # E forks a process per strategy; killing E alone left that one running to its CPU limit.
    marker = f"AFCHECK_TEST_MARK={tmp_path}"
    binary = _wrapped_e(tmp_path, f'export {marker}\nexec "$E" "$@"')
    prover = make_fol_prover("eprover", {"binary": str(binary), "wall_limit_s": "0.5"})
    started = time.monotonic()
    [result] = prover.prove([_pigeonhole(9)])
    assert result.status is Szs.TIMEOUT
    assert time.monotonic() - started < 5
    assert gone_within(2, *marked(marker))


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_memory_limit_is_a_limit_status_and_spares_the_rest_of_the_batch() -> None:
    prover = make_fol_prover("eprover", {"memory_mb": "2"})
    [hard, easy] = prover.prove([_pigeonhole(9), _problem([RULE, FACT], Not(SHY))])
    assert hard.status.limit and "Out of Memory" in hard.detail
    assert easy.status is Szs.THEOREM


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_a_crashed_e_is_an_error_and_the_batch_goes_on(tmp_path: Path) -> None:
    # The first call dies of a signal before reading its (large) problem; later calls run E.
    binary = _wrapped_e(tmp_path, 'if [ ! -e "$LOG" ]; then echo crash > "$LOG"; '
                                  'kill -SEGV $$; fi\nexec "$E" "$@"')
    prover = make_fol_prover("eprover", {"binary": str(binary), "jobs": "1"})
    big = _problem([RULE, FACT, *(Pred("Wumpus", (Const(f"c{i}"),)) for i in range(4000))],
                   None)
    assert len(big.text) > 1 << 16  # more than a pipe holds: written as E reads it
    crashed, fine, large = prover.prove([big, _problem([RULE, FACT], Not(SHY)), _bigger(big)])
    assert crashed.status is Szs.ERROR and crashed.detail == "exit status -11"
    assert fine.status is Szs.THEOREM
    assert large.status is Szs.SATISFIABLE


def _bigger(problem: Problem) -> Problem:
    """The same axioms with one more consistent fact: a distinct text, as large."""
    extra = Pred("Wumpus", (Const("extra"),))
    return _problem([*problem.axioms, extra], None)


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_e_answers_the_same_where_exits_cannot_be_selected(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The path of systems without pidfds (macOS): a process is reaped after its output ends.
    import afcheck_fol.provers as provers

    monkeypatch.setattr(provers, "PIDFD", False)
    prover = make_fol_prover("eprover", {"jobs": "2"})
    results = prover.prove([_problem([RULE, FACT], Not(SHY)), _problem([RULE, FACT], SHY),
                            Problem((), None, "fof(c, conjecture, p(a)\n")])
    assert [r.status for r in results] == [Szs.THEOREM, Szs.COUNTER_SATISFIABLE,
                                          Szs.INPUT_ERROR]


@pytest.mark.skipif(not Path("/proc/self/environ").is_file() or find_eprover() is None,
                    reason="needs E and Linux's /proc")
@pytest.mark.parametrize("pidfd", [True, False])
def test_a_process_e_leaves_holding_its_output_neither_hides_its_answer_nor_survives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pidfd: bool) -> None:
    # E answers and exits, but a process of its group keeps its stdout open for 30 s.
    import afcheck_fol.provers as provers

    monkeypatch.setattr(provers, "PIDFD", pidfd)
    marker = f"AFCHECK_TEST_MARK={tmp_path}"
    binary = _wrapped_e(tmp_path, f'export {marker}\nsleep 30 &\nexec "$E" "$@"')
    prover = make_fol_prover("eprover", {"binary": str(binary), "wall_limit_s": "20"})
    started = time.monotonic()
    [result] = prover.prove([_problem([RULE, FACT], Not(SHY))])
    assert result.status is Szs.THEOREM
    assert time.monotonic() - started < 10
    assert gone_within(2, *marked(marker))


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_a_kernel_that_refuses_pidfds_gets_the_same_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Python has pidfd_open, the kernel (before Linux 5.3) or a sandbox says no at run time.
    import errno
    import os

    def refused(pid: int, flags: int = 0) -> int:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(os, "pidfd_open", refused, raising=False)
    prover = make_fol_prover("eprover", {"jobs": "2"})
    results = prover.prove([_problem([RULE, FACT], Not(SHY)), _problem([RULE, FACT], SHY)])
    assert [r.status for r in results] == [Szs.THEOREM, Szs.COUNTER_SATISFIABLE]


@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
@pytest.mark.heavy
def test_without_pidfds_a_process_that_closes_its_output_still_meets_the_wall_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One of the two calls (whichever makes the directory first: mkdir is atomic, the two
    # start together) closes stdout and stderr and runs on; waiting for it must not hold the
    # batch.
    import afcheck_fol.provers as provers

    monkeypatch.setattr(provers, "PIDFD", False)
    binary = _wrapped_e(tmp_path, 'if mkdir "$LOG.quiet" 2>/dev/null; then '
                                  'exec >&- 2>&-; sleep 30; fi\nexec "$E" "$@"')
    prover = make_fol_prover("eprover", {"binary": str(binary), "wall_limit_s": "2",
                                         "jobs": "2"})
    started = time.monotonic()
    results = prover.prove([_problem([RULE, FACT], Not(SHY)),
                            _problem([RULE, FACT, Pred("Wumpus", (Const("w"),))], Not(SHY))])
    assert sorted(r.status.value for r in results) == ["Theorem", "Timeout"]
    assert time.monotonic() - started < 10
