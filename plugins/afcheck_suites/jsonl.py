"""The ``jsonl`` suite kind: one step per line, in afcheck's own schema.

Each line is a JSON object with the keys of :data:`FIELDS`; ``problem_id``, ``node_id`` and
``step`` are required. ``lean`` holds hand-written reference statements
(``{"original": …, "perturbed": …}``) read by the ``reference`` formaliser.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from afcheck.errors import LoadError
from afcheck.suites import SuiteSpec
from afcheck.types import Location, Step

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


class JsonlSuite:
    name = "jsonl"
    method = "faithfulness"

    def load(self, spec: SuiteSpec) -> Iterator[Step | LoadError]:
        path = spec.data_path()
        seen: set[str] = set()
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                where = Location(str(path), number)
                item = parse_line(line, where, spec.name)
                if isinstance(item, Step):
                    if item.id in seen:
                        item = LoadError(where, f"duplicate step '{item.case_name}'; make "
                                         "(problem_id, node_id) unique", item.case_name)
                    else:
                        seen.add(item.id)
                yield item


def parse_line(line: str, where: Location, suite: str) -> Step | LoadError:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        return LoadError(where, f"not valid JSON ({exc.msg} at column {exc.colno}); "
                         "each line must be one JSON object")
    if not isinstance(row, dict):
        return LoadError(where, "a line must be a JSON object")
    unknown = sorted(set(row) - set(FIELDS))
    if unknown:
        return LoadError(where, f"unknown field '{unknown[0]}'; known fields: "
                         f"{', '.join(FIELDS)}", _name(row))
    missing = [k for k in REQUIRED if not isinstance(row.get(k), (str, int)) or row.get(k) == ""]
    if missing:
        return LoadError(where, f"missing or empty required field '{missing[0]}'", _name(row))
    problem = row.get("problem", "")
    if not isinstance(problem, str):
        return LoadError(where, "'problem' must be a string", _name(row))
    context = row.get("context", [])
    if not isinstance(context, list) or not all(isinstance(c, str) for c in context):
        return LoadError(where, "'context' must be a list of strings", _name(row))
    lean = row.get("lean", {})
    if not isinstance(lean, dict) or not set(lean) <= {"original", "perturbed"}:
        return LoadError(where, "'lean' must be an object with keys 'original' and/or "
                         "'perturbed'", _name(row))
    metadata: dict[str, Any] = dict(row.get("metadata") or {})
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
    if "problem_id" in row and "node_id" in row:
        return f"{row['problem_id']}/{row['node_id']}"
    return ""
