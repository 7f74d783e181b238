"""The ``equivalence`` evaluation method: a criterion decides Eq / Noneq / Inconclusive for
each (reference, candidate) pair of an ``equivalence`` suite (:mod:`afcheck_equivalence.suite`),
and the gold label decides the test.

The method as the runner sees it, and what it declares: its kinds and defaults, the metrics a
gate may bound, its budgets and next steps. Its parts live in modules of their own: the
pipeline in :mod:`~afcheck_equivalence.decide`, the test outcome in
:mod:`~afcheck_equivalence.outcome`, the result and its codec in
:mod:`~afcheck_equivalence.records`, the metrics in :mod:`~afcheck_equivalence.metrics`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from afcheck.budget import Budget
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.runtime import Runtime
from afcheck_equivalence.decide import CaseSpec, decide_cases
from afcheck_equivalence.metrics import GATES, EquivalenceSummary, summary_of
from afcheck_equivalence.outcome import outcome
from afcheck_equivalence.records import Result, from_json, to_json
from afcheck_equivalence.suite import Item

__all__ = ["Equivalence"]


PAIR_SECONDS = 60.0
"""The default wall-clock limit of one pair (docs/budgets.md says why)."""
PAIR_MEMORY_MB = 4096
"""The default address space of a pair's worker (docs/budgets.md says why)."""
FORMALISER_LIMITS = ("the formaliser's own limits (an LLM over HTTP: timeout_s each attempt, "
                     "max_retries retries)")
"""What bounds a formaliser's request when ``equivalence.formalise`` sets no bound."""


class Equivalence(MethodBase[CaseSpec, Result]):
    """A criterion decides each (reference, candidate) pair; the gold label decides the test."""

    name = "equivalence"
    version = "1"
    kinds = ("criterion", "prover", "formaliser")
    defaults: Mapping[str, object] = {"criterion": "sae", "prover": "smt",
                                      "formaliser": "literal"}
    gates: Mapping[str, str] = GATES
    next_steps: Mapping[str, str] = {
        "other criterion": "afcheck {paths} --criterion logical",
        "gate in CI": "afcheck {paths} --gate 'equivalence.false_positive_rate<=0.05' "
                      "--json results.json --junitxml results.xml",
    }
    """What to try after a first run: whole-statement equivalence beside the default
    structure-aware one (what each accepts that the other does not), a gate."""
    budgets: Mapping[str, Budget] = {"pair": Budget(seconds=PAIR_SECONDS,
                                                    memory_mb=PAIR_MEMORY_MB),
                                     "formalise": Budget(otherwise=FORMALISER_LIMITS)}
    """``formalise``: one formaliser request for the candidate of one pair that has none,
    its ``seconds`` carried to the formaliser as the options that bound it
    (:meth:`afcheck.runtime.Runtime.budgeted`; an LLM over HTTP: the whole request, retries
    included); a request stopped there leaves that pair without a candidate (Inconclusive
    with the reason) and is never cached. ``pair``: one pair's decision by its criterion, in
    worker processes killed past ``seconds`` (a batch of pairs gets that allowance, a killed
    batch is split until the pair that exceeds it is alone) with ``memory_mb`` of address
    space each (:mod:`afcheck_equivalence.limit`)."""

    def cases(self, record: object, selection: Selection) -> Iterable[tuple[str, CaseSpec]]:
        if not isinstance(record, Item):
            raise TypeError(f"the equivalence method reads pairs, got {type(record).__name__}")
        criterion = selection.choice("criterion")
        prover = selection.choice("prover")
        options = dict(criterion.options)
        options.setdefault("prover", prover.name)
        options.update({f"prover.{k}": v for k, v in prover.options})
        formaliser = selection.choice("formaliser") if record.candidate is None else None
        yield record.case_name, CaseSpec(record, Choice.of(criterion.name, options), formaliser)

    def choices(self, case: CaseSpec) -> Iterable[tuple[str, Choice]]:
        yield "criterion", case.criterion
        if case.formaliser is not None:
            yield "formaliser", case.formaliser

    def run(self, cases: Sequence[Case[CaseSpec]], runtime: Runtime,
            notify: Callable[[Result], None] | None) -> list[Result]:
        return decide_cases([case.spec for case in cases], runtime, notify, self.name,
                            self.budgets["pair"])

    def outcome(self, result: Result) -> ItemOutcome:
        return outcome(result)

    def timings(self, result: Result) -> Mapping[str, float]:
        return {}

    def to_json(self, result: Result) -> JsonObject:
        return to_json(result)

    def from_json(self, data: JsonObject) -> Result:
        return from_json(data)

    def summarise(self, items: Sequence[ItemResult[Result]]) -> EquivalenceSummary:
        return summary_of([item.result for item in items])
