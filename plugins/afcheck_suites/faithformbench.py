"""The ``faithformbench`` suite kind: the released FaithformBench rows.

A row is one version of one DAG node: ``step_content``, ``is_perturbed``,
``type_of_perturbation`` (``unperturbed``, ``regex_perturbed``, ``brokenmath-style_llm``),
``problem_id``, ``node_id``, ``statement_type``, ``dependencies_content`` (the parents' text)
and the other released columns (``depencies`` is spelled as released). Rows of the same
``(problem_id, node_id)`` are joined into one step whose perturbations are the perturbed rows;
the ``given`` perturber picks one (``--perturber-opt variant=regex|LLM``). Declarative nodes
are context, not tests. Accepts JSON Lines, a JSON array, or CSV.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from afcheck.errors import LoadError, SuiteError
from afcheck.suites import SuiteSpec, find_in_data_dir
from afcheck.types import Location, Step

KNOWN = {
    "step_content", "is_perturbed", "type_of_perturbation", "problem_id", "node_id",
    "autoformaliser_model", "autoformaliser_output", "prover_output", "proof_result",
    "statement_type", "proof_type", "dependencies", "depencies", "dependencies_content",
    "inference_rule", "verification_note", "problem", "split", "dataset",
}
REQUIRED = ("step_content", "problem_id", "node_id")


class FaithformBenchSuite:
    name = "faithformbench"
    method = "faithfulness"

    def load(self, spec: SuiteSpec) -> Iterator[Step | LoadError]:
        path = _resolve(spec)
        groups: dict[tuple[str, str], dict[str, Any]] = {}
        for row, where in _rows(path):
            error = _validate(row, where)
            if error is not None:
                yield error
                continue
            key = (str(row["problem_id"]), str(row["node_id"]))
            group = groups.setdefault(key, {"where": where, "variants": {}})
            variant = _variant(row)
            if variant == "unperturbed":
                group["row"] = row
                group["where"] = where
            else:
                group["variants"].setdefault(variant, str(row["step_content"]))
        for (problem_id, node_id), group in groups.items():
            unperturbed: dict[str, Any] | None = group.get("row")
            if unperturbed is None:
                yield LoadError(group["where"], f"node {problem_id}/{node_id} has perturbed rows "
                                "but no unperturbed row", f"{problem_id}/{node_id}")
                continue
            if str(unperturbed.get("statement_type", "")).lower() == "declarative":
                continue
            yield _step(spec, problem_id, node_id, unperturbed, group["variants"],
                        group["where"])


def _resolve(spec: SuiteSpec) -> Path:
    if spec.data:
        return spec.data_path()
    split = spec.split or spec.name
    found = find_in_data_dir([f"faithformbench/{split}.jsonl", f"faithformbench/{split}.json",
                              f"faithformbench/{split}.csv"])
    if found is None:
        raise SuiteError(spec.manifest, f"FaithformBench rows for '{split}' not found: put them "
                         "in the suite folder and set data = \"FILE\", or set AFCHECK_DATA_DIR to "
                         f"a folder holding faithformbench/{split}.jsonl")
    return found


def _rows(path: Path) -> Iterator[tuple[dict[str, Any], Location]]:
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            with path.open(encoding="utf-8", newline="") as handle:
                for number, row in enumerate(csv.DictReader(handle), 2):
                    yield dict(row), Location(str(path), number)
        elif suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, list):
                raise SuiteError(path, "expected a JSON array of rows")
            for number, row in enumerate(data, 1):
                yield row, Location(str(path), number)
        else:
            with path.open(encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    if line.strip():
                        yield _json_line(line, path, number), Location(str(path), number)
    except OSError as exc:
        raise SuiteError(path, f"cannot read: {exc.strerror}") from None


def _json_line(line: str, path: Path, number: int) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"__error__": f"not valid JSON ({exc.msg} at column {exc.colno})"}
    return row if isinstance(row, dict) else {"__error__": "a line must be a JSON object"}


def _validate(row: dict[str, Any], where: Location) -> LoadError | None:
    if "__error__" in row:
        return LoadError(where, row["__error__"])
    unknown = sorted(set(row) - KNOWN)
    if unknown:
        return LoadError(where, f"unknown field '{unknown[0]}'; FaithformBench rows have "
                         f"{', '.join(sorted(KNOWN))}")
    for key in REQUIRED:
        if row.get(key) in (None, ""):
            return LoadError(where, f"missing required field '{key}'")
    return None


def _variant(row: dict[str, Any]) -> str:
    """``unperturbed``, ``regex`` or ``LLM`` (``regex_perturbed``, ``brokenmath-style_llm``)."""
    kind = str(row.get("type_of_perturbation") or "").strip().lower()
    perturbed = str(row.get("is_perturbed", "")).strip().lower() in {"1", "true", "yes"}
    if not perturbed or kind in {"", "unperturbed", "none"}:
        return "unperturbed"
    if "regex" in kind:
        return "regex"
    return "LLM" if "llm" in kind else kind


def _step(spec: SuiteSpec, problem_id: str, node_id: str, row: dict[str, Any],
          variants: dict[str, str], where: Location) -> Step:
    context = row.get("dependencies_content") or ()
    if isinstance(context, str):
        context = (context,) if context else ()
    dataset = str(row.get("dataset") or row.get("split") or problem_id.rsplit("-", 1)[0])
    return Step(
        id=f"{spec.name}/{problem_id}/{node_id}",
        suite=spec.name,
        dataset=dataset,
        problem_id=problem_id,
        node_id=node_id,
        text=str(row["step_content"]),
        problem=str(row.get("problem", "")),
        context=tuple(str(c) for c in context),
        perturbed_text=variants.get("regex") or next(iter(variants.values()), None),
        metadata={"statement_type": row.get("statement_type", ""), "perturbations": variants},
        source=where,
    )
