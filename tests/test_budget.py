"""Budgets: declared per method and stage, changed with --budget, refused when malformed."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import cast

import pytest

from afcheck import hookimpl
from afcheck.budget import Budget, Clock, OverBudget, budgets_of, parse_change, resolve
from afcheck.errors import UsageError
from afcheck.method import AnyMethod, Choice, MethodBase
from afcheck.plugins import Plugins
from afcheck.registry import PROVER
from afcheck.runtime import Components, Runtime
from afcheck.types import ProofTask, Verdict, VerdictKind


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


class _Timed:
    """A prover whose only setting is the time limit its options give."""

    name = "timed"
    version = "1"

    def __init__(self, options: Mapping[str, str]) -> None:
        self.options = dict(options)

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        return [Verdict(VerdictKind.INCONCLUSIVE, self.name) for _ in tasks]


def _timed_budget(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    if budget.memory_mb is not None:
        raise ValueError("'timed' cannot bound its memory")
    out = {"limit_s": f"{budget.seconds:g}"}
    if "poll_s" not in options:  # derived from the bound: the user's own value stands
        out["poll_s"] = f"{budget.seconds / 10:g}"
    return out


@hookimpl(specname="afcheck_register_provers")
def _register(register):  # type: ignore[no-untyped-def]
    register("timed", _Timed, budget=_timed_budget)
    register("fixed", _Timed)
    register("stopping", _Timed, budget=_timed_budget, volatile=("limit_s",))


def _runtime(*changes: str) -> Runtime:
    plugins = Plugins(autoload=False)
    plugins.register(__import__(__name__), "here")
    budgets = resolve({"m": {"prove": Budget(), "other": Budget()}}, changes)
    return Runtime(Components(plugins), budgets=budgets)


def test_a_budget_reaches_the_component_as_its_options() -> None:
    runtime = _runtime("m.prove.seconds=4")
    choice = runtime.budgeted(PROVER, Choice.of("timed", {"jobs": "2"}), "m", "prove")
    assert choice == Choice.of("timed", {"jobs": "2", "limit_s": "4", "poll_s": "0.4"})
    built = runtime.component(PROVER, choice)
    assert built.component.options["limit_s"] == "4"  # type: ignore[attr-defined]
    # The options are the component's identity: another budget is another fingerprint.
    other = _runtime("m.prove.seconds=5").budgeted(PROVER, Choice.of("timed"), "m", "prove")
    assert runtime.component(PROVER, other).fingerprint != built.fingerprint


def test_a_volatile_option_is_left_out_of_the_fingerprint_and_kept_in_the_recipe() -> None:
    components = _runtime().components
    plain = components.get(PROVER, Choice.of("stopping", {"jobs": "2"}))
    bounded = components.get(PROVER, Choice.of("stopping", {"jobs": "2", "limit_s": "600"}))
    assert bounded.component is not plain.component
    assert bounded.fingerprint == plain.fingerprint  # results kept before are found again
    recipe = components.recipe(bounded.component)
    assert recipe is not None and dict(recipe.options)["limit_s"] == "600"  # built the same
    other = components.get(PROVER, Choice.of("stopping", {"jobs": "3", "limit_s": "600"}))
    assert other.fingerprint != plain.fingerprint  # an option that changes results
    # Not volatile where the registration does not say so.
    assert (components.get(PROVER, Choice.of("timed", {"limit_s": "600"})).fingerprint
            != components.get(PROVER, Choice.of("timed")).fingerprint)


def test_without_a_bound_the_component_keeps_its_own_limits() -> None:
    choice = Choice.of("fixed", {"limit_s": "9"})
    assert _runtime("m.other.seconds=1").budgeted(PROVER, choice, "m", "prove") is choice


def test_the_users_option_for_a_derived_setting_stands() -> None:
    choice = _runtime("m.prove.seconds=4").budgeted(
        PROVER, Choice.of("timed", {"poll_s": "1", "limit_s": "4.0"}), "m", "prove")
    assert dict(choice.options) == {"limit_s": "4", "poll_s": "1"}


def test_a_budget_and_an_option_that_contradict_it_are_refused() -> None:
    with pytest.raises(UsageError) as refused:
        _runtime("m.prove.seconds=4").budgeted(PROVER, Choice.of("timed", {"limit_s": "30"}),
                                               "m", "prove")
    assert str(refused.value) == ("--budget m.prove (seconds=4) sets timed's option limit_s=4, "
                                  "and --prover-opt gives limit_s=30; keep one of them")


def test_a_bound_the_component_cannot_enforce_is_refused() -> None:
    with pytest.raises(UsageError, match=r"^--budget m.prove: the prover 'fixed' takes no "
                       r"budget; bound it with its own options \(--prover-opt\)"):
        _runtime("m.prove.seconds=4").budgeted(PROVER, Choice.of("fixed"), "m", "prove")
    with pytest.raises(UsageError, match=r"^--budget m.prove: 'timed' cannot bound its memory$"):
        _runtime("m.prove.memory_mb=64").budgeted(PROVER, Choice.of("timed"), "m", "prove")


def test_describe_says_what_holds_without_a_bound() -> None:
    assert Budget(otherwise="the prover's own limits").describe() == "the prover's own limits"
    assert Budget(seconds=3, otherwise="the prover's own limits").describe() == "seconds=3"
    assert Budget().describe() == "unbounded"


class _Declares(MethodBase[object, object]):
    name = "declares"
    budgets = {"prove": Budget(seconds=2)}
    settings = {"seed": int}


class _Defaults(MethodBase[object, object]):
    name = "defaults"


def test_one_reader_of_a_methods_optional_declarations() -> None:
    from afcheck.method import next_steps_of, settings_of

    method = cast(AnyMethod, _Declares())
    assert budgets_of(method) == {"prove": Budget(seconds=2)}
    assert settings_of(method) == {"seed": int}
    bare = cast(AnyMethod, _Defaults())
    assert next_steps_of(method) == {} and budgets_of(bare) == {} and settings_of(bare) == {}
    # A copy: what a reader does with it never changes the method's own declaration.
    assert budgets_of(method) is not _Declares.budgets


def test_a_declaration_of_the_wrong_type_is_one_line_naming_the_method() -> None:
    from afcheck.errors import AfcheckError

    class Wrong:
        name = "wrong"
        budgets = {"prove": 30}  # seconds meant, but not a Budget

    with pytest.raises(AfcheckError, match=r"^method 'wrong' declares budgets\['prove'\] = 30; "
                       r"expected a Budget$"):
        budgets_of(cast(AnyMethod, Wrong()))
