"""The nl2fol method's result record read back from a result file.

:func:`afcheck_fol.decide.to_json` writes one decision per item; :class:`ResultRecord` reads
what the metrics count (:class:`afcheck_fol.summary.Counted`, as a run's
:class:`~afcheck_fol.decide.Decision` is), so the report and ``afcheck compare`` count a file
exactly as the run counted its decisions. Only the record is read: no parser, no z3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ResultRecord:
    """What the metrics need from one item of an nl2fol run."""

    case_id: str
    dataset: str
    difficulty: str
    decision: str
    status: str
    aligned_decision: str = ""
    """The decision up to the signature alignment (the exact one where none was made)."""
    error_class: str | None = None
    error_rule: str | None = None
    ted: int | None = None
    """Tree edit distance to the nearest gold (parsed candidates only)."""
    theory: str | None = None
    """The theory of the verdict (for a correct item: the one that decided it)."""

    @classmethod
    def from_json(cls, step: Mapping[str, object]) -> ResultRecord:
        """Read one record; a part that is missing or of the wrong type reads as unknown."""
        error = _mapping(step.get("syntax_error"))
        verdict = _mapping(step.get("equivalence"))
        ted = step.get("ted")
        return cls(
            case_id=_text(step, "case_id", "id"),
            dataset=_text(step, "dataset", "group") or "(none)",
            difficulty=str(step.get("difficulty") or "(none)"),
            decision=str(step.get("decision") or ""),
            status=str(step.get("status") or ""),
            aligned_decision=str(step.get("aligned_decision") or step.get("decision") or ""),
            error_class=str(error["class"]) if error.get("class") else None,
            error_rule=str(error["rule"]) if error.get("rule") else None,
            ted=ted if isinstance(ted, int) and not isinstance(ted, bool) else None,
            theory=str(verdict["theory"]) if verdict.get("theory") else None,
        )


def from_json(steps: Iterable[Mapping[str, object]]) -> list[ResultRecord]:
    return [ResultRecord.from_json(step) for step in steps]


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _text(step: Mapping[str, object], *keys: str) -> str:
    for key in keys:
        value = step.get(key)
        if isinstance(value, str) and value:
            return value
    return ""
