"""Recorded formaliser outputs, keyed by step id and side.

The file holds one JSON object per line::

    {"step_id": "gsm8k/gsm8k-216/4", "side": "original", "output": "```lean\\ntheorem …```"}
    {"step_id": "gsm8k/gsm8k-216/4", "side": "perturbed", "statement": "theorem … := by sorry"}

``output`` is raw model output (the statement is extracted from it as for a live model);
``statement`` is an already extracted theorem. A perturbed record may name its ``perturber``
when a step was perturbed in several ways. A step with no record is AF-Fail.

A request is answered by the step and side it names in its metadata (``step_id`` and
``side``, as the faithfulness method gives them); a request that names none (another
method's) is the original side of the id its key starts with (``<id>#…``).

Lines are read one at a time (:mod:`afcheck.jsonlines`: bounded in size and depth): a line
that cannot be read or is not a record loses only itself; the steps it would have answered
are AF-Fail with the line's problem in their reason, and the end of the run says how many
lines were lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

from afcheck.errors import UsageError
from afcheck.jsonlines import read_json_lines
from afcheck.printable import printable
from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest

_FIELDS = {"step_id", "side", "output", "statement", "perturber", "formaliser", "usage"}


def make_replay(options: Mapping[str, str]) -> ReplayFormaliser:
    path = options.get("path")
    if not path:
        raise UsageError("the replay formaliser needs a file: --formaliser-opt path=FILE.jsonl")
    records, problems = load_records(Path(path))
    return ReplayFormaliser(records, problems, Path(path))


def load_records(path: Path) -> tuple[dict[tuple[str, str], dict[str, str]], list[str]]:
    """The file's records by (step id, side), and one ``FILE:LINE: problem`` for each line
    that is not one. :class:`UsageError` when the file cannot be read at all."""
    if not path.is_file():
        raise UsageError(f"{path}: recorded outputs not found; check --formaliser-opt path=")
    records: dict[tuple[str, str], dict[str, str]] = {}
    where: dict[tuple[str, str], object] = {}
    problems: list[str] = []
    try:
        lines = list(read_json_lines(path))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the recorded outputs: {exc}") from None
    for line in lines:
        problem = line.problem or _problem(line.value)
        if problem:
            problems.append(f"{line.location}: {problem}")
            continue
        row = cast("dict[str, str]", line.value)  # its fields checked by _problem
        side = row["side"]
        key = side if side == "original" or not row.get("perturber") else (
            f"perturbed@{row['perturber']}")
        if (row["step_id"], key) in where:
            # Two answers to one request: which the run would score is a guess.
            raise UsageError(f"{line.location}: a second record for step "
                             f"{printable(str(row['step_id']), newlines=False)} ({key}); the "
                             f"first is at {where[row['step_id'], key]}: keep one of them")
        where[(row["step_id"], key)] = line.location
        records[(row["step_id"], key)] = row
    return records, problems


def _problem(row: object) -> str:
    """What is wrong with a decoded line as a record, or ""."""
    if not isinstance(row, dict):
        return "a line must be a JSON object"
    unknown = sorted(set(row) - _FIELDS)
    if unknown:
        return f"unknown field '{unknown[0]}'; known: {', '.join(sorted(_FIELDS))}"
    if not row.get("step_id") or row.get("side") not in ("original", "perturbed"):
        return "needs 'step_id' and 'side' (original or perturbed)"
    if not isinstance(row.get("output", row.get("statement")), str):
        return "needs 'output' (raw model text) or 'statement'"
    return ""


class ReplayFormaliser:
    name = "replay"
    version = "1"
    cacheable = False

    def __init__(self, records: dict[tuple[str, str], dict[str, str]],
                 problems: Sequence[str] = (), path: Path | None = None) -> None:
        self.records = records
        self.problems = tuple(problems)
        """``FILE:LINE: problem`` of each line that is not a record."""
        self.path = path

    def summary_lines(self) -> list[str]:
        """The lines that were lost, for the end of the run."""
        if not self.problems:
            return []
        return [f"replay: {len(self.problems)} line(s) of {self.path} are not records and "
                f"were left out; first: {self.problems[0]}"]

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [self._one(request) for request in requests]

    def _one(self, request: FormaliseRequest) -> Formalisation:
        step_id, side = _step_and_side(request)
        row = self._find(request, step_id, side)
        if row is None:
            hint = (f" ({len(self.problems)} line(s) of the file are not records, first: "
                    f"{self.problems[0]})") if self.problems else ""
            return Formalisation(request.key, self.name, FormalisationStatus.AF_FAIL,
                                 reason=f"no recorded {side} output for {step_id}{hint}")
        if "statement" in row:
            return Formalisation(request.key, self.name, FormalisationStatus.OK,
                                 statement=row["statement"], raw_output=row["statement"])
        return extract(request.key, self.name, row["output"])

    def _find(self, request: FormaliseRequest, step_id: str, side: str
              ) -> dict[str, str] | None:
        if side != "perturbed":
            return self.records.get((step_id, "original"))
        perturber = request.metadata.get("perturber", "")
        return self.records.get((step_id, f"perturbed@{perturber}")) or self.records.get(
            (step_id, "perturbed"))


def _step_and_side(request: FormaliseRequest) -> tuple[str, str]:
    """The step id and side a request is answered by (see the module's docstring)."""
    metadata = request.metadata
    step_id = metadata.get("step_id")
    side = metadata.get("side")
    return (step_id if isinstance(step_id, str) and step_id
            else request.key.partition("#")[0],
            side if side == "perturbed" else "original")


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
