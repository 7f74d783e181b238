"""The ``faithformbench`` suite kind: the released FaithformBench rows.

A row is one version of one DAG node: ``step_content``, ``is_perturbed``,
``type_of_perturbation`` (``unperturbed``, ``regex_perturbed``, ``brokenmath-style_llm``),
``problem_id``, ``node_id``, ``statement_type``, ``dependencies_content`` (the parents' text)
and the other released columns (``depencies`` is spelled as released). Rows of the same
``(problem_id, node_id)`` are joined into one step whose perturbations are the perturbed rows;
the ``given`` perturber picks one (``--perturber-opt variant=regex|LLM``). Declarative nodes
are context, not tests. Accepts JSON Lines, a JSON array, or CSV.

A bad row (not an object, not UTF-8 in JSON Lines, a field of the wrong type, a lone
surrogate, more CSV fields than the header) is one load error and the other rows still load;
a JSON or CSV file that is not UTF-8, or a JSON file that does not parse, is one line.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import read_json_array, read_json_lines
from afcheck.suites import SuiteSpec, find_in_data_dir
from afcheck.types import Location
from afcheck_suites.fields import id_problem, surrogate_problem, type_name

KNOWN = {
    "step_content", "is_perturbed", "type_of_perturbation", "problem_id", "node_id",
    "autoformaliser_model", "autoformaliser_output", "prover_output", "proof_result",
    "statement_type", "proof_type", "dependencies", "depencies", "dependencies_content",
    "inference_rule", "verification_note", "problem", "split", "dataset",
}
REQUIRED = ("step_content", "problem_id", "node_id")
TEXT_FIELDS = ("step_content", "problem", "statement_type", "dataset", "split",
               "type_of_perturbation")
"""Fields read as text: strings when given (``null`` counts as absent)."""
_ERROR = "__error__"
"""The key of a row that stands for a line that could not be read."""


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
            yield from _csv_rows(path)
        elif suffix == ".json":
            yield from _json_rows(path)
        else:
            for line in read_json_lines(path):
                row = line.value if line.ok else {_ERROR: line.problem}
                yield (row if isinstance(row, dict)
                       else {_ERROR: "a line must be a JSON object"}), line.location
    except OSError as exc:
        raise SuiteError(path, f"cannot read: {exc.strerror}") from None


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SuiteError(Location(str(path), line), f"not UTF-8 (byte 0x{data[exc.start]:02x}); "
                         "save the file as UTF-8") from None


def _csv_rows(path: Path) -> Iterator[tuple[dict[str, Any], Location]]:
    reader = csv.DictReader(_text(path).splitlines(keepends=True))
    fields = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise SuiteError(Location(str(path), reader.line_num),
                             f"not valid CSV ({exc})") from None
        fields = fields or len(reader.fieldnames or ())
        where = Location(str(path), reader.line_num)
        if None in row:  # DictReader keeps the surplus of a long row under the key None
            count = fields + len(row[None])
            yield {_ERROR: f"the row has more fields than the header ({count}, not "
                           f"{fields}); quote fields that hold commas"}, where
            continue
        yield dict(row), where


def _json_rows(path: Path) -> Iterator[tuple[dict[str, Any], Location]]:
    for element in read_json_array(path):
        where = element.location
        if element.fatal:  # the file is not an array of rows at all
            raise SuiteError(where, f"{element.problem} (FaithformBench rows)")
        row = element.value
        if not element.ok:
            row = {_ERROR: element.problem}
        elif not isinstance(row, dict):
            row = {_ERROR: f"a FaithformBench row is a JSON object, not {type_name(row)}; fix "
                           "or remove the row"}
        yield row, where


def _validate(row: dict[str, Any], where: Location) -> LoadError | None:
    if _ERROR in row:
        return LoadError(where, row[_ERROR])
    problem = surrogate_problem(row)
    if problem is not None:
        return LoadError(where, problem)
    unknown = sorted(set(row) - KNOWN)
    if unknown:
        return LoadError(where, f"unknown field '{unknown[0]}'; FaithformBench rows have "
                         f"{', '.join(sorted(KNOWN))}")
    for key in REQUIRED:
        if row.get(key) in (None, ""):
            return LoadError(where, f"missing required field '{key}'")
    for key in ("problem_id", "node_id"):
        problem = id_problem(key, row[key])
        if problem is not None:
            return LoadError(where, problem)
    for key in TEXT_FIELDS:
        if row.get(key) is not None and not isinstance(row[key], str):
            return LoadError(where, f"'{key}' must be a string, not {type_name(row[key])}")
    context = row.get("dependencies_content")
    if context is not None and not isinstance(context, str) and not (
            isinstance(context, list) and all(isinstance(c, str) for c in context)):
        return LoadError(where, "'dependencies_content' must be a string or a list of strings "
                         "(the parents' text)")
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
