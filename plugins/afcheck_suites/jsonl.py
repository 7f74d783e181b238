"""The ``jsonl`` suite kind: one step per line, in afcheck's own schema.

Each line is a JSON object with the keys of :data:`FIELDS`; ``problem_id``, ``node_id`` and
``step`` are required. ``lean`` holds hand-written reference statements
(``{"original": …, "perturbed": …}``) read by the ``reference`` formaliser.

A line that is not UTF-8, holds a field of the wrong type, or a lone surrogate (a ``\\ud800``
escape without its pair, which no UTF-8 file, cache or XML report can hold) is one
:class:`~afcheck.errors.LoadError`; the other lines still load.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError
from afcheck.jsonlines import read_json_lines
from afcheck.suites import SuiteSpec
from afcheck.types import Location
from afcheck_suites.fields import (
    id_problem,
    is_id,
    printable_id,
    surrogate_problem,
    type_name,
)

FIELDS = {
    "problem_id": "stable id of the problem",
    "node_id": "id of the step inside its problem",
    "step": "the reasoning step",
    "dataset": "group for per-dataset metrics (default: the suite name)",
    "problem": "the problem text",
    "context": "earlier steps, a list of strings",
    "perturbed": "a hand-written perturbation of the step",
    "statement_type": "computation, logical, declarative, …",
    "lean": "reference statements {original, perturbed}",
    "note": "why the perturbation breaks the step",
    "metadata": "anything else, an object",
}
REQUIRED = ("problem_id", "node_id", "step")
TEXT_FIELDS = ("problem", "perturbed", "dataset", "statement_type", "note")
"""Optional fields that must be strings when given (``null`` counts as absent)."""


class JsonlSuite:
    name = "jsonl"
    method = "faithfulness"

    def load(self, spec: SuiteSpec) -> Iterator[Step | LoadError]:
        path = spec.data_path()
        seen: set[str] = set()
        for line in read_json_lines(path):
            where = line.location
            if not line.ok:
                yield LoadError(where, line.problem)
                continue
            item = parse_row(line.value, where, spec.name)
            if isinstance(item, Step):
                if item.id in seen:
                    item = LoadError(where, f"duplicate step '{item.case_name}'; make "
                                     "(problem_id, node_id) unique", item.case_name)
                else:
                    seen.add(item.id)
            yield item


def parse_row(row: object, where: Location, suite: str) -> Step | LoadError:
    """One decoded line as a step."""
    if not isinstance(row, dict):
        return LoadError(where, "a line must be a JSON object")
    wrong = surrogate_problem(row)
    if wrong is not None:
        return LoadError(where, wrong)
    unknown = sorted(set(row) - set(FIELDS))
    if unknown:
        return LoadError(where, f"unknown field '{unknown[0]}'; known fields: "
                         f"{', '.join(FIELDS)}", _name(row))
    missing = [k for k in REQUIRED if row.get(k) is None or row.get(k) == ""]
    if missing:
        return LoadError(where, f"missing or empty required field '{missing[0]}'", _name(row))
    for key in ("problem_id", "node_id"):
        wrong = id_problem(key, row[key])
        if wrong is not None:
            return LoadError(where, wrong, _name(row))
    if not is_id(row["step"]):
        return LoadError(where, f"'step' must be a string, not {type_name(row['step'])}",
                         _name(row))
    for key in TEXT_FIELDS:
        if row.get(key) is not None and not isinstance(row[key], str):
            return LoadError(where, f"'{key}' must be a string, not {type_name(row[key])}",
                             _name(row))
    problem = row.get("problem") or ""
    metadata_given = row.get("metadata")
    if metadata_given is not None and not isinstance(metadata_given, dict):
        return LoadError(where, f"'metadata' must be an object, not "
                         f"{type_name(metadata_given)}", _name(row))
    context = row.get("context", [])
    if not isinstance(context, list) or not all(isinstance(c, str) for c in context):
        return LoadError(where, "'context' must be a list of strings", _name(row))
    lean = row.get("lean", {})
    if (not isinstance(lean, dict) or not set(lean) <= {"original", "perturbed"}
            or not all(isinstance(v, str) or v is None for v in lean.values())):
        return LoadError(where, "'lean' must be an object with keys 'original' and/or "
                         "'perturbed', each a string", _name(row))
    metadata: dict[str, Any] = dict(metadata_given or {})
    for key in ("statement_type", "note"):
        if key in row:
            metadata[key] = row[key]
    if lean:
        metadata["lean"] = dict(lean)
    problem_id, node_id = str(row["problem_id"]), str(row["node_id"])
    return Step(
        id=f"{suite}/{problem_id}/{node_id}",
        suite=suite,
        dataset=str(row.get("dataset") or suite),
        problem_id=problem_id,
        node_id=node_id,
        text=str(row["step"]),
        problem=problem,
        context=tuple(context),
        perturbed_text=row.get("perturbed"),
        metadata=metadata,
        source=where,
    )


def _name(row: dict[str, Any]) -> str:
    """The record's test name when its ids can name a test, else "" (named by its line)."""
    problem_id, node_id = row.get("problem_id"), row.get("node_id")
    if printable_id(problem_id) and printable_id(node_id):
        return f"{problem_id}/{node_id}"
    return ""
