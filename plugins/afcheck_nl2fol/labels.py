"""Hand-labelled candidate translations: the evaluator's own test set.

A label file holds one JSON object a line, ``{"id": …, "item": ITEM_ID, "candidate": TEXT,
"label": LABEL}``, with LABEL one of

* ``equivalent``: equivalent to some gold formula in pure first-order logic;
* ``analytic``: equivalent to a gold formula only under the language's analytic truths;
* ``not-equivalent``: parses, equivalent to no gold formula even under those truths;
* ``syntax:<class>``: not a sentence of the language, with the syntax-error class a careful
  reader gives it (``syntax:structure``, ``syntax:relation/arity`` …).

:func:`label_of` reads the same label off a :class:`~afcheck_nl2fol.decide.Decision`, so agreement
is plain equality.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from afcheck_fol.taxonomy import ErrorClass

from afcheck.errors import LoadError
from afcheck.jsonlines import read_json_lines
from afcheck.types import Location
from afcheck_nl2fol.records import CORRECT, SEMANTIC_ERROR, SYNTAX_ERROR, Decision

EQUIVALENT = "equivalent"
ANALYTIC = "analytic"
NOT_EQUIVALENT = "not-equivalent"
LABELS = (EQUIVALENT, ANALYTIC, NOT_EQUIVALENT, *(f"syntax:{c.value}" for c in ErrorClass))


@dataclass(frozen=True)
class Labelled:
    id: str
    item: str
    candidate: str
    label: str
    location: Location


def load_labels(path: Path) -> tuple[list[Labelled], list[LoadError]]:
    """The labelled candidates of ``path``, and one error per malformed line."""
    found: list[Labelled] = []
    errors: list[LoadError] = []
    for line in read_json_lines(path):
        location, record = line.location, line.value
        if not line.ok:
            errors.append(LoadError(location, line.problem))
            continue
        fields = [record.get(k) if isinstance(record, dict) else None
                  for k in ("id", "item", "candidate", "label")]
        if not all(isinstance(f, str) for f in fields):
            errors.append(LoadError(location, "expected id, item, candidate and label strings"))
            continue
        label_id, item, candidate, label = (str(f) for f in fields)
        if label not in LABELS:
            errors.append(LoadError(location, f"label {label!r}; use one of {', '.join(LABELS)}",
                                    label_id))
            continue
        found.append(Labelled(label_id, item, candidate, label, location))
    return found, errors


def label_of(decision: Decision) -> str:
    """The label the evaluator gives: one of :data:`LABELS`, or the decision's own status
    (``undecided``, ``no-output``), which no hand label has."""
    if decision.status == SYNTAX_ERROR and decision.syntax_error is not None:
        return f"syntax:{decision.syntax_error.error_class.value}"
    if decision.status == CORRECT and decision.verdict is not None:
        return EQUIVALENT if decision.verdict.theory == "none" else ANALYTIC
    if decision.status == SEMANTIC_ERROR:
        return NOT_EQUIVALENT
    return decision.status
