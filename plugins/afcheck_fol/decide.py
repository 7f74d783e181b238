"""One ``nl2fol`` item decided: parse the candidate, find the nearest gold, test equivalence.

The seed's pipeline, per item:

1. parse the candidate in the item's language; a failure is a syntax error with its class, rule
   and span, and the item fails (syntactically and so semantically incorrect);
2. rank the gold formulas by tree edit distance to the candidate (:mod:`afcheck_fol.ted`);
3. test equivalence with each gold, nearest first, under the chosen theory
   (:mod:`afcheck_fol.equiv`). The candidate is correct when it is equivalent to any gold; a gold
   equivalent in pure logic is preferred to one equivalent only under the theory, so the verdict
   says ``none`` whenever pure logic suffices. Not equivalent to every gold: a semantic error,
   reported with the nearest gold, its distance and the counter-model. Undecided against some
   gold and equivalent to none: undecided (skipped, never counted as wrong).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck.types import Status
from afcheck_fol.equiv import DEFAULT_MAX_DOMAIN, DEFAULT_RLIMIT, Equivalence, check, scope
from afcheck_fol.formula import Formula
from afcheck_fol.suite import Item
from afcheck_fol.syntax import FolSyntaxError, parse
from afcheck_fol.ted import distance

CORRECT = "correct"
SYNTAX_ERROR = "syntax-error"
SEMANTIC_ERROR = "not-equivalent"
UNDECIDED = "undecided"
NO_OUTPUT = "no-output"
STATUSES = (CORRECT, SYNTAX_ERROR, SEMANTIC_ERROR, UNDECIDED, NO_OUTPUT)


@dataclass(frozen=True)
class Candidate:
    """The formula an nl2fol item is judged on: what the FOL formaliser wrote for it."""

    item_id: str
    formula: str | None
    """The formula text to judge; ``None`` when the formaliser produced nothing."""
    output: str = ""
    """The raw output it came from."""
    error: str = ""
    """Why there is no formula."""


@dataclass(frozen=True)
class Settings:
    theory: str | None = None
    """``None``: each item's language's default theory."""
    rlimit: int = DEFAULT_RLIMIT
    max_domain: int = DEFAULT_MAX_DOMAIN


@dataclass(frozen=True)
class Decision:
    """Everything decided about one item."""

    item: Item
    candidate: Candidate
    status: str
    """One of :data:`STATUSES`."""
    syntax_error: FolSyntaxError | None = None
    nearest: int | None = None
    """Index of the gold nearest the candidate by tree edit distance."""
    ted: int | None = None
    """Its distance."""
    gold: int | None = None
    """The gold the verdict is about: the one found equivalent, else the nearest."""
    verdict: Equivalence | None = None
    seconds: float = 0.0

    @property
    def error_class(self) -> str | None:
        return None if self.syntax_error is None else self.syntax_error.error_class.value

    @property
    def decision(self) -> str:
        """The decision's name (``correct``, ``syntax-error`` …), as metrics count it."""
        return self.status

    @property
    def error_rule(self) -> str | None:
        return None if self.syntax_error is None else self.syntax_error.rule

    @property
    def theory(self) -> str | None:
        """The theory of the verdict (for a correct item: the one that decided it)."""
        return None if self.verdict is None else self.verdict.theory


def decide(item: Item, candidate: Candidate, settings: Settings = Settings()) -> Decision:
    """The decision for one item (see the module docstring)."""
    started = time.perf_counter()
    if candidate.formula is None:
        return Decision(item, candidate, NO_OUTPUT, seconds=time.perf_counter() - started)
    try:
        formula = parse(candidate.formula, item.language)
    except FolSyntaxError as exc:
        return Decision(item, candidate, SYNTAX_ERROR, syntax_error=exc,
                        seconds=time.perf_counter() - started)
    # A candidate identical to a gold is at distance 0 from it: the tree edit distance, the
    # costliest part of an easy item, is computed only for the others.
    distances = [0 if formula == gold else distance(formula, gold) for gold in item.formulas]
    order = sorted(range(len(distances)), key=lambda i: (distances[i], i))
    nearest = order[0]
    with scope():  # one z3 context for the item's solver calls
        verdicts = _verdicts(formula, item, order, settings)
    equivalent = [i for i in order if i in verdicts and verdicts[i].equivalent]
    undecided = [i for i in order if i in verdicts and verdicts[i].equivalent is None]
    if equivalent:
        pure = [i for i in equivalent if verdicts[i].theory == "none"]
        status, chosen = CORRECT, (pure or equivalent)[0]
    elif undecided:
        status, chosen = UNDECIDED, undecided[0]
    else:
        status, chosen = SEMANTIC_ERROR, nearest
    return Decision(item, candidate, status, nearest=nearest, ted=distances[nearest],
                    gold=chosen, verdict=verdicts[chosen],
                    seconds=time.perf_counter() - started)


def _verdicts(
    formula: Formula, item: Item, order: Sequence[int], settings: Settings
) -> dict[int, Equivalence]:
    """Equivalence with each gold in ``order`` until one is equivalent in pure logic."""
    verdicts: dict[int, Equivalence] = {}
    for index in order:
        if any(v.equivalent for v in verdicts.values()):
            # Correct already; only an equivalence in pure logic could improve the verdict,
            # and one z3 call without a theory (no counter-model search) settles that.
            verdict = check(formula, item.formulas[index], item.language, "none",
                            rlimit=settings.rlimit, max_domain=0)
            if not verdict.equivalent:
                continue
        else:
            verdict = check(formula, item.formulas[index], item.language, settings.theory,
                            rlimit=settings.rlimit, max_domain=settings.max_domain)
        verdicts[index] = verdict
        if verdict.equivalent and verdict.theory == "none":
            break
    return verdicts


def decide_all(
    items: Sequence[Item], candidates: Sequence[Candidate], settings: Settings = Settings()
) -> list[Decision]:
    """One decision per item; ``candidates`` are in the same order."""
    if len(items) != len(candidates):
        raise ValueError(f"{len(items)} items but {len(candidates)} candidates")
    return [decide(item, cand, settings) for item, cand in zip(items, candidates, strict=True)]


@dataclass(frozen=True)
class Outcome:
    """What the test item shows: pytest's status, a one-line message, the full evidence."""

    status: Status
    """PASSED, FAILED or SKIPPED."""
    message: str
    details: str


def outcome(decision: Decision) -> Outcome:
    item, candidate = decision.item, decision.candidate
    head = [f"sentence: {item.sentence}", f"candidate: {candidate.formula!r}"]
    if candidate.output and candidate.output.strip() != (candidate.formula or ""):
        head.append(f"raw output: {candidate.output!r}")
    golds = [f"gold {i}: {g}" for i, g in enumerate(item.gold)]
    if decision.status == NO_OUTPUT:
        return Outcome(Status.FAILED, f"no formula: {candidate.error}", "\n".join(head))
    if decision.status == SYNTAX_ERROR:
        error = decision.syntax_error
        assert error is not None
        start, end = error.span
        text = candidate.formula or ""
        pointer = f"  {text}\n  {' ' * start}{'^' * max(1, end - start)}"
        return Outcome(
            Status.FAILED,
            f"syntax error, {error.error_class.value} [{error.rule}]: {error.message}",
            "\n".join([*head, pointer, *golds]),
        )
    verdict = decision.verdict
    assert verdict is not None and decision.gold is not None
    gold = f"gold {decision.gold} ({item.gold[decision.gold]})"
    if decision.status == CORRECT:
        return Outcome(
            Status.PASSED, f"equivalent to {gold} under theory {verdict.theory}",
            "\n".join([*head, *golds]),
        )
    distance_note = f"nearest gold {decision.nearest} at tree edit distance {decision.ted}"
    if decision.status == UNDECIDED:
        return Outcome(
            Status.SKIPPED,
            f"undecided against {gold} under theory {verdict.theory}: {verdict.how}",
            "\n".join([*head, *golds, distance_note, *verdict.steps]),
        )
    model = verdict.model.render() if verdict.model is not None else "(no model)"
    return Outcome(
        Status.FAILED,
        f"not equivalent to any gold under theory {verdict.theory}; {distance_note}",
        "\n".join([*head, *golds, distance_note, model]),
    )


def verdict_record(decision: Decision) -> dict[str, object]:
    """What a decision adds to its item and candidate, as JSON (the run's result cache)."""
    return {
        "status": decision.status,
        "syntax_error": None if decision.syntax_error is None else decision.syntax_error.to_json(),
        "nearest": decision.nearest,
        "ted": decision.ted,
        "gold": decision.gold,
        "verdict": None if decision.verdict is None else decision.verdict.to_json(),
        "seconds": decision.seconds,
    }


def from_record(item: Item, candidate: Candidate, data: Mapping[str, object]) -> Decision:
    """The decision :func:`verdict_record` wrote, for ``item`` and ``candidate``."""

    def number(key: str) -> int | None:
        value = data.get(key)
        return value if isinstance(value, int) else None

    error = data.get("syntax_error")
    verdict = data.get("verdict")
    seconds = data.get("seconds")
    return Decision(
        item, candidate, str(data.get("status")),
        syntax_error=FolSyntaxError.from_json(error) if isinstance(error, dict) else None,
        nearest=number("nearest"), ted=number("ted"), gold=number("gold"),
        verdict=Equivalence.from_json(verdict) if isinstance(verdict, dict) else None,
        seconds=float(seconds) if isinstance(seconds, (int, float)) else 0.0,
    )


def to_json(decision: Decision) -> dict[str, object]:
    """The decision's record in the run's JSON file."""
    item, candidate = decision.item, decision.candidate
    return {
        "id": item.id,
        "sentence": item.sentence,
        "language": item.language.name,
        "difficulty": item.difficulty,
        "gold": list(item.gold),
        "output": candidate.output,
        "candidate": candidate.formula,
        "decision": decision.status,
        "syntax_error": None if decision.syntax_error is None else decision.syntax_error.to_json(),
        "nearest_gold": decision.nearest,
        "ted": decision.ted,
        "gold_index": decision.gold,
        "equivalence": None if decision.verdict is None else decision.verdict.to_json(),
        "error": candidate.error or None,
        "seconds": round(decision.seconds, 4),
    }
