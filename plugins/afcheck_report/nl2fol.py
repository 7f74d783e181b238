"""The ``nl2fol`` method's step records as the report reads them, and their metrics.

A record of the JSON result file (written by :func:`afcheck_fol.decide.to_json`) becomes a
:class:`FolRecord`; :func:`group` counts any set of them exactly as the run's own summary
(:mod:`afcheck_fol.summary`) counts its decisions, so the report's figures are the run's and
can be computed for subsets (a difficulty tag, a dataset). Only the records are read: no
parser, no z3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from afcheck_fol.summary import ERROR_CLASSES, Group, group, tag_order

__all__ = ["ERROR_CLASSES", "DECISIONS", "FolGroup", "FolRecord", "by_dataset", "by_difficulty",
           "group", "records"]

from afcheck_report.runfile import case_id_of, dataset_of

CORRECT = "correct"
SYNTAX_ERROR = "syntax-error"
SEMANTIC_ERROR = "not-equivalent"
UNDECIDED = "undecided"
NO_OUTPUT = "no-output"
DECISIONS = (CORRECT, SYNTAX_ERROR, SEMANTIC_ERROR, UNDECIDED, NO_OUTPUT)
"""The decisions of :mod:`afcheck_fol.decide`, in display order."""

FolGroup = Group
"""The metrics of one group of items: the run's own counting (:func:`afcheck_fol.summary.
group`) over records read back from a result file."""


@dataclass(frozen=True)
class FolRecord:
    """What the metrics need from one item of an nl2fol run."""

    case_id: str
    dataset: str
    difficulty: str
    decision: str
    status: str
    error_class: str | None = None
    error_rule: str | None = None
    ted: int | None = None
    """Tree edit distance to the nearest gold (parsed candidates only)."""
    theory: str | None = None
    """The theory of the verdict (for a correct item: the one that decided it)."""

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> FolRecord:
        error = _mapping(step.get("syntax_error"))
        verdict = _mapping(step.get("equivalence"))
        ted = step.get("ted")
        return cls(
            case_id=case_id_of(step),
            dataset=dataset_of(step) or "(none)",
            difficulty=str(step.get("difficulty") or "(none)"),
            decision=str(step.get("decision") or ""),
            status=str(step.get("status") or ""),
            error_class=str(error["class"]) if error.get("class") else None,
            error_rule=str(error["rule"]) if error.get("rule") else None,
            ted=ted if isinstance(ted, int) and not isinstance(ted, bool) else None,
            theory=str(verdict["theory"]) if verdict.get("theory") else None,
        )


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def records(steps: Iterable[Mapping[str, Any]]) -> list[FolRecord]:
    return [FolRecord.from_json(step) for step in steps]


def by_difficulty(items: Sequence[FolRecord]) -> dict[str, FolGroup]:
    """Metrics per difficulty tag, the seed's levels first, easiest first."""
    tags: dict[str, list[FolRecord]] = {}
    for record in items:
        tags.setdefault(record.difficulty, []).append(record)
    return {tag: group(tags[tag]) for tag in sorted(tags, key=tag_order)}


def by_dataset(items: Sequence[FolRecord]) -> dict[str, FolGroup]:
    datasets: dict[str, list[FolRecord]] = {}
    for record in items:
        datasets.setdefault(record.dataset, []).append(record)
    return {name: group(datasets[name]) for name in sorted(datasets)}
