"""Kernel-side checks: the replay of every added declaration, the exact statement comparison,
the axioms; through the fake REPL with replies shaped like the real ``AfcheckKernel`` ones,
and, with real Lean, on the built module.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from afcheck_lean.kernel import (
    kernel_available,
    parse_replay,
    parse_type,
    reference_header,
    reference_source,
    with_kernel_checks,
)
from afcheck_lean.settings import LeanSettings
from afcheck_lean.verify import Candidate, verify
from fake_repl.harness import FakeLean, make_fake_lean

STATEMENT = "theorem t (x : ℝ) (h : x = 2) : Real.sqrt (x ^ 2) = 2 := by sorry"
TYPE = ("forall (x : Real) (h : @Eq.{1} Real x (@OfNat.ofNat.{0} Real 2 _)), @Eq.{1} Real "
        "(Real.sqrt (@HPow.hPow.{0, 0, 0} Real Nat Real _ x 2)) (@OfNat.ofNat.{0} Real 2 _)")
HONEST = "by\n  subst h\n  norm_num"
KERNEL_REJECTS = "by\n  subst h\n  exact kernel_rejects_this"
SQRT_STATEMENT = "theorem t : sqrt 4 = 2 := by sorry"


def _info(marker: str, data: str) -> dict[str, object]:
    return {"severity": "info", "pos": {"line": f"$LINE_OF:{marker}", "column": 0}, "data": data}


def _transcript(root: Path) -> Path:
    axioms = _info("#print axioms", "'afcheck_target' depends on axioms: [propext, "
                   "Classical.choice, Quot.sound]")
    ok = _info("#afcheck_replay", "afcheck-replay: ok 3 checked, 0 not replayed")
    proved = _info("#afcheck_type", f"afcheck-type afcheck_target: {TYPE}")
    rules = [
        {"env": "none", "contains": ["import AfcheckKernel", "import Mathlib"],
         "response": {"env": "$ENV"}},
        # A theorem whose `#print axioms` is clean, but a declaration of the command was
        # added past the kernel: the replay rejects it.
        {"contains": ["kernel_rejects_this", "#afcheck_replay"], "response": {"env": "$ENV",
         "messages": [axioms, _info("#afcheck_replay", "afcheck-replay: rejected "
                                    "kernel_rejects_this: (kernel) declaration type mismatch, "
                                    "'kernel_rejects_this' has type\n  True\nbut it is "
                                    "expected to have type\n  False"), proved]}},
        # `export Real (sqrt)` in the header makes `sqrt` Real.sqrt; afcheck's own statement
        # in a clean environment (the pool opens Nat) names Nat.sqrt.
        {"contains": ["export Real (sqrt)", "afcheck_target"], "response": {"env": "$ENV",
         "messages": [axioms, ok, _info("#afcheck_type", "afcheck-type afcheck_target: "
                                        "@Eq.{1} Real (Real.sqrt 4) 2")]}},
        {"contains": ["sqrt 4 = 2", "afcheck_reference"], "response": {"env": "$ENV",
         "messages": [_info("#afcheck_type", "afcheck-type afcheck_reference: "
                            "@Eq.{1} Nat (Nat.sqrt 4) 2")]}},
        {"contains": ["afcheck_reference", "Real.sqrt (x ^ 2) = 2"], "response": {
            "env": "$ENV", "messages": [
                {"severity": "warning", "pos": {"line": "$LINE_OF:theorem", "column": 8},
                 "data": "declaration uses 'sorry'"},
                _info("#afcheck_type", f"afcheck-type afcheck_reference: {TYPE}")]}},
        {"contains": ["norm_num", "#afcheck_replay"], "response": {"env": "$ENV",
         "messages": [axioms, ok, proved]}},
        {"contains": ["uses_cheat_axiom", "#afcheck_replay"], "response": {"env": "$ENV",
         "messages": [_info("#print axioms", "'afcheck_target' depends on axioms: [propext, "
                            "cheat]"), ok, proved]}},
    ]
    path = root / "kernel.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rules))
    return path


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    yield from make_fake_lean(tmp_path, _transcript(tmp_path))


def _check(fake: FakeLean, statement: str, body: str, header: str = "") -> tuple[bool, str]:
    repl_header = with_kernel_checks(replace(fake.settings, kernel_checks="on")).header
    with fake.pool(kernel_checks="on", header=repl_header) as pool:
        (check,) = verify(pool, [Candidate(statement, header, body)])
    return check.accepted, check.reason


@pytest.mark.heavy
def test_an_honest_proof_passes_the_replay_and_the_statement_comparison(fake: FakeLean) -> None:
    accepted, reason = _check(fake, STATEMENT, HONEST)
    assert accepted, reason
    assert "statement identical" in reason
    commands = fake.commands()
    assert commands[0].startswith("import AfcheckKernel\nimport Mathlib")
    checked = next(c for c in commands if "afcheck_target" in c)
    assert checked.rstrip().splitlines()[-2:] == ["#afcheck_replay",
                                                 "#afcheck_type afcheck_target"]
    reference = next(c for c in commands if "afcheck_reference" in c)
    assert "subst h" not in reference and reference.rstrip().endswith(
        "#afcheck_type afcheck_reference")


@pytest.mark.heavy
def test_clean_axioms_but_a_declaration_the_kernel_rejects_is_refused(fake: FakeLean) -> None:
    accepted, reason = _check(fake, STATEMENT, KERNEL_REJECTS)
    assert not accepted
    assert reason.startswith("the kernel rejects kernel_rejects_this when it is replayed: "
                             "(kernel) declaration type mismatch")


@pytest.mark.heavy
def test_a_header_that_changes_what_the_statement_names_is_refused(fake: FakeLean) -> None:
    accepted, reason = _check(fake, SQRT_STATEMENT, "by norm_num", header="export Real (sqrt)")
    assert not accepted
    assert "differs from afcheck's statement elaborated in a clean environment" in reason


@pytest.mark.heavy
def test_axioms_outside_the_permitted_list_are_refused_with_kernel_checks_on(
        fake: FakeLean) -> None:
    accepted, reason = _check(fake, STATEMENT, "by\n  exact uses_cheat_axiom")
    assert not accepted and reason == "the proof depends on axioms cheat"


def test_answers_of_the_kernel_module_are_read_exactly() -> None:
    assert parse_replay("afcheck-replay: ok 12 checked, 3 not replayed") is not None
    rejected = parse_replay("afcheck-replay: rejected foo.bar: (kernel) unknown constant")
    assert rejected is not None and rejected.rejected == "foo.bar" and not rejected.ok
    assert parse_replay("afcheck-replay: maybe") is None
    assert parse_type("afcheck-type afcheck_target: True", "afcheck_target") == "True"
    assert parse_type("afcheck-type other: True", "afcheck_target") is None
    assert parse_type("afcheck-type afcheck_target: unknown constant", "afcheck_target") is None


def test_the_reference_keeps_the_header_only_where_the_statement_uses_it() -> None:
    header = "open Finset\ndef f (n : ℕ) : ℕ := n + 1\nexport Real (sqrt)"
    assert reference_header(header, "(n : ℕ) : f n = n + 1") == header
    assert reference_header(header, ": sqrt 4 = 2") == "open Finset"
    text, line = reference_source("open Finset", "(n : ℕ) : n = n")
    assert text.splitlines()[line - 1] == "#afcheck_type afcheck_reference"
    assert "theorem afcheck_reference (n : ℕ) : n = n := by sorry" in text


def test_kernel_checks_turn_on_only_when_the_module_is_built(tmp_path: Path) -> None:
    settings = LeanSettings(project=tmp_path)
    assert not kernel_available(tmp_path)
    assert with_kernel_checks(settings).kernel_checks == "off"
    built = tmp_path / ".lake" / "build" / "lib" / "AfcheckKernel.olean"
    built.parent.mkdir(parents=True)
    built.write_bytes(b"")
    on = with_kernel_checks(settings)
    assert on.kernel_checks == "on" and on.header.startswith("import AfcheckKernel\n")
    assert with_kernel_checks(on).header.count("import AfcheckKernel") == 1


@pytest.mark.requires_lean
def test_real_lean_replays_and_compares() -> None:
    from afcheck_lean.pool import ReplPool
    from afcheck_lean.session import lean_interact_starter, require_lean

    settings = LeanSettings(timeout_s=120.0)
    if shutil.which(settings.lake) is None:
        pytest.skip("no Lean toolchain (run `afcheck lean setup`)")
    require_lean(settings, "test")
    settings = with_kernel_checks(settings)
    if settings.kernel_checks != "on":
        pytest.skip("AfcheckKernel is not built in the project (afcheck lean setup builds it)")
    with ReplPool(lean_interact_starter(settings), settings) as pool:
        honest, smuggled = verify(pool, [
            Candidate("theorem t : (2 : ℕ) + 2 = 4 := by sorry", "", "by norm_num"),
            Candidate("theorem t : (2 : ℕ) + 2 = 5 := by sorry", "", "by\n  exact cheat"),
        ])
    assert honest.accepted, honest.reason
    assert not smuggled.accepted
