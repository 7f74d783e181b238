"""How the ``equivalence`` method decides its pairs: the candidates a formaliser writes for the
items without one (:mod:`afcheck_equivalence.candidates`), then each criterion's decisions
through the run's result cache, under the pair limit (:mod:`afcheck_equivalence.limit`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from afcheck.budget import Budget
from afcheck.method import Choice
from afcheck.registry import FORMALISER
from afcheck.runtime import Runtime
from afcheck_equivalence.candidates import NOTHING, Written, write_candidates
from afcheck_equivalence.kinds import CRITERION, EquivalenceCriterion
from afcheck_equivalence.limit import limit_for
from afcheck_equivalence.records import (
    Decision,
    Inconclusive,
    Pair,
    Result,
    decision_from_json,
)
from afcheck_equivalence.suite import Item

__all__ = ["CaseSpec", "decide", "decide_cases", "decide_pairs"]


@dataclass(frozen=True)
class CaseSpec:
    """One item with the components a run chose for it."""

    item: Item
    criterion: Choice
    """The criterion, its options carrying the run's prover (``prover``, ``prover.K``)."""
    formaliser: Choice | None
    """Set only when the item has no candidate and the formaliser must write one."""


def decide(items: Sequence[Item], criterion: EquivalenceCriterion,
           candidates: Mapping[str, str | None] | None = None) -> list[Result]:
    """Every item in one criterion batch, in this process and without a cache.
    ``candidates`` supplies the formaliser's statements for items without one (``None``: the
    formaliser produced nothing)."""
    written = dict(candidates or {})
    pairs: list[Pair] = []
    chosen: list[str | None] = []
    for item in items:
        candidate = item.candidate if item.candidate is not None else written.get(item.id)
        chosen.append(candidate)
        if candidate is not None:
            pairs.append(Pair(item.id, item.reference, candidate, item.header))
    decisions = iter(criterion.decide(pairs))
    results = []
    for item, candidate in zip(items, chosen, strict=True):
        if candidate is None:
            decision: Decision = Inconclusive(criterion.name,
                                              "the formaliser wrote no candidate statement")
        else:
            decision = next(decisions)
        results.append(Result(item, candidate, decision))
    return results


def decide_cases(specs: Sequence[CaseSpec], runtime: Runtime,
                 notify: Callable[[Result], None] | None, method: str,
                 default_pair: Budget) -> list[Result]:
    """One result per case, in order: the missing candidates written by each chosen
    formaliser (its requests bounded by ``method``'s ``formalise`` budget), then the pairs
    decided by each chosen criterion under ``method``'s ``pair`` budget (``default_pair``
    unless the user asked for another). ``notify`` gets each result as soon as it is known."""
    written: dict[str, Written] = {}
    for formaliser in dict.fromkeys(s.formaliser for s in specs if s.formaliser):
        todo = [s.item for s in specs if s.formaliser == formaliser]
        budgeted = runtime.budgeted(FORMALISER, formaliser, method, "formalise")
        written.update(write_candidates(runtime, budgeted, todo))
    results: dict[str, Result] = {}
    for criterion in dict.fromkeys(s.criterion for s in specs):
        group = [s.item for s in specs if s.criterion == criterion]
        pairs = [(item, item.candidate if item.candidate is not None
                  else written.get(item.id, NOTHING).statement) for item in group]
        budget = runtime.budget(method, "pair")
        decided = decide_pairs(runtime, criterion,
                               [(i, c) for i, c in pairs if c is not None],
                               budget, asked=budget != default_pair)
        for item, candidate in pairs:
            decision = decided.get(item.id) or Inconclusive(
                criterion.name, written.get(item.id, NOTHING).why())
            result = Result(item, candidate, decision)
            results[item.id] = result
            if notify is not None:
                notify(result)
    return [results[s.item.id] for s in specs]


def decide_pairs(runtime: Runtime, choice: Choice, pairs: list[tuple[Item, str]],
                 budget: Budget | None = None, asked: bool = False) -> dict[str, Decision]:
    """Each pair's decision by the criterion ``choice``, through the result cache. With a
    wall-clock ``budget``, the pairs are decided in batches in worker processes of one pool
    (:class:`afcheck_equivalence.limit.PairLimit`) kept for all chunks and stopped before
    this returns; a pair that outlives the budget is Inconclusive with the reason "time
    limit". Decided here instead: a criterion that is ``contained`` (it cannot outlive the
    limit here) unless the user ``asked`` for this budget, or one registered in this process
    (no worker can build it; refused when ``asked``)."""
    built = runtime.component(CRITERION, choice)
    criterion = built.component
    limit = limit_for(runtime.components, criterion, choice.name, budget, asked)

    def call(chunk: list[tuple[Item, str]]) -> list[Decision]:
        batch = [Pair(i.id, i.reference, c, i.header) for i, c in chunk]
        return criterion.decide(batch) if limit is None else limit.decide(batch)

    try:
        made = runtime.cached("equivalence", built, pairs,  # type: ignore[arg-type]
                              key=lambda p: (p[0].reference, p[1], p[0].header), call=call,
                              dump=lambda d: d.to_json(), load=decision_from_json,
                              keep=lambda d: not d.transient,
                              # A pair the criterion crashed on is Inconclusive, with why.
                              failed=lambda pair, reason: Inconclusive(
                                  choice.name, reason, transient=True))
    finally:
        if limit is not None:
            limit.close()
    return {i.id: d for (i, _), d in zip(pairs, made.results, strict=True)}

