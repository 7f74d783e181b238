"""The ``equivalence`` method's metrics, computed from its results
(:class:`afcheck_equivalence.records.Result`, a run's or read back from a result file).

Per criterion: coverage (Eq rate on gold-equivalent items), false-positive rate (Eq rate on
gold-inequivalent items), Noneq rate, and the confusion table, each rate with its 95 % Wilson
interval (:class:`Summary`, by :func:`summarise`); over a run, those per criterion overall and
per group, the share of statements the front end read and the standing of the obligations'
verdicts (:class:`EquivalenceSummary`, by :func:`summary_of`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from afcheck.method import JsonObject
from afcheck.metrics import Count, Metric, Metrics, Rate
from afcheck_equivalence.records import Eq, Noneq, Result

__all__ = ["GATES", "EquivalenceSummary", "Summary", "share_read", "standing_counts",
           "summarise", "summary_of"]

_STANDING = {"unjudged": "proved or refuted in a Lean REPL without a judge",
             "uncertified": "decided without a judge (smt)"}


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


def summarise(results: Sequence[Result]) -> dict[str, Summary]:
    """Metrics per criterion, criteria in order of first appearance."""
    by_criterion: dict[str, list[Result]] = {}
    for result in results:
        by_criterion.setdefault(result.decision.criterion, []).append(result)
    return {name: _summary(name, group) for name, group in by_criterion.items()}


def _summary(name: str, results: Sequence[Result]) -> Summary:
    confusion: dict[str, Counter[str]] = {}
    for result in results:
        confusion.setdefault(result.item.gold or "none", Counter())[
            result.decision.kind.value] += 1
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
        """Each criterion's figures (:meth:`Summary.typed`) as ``<criterion>:<name>``, overall
        and per group; a run of one criterion has them by their own names too (``coverage``),
        the names its gates bound."""
        def named(per: Mapping[str, Summary]) -> dict[str, Metric]:
            out = {f"{criterion}:{name}": metric for criterion, summary in per.items()
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


def summary_of(results: Sequence[Result]) -> EquivalenceSummary:
    """The metrics of a run's results: per criterion over all of them, and per criterion
    and group (:attr:`~afcheck_equivalence.suite.Item.dataset`)."""
    groups: dict[str, list[Result]] = {}
    for result in results:
        groups.setdefault(result.item.dataset, []).append(result)
    return EquivalenceSummary(summarise(results),
                              {g: summarise(rs) for g, rs in sorted(groups.items())},
                              read=share_read(results),
                              standing={g: standing_counts(rs)
                                        for g, rs in sorted(groups.items())})
