"""Recorded formaliser outputs, keyed by step id and side.

The file holds one JSON object per line::

    {"step_id": "gsm8k/gsm8k-216/4", "side": "original", "output": "```lean\\ntheorem …```"}
    {"step_id": "gsm8k/gsm8k-216/4", "side": "perturbed", "statement": "theorem … := by sorry"}

``output`` is raw model output (the statement is extracted from it as for a live model);
``statement`` is an already extracted theorem. A perturbed record may name its ``perturber``
when a step was perturbed in several ways. A step with no record is AF-Fail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from afcheck.errors import UsageError
from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest, Side

_FIELDS = {"step_id", "side", "output", "statement", "perturber", "formaliser", "usage"}


def make_replay(options: Mapping[str, str]) -> ReplayFormaliser:
    path = options.get("path")
    if not path:
        raise UsageError("the replay formaliser needs a file: --formaliser-opt path=FILE.jsonl")
    return ReplayFormaliser(load_records(Path(path)))


def load_records(path: Path) -> dict[tuple[str, str], dict[str, str]]:
    if not path.is_file():
        raise UsageError(f"{path}: recorded outputs not found; check --formaliser-opt path=")
    records: dict[tuple[str, str], dict[str, str]] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            row = _parse(line, f"{path}:{number}")
            side = row["side"]
            key = side if side == "original" or not row.get("perturber") else (
                f"perturbed@{row['perturber']}")
            records[(row["step_id"], key)] = row
    return records


def _parse(line: str, where: str) -> dict[str, str]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where}: not valid JSON ({exc.msg}); one object per line") from None
    if not isinstance(row, dict):
        raise UsageError(f"{where}: a line must be a JSON object")
    unknown = sorted(set(row) - _FIELDS)
    if unknown:
        raise UsageError(f"{where}: unknown field '{unknown[0]}'; known: "
                         f"{', '.join(sorted(_FIELDS))}")
    if not row.get("step_id") or row.get("side") not in ("original", "perturbed"):
        raise UsageError(f"{where}: needs 'step_id' and 'side' (original or perturbed)")
    if not isinstance(row.get("output", row.get("statement")), str):
        raise UsageError(f"{where}: needs 'output' (raw model text) or 'statement'")
    return row


class ReplayFormaliser:
    name = "replay"
    version = "1"
    cacheable = False

    def __init__(self, records: dict[tuple[str, str], dict[str, str]]) -> None:
        self.records = records

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [self._one(request) for request in requests]

    def _one(self, request: FormaliseRequest) -> Formalisation:
        row = self._find(request)
        if row is None:
            return Formalisation(request.key, self.name, FormalisationStatus.AF_FAIL,
                                 reason=f"no recorded {request.side.value} output for "
                                 f"{request.step_id}")
        if "statement" in row:
            return Formalisation(request.key, self.name, FormalisationStatus.OK,
                                 statement=row["statement"], raw_output=row["statement"])
        return extract(request.key, self.name, row["output"])

    def _find(self, request: FormaliseRequest) -> dict[str, str] | None:
        if request.side is Side.ORIGINAL:
            return self.records.get((request.step_id, "original"))
        perturber = request.metadata.get("perturber", "")
        return self.records.get((request.step_id, f"perturbed@{perturber}")) or self.records.get(
            (request.step_id, "perturbed"))


def extract(key: str, formaliser: str, output: str) -> Formalisation:
    """A Formalisation from raw model output: the extracted statement, or AF-Fail."""
    from afcheck.lean import ExtractionError, extract_statement

    try:
        found = extract_statement(output)
    except ExtractionError as exc:
        return Formalisation(key, formaliser, FormalisationStatus.AF_FAIL, raw_output=output,
                             reason=str(exc))
    return Formalisation(key, formaliser, FormalisationStatus.OK, statement=found.statement,
                         header=found.preamble, raw_output=output)
