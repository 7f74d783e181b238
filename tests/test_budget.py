"""Budgets: declared per method and stage, changed with --budget, refused when malformed."""

from __future__ import annotations

import time

import pytest

from afcheck.budget import Budget, Clock, OverBudget, parse_change, resolve
from afcheck.errors import UsageError


def test_a_change_names_method_stage_and_key() -> None:
    change = parse_change("nl2fol.ted.size=5000")
    assert (change.method, change.stage, change.key, change.value) == ("nl2fol", "ted", "size",
                                                                      5000)


@pytest.mark.parametrize(("text", "why"), [
    ("ted.size=5", "write METHOD.STAGE.KEY=VALUE"),
    ("nl2fol.ted.sise=5", "unknown budget 'sise'; use one of seconds, memory_mb, size"),
    ("nl2fol.ted.size=0", "size must be a whole number above 0"),
    ("nl2fol.ted.size=-5", "size must be a whole number above 0"),
    ("nl2fol.ted.size=2.5", "size must be a whole number above 0"),
    ("nl2fol.ted.seconds=inf", "seconds must be a number of seconds above 0"),
    ("nl2fol.ted.seconds=nan", "seconds must be a number of seconds above 0"),
])
def test_a_malformed_change_is_one_line(text: str, why: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_change(text)
    assert str(refused.value) == f"--budget {text}: {why}" or why in str(refused.value)
    assert str(refused.value).startswith(f"--budget {text}: ")


def test_changes_apply_to_declared_stages_only() -> None:
    declared = {"nl2fol": {"ted": Budget(size=150, unit="nodes")}, "chains": {}}
    out = resolve(declared, ["nl2fol.ted.size=400", "nl2fol.ted.seconds=2.5"])
    assert out["nl2fol"]["ted"] == Budget(seconds=2.5, size=400, unit="nodes")
    assert declared["nl2fol"]["ted"].size == 150  # the method's own declaration is untouched
    with pytest.raises(UsageError) as refused:
        resolve(declared, ["chains.verify.seconds=3"])
    assert str(refused.value) == ("--budget chains.verify.seconds=3: no stage 'chains.verify' "
                                  "in this run; stages with a budget: nl2fol.ted")


def test_size_over_the_budget_is_its_own_reason() -> None:
    Budget(size=10, unit="binders").check_size("binder alignment", 10)
    with pytest.raises(OverBudget) as over:
        Budget(size=10, unit="binders").check_size("binder alignment", 1204)
    assert str(over.value) == "over budget: binder alignment on 1,204 binders (limit 10)"
    Budget().check_size("anything", 10**9)  # no size bound


def test_a_clock_stops_an_algorithm_once_its_time_is_spent() -> None:
    clock = Clock("search", 0.05, every=1)
    clock.check()
    time.sleep(0.06)
    with pytest.raises(OverBudget) as over:
        clock.check("12 binders")
    assert str(over.value) == "over budget: search on 12 binders, 0.05 s spent (limit 0.05 s)"
    unbounded = Clock("search", None, every=1)
    for _ in range(3):
        unbounded.check()
