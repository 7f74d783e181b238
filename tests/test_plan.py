"""The plan of a run (:mod:`afcheck.plan`): its cases frozen with their chosen, checked
components, and everything refused before any work."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from run_fixtures import CLAIMS, Steps, claims_suite

from afcheck.errors import UnknownComponent, UsageError
from afcheck.method import Choice
from afcheck.plan import alike, label


def test_a_plan_holds_the_cases_and_each_methods_checked_components(tmp_path: Path) -> None:
    steps = Steps()
    planned = steps.plan(claims_suite(tmp_path))
    assert [case.name for case in planned.cases] == ["c1", "c2", "c3", "c4"]
    assert set(planned.methods) == {"verdicts"}
    assert planned.components == {"verdicts": (("prover", Choice.of("arith")),
                                               ("grader", Choice.of("exact")))}
    # No kind of the toy method takes the model under test: its suite's candidates are fixed.
    assert planned.candidates["verdicts"].written == {}
    assert planned.candidates["verdicts"].fixed == len(CLAIMS)
    assert planned.suites["claims"] == {"method": "verdicts", "prover": "arith",
                                        "grader": "exact"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        planned.cases = ()  # type: ignore[misc]


def test_the_components_are_built_only_when_asked(tmp_path: Path) -> None:
    steps = Steps()
    steps.plan(claims_suite(tmp_path), build=False)
    assert steps.components.versions() == {}
    steps.plan(claims_suite(tmp_path, "again"))
    assert steps.components.versions()


def test_an_unknown_component_of_a_suite_points_at_its_suite_toml(tmp_path: Path) -> None:
    folder = claims_suite(tmp_path, defaults='grader = "strict"')
    with pytest.raises(UsageError) as caught:
        Steps().plan(folder)
    assert str(caught.value).startswith(f"{folder / 'suite.toml'}:")
    assert "strict" in str(caught.value) and "exact" in str(caught.value)


def test_an_unknown_component_of_the_command_line_is_the_option_s(tmp_path: Path) -> None:
    with pytest.raises(UnknownComponent) as caught:
        Steps({"grader": "strict"}).plan(claims_suite(tmp_path))
    assert "suite.toml" not in str(caught.value)


def test_a_component_option_no_item_uses_is_refused_naming_who_would(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        Steps({"formaliser": "arith"}).plan(claims_suite(tmp_path))
    assert str(caught.value).startswith("--formaliser arith: no item of this run uses a "
                                        "formaliser (verdicts)")


def test_gates_are_read_and_checked_against_the_methods_metrics(tmp_path: Path) -> None:
    planned = Steps({"gate": ["accuracy>=0.5"]}).plan(claims_suite(tmp_path))
    assert [(gate.metric, gate.op, gate.threshold) for gate in planned.gates] == [
        ("accuracy", ">=", 0.5)]
    with pytest.raises(UsageError, match="uflb"):
        Steps({"gate": ["uflb<=0.5"]}).plan(claims_suite(tmp_path, "other"))


def test_the_baseline_s_failures_are_expected(tmp_path: Path) -> None:
    from afcheck.gates import write_baseline

    baseline = tmp_path / "baseline.json"
    folder = claims_suite(tmp_path)
    with pytest.raises(UsageError, match="baseline"):  # a misspelt path expects nothing
        Steps({"baseline": str(baseline)}).plan(folder)
    steps = Steps()
    write_baseline(baseline, steps.execute(steps.plan(folder)).items.values())
    again = Steps({"baseline": str(baseline)}).plan(folder)
    assert again.expected_failures == {"claims::c3"}


def test_a_label_names_the_component_and_the_model_it_asks() -> None:
    steps = Steps()
    assert label(steps.plugins, "prover", Choice.of("arith")) == "prover arith"
    assert (label(steps.plugins, "grader", Choice.of("exact", {"path": "a.jsonl"}))
            == "grader exact (path=a.jsonl)")


class _Chooser:
    """A method's ``choices`` alone: shared objects (as from a template) or new ones per
    call, whose ids Python may give again once they are gone."""

    def __init__(self, fresh: bool) -> None:
        from afcheck.method import Choice

        self.fresh = fresh
        self.shared = {name: Choice.of(name) for name in "ab"}

    def choices(self, spec: object) -> list[tuple[str, object]]:
        from afcheck.method import Choice

        name = str(spec)
        return [("prover", Choice.of(name) if self.fresh else self.shared[name])]


@pytest.mark.parametrize("fresh", [False, True])
def test_validate_checks_each_group_of_alike_cases_once_and_counts_all(fresh: bool) -> None:
    from afcheck.method import Case

    names = ["a", "a", "b", "a", "c", "b"] if fresh else ["a", "a", "b", "a", "b"]
    cases = [Case(f"s::{i}", str(i), "toy", "s", "s", None, name)
             for i, name in enumerate(names)]
    chooser = _Chooser(fresh)
    groups = alike(cases, lambda method: chooser)  # type: ignore[arg-type, return-value]
    assert sum(count for _, _, count in groups) == len(cases)
    # Every choice made is among the groups' (never merged into another's by a reused id),
    # in the order the cases first make it.
    seen = [choice.name for _, pairs, _ in groups for _, choice in pairs]
    assert list(dict.fromkeys(seen)) == list(dict.fromkeys(names))
    if fresh:  # objects of their own: alike only by value, never merged
        assert [count for _, _, count in groups] == [1] * len(cases)
    else:
        assert [(case.name, count) for case, _, count in groups] == [("0", 3), ("2", 2)]
