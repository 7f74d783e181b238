"""Checker ``lean``: `by sorry` type-checking against the fake REPL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.checker import LeanChecker
from fake_repl.harness import FakeLean, make_fake_lean

from afcheck.types import Formalisation, FormalisationStatus


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


def _ok(statement: str, header: str = "", key: str = "k") -> Formalisation:
    return Formalisation(key=key, formaliser="test", status=FormalisationStatus.OK,
                         statement=statement, header=header)


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


def test_a_timed_out_check_leaves_the_record_ok(fake: FakeLean) -> None:
    record = _ok("theorem good : (2 : ℕ) + 2 = 4 := by sorry", header="-- fake:timeout")
    with _Checking(fake, timeout_s=0.5) as checker:
        (checked,) = checker.check([record])
    assert checked == record


class _Checking:
    def __init__(self, fake: FakeLean, **changes: object) -> None:
        self.checker = LeanChecker(fake.pool(**changes))

    def __enter__(self) -> LeanChecker:
        return self.checker

    def __exit__(self, *exc: object) -> None:
        self.checker.close()
