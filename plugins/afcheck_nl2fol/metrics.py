"""The ``nl2fol`` method's metrics over a batch of decisions (:mod:`afcheck_nl2fol.records`),
those of a run or those read back from its result file.

* accuracy: correct / decided, overall and per difficulty tag, with 95% Wilson intervals;
  undecided items are left out of the denominator and counted on their own (a verdict z3 could
  not reach is neither right nor wrong), and so are items whose gold formula does not parse;
* aligned accuracy: the same up to the group's signature alignment (:mod:`afcheck_nl2fol.align`):
  correct when the candidate, its symbols renamed onto the gold's by name similarity, is
  equivalent to a gold formula. Exact accuracy is the strict metric; the aligned one says how
  often the meaning is right on open-vocabulary data, where the names are the model's own;
* the syntax-error distribution: how many items fail to parse, by class, and by rule;
* semantic errors (parsed, equivalent to no gold): their count and the mean tree edit distance to
  the nearest gold (the seed's "cost of semantically transforming" the candidate);
* how many correct items needed the theory (equivalent only under the analytic truths).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck_fol.taxonomy import ErrorClass

from afcheck.metrics import Count, Interval, Metric, Metrics, Rate, Score, wilson
from afcheck_nl2fol.records import (
    CORRECT,
    GOLD_ERROR,
    NO_OUTPUT,
    SEMANTIC_ERROR,
    SYNTAX_ERROR,
    UNDECIDED,
    Decision,
)


@dataclass(frozen=True)
class Group:
    """The metrics of one group of items."""

    n: int
    correct: int
    syntax_errors: int
    semantic_errors: int
    undecided: int
    no_output: int
    gold_errors: int
    aligned_correct: int
    aligned_undecided: int
    """Items undecided up to the alignment (of those decided exactly, or not)."""
    by_theory: Mapping[str, int]
    """Correct items by the theory that decided them."""
    error_classes: Mapping[str, int]
    """Every class, in the taxonomy's order, once any item has a syntax error; else empty."""
    error_rules: Mapping[str, int]
    rule_classes: Mapping[str, str]
    """Each rule's class."""
    teds: tuple[int, ...]
    """The distances of the semantic errors to their nearest gold."""

    @property
    def mean_ted(self) -> float | None:
        """Mean tree edit distance of the semantic errors to their nearest gold."""
        return sum(self.teds) / len(self.teds) if self.teds else None

    @property
    def decided(self) -> int:
        """Items with a verdict: not undecided, gold formula parsed."""
        return self.n - self.undecided - self.gold_errors

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.decided if self.decided else None

    @property
    def accuracy_interval(self) -> Interval:
        return wilson(self.correct, self.decided)

    @property
    def aligned_decided(self) -> int:
        return self.n - self.aligned_undecided - self.gold_errors

    @property
    def aligned_accuracy(self) -> float | None:
        """Correct up to the signature alignment / decided up to it."""
        return self.aligned_correct / self.aligned_decided if self.aligned_decided else None

    @property
    def aligned_accuracy_interval(self) -> Interval:
        return wilson(self.aligned_correct, self.aligned_decided)

    @property
    def syntax_error_rate(self) -> float | None:
        return self.syntax_errors / self.decided if self.decided else None

    @property
    def syntax_error_interval(self) -> Interval:
        return wilson(self.syntax_errors, self.decided)

    def to_json(self) -> dict[str, object]:
        accuracy = self.accuracy_interval
        aligned = self.aligned_accuracy_interval
        syntax = self.syntax_error_interval
        return {
            "N": self.n,
            "decided": self.decided,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "accuracy_ci95": [accuracy.low, accuracy.high],
            "aligned_decided": self.aligned_decided,
            "aligned_correct": self.aligned_correct,
            "aligned_accuracy": self.aligned_accuracy,
            "aligned_accuracy_ci95": [aligned.low, aligned.high],
            "syntax_errors": self.syntax_errors,
            "syntax_error_rate": self.syntax_error_rate,
            "syntax_error_rate_ci95": [syntax.low, syntax.high],
            "syntax_error_classes": dict(self.error_classes),
            "syntax_error_rules": dict(self.error_rules),
            "semantic_errors": self.semantic_errors,
            "mean_ted_semantic_errors": self.mean_ted,
            "undecided": self.undecided,
            "no_output": self.no_output,
            "gold_errors": self.gold_errors,
            "correct_by_theory": dict(self.by_theory),
        }

    def typed(self) -> dict[str, Metric]:
        """The group's figures as typed metrics: accuracy, aligned accuracy and the error
        rates of the decided items, the undecided rate of all, the mean tree edit distance of
        the semantic errors (a score), the counts they come from."""
        return {"N": Count(self.n),
                "decided": Count(self.decided),
                "correct": Count(self.correct),
                "accuracy": Rate(self.correct, self.decided),
                "aligned_accuracy": Rate(self.aligned_correct, self.aligned_decided),
                "syntax_error_rate": Rate(self.syntax_errors, self.decided),
                "semantic_error_rate": Rate(self.semantic_errors, self.decided),
                "undecided_rate": Rate(self.undecided, self.n),
                "mean_ted_semantic_errors": Score(self.mean_ted)}


GATES: Mapping[str, str] = {
    "accuracy": "min",
    "aligned_accuracy": "min",
    "syntax_error_rate": "max",
    "semantic_error_rate": "max",
    "undecided_rate": "max",
}
"""The metrics a gate may bound (``--gate nl2fol.accuracy>=0.9``)."""


@dataclass(frozen=True)
class Nl2FolSummary:
    """The method's metrics over a run: overall, per difficulty tag, per dataset (suite)."""

    overall: Group
    by_difficulty: Mapping[str, Group]
    by_dataset: Mapping[str, Group]
    method: str = "nl2fol"
    renamings: tuple[tuple[str, str, str], ...] = ()
    """``(group, renaming, what accepted it)`` for every renaming the aligned figure used."""
    refused: tuple[tuple[str, str, str], ...] = ()
    """``(group, renaming, the judge's answer)`` for every renaming a judge refused."""

    @property
    def evaluated(self) -> int:
        return self.overall.n

    def to_json(self) -> dict[str, object]:
        return {
            "overall": self.overall.to_json(),
            "by_difficulty": {k: v.to_json() for k, v in self.by_difficulty.items()},
            "by_dataset": {k: v.to_json() for k, v in self.by_dataset.items()},
            "renamings": [{"group": g, "renaming": r, "by": by}
                          for g, r, by in self.renamings],
            "refused_renamings": [{"group": g, "renaming": r, "why": why}
                                  for g, r, why in self.refused],
        }

    def sections(self) -> dict[str, object]:
        return {"details": self.to_json()}

    def properties(self, group: str) -> dict[str, str]:
        metrics = self.by_dataset.get(group, self.overall)
        props = {"N": str(metrics.n), "correct": str(metrics.correct),
                 "syntax_errors": str(metrics.syntax_errors),
                 "semantic_errors": str(metrics.semantic_errors),
                 "undecided": str(metrics.undecided)}
        if metrics.accuracy is not None:
            props["accuracy"] = f"{metrics.accuracy:.6f}"
        if metrics.aligned_accuracy is not None:
            props["aligned_accuracy"] = f"{metrics.aligned_accuracy:.6f}"
        if metrics.mean_ted is not None:
            props["mean_ted_semantic_errors"] = f"{metrics.mean_ted:.3f}"
        props.update({f"syntax.{k}": str(v) for k, v in metrics.error_classes.items()})
        return props

    def lines(self) -> list[str]:
        return ["nl2fol:", *self.render().splitlines()]

    def render(self) -> str:
        """A short table for the terminal: exact and aligned accuracy side by side, by
        difficulty and, where a run has several, by dataset (a recorded file's models each
        get a row: ``source/model``)."""
        datasets = self.by_dataset if len(self.by_dataset) > 1 else {}
        width = max([14, *(len(name) for name in [*self.by_difficulty, *datasets])])

        def rate(value: float | None, interval: Interval) -> str:
            return "n/a" if value is None else (
                f"{value:6.1%} [{interval.low:.1%}, {interval.high:.1%}]")

        def row(name: str, group: Group) -> str:
            ted = "" if group.mean_ted is None else f"{group.mean_ted:.1f}"
            return (f"{name:<{width}} {group.n:>5} "
                    f"{rate(group.accuracy, group.accuracy_interval):>26} "
                    f"{rate(group.aligned_accuracy, group.aligned_accuracy_interval):>26} "
                    f"{group.syntax_errors:>7} {group.semantic_errors:>8} {ted:>8} "
                    f"{group.undecided:>9}")

        def header(name: str) -> str:
            return (f"{name:<{width}} {'N':>5} {'exact [95% CI]':>26} "
                    f"{'aligned [95% CI]':>26} {'syntax':>7} {'semantic':>8} {'mean TED':>8} "
                    f"{'undecided':>9}")

        lines = [header("difficulty")]
        lines += [row(name, group) for name, group in self.by_difficulty.items()]
        lines.append(row("all", self.overall))
        if datasets:
            lines.append(header("dataset"))
            lines += [row(name, group) for name, group in datasets.items()]
        lines.append("exact: equivalent to a gold formula as written; aligned: equivalent once "
                     "the model's predicate and constant names are mapped onto the gold's (one "
                     "mapping per story; only where the names or what they mean agree, never a "
                     "name onto its negation or opposite)")
        if self.renamings or self.refused:
            rules = Counter(_rule(by) for _, _, by in self.renamings)
            judged = sum(1 for _, _, by in self.renamings if "; judge: " in by)
            lines.append(
                f"renamings behind the aligned figure: {len(self.renamings)} ("
                + ", ".join(f"{name} {count}" for name, count in sorted(rules.items()))
                + (f"; confirmed by the judge {judged}, refused {len(self.refused)}"
                   if judged or self.refused else "") + "); each is listed in the JSON")
        if self.overall.gold_errors:
            lines.append(f"gold formula does not parse: {self.overall.gold_errors} (not judged)")
        if self.overall.error_classes:
            lines.append("syntax errors by class: " + ", ".join(
                f"{name} {count}" for name, count in self.overall.error_classes.items()
            ))
        if self.overall.by_theory:
            lines.append("correct, by the theory that decided: " + ", ".join(
                f"{name} {count}" for name, count in self.overall.by_theory.items()
            ))
        return "\n".join(lines)

    def metrics(self) -> Metrics:
        """The typed metrics (:meth:`Group.typed`), overall and per dataset."""
        return Metrics(self.overall.typed(),
                       {name: g.typed() for name, g in self.by_dataset.items()})


ERROR_CLASSES = tuple(c.value for c in ErrorClass)


def group(items: Sequence[Decision]) -> Group:
    """The metrics of a group of decisions: a run's, or a result file's read back
    (:func:`afcheck_nl2fol.records.from_json`)."""
    decisions = Counter(r.status for r in items)
    aligned = Counter(r.aligned_decision for r in items)
    classes = Counter(r.error_class for r in items
                      if r.status == SYNTAX_ERROR and r.error_class is not None)
    rules = Counter(r.error_rule for r in items
                    if r.status == SYNTAX_ERROR and r.error_rule is not None)
    # Every class listed, in the taxonomy's order, so distributions line up across runs.
    known = [*ERROR_CLASSES, *sorted(str(c) for c in set(classes) - set(ERROR_CLASSES))]
    return Group(
        n=len(items),
        correct=decisions[CORRECT],
        syntax_errors=decisions[SYNTAX_ERROR],
        semantic_errors=decisions[SEMANTIC_ERROR],
        undecided=decisions[UNDECIDED],
        no_output=decisions[NO_OUTPUT],
        gold_errors=decisions[GOLD_ERROR],
        aligned_correct=aligned[CORRECT],
        aligned_undecided=aligned[UNDECIDED],
        by_theory=dict(sorted(Counter(str(r.theory) for r in items
                                      if r.status == CORRECT and r.theory).items())),
        error_classes={c: classes.get(c, 0) for c in known} if classes else {},
        error_rules=dict(sorted((str(k), v) for k, v in rules.items())),
        rule_classes={str(r.error_rule): str(r.error_class) for r in items
                      if r.error_rule is not None and r.error_class is not None},
        teds=tuple(r.ted for r in items if r.status == SEMANTIC_ERROR and r.ted is not None),
    )


LEVELS = ("super-low", "low", "mid-low", "mid-high", "high", "super-high")
"""The seed's six difficulty levels, easiest first; other tags follow in name order."""


def tag_order(tag: str) -> tuple[int, str]:
    """Difficulty tags in the seed's order, easiest first; other tags after, by name."""
    return (LEVELS.index(tag) if tag in LEVELS else len(LEVELS), tag)


def _rule(reason: str) -> str:
    """The kind of rule a renaming's reason names (for the terminal's count)."""
    if reason.startswith("the same words spelt"):
        return "respelling"
    if reason.startswith(("the same name", "the same number", "the same words")):
        return "same name"
    return "meaning"


def summarise(decisions: Sequence[Decision]) -> Nl2FolSummary:
    tags: dict[str, list[Decision]] = {}
    datasets: dict[str, list[Decision]] = {}
    renamings: set[tuple[str, str, str]] = set()
    refused: set[tuple[str, str, str]] = set()
    for decision in decisions:
        tags.setdefault(decision.item.difficulty, []).append(decision)
        datasets.setdefault(decision.item.dataset, []).append(decision)
        if decision.aligned is not None:
            alignment = decision.aligned.alignment
            where = f"{decision.item.dataset}:{alignment.group}"
            renamings |= {(where, f"{n}/{a} → {gold}", alignment.reason(f"{n}/{a}"))
                          for (n, a), gold in alignment.predicates}
            renamings |= {(where, f"{n} → {gold}", alignment.reason(n))
                          for n, gold in alignment.constants}
            refused |= {(where, pair, why) for pair, why in alignment.rejected}
    return Nl2FolSummary(
        group(decisions),
        {tag: group(tags[tag]) for tag in sorted(tags, key=tag_order)},
        {name: group(datasets[name]) for name in sorted(datasets)},
        renamings=tuple(sorted(renamings)),
        refused=tuple(sorted(refused)),
    )

