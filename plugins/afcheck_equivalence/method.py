"""The ``equivalence`` evaluation method, as plain functions the runner wires in.

Suite kind ``equivalence``: a JSON-lines file, one item per line::

    {"id": "…", "informal": "…", "header": "import Mathlib …", "reference": "theorem …",
     "candidate": "theorem …" | null, "gold": "equivalent" | "inequivalent" | null,
     "group": "…", "source": "…"}

``reference`` is required; without ``candidate`` the run's formaliser writes it from
``informal`` (:func:`formalise_missing`). Test outcome (:func:`outcome`): passed when the
criterion's decision matches the gold label (Eq for ``equivalent``, Noneq for
``inequivalent``), or, without gold, when it is Eq; failed on a mismatch, with the evidence;
skipped on Inconclusive, with the reason. Metrics (:func:`summarise`) per criterion: coverage
(Eq rate on gold-equivalent items), false-positive rate (Eq rate on gold-inequivalent items),
Noneq rate, and the confusion table, each rate with its 95 % Wilson interval.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from afcheck.budget import Budget
from afcheck.components import Formaliser
from afcheck.errors import LoadError
from afcheck.jsonlines import read_json_lines
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.metrics import Count, Metric, Metrics, Rate
from afcheck.registry import FORMALISER
from afcheck.runtime import Runtime
from afcheck.types import Location, Status
from afcheck_equivalence.balance import bracket_problem
from afcheck_equivalence.criterion import Criterion
from afcheck_equivalence.records import (
    Decision,
    DecisionKind,
    Eq,
    Inconclusive,
    Noneq,
    Pair,
    decision_from_json,
)

__all__ = ["Counted", "Item", "Rate", "Result", "Summary", "decide", "formalise_missing", "load",
           "outcome", "share_read", "summarise", "to_json"]

GOLD = ("equivalent", "inequivalent")
_STANDING = {"unjudged": "proved or refuted in a Lean REPL without a judge",
             "uncertified": "decided without a judge (smt)"}


@dataclass(frozen=True)
class Item:
    id: str
    reference: str
    header: str = ""
    informal: str = ""
    candidate: str | None = None
    gold: str | None = None
    group: str = ""
    source: Location | None = None

    @property
    def dataset(self) -> str:
        """The group metrics and JUnit test suites are reported under."""
        return self.group or "equivalence"

    @property
    def case_name(self) -> str:
        return self.id


@dataclass(frozen=True)
class Result:
    item: Item
    candidate: str | None
    decision: Decision

    # What the metrics count (Counted), named as a result file's record names it.

    @property
    def criterion(self) -> str:
        return self.decision.criterion

    @property
    def gold(self) -> str | None:
        return self.item.gold

    @property
    def kind(self) -> str:
        """The decision: ``Eq``, ``Noneq`` or ``Inconclusive``."""
        return self.decision.kind.value


def load(path: Path) -> Iterable[Item | LoadError]:
    """Items of a JSON-lines file; a bad line gives a :class:`LoadError` (``file:line``, what
    is wrong, what to do) and loading goes on."""
    seen: set[str] = set()
    for line in read_json_lines(path):
        where, record = line.location, line.value
        if not line.ok or not isinstance(record, dict):
            yield LoadError(where, line.problem or _check(record))
            continue
        problem = _check(record)
        if not problem:
            unbalanced = bracket_problem(record["reference"])
            if unbalanced:
                problem = (f"the reference is not Lean: {unbalanced}; fix the statement")
        if problem:
            yield LoadError(where, problem, str(record.get("id", "")))
            continue
        if record["id"] in seen:
            yield LoadError(where, f"id '{record['id']}' appears twice; ids must be unique",
                            record["id"])
            continue
        seen.add(record["id"])
        yield Item(record["id"], record["reference"], record.get("header", ""),
                   record.get("informal", ""), record.get("candidate"), record.get("gold"),
                   record.get("group", ""), where)


def _check(record: Any) -> str:
    if not isinstance(record, dict):
        return "expected a JSON object with id, reference and candidate or informal"
    for key in ("id", "reference"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            return f"missing or empty '{key}' (a string)"
    for key in ("header", "informal", "group", "source"):
        if key in record and not isinstance(record[key], str):
            return f"'{key}' must be a string"
    candidate = record.get("candidate")
    if candidate is not None and not isinstance(candidate, str):
        return "'candidate' must be a string or null"
    if candidate is None and not record.get("informal"):
        return "no 'candidate' and no 'informal' text for a formaliser to write one from"
    gold = record.get("gold")
    if gold is not None and gold not in GOLD:
        return f"'gold' is {gold!r}; expected \"equivalent\", \"inequivalent\" or null"
    return ""


def decide(items: Sequence[Item], criterion: Criterion,
           candidates: Mapping[str, str | None] | None = None) -> list[Result]:
    """Every item in one criterion batch. ``candidates`` supplies the formaliser's statements
    for items without one (``None``: the formaliser produced nothing)."""
    from afcheck_equivalence.records import Inconclusive

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


def outcome(result: Result) -> ItemOutcome:
    decision = result.decision
    record = decision.to_json()
    details = json.dumps(record, ensure_ascii=False, indent=2)
    evidence = f" [{decision.evidence}]" if isinstance(decision, Noneq) else ""
    head = f"{decision.kind.value}{evidence} ({decision.criterion}): {decision.reason}"
    if decision.kind is DecisionKind.INCONCLUSIVE:
        unbalanced = bracket_problem(result.candidate) if result.candidate else ""
        if unbalanced:
            # Text that cannot be Lean is the candidate's failure, not an open question.
            return ItemOutcome(Status.FAILED, f"the candidate is not Lean: {unbalanced}",
                               f"candidate: {result.candidate}\n" + details)
        return ItemOutcome(Status.SKIPPED, head, details)
    expected = {"equivalent": DecisionKind.EQ, "inequivalent": DecisionKind.NONEQ,
                None: DecisionKind.EQ}[result.item.gold]
    if decision.kind is expected:
        return ItemOutcome(Status.PASSED, "", details)
    gold = result.item.gold or "no gold label (Eq expected)"
    return ItemOutcome(Status.FAILED, f"gold {gold}, got {head}",
                       f"reference: {result.item.reference}\ncandidate: {result.candidate}\n"
                       + details)


def to_json(result: Result) -> dict[str, Any]:
    return {"id": result.item.id, "group": result.item.group, "gold": result.item.gold,
            "reference": result.item.reference, "candidate": result.candidate,
            **result.decision.to_json()}


@dataclass(frozen=True)
class Summary:
    criterion: str
    N: int
    coverage: Rate
    """Eq on gold-equivalent items."""
    false_positive_rate: Rate
    """Eq on gold-inequivalent items."""
    noneq_rate: Rate
    """Noneq over all items."""
    confusion: Mapping[str, Mapping[str, int]]
    """gold label (``equivalent``, ``inequivalent``, ``none``) → decision → count."""

    @property
    def inconclusive(self) -> int:
        return sum(row.get("Inconclusive", 0) for row in self.confusion.values())

    def to_json(self) -> dict[str, Any]:
        return {"criterion": self.criterion, "N": self.N, "coverage": self.coverage.to_json(),
                "false_positive_rate": self.false_positive_rate.to_json(),
                "noneq_rate": self.noneq_rate.to_json(),
                "confusion": {k: dict(v) for k, v in self.confusion.items()}}

    def typed(self) -> dict[str, Metric]:
        """The criterion's figures as typed metrics: N, and the rates a gate may bound."""
        return {"N": Count(self.N), "coverage": self.coverage,
                "false_positive_rate": self.false_positive_rate, "noneq_rate": self.noneq_rate}


GATES = {"coverage": "min", "false_positive_rate": "max", "noneq_rate": "max"}
"""Metrics a gate may bound, and in which direction."""


class Counted(Protocol):
    """What the metrics count of one item: a run's :class:`Result`, or an item read back
    from a result file (:class:`afcheck_equivalence.records.ResultRecord`; the report counts
    those with this code)."""

    @property
    def criterion(self) -> str: ...
    @property
    def gold(self) -> str | None:
        """``equivalent``, ``inequivalent`` or ``None``."""
        ...
    @property
    def kind(self) -> str:
        """The decision: ``Eq``, ``Noneq`` or ``Inconclusive``."""
        ...


def summarise(results: Sequence[Counted]) -> dict[str, Summary]:
    """Metrics per criterion, criteria in order of first appearance."""
    by_criterion: dict[str, list[Counted]] = {}
    for result in results:
        by_criterion.setdefault(result.criterion, []).append(result)
    return {name: _summary(name, group) for name, group in by_criterion.items()}


def _summary(name: str, results: Sequence[Counted]) -> Summary:
    confusion: dict[str, Counter[str]] = {}
    for result in results:
        confusion.setdefault(result.gold or "none", Counter())[result.kind] += 1
    equivalent = confusion.get("equivalent", Counter())
    inequivalent = confusion.get("inequivalent", Counter())
    noneq = sum(c["Noneq"] for c in confusion.values())
    return Summary(
        name, len(results),
        Rate(equivalent["Eq"], sum(equivalent.values())),
        Rate(inequivalent["Eq"], sum(inequivalent.values())),
        Rate(noneq, len(results)),
        {gold: {k: counts[k] for k in ("Eq", "Noneq", "Inconclusive")}
         for gold, counts in sorted(confusion.items())},
    )


def formalise_missing(items: Sequence[Item], formaliser: Formaliser) -> dict[str, str | None]:
    """Candidates for the items that have none, written by ``formaliser`` from the informal
    text in one batch; ``None`` where it produced no statement."""
    return {item_id: w.statement for item_id, w in _written_by(items, formaliser).items()}


def _written_by(items: Sequence[Item], formaliser: Formaliser) -> dict[str, _Written]:
    """What ``formaliser`` wrote for each item that has no candidate, in one batch."""
    from afcheck.types import FormaliseRequest, Side

    todo = [item for item in items if item.candidate is None]
    requests = [FormaliseRequest(f"{item.id}#candidate", item.id, Side.ORIGINAL, item.informal,
                                 metadata={"header": item.header}) for item in todo]
    answers = formaliser.formalise(requests) if requests else []
    out: dict[str, _Written] = {}
    for item, answer in zip(todo, answers, strict=True):
        if not answer.ok or answer.statement is None:
            out[item.id] = _Written(None, answer.reason, answer.transient)
            continue
        out[item.id] = _Written("\n".join(filter(None, (answer.header, answer.statement))))
    return out


# --- the method as the runner sees it -----------------------------------------------------------
@dataclass(frozen=True)
class CaseSpec:
    """One item with the components a run chose for it."""

    item: Item
    criterion: Choice
    """The criterion, its options carrying the run's prover (``prover``, ``prover.K``)."""
    formaliser: Choice | None
    """Set only when the item has no candidate and the formaliser must write one."""


@dataclass(frozen=True)
class EquivalenceSummary:
    """Metrics per criterion over all items, and per criterion and group."""

    overall: Mapping[str, Summary]
    by_group: Mapping[str, Mapping[str, Summary]]
    method: str = "equivalence"
    read: tuple[int, int] = (0, 0)
    """``(statements the front end read, statements)`` over the run's references and
    candidates, each pair counted once whatever the number of criteria."""
    standing: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Per group, how many prover verdicts of the obligations were certified by which judge
    (``judged:NAME``), left unjudged by one (``unjudged``) or decided without one
    (``uncertified``): :attr:`afcheck.types.Verdict.standing`."""

    @property
    def evaluated(self) -> int:
        return sum(s.N for s in self.overall.values())

    def lines(self) -> list[str]:
        out = ["equivalence: per criterion (95% Wilson intervals)"]
        done, total = self.read
        if total:
            out.append(f"  front end: read {done} of {total} statements ({done / total:.1%})")
        for name, s in self.overall.items():
            out.append(f"  {name}: N={s.N}  " + "  ".join(
                f"{label} {_show(rate)}" for label, rate in (
                    ("coverage", s.coverage), ("false-positive rate", s.false_positive_rate),
                    ("Noneq rate", s.noneq_rate))))
            for gold, row in s.confusion.items():
                cells = "  ".join(f"{k} {v}" for k, v in row.items())
                out.append(f"    gold {gold:<12} {cells}")
        standing: Counter[str] = Counter()
        for counts in self.standing.values():
            standing.update(counts)
        if any(name != "uncertified" for name in standing):
            # Which obligations a judge stands behind, once Lean provers are in play.
            out.append("  obligation verdicts: " + ", ".join(
                f"{count} {_STANDING.get(name, name.replace('judged:', 'certified by the judge '))}"
                for name, count in sorted(standing.items())))
        return out

    def sections(self) -> JsonObject:
        return {"details": {
            "read": {"statements": self.read[1], "read": self.read[0]},
            "overall": {k: v.to_json() for k, v in self.overall.items()},
            "by_group": {g: {k: v.to_json() for k, v in per.items()}
                         for g, per in self.by_group.items()},
        }, "verdicts": {g: dict(counts) for g, counts in self.standing.items()}}

    def properties(self, group: str) -> dict[str, str]:
        props: dict[str, str] = {}
        for name, s in self.by_group.get(group, {}).items():
            props[f"{name}.N"] = str(s.N)
            for metric in GATES:
                rate: Rate = getattr(s, metric)
                if rate.value is not None:
                    props[f"{name}.{metric}"] = f"{rate.value:.6f}"
        props.update({f"verdicts.{k}": str(v) for k, v in self.standing.get(group, {}).items()})
        return props

    def metrics(self) -> Metrics:
        """Each criterion's figures (:meth:`Summary.typed`) as ``<criterion>.<name>``, overall
        and per group; a run of one criterion has them by their own names too (``coverage``),
        the names its gates bound."""
        def named(per: Mapping[str, Summary]) -> dict[str, Metric]:
            out = {f"{criterion}.{name}": metric for criterion, summary in per.items()
                   for name, metric in summary.typed().items()}
            if len(self.overall) == 1 and len(per) == 1:
                out.update(next(iter(per.values())).typed())
            return out

        return Metrics(named(self.overall),
                       {group: named(per) for group, per in self.by_group.items()})


def standing_counts(results: Iterable[Result]) -> dict[str, int]:
    """How many prover verdicts of the obligations behind ``results`` stand on which ground
    (:attr:`afcheck.types.Verdict.standing`), each obligation counted once; verdicts that
    claim nothing (an INCONCLUSIVE with no REPL claim) are not counted."""
    counts: Counter[str] = Counter()
    for result in results:
        decision = result.decision
        obligations = list(decision.obligations if not isinstance(decision, Eq)
                           else decision.certificate)
        failed = decision.failed if isinstance(decision, Noneq) else None
        if failed is not None and failed not in obligations:
            obligations.append(failed)
        counts.update(o.verdict.standing for o in obligations
                      if o.verdict is not None and o.verdict.standing)
    return dict(sorted(counts.items()))


def share_read(results: Sequence[Result]) -> tuple[int, int]:
    """``(read, total)`` over the distinct statements of ``results`` (a missing candidate
    counts as not read). What the criterion's decision records (``read``) is counted as it
    is; a statement no decision says anything about (a criterion that does not use the front
    end, a pair the limit stopped) is read here."""
    from afcheck_equivalence.read import read_pair

    seen: dict[tuple[str, str], bool] = {}
    for result in results:
        texts = (result.item.reference, result.candidate)
        keys = [(text or "", result.item.header) for text in texts]
        if all(key in seen for key in keys):
            continue
        read = result.decision.read
        if read is None:
            both = read_pair(result.item.reference, result.candidate or "", result.item.header)
            read = both.read
        for key, text, done in zip(keys, texts, read, strict=True):
            seen.setdefault(key, text is not None and done)
    return sum(seen.values()), len(seen)


def _show(rate: Rate) -> str:
    if rate.value is None:
        return "n/a"
    return (f"{rate.value:.3f} [{rate.interval.low:.3f}, {rate.interval.high:.3f}] "
            f"({rate.count}/{rate.total})")


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
        specs = [case.spec for case in cases]
        written: dict[str, _Written] = {}
        for formaliser in dict.fromkeys(s.formaliser for s in specs if s.formaliser):
            todo = [s.item for s in specs if s.formaliser == formaliser]
            budgeted = runtime.budgeted(FORMALISER, formaliser, self.name, "formalise")
            written.update(_write_candidates(runtime, budgeted, todo))
        results: dict[str, Result] = {}
        for criterion in dict.fromkeys(s.criterion for s in specs):
            group = [s.item for s in specs if s.criterion == criterion]
            pairs = [(item, item.candidate if item.candidate is not None
                      else written.get(item.id, _NOTHING).statement) for item in group]
            budget = runtime.budget(self.name, "pair")
            decided = _decide_pairs(runtime, criterion,
                                    [(i, c) for i, c in pairs if c is not None],
                                    budget, asked=budget != self.budgets["pair"])
            for item, candidate in pairs:
                decision = decided.get(item.id) or Inconclusive(
                    criterion.name, written.get(item.id, _NOTHING).why())
                result = Result(item, candidate, decision)
                results[item.id] = result
                if notify is not None:
                    notify(result)
        return [results[s.item.id] for s in specs]

    def outcome(self, result: Result) -> ItemOutcome:
        return outcome(result)

    def timings(self, result: Result) -> Mapping[str, float]:
        return {}

    def to_json(self, result: Result) -> JsonObject:
        return to_json(result)

    def summarise(self, items: Sequence[ItemResult[Result]]) -> EquivalenceSummary:
        results = [item.result for item in items]
        groups: dict[str, list[Result]] = {}
        for result in results:
            groups.setdefault(result.item.dataset, []).append(result)
        return EquivalenceSummary(summarise(results),
                                  {g: summarise(rs) for g, rs in sorted(groups.items())},
                                  read=share_read(results),
                                  standing={g: standing_counts(rs)
                                            for g, rs in sorted(groups.items())})


def _write_candidates(runtime: Runtime, choice: Choice,
                      items: list[Item]) -> dict[str, _Written]:
    built = runtime.component(FORMALISER, choice)
    formaliser: Formaliser = built.component

    def call(chunk: list[Item]) -> list[_Written]:
        answers = _written_by(chunk, formaliser)
        return [answers.get(item.id, _NOTHING) for item in chunk]

    def load_one(data: Mapping[str, Any]) -> _Written:
        statement, reason = data.get("statement"), data.get("reason")
        return _Written(statement if isinstance(statement, str) else None,
                        reason if isinstance(reason, str) else "")

    made = runtime.cached("formalise", built, items,  # type: ignore[arg-type]
                          key=lambda i: (i.informal, i.header), call=call,
                          dump=lambda w: {"statement": w.statement, "reason": w.reason},
                          load=load_one, keep=lambda w: not w.transient,
                          # An item the formaliser crashed on has no candidate, and says why.
                          failed=lambda item, reason: _Written(None, reason, transient=True))
    return {i.id: w for i, w in zip(items, made.results, strict=True)}


@dataclass(frozen=True)
class _Written:
    """A formaliser's candidate, or ``None`` when it wrote none (the cache holds records)."""

    statement: str | None
    reason: str = ""
    """Why there is no statement, as the formaliser said."""
    transient: bool = False
    """A request that got no answer (a backend error, the ``formalise`` budget): asked again
    next run, never cached."""

    def why(self) -> str:
        """The pair's reason when there is no candidate."""
        said = f": {self.reason}" if self.reason else ""
        return f"the formaliser wrote no candidate statement{said}"


_NOTHING = _Written(None)


def _decide_pairs(runtime: Runtime, choice: Choice, pairs: list[tuple[Item, str]],
                  budget: Budget | None = None, asked: bool = False) -> dict[str, Decision]:
    """Each pair's decision by the criterion ``choice``, through the result cache. With a
    wall-clock ``budget``, the pairs are decided in batches in worker processes of one pool
    (:class:`afcheck_equivalence.limit.PairLimit`) kept for all chunks and stopped before
    this returns; a pair that outlives the budget is Inconclusive with the reason "time
    limit". Decided here instead: a criterion that is ``contained`` (it cannot outlive the
    limit here) unless the user ``asked`` for this budget, or one registered in this process
    (no worker can build it; refused when ``asked``)."""
    from afcheck_equivalence.kinds import CRITERION
    from afcheck_equivalence.limit import limit_for

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
