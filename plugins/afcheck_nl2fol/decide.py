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

Then, where the item's group has a signature alignment (:mod:`afcheck_nl2fol.align`) that
renames a symbol of the candidate, the same judgement of the renamed candidate: the *aligned*
outcome, reported beside the exact one (:class:`~afcheck_nl2fol.records.Aligned`). The test
item passes on exact equivalence only; the aligned outcome is evidence and a metric of its
own. An item whose gold formula does not parse is decided as ``gold-error``: it cannot be
judged and is counted apart.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck_fol.equiv import (
    DEFAULT_MAX_DOMAIN,
    DEFAULT_RLIMIT,
    SEARCH_BUDGET,
    Equivalence,
    check,
    scope,
)
from afcheck_fol.formula import Formula
from afcheck_fol.syntax import FolSyntaxError, parse
from afcheck_fol.ted import BUDGET as TED_BUDGET
from afcheck_fol.ted import nearest_known, rank

from afcheck.budget import Budget
from afcheck.types import Status
from afcheck_nl2fol.align import Alignment
from afcheck_nl2fol.records import (
    CORRECT,
    GOLD_ERROR,
    NO_OUTPUT,
    SEMANTIC_ERROR,
    SYNTAX_ERROR,
    UNDECIDED,
    Aligned,
    Candidate,
    Decision,
    Subject,
)
from afcheck_nl2fol.suite import Item


@dataclass(frozen=True)
class Settings:
    theory: str | None = None
    """``None``: each item's language's default theory."""
    rlimit: int = DEFAULT_RLIMIT
    max_domain: int = DEFAULT_MAX_DOMAIN
    ted: Budget = TED_BUDGET
    """The tree edit distance's budget (:mod:`afcheck_fol.ted`)."""
    search: Budget = SEARCH_BUDGET
    """The finite-model search's budget (:mod:`afcheck_fol.equiv`)."""


def decide(item: Item, candidate: Candidate, settings: Settings = Settings(),
           alignment: Alignment | None = None) -> Decision:
    """The decision for one item (see the module docstring); ``alignment`` is its group's."""
    started = time.perf_counter()
    subject = Subject.of(item)
    if item.gold_error is not None:
        return Decision(subject, candidate, GOLD_ERROR, seconds=time.perf_counter() - started)
    if candidate.formula is None:
        return Decision(subject, candidate, NO_OUTPUT, seconds=time.perf_counter() - started)
    try:
        formula = parse(candidate.formula, item.language)
    except FolSyntaxError as exc:
        return Decision(subject, candidate, SYNTAX_ERROR, syntax_error=exc,
                        seconds=time.perf_counter() - started)
    (status, nearest, ted, chosen, verdict), skipped = _judge(formula, item, settings)
    aligned = None
    own = None if alignment is None else alignment.restricted(formula)
    if own is not None and own.empty and own.rejected:
        # Nothing renamed, as a judge refused: the exact judgement, with the refusals kept.
        aligned = Aligned(own, status, nearest, ted, chosen, verdict)
    elif own is not None and not own.empty:
        if status == CORRECT:
            aligned = Aligned(own, CORRECT, nearest, ted, chosen)
        else:
            judged, _ = _judge(own.rename(formula), item, settings)
            aligned = Aligned(own, *judged)
    return Decision(subject, candidate, status, nearest=nearest, ted=ted, ted_skipped=skipped,
                    gold=chosen, verdict=verdict, seconds=time.perf_counter() - started,
                    aligned=aligned)


Judged = tuple[str, int, int | None, int, Equivalence]
"""Status, nearest gold, its distance (``None`` when not computed), the gold the verdict is
about, and the verdict."""


def _judge(formula: Formula, item: Item, settings: Settings) -> tuple[Judged, str]:
    """The judgement of ``formula`` against the item's golds, and why the tree edit distance
    was not computed ("" when it was)."""
    verdicts: dict[int, Equivalence] = {}
    with scope():  # one z3 context for the item's solver calls
        # A candidate identical to a gold (up to bound names) has that gold first in the
        # ranking: when it is equivalent to it in pure logic, which it is, nothing else is
        # judged, and the distances to the other golds are never needed.
        known = nearest_known(formula, item.formulas, settings.ted)
        if known is not None:
            verdicts = _verdicts(formula, item, [known], settings)
            if verdicts[known].equivalent and verdicts[known].theory == "none":
                return (CORRECT, known, 0, known, verdicts[known]), ""
        ranking = rank(formula, item.formulas, settings.ted)
        order, distances = list(ranking.order), ranking.distances
        assert known is None or order[0] == known
        verdicts = _verdicts(formula, item, order, settings, verdicts)
    nearest = order[0]
    equivalent = [i for i in order if i in verdicts and verdicts[i].equivalent]
    undecided = [i for i in order if i in verdicts and verdicts[i].equivalent is None]
    if equivalent:
        pure = [i for i in equivalent if verdicts[i].theory == "none"]
        status, chosen = CORRECT, (pure or equivalent)[0]
    elif undecided:
        status, chosen = UNDECIDED, undecided[0]
    else:
        status, chosen = SEMANTIC_ERROR, nearest
    return (status, nearest, distances[nearest], chosen, verdicts[chosen]), ranking.skipped


def _verdicts(
    formula: Formula, item: Item, order: Sequence[int], settings: Settings,
    known: Mapping[int, Equivalence] | None = None,
) -> dict[int, Equivalence]:
    """Equivalence with each gold in ``order`` until one is equivalent in pure logic;
    ``known`` holds the verdicts on a first part of ``order`` decided already, in this
    order and this z3 context."""
    verdicts: dict[int, Equivalence] = {}
    for index in order:
        if known is not None and index in known:
            verdict = known[index]
        elif any(v.equivalent for v in verdicts.values()):
            # Correct already; only an equivalence in pure logic could improve the verdict,
            # and z3 without a theory (no counter-model search, no counter-model) settles that.
            verdict = check(formula, item.formulas[index], item.language, "none",
                            rlimit=settings.rlimit, max_domain=0, counter_model=False)
            if not verdict.equivalent:
                continue
        else:
            verdict = check(formula, item.formulas[index], item.language, settings.theory,
                            rlimit=settings.rlimit, max_domain=settings.max_domain,
                            search=settings.search)
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
    if decision.status == GOLD_ERROR:
        bad = item.gold_error
        assert bad is not None
        wrong = bad.error
        return Outcome(
            Status.FAILED,
            f"gold formula {bad.index} is not a sentence of {item.language} "
            f"({wrong.error_class.value} [{wrong.rule}]: {wrong.message}); the item cannot "
            "be judged: fix the gold formula",
            "\n".join([*head, *golds, _pointer(bad.text, wrong.span)]),
        )
    if decision.status == NO_OUTPUT:
        return Outcome(Status.FAILED, f"no formula: {candidate.error}", "\n".join(head))
    if decision.status == SYNTAX_ERROR:
        error = decision.syntax_error
        assert error is not None
        return Outcome(
            Status.FAILED,
            f"syntax error, {error.error_class.value} [{error.rule}]: {error.message}",
            "\n".join([*head, _pointer(candidate.formula or "", error.span), *golds]),
        )
    verdict = decision.verdict
    assert verdict is not None and decision.gold is not None
    gold = f"gold {decision.gold} ({item.gold[decision.gold]})"
    aligned = _aligned_lines(decision)
    if decision.status == CORRECT:
        return Outcome(
            Status.PASSED, f"equivalent to {gold} under theory {verdict.theory}",
            "\n".join([*head, *golds, *aligned]),
        )
    distance_note = (f"nearest gold {decision.nearest} at tree edit distance {decision.ted}"
                     if not decision.ted_skipped else
                     f"nearest gold {decision.nearest} (tree edit distance not computed: "
                     f"{decision.ted_skipped})")
    renamed = decision.aligned
    up_to = "" if renamed is None or renamed.status != CORRECT else (
        f"; equivalent to gold {renamed.gold} up to the renaming "
        f"{renamed.alignment.describe()}")
    if decision.status == UNDECIDED:
        return Outcome(
            Status.SKIPPED,
            f"undecided against {gold} under theory {verdict.theory}: {verdict.how}{up_to}",
            "\n".join([*head, *golds, distance_note, *verdict.steps, *aligned]),
        )
    model = verdict.model.render() if verdict.model is not None else "(no model)"
    return Outcome(
        Status.FAILED,
        f"not equivalent to any gold under theory {verdict.theory}; {distance_note}{up_to}",
        "\n".join([*head, *golds, distance_note, model, *aligned]),
    )


def _pointer(text: str, span: tuple[int, int]) -> str:
    start, end = span
    return f"  {text}\n  {' ' * start}{'^' * max(1, end - start)}"


def _aligned_lines(decision: Decision) -> list[str]:
    """The evidence of the aligned outcome: the renaming, and what z3 said of it."""
    aligned = decision.aligned
    if aligned is None:
        return []
    group = aligned.alignment.group
    lines = [f"signature alignment (shared by group {group}): "
             f"{aligned.alignment.describe()}"]
    lines += [f"  {line}" for line in aligned.alignment.explain()]
    if aligned.status == CORRECT:
        lines.append(f"aligned: equivalent to gold {aligned.gold}"
                     + ("" if aligned.verdict is None else
                        f" under theory {aligned.verdict.theory}"))
    elif aligned.status == UNDECIDED:
        lines.append(f"aligned: undecided against gold {aligned.gold}")
    else:
        lines.append(f"aligned: not equivalent to any gold; nearest gold {aligned.nearest} "
                     f"at tree edit distance {aligned.ted}")
        if aligned.verdict is not None and aligned.verdict.model is not None:
            lines.append(aligned.verdict.model.render())
    return lines
