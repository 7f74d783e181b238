"""``afcheck equiv REF CAND`` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("z3")

REF = "import Mathlib\nopen Real\n\ntheorem r (x y : ℝ) (h₀ : x = 2) (h₁ : y = 3) : x + y = 5 := " \
      "by sorry\n"


def afcheck(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", "equiv", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_json_reports_decision_alignment_and_obligations(tmp_path: Path) -> None:
    ref = tmp_path / "ref.lean"
    ref.write_text(REF, encoding="utf-8")
    done = afcheck(str(ref), "-", "--json", stdin="theorem c (a b : ℝ) (h : b = 3) "
                   "(h2 : a = 2) : 6 = b + a := by\n  linarith\n")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["decision"] == "Noneq" and record["criterion"] == "sae"
    assert record["component"] == "conclusion"
    assert {a["candidate"]: a["reference"] for a in record["alignment"]} in (
        {"a": "x", "b": "y"}, {"a": "y", "b": "x"})
    roles = [o["role"] for o in record["obligations"]]
    assert "premises" in roles and "conclusion" in roles
    assert record["failed_obligation"]["verdict"] == "refuted"


@pytest.mark.heavy
def test_text_output_and_another_criterion(tmp_path: Path) -> None:
    ref, cand = tmp_path / "ref.lean", tmp_path / "cand.lean"
    ref.write_text(REF, encoding="utf-8")
    cand.write_text("theorem c (a b : ℝ) (h : b = 3) (h2 : a = 2) : 5 = b + a := by sorry\n",
                    encoding="utf-8")
    done = afcheck(str(ref), str(cand))
    assert done.returncode == 0 and done.stdout.startswith("Eq  (sae)")
    assert "binder map (candidate ↦ reference): a ↦ x, b ↦ y" in done.stdout
    logical = afcheck(str(ref), str(cand), "--criterion", "logical", "--json")
    assert json.loads(logical.stdout)["decision"] == "Eq"


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    ref = tmp_path / "ref.lean"
    ref.write_text(REF, encoding="utf-8")
    missing = afcheck(str(ref), str(tmp_path / "nope.lean"))
    assert missing.returncode == 2
    assert missing.stderr.strip().count("\n") == 0 and "no such file" in missing.stderr
    unknown = afcheck(str(ref), str(ref), "--criterion", "nope")
    assert unknown.returncode == 2 and "unknown criterion 'nope'" in unknown.stderr
    assert "Traceback" not in missing.stderr + unknown.stderr


def test_beq_plus_without_lean_fails_in_one_line(tmp_path: Path) -> None:
    ref = tmp_path / "ref.lean"
    ref.write_text(REF, encoding="utf-8")
    done = afcheck(str(ref), str(ref), "--criterion", "beq-plus",
                   "--criterion-opt", f"lake={tmp_path / 'no-lake'}")
    assert done.returncode == 2
    assert "criterion beq-plus needs" in done.stderr and "afcheck lean setup" in done.stderr
    assert done.stderr.strip().count("\n") == 0


@pytest.mark.heavy
def test_a_thousand_binders_are_aligned_without_recursion(tmp_path: Path) -> None:
    """The alignment search is iterative: 1,000 flat binders of one type, which reached
    Python's recursion limit before, are decided (and the search stops as capped)."""
    binders = " ".join(f"(x{i} : ℕ)" for i in range(1000))
    ref, cand = tmp_path / "ref.lean", tmp_path / "cand.lean"
    ref.write_text(f"theorem t {binders} : x0 + x1 = x1 + x0 := by sorry\n")
    cand.write_text(f"theorem t {binders.replace('x', 'y')} : y1 + y0 = y0 + y1 := by sorry\n")
    done = afcheck(str(ref), str(cand), "--json")
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    record = json.loads(done.stdout)
    assert record["decision"] == "Eq"
    assert "alignments-capped" in record["flags"]


def test_statement_strings_are_read_as_afcheck_prove_reads_them() -> None:
    done = afcheck("theorem a (x y : ℝ) (h : x = 2) : x + y = 2 + y",
                   "theorem b (u v : ℝ) (h : 2 * u = 4) : v + u = v + 4 - 2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Eq  (sae)")
    assert "binder map (candidate ↦ reference): u ↦ x, v ↦ y" in lines
    # every obligation says how it was discharged
    verdicts = [i for i, line in enumerate(lines) if line.startswith("  [proved]")]
    assert verdicts and all(lines[i + 1].startswith("      by smt: ") for i in verdicts)


def test_neither_a_file_nor_a_statement_is_one_clear_line() -> None:
    done = afcheck("no-such-file.lean", "theorem b : True")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "afcheck equiv: no-such-file.lean: no such file, and not a statement (give a Lean "
        "file, a statement 'theorem t … : …', or '-')"]


def test_an_unknown_criterion_lists_the_known_criteria() -> None:
    done = afcheck("--criterion", "nope", "theorem a : True", "theorem b : True")
    assert done.returncode == 2
    assert "Known criteria: beq-plus, logical, sae, syntactic" in done.stderr


@pytest.mark.heavy
def test_the_pair_limit_stops_a_criterion_that_hangs() -> None:
    import os

    from conftest import TEST_PLUGINS

    stuck = "theorem stuck : 1 = 1 := by sorry"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TEST_PLUGINS),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "afcheck", "--plugin", "stuckcriterion",
                           "equiv", stuck, stuck, "--criterion", "stuck", "--budget",
                           "equivalence.pair.seconds=2", "--json"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    # The stopped worker is replaced only when a pair waits: nothing half-started is left
    # to print a traceback as the pool closes.
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    record = json.loads(done.stdout)
    assert record["decision"] == "Inconclusive"
    assert record["reason"].startswith("time limit: no decision within 2 s")
    bad = afcheck(stuck, stuck, "--budget", "equivalence.pair.seconds=soon")
    assert bad.returncode == 2 and "seconds must be a number of seconds above 0" in bad.stderr


def test_a_pair_budget_given_to_a_contained_criterion_is_held_in_a_worker() -> None:
    statement = "theorem a (x : ℕ) : x + 1 = 1 + x := by sorry"
    done = afcheck(statement, statement, "--criterion", "syntactic", "--json",
                   "--budget", "equivalence.pair.seconds=30")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["decision"] == "Eq"


def test_one_pair_is_decided_in_process_and_stopped_by_its_alarm() -> None:
    """No worker for one pair (its start cost more than the pair); the pair limit's seconds
    still hold, through an alarm in the command's process."""
    import time

    from afcheck_equivalence.command import _in_process
    from afcheck_equivalence.records import Pair

    def hangs(pairs: object) -> list[object]:
        while True:  # as a solver ignoring its own timeout would
            time.sleep(0.01)

    pair = [Pair("p", "theorem a : 1 = 1 := by sorry", "theorem b : 1 = 1 := by sorry")]
    start = time.monotonic()
    decision = _in_process(hangs, pair, "sae", 0.3)  # type: ignore[arg-type]
    assert time.monotonic() - start < 5
    assert decision.kind.value == "Inconclusive" and decision.transient
    assert decision.reason.startswith("time limit: no decision within 0.3 s")


def test_the_terminal_names_the_evidence_caps_reasons_and_labels_side_checks() -> None:
    noneq = afcheck("theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry",
                    "theorem b (x : ℝ) : x ^ 2 = 4 := by sorry")
    assert noneq.stdout.startswith("Noneq [refuted]  (sae)"), noneq.stdout
    structural = afcheck("theorem a : (54 : ℕ) % 6 = 0 := by sorry",
                         "theorem b : (2000 + 2001 + 2002 + 2003 + 2004 + 2005 + 2006) % 7 = 0 "
                         ":= by sorry")
    first = structural.stdout.splitlines()[0]
    assert first.startswith("Noneq [structural]") and "--json shows all" in first
    assert len(first) < 520
    whole = json.loads(afcheck("theorem a : (54 : ℕ) % 6 = 0 := by sorry",
                               "theorem b : (2000 + 2001 + 2002 + 2003 + 2004 + 2005 + 2006) % "
                               "7 = 0 := by sorry", "--json").stdout)
    assert whole["evidence"] == "structural" and len(whole["reason"]) > 400
    eq = afcheck("theorem a (x y : ℝ) (h : x = 2) : x + y > y := by sorry",
                 "theorem b (u v : ℝ) (h : 2 * u = 4) : v < u + v := by sorry")
    lines = eq.stdout.splitlines()
    assert lines[0].startswith("Eq  (sae)")
    vacuity = [line for line in lines if "vacuity" in line]
    assert vacuity and all("[check: premises satisfiable]" in line for line in vacuity)
    assert not any(line.startswith("  [refuted]") for line in lines)
