"""``afcheck fol equiv``: text and JSON output, files as arguments, exit statuses."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from afcheck_fol.command import configure

from afcheck.errors import UsageError


def fol_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="afcheck fol")
    return configure(parser)(parser.parse_args(argv))


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    status = fol_command(["equiv", "--json", *argv])
    return status, json.loads(capsys.readouterr().out)


def test_equivalent_under_the_default_theory(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_json(capsys, "Smaller(a, b)", "Larger(b, a)")
    assert status == 0
    assert out["equivalent"] is True and out["theory"] == "analytic"
    assert out["syntax_error"] is None and out["counter_model"] is None


def test_not_equivalent_keeps_the_counter_model(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_json(capsys, "--theory", "none", "Smaller(a, b)", "Larger(b, a)")
    assert status == 1
    assert out["equivalent"] is False and out["theory"] == "none"
    model = out["counter_model"]
    assert isinstance(model, dict) and set(model["constants"]) == {"a", "b"}


def test_syntax_error_reports_class_rule_and_span(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_json(capsys, "Cube(a)", "Cube(a) → Small(a) → Tet(a)")
    assert status == 1 and out["equivalent"] is None
    error = out["syntax_error"]
    assert isinstance(error, dict)
    assert (error["formula"], error["class"], error["rule"]) == (
        "right", "structure", "unparenthesised-mix")
    assert error["span"] == [8, 20]


def test_files_as_arguments_and_folio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    left = tmp_path / "a.fol"
    left.write_text("∀x (Drinks(x) ⊕ Jokes(x))\n", encoding="utf-8")
    status, out = run_json(capsys, "--language", "folio", str(left),
                           "∀y ((Drinks(y) ∨ Jokes(y)) ∧ ¬(Drinks(y) ∧ Jokes(y)))")
    assert (status, out["equivalent"], out["theory"]) == (0, True, "none")


def test_text_output_draws_the_world(capsys: pytest.CaptureFixture[str]) -> None:
    assert fol_command(["equiv", "Cube(a)", "Cube(b)"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("not equivalent under theory analytic")
    assert "row 0 at the back" in out


def test_unknown_theory_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no theory 'shapes'"):
        fol_command(["equiv", "--language", "folio", "--theory", "shapes", "P(a)", "P(a)"])


def test_registered_as_an_afcheck_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", "fol", "equiv", "--json", "∀x Cube(x)", "∀y Cube(y)"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["equivalent"] is True


@pytest.mark.parametrize("value", ["0", "-5", "many"])
def test_a_resource_limit_below_one_is_refused(capsys: pytest.CaptureFixture[str],
                                               value: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        fol_command(["equiv", "Cube(a)", "Cube(a)", "--rlimit", value])
    assert stopped.value.code == 2
    assert f"'{value}' is not a whole number >= 1" in capsys.readouterr().err


def test_a_long_formula_is_read_as_a_formula_not_tried_as_a_path(
        capsys: pytest.CaptureFixture[str]) -> None:
    long = " ∧ ".join(["Cube(a)"] * 60)  # 600 characters: a file name too long to exist
    status, record = run_json(capsys, long, "Cube(a)")
    assert status == 0 and record["equivalent"] is True


@pytest.mark.heavy
def test_190_alternating_quantifiers_end_within_the_search_budget(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The finite-model search would expand 2^190 nodes: it is not tried past its size
    budget, and the pair is still decided by z3; the distance is skipped over its budget."""
    left, right = "∀x ∃y " * 95 + "Larger(x, y)", "∃y ∀x " * 95 + "Larger(x, y)"
    status, record = run_json(capsys, left, right)
    steps = record["steps"]
    assert isinstance(steps, list)
    assert any("not tried (over budget: finite-model search on over 200,000 nodes" in step
               for step in steps)
    assert record["distance"] is None
    assert str(record["distance_skipped"]).startswith("over budget: tree edit distance on ")
    assert status in (0, 1, 3)


def test_without_a_language_the_formulas_choose_it(capsys: pytest.CaptureFixture[str]) -> None:
    # FOLIO-style predicates are no predicates of Tarski's World: the open vocabulary reads
    # them, with FOLIO's theory.
    status, out = run_json(capsys, "∀x (Dog(x) → Animal(x))", "¬∃y (Dog(y) ∧ ¬Animal(y))")
    assert status == 0 and out["equivalent"] is True and out["theory"] == "none"
    # Tarski's World's own predicates keep its analytic theory.
    status, out = run_json(capsys, "Smaller(a, b)", "Larger(b, a)")
    assert status == 0 and out["theory"] == "analytic"
    # Any other error is the formula's own, in the language that found it.
    assert fol_command(["equiv", "∀x (Cube(x) → Small(x)", "Cube(a)"]) == 1
    out_text = capsys.readouterr().out
    assert out_text.startswith("A is not a sentence of tarski:") and "never closed" in out_text
