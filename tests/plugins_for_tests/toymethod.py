"""A third-party evaluation method and reporter, used by the run's tests.

- suite kind ``claims`` (method ``verdicts``): one JSON object per line,
  ``{"id": "c1", "claim": "2 + 3 = 5", "expected": "proved", "group": "easy"}``;
- method ``verdicts``: proves every claim with the chosen prover in one batch (through the
  runtime's cached call) and passes an item when the verdict is the expected one; its one
  metric, ``accuracy``, accepts ``--gate accuracy>=X``;
- reporter ``csv`` with its own option ``--csv FILE``: one ``case_id,status`` row per item;
- its report view (:mod:`toymethod_view`, registered for the report plugin's ``view`` kind):
  its own section and compare keys (a claim pairs with the same claim in any suite);
- its own component kind ``grader`` (declared with ``afcheck_addkinds``, chosen with
  ``--grader NAME``): ``exact`` passes a claim whose verdict is the expected one, ``lenient``
  also one left inconclusive.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from afcheck import hookimpl
from afcheck.errors import LoadError
from afcheck.hookspecs import hookspec
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, MethodBase, Selection
from afcheck.metrics import Count, Metric, Metrics, Rate, wilson
from afcheck.options import OptionGroup
from afcheck.registry import PROVER, REPORTER, Kind, Kinds, Register, lazy
from afcheck.run import Run
from afcheck.runtime import Runtime
from afcheck.runtime import cache as codec
from afcheck.suites import Record, SuiteSpec
from afcheck.summary import RunSummary
from afcheck.types import Location, ProofTask, Status, Verdict


@runtime_checkable
class Grader(Protocol):
    name: str
    version: str

    def grade(self, verdict: str, expected: str) -> bool: ...


GRADER: Kind[Grader] = Kind("grader", "graders", "afcheck_register_graders", selectable=True,
                            protocol=Grader, description="decides whether a verdict passes")


class Specs:
    """The hookspec of the grader kind, as a third-party plugin declares its own."""

    @hookspec
    def afcheck_register_graders(self, register: Register[Any]) -> None:
        """Register graders: ``factory(options)`` returns a :class:`Grader`."""


class Exact:
    name = "exact"
    version = "1"

    def grade(self, verdict: str, expected: str) -> bool:
        return verdict == expected


class Lenient(Exact):
    name = "lenient"

    def grade(self, verdict: str, expected: str) -> bool:
        return verdict in (expected, "inconclusive")


CONFIGURED: list[int] = []
"""One entry per ``afcheck_configure`` call this module received."""


@dataclass(frozen=True)
class Claim:
    id: str
    claim: str
    expected: str
    dataset: str
    source: Location | None = None

    @property
    def case_name(self) -> str:
        return self.id


class ClaimsSuite:
    name = "claims"
    method = "verdicts"

    def load(self, spec: SuiteSpec) -> Iterator[Claim | LoadError]:
        path = spec.data_path()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            location = Location(str(path), number)
            try:
                row = json.loads(line)
                yield Claim(str(row["id"]), str(row["claim"]), str(row["expected"]),
                            str(row.get("group", spec.name)), location)
            except (ValueError, KeyError) as exc:
                yield LoadError(location, f"not a claim record ({exc})")


@dataclass(frozen=True)
class ToyCase:
    claim: Claim
    prover: Choice
    grader: Choice


@dataclass(frozen=True)
class ToyResult:
    case: ToyCase
    verdict: Verdict
    seconds: float
    passed: bool


@dataclass(frozen=True)
class ToySummary:
    correct: int
    total: int
    method: str = "verdicts"
    by_group: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Per group: (correct, total)."""

    @property
    def evaluated(self) -> int:
        return self.total

    def metrics(self) -> Metrics:
        def figures(correct: int, total: int) -> dict[str, Metric]:
            return {"accuracy": Rate(correct, total), "N": Count(total)}

        return Metrics(figures(self.correct, self.total),
                       {name: figures(*counts) for name, counts in self.by_group.items()})

    def lines(self) -> list[str]:
        interval = wilson(self.correct, self.total)
        accuracy = self.correct / self.total if self.total else 0.0
        return [f"verdicts: accuracy {accuracy:.3f} "
                f"[{interval.low:.3f}, {interval.high:.3f}] over {self.total} claims"]

    def sections(self) -> dict[str, object]:
        return {}

    def properties(self, group: str) -> dict[str, str]:
        return {}


class Verdicts(MethodBase[ToyCase, ToyResult]):
    name = "verdicts"
    version = "1"
    kinds = ("prover", "grader")
    defaults: Mapping[str, object] = {"prover": "arith", "grader": "exact"}
    gates: Mapping[str, str] = {"accuracy": "min"}

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, ToyCase]]:
        assert isinstance(record, Claim)
        yield record.case_name, ToyCase(record, selection.choice("prover"),
                                        selection.choice("grader"))

    def choices(self, case: ToyCase) -> Iterable[tuple[str, Choice]]:
        return [("prover", case.prover), ("grader", case.grader)]

    def run(self, cases: Sequence[Case[ToyCase]], runtime: Runtime,
            notify: Callable[[ToyResult], None] | None) -> list[ToyResult]:
        out = []
        by_prover: dict[Choice, list[Case[ToyCase]]] = {}
        for case in cases:
            by_prover.setdefault(case.spec.prover, []).append(case)
        results: dict[str, ToyResult] = {}
        for choice, group in by_prover.items():
            built = runtime.component(PROVER, choice)
            tasks = [ProofTask(c.case_id, f"theorem t : {c.spec.claim.claim} := by sorry")
                     for c in group]
            batch = runtime.cached("prove", built, tasks, key=lambda t: (t.statement, t.header),
                                   call=built.component.prove,
                                   load=codec.load_verdict, dump=codec.dump)
            for case, verdict, seconds in zip(group, batch.results, batch.seconds, strict=True):
                grader = runtime.component(GRADER, case.spec.grader).component
                passed = grader.grade(verdict.kind.value, case.spec.claim.expected)
                results[case.case_id] = ToyResult(case.spec, verdict, seconds, passed)
        for case in cases:
            out.append(results[case.case_id])
            if notify is not None:
                notify(results[case.case_id])
        return out

    def outcome(self, result: ToyResult) -> ItemOutcome:
        if result.passed:
            return ItemOutcome(Status.PASSED)
        expected, got = result.case.claim.expected, result.verdict.kind.value
        return ItemOutcome(Status.FAILED, f"expected {expected}, got {got}",
                           f"claim: {result.case.claim.claim}")

    def timings(self, result: ToyResult) -> Mapping[str, float]:
        return {"prove": result.seconds}

    def to_json(self, result: ToyResult) -> dict[str, object]:
        return {"claim": result.case.claim.claim, "verdict": result.verdict.kind.value,
                "expected": result.case.claim.expected}

    def summarise(self, items: Sequence[ItemResult[ToyResult]]) -> ToySummary:
        correct = sum(item.outcome.status is Status.PASSED for item in items)
        groups: dict[str, list[bool]] = {}
        for item in items:
            groups.setdefault(item.case.group, []).append(item.outcome.status is Status.PASSED)
        return ToySummary(correct, len(items),
                          by_group={name: (sum(passed), len(passed))
                                    for name, passed in groups.items()})


class CsvReporter:
    name = "csv"

    def report(self, summary: RunSummary, destination: str) -> None:
        with open(destination, "w", encoding="utf-8") as handle:
            handle.write("case_id,method,status\n")
            for item in summary.items:
                handle.write(f"{item.case.case_id},{item.case.method},{item.status.value}\n")


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    kinds.add(GRADER, Specs)


@hookimpl
def afcheck_register_graders(register: Register[Any]) -> None:
    register("exact", lambda options: Exact(), description="the expected verdict only")
    register("lenient", lambda options: Lenient(), description="or inconclusive")


@hookimpl
def afcheck_register_methods(register: Register[Any]) -> None:
    register("verdicts", lambda options: Verdicts(), description="expected verdicts of claims")


@hookimpl
def afcheck_register_suite_kinds(register: Register[Any]) -> None:
    register("claims", lambda options: ClaimsSuite(), description="claims with verdicts")


@hookimpl
def afcheck_register_views(register: Register[Any]) -> None:
    register("verdicts", lazy("toymethod_view:VerdictsView", takes_options=False),
             description="accuracy per group; each claim with its verdict; pairs by claim")


@hookimpl
def afcheck_register_reporters(register: Register[Any]) -> None:
    register("csv", lambda options: CsvReporter(), description="one row per item (--csv)")


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--csv", metavar="FILE", section="outputs", help="write one CSV row per item")


@hookimpl
def afcheck_configure(run: Run) -> None:
    CONFIGURED.append(1)
    destination = run.option("csv")
    if destination:
        run.add_reporter(run.plugins.create(REPORTER, "csv"), str(destination))
