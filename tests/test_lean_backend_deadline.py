"""One statement's wall clock across its Lean commands: what each command is given, when the
statement is over, and what it says then (the provers that use it are tested through the fake
REPL in test_lean_backend_tactics and test_lean_backend_deepseek)."""

from __future__ import annotations

import pytest
from afcheck_lean.deadline import SLICE_S, Deadlines


def test_without_a_budget_every_command_gets_the_pools_timeout_and_nothing_is_over() -> None:
    clock = Deadlines(None, per_command=60.0, count=1)
    clock.charge(0, 500.0)
    assert clock.timeout(0) == 60.0 and not clock.over(0)


def test_each_command_gets_what_is_left_and_never_more_than_the_pools_timeout() -> None:
    clock = Deadlines(10.0, per_command=4.0, count=2)
    assert clock.timeout(0) == 4.0  # the pool's limit is the tighter one
    clock.charge(0, 4.0)
    clock.charge(0, 3.5)
    assert clock.timeout(0) == pytest.approx(2.5)
    assert clock.timeout(1) == 4.0  # another statement's commands are not this one's time
    assert not clock.over(0)


def test_a_statement_is_over_once_too_little_is_left_to_elaborate_anything() -> None:
    clock = Deadlines(1.0, per_command=60.0, count=1)
    clock.charge(0, 1.0 - SLICE_S / 2)
    assert clock.over(0)
    assert clock.timeout(0) == SLICE_S  # a command still asked is given the least slice
    clock.charge(0, 0.3)
    assert clock.reason(0) == "time limit: no decision within 1 s of Lean commands " \
                              "(2 command(s) run)"
