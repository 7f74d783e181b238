"""The equivalence method's result record read back from a result file.

:func:`afcheck_equivalence.method.to_json` writes each pair with its criterion's decision;
:class:`ResultRecord` reads what the metrics count (:class:`afcheck_equivalence.method.
Counted`, as a run's :class:`~afcheck_equivalence.method.Result` is), so the report and
``afcheck compare`` count a file exactly as the run did. The whole decision (alignment,
obligations) has its own codec, :func:`afcheck.equivalence.decision_from_json`; the metrics
need three fields of it, read here whatever else the record holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

GOLD = ("equivalent", "inequivalent")


@dataclass(frozen=True)
class ResultRecord:
    case_id: str
    group: str
    criterion: str
    gold: str | None
    """``equivalent``, ``inequivalent`` or ``None`` (no gold label, or one not known)."""
    kind: str
    """The decision: ``Eq``, ``Noneq`` or ``Inconclusive``."""
    status: str

    @classmethod
    def from_json(cls, step: Mapping[str, object]) -> ResultRecord:
        gold = step.get("gold")
        return cls(
            case_id=_text(step, "case_id", "id"),
            group=_text(step, "dataset", "group") or "(none)",
            criterion=_text(step, "criterion") or "(none)",
            gold=gold if isinstance(gold, str) and gold in GOLD else None,
            kind=_text(step, "decision"),
            status=_text(step, "status"),
        )


def from_json(steps: Iterable[Mapping[str, object]]) -> list[ResultRecord]:
    return [ResultRecord.from_json(step) for step in steps]


def _text(step: Mapping[str, object], *keys: str) -> str:
    for key in keys:
        value = step.get(key)
        if isinstance(value, str) and value:
            return value
    return ""
