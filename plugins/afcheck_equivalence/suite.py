"""The ``equivalence`` suite kind: pairs of Lean statements in JSON lines, one item per line::

    {"id": "…", "informal": "…", "header": "import Mathlib …", "reference": "theorem …",
     "candidate": "theorem …" | null, "gold": "equivalent" | "inequivalent" | null,
     "group": "…", "source": "…"}

``reference`` is required; without ``candidate`` the run's formaliser writes it from
``informal`` (:mod:`afcheck_equivalence.candidates`). :func:`load` reads the file into
:class:`Item` records; a bad line is a :class:`~afcheck.errors.LoadError` (``file:line``,
what is wrong, what to do) and loading goes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from afcheck.errors import LoadError
from afcheck.jsonlines import read_json_lines
from afcheck.suites import SuiteSpec
from afcheck.types import Location
from afcheck_equivalence.balance import bracket_problem

__all__ = ["GOLD", "EquivalenceSuite", "Item", "load"]

GOLD = ("equivalent", "inequivalent")
"""The gold labels an item may carry (or none)."""


@dataclass(frozen=True)
class Item:
    id: str
    reference: str
    header: str = ""
    informal: str = ""
    candidate: str | None = None
    gold: str | None = None
    group: str = ""
    source: Location | None = None

    @property
    def dataset(self) -> str:
        """The group metrics and JUnit test suites are reported under."""
        return self.group or "equivalence"

    @property
    def case_name(self) -> str:
        return self.id


class EquivalenceSuite:
    name = "equivalence"
    method = "equivalence"

    def load(self, spec: SuiteSpec) -> Iterator[Item | LoadError]:
        yield from load(spec.data_path())


def load(path: Path) -> Iterable[Item | LoadError]:
    """Items of a JSON-lines file; a bad line gives a :class:`LoadError` (``file:line``, what
    is wrong, what to do) and loading goes on."""
    seen: set[str] = set()
    for line in read_json_lines(path):
        where, record = line.location, line.value
        if not line.ok or not isinstance(record, dict):
            yield LoadError(where, line.problem or _check(record))
            continue
        problem = _check(record)
        if not problem:
            unbalanced = bracket_problem(record["reference"])
            if unbalanced:
                problem = (f"the reference is not Lean: {unbalanced}; fix the statement")
        if problem:
            yield LoadError(where, problem, str(record.get("id", "")))
            continue
        if record["id"] in seen:
            yield LoadError(where, f"id '{record['id']}' appears twice; ids must be unique",
                            record["id"])
            continue
        seen.add(record["id"])
        yield Item(record["id"], record["reference"], record.get("header", ""),
                   record.get("informal", ""), record.get("candidate"), record.get("gold"),
                   record.get("group", ""), where)


def _check(record: object) -> str:
    if not isinstance(record, dict):
        return "expected a JSON object with id, reference and candidate or informal"
    for key in ("id", "reference"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            return f"missing or empty '{key}' (a string)"
    for key in ("header", "informal", "group", "source"):
        if key in record and not isinstance(record[key], str):
            return f"'{key}' must be a string"
    candidate = record.get("candidate")
    if candidate is not None and not isinstance(candidate, str):
        return "'candidate' must be a string or null"
    if candidate is None and not record.get("informal"):
        return "no 'candidate' and no 'informal' text for a formaliser to write one from"
    gold = record.get("gold")
    if gold is not None and gold not in GOLD:
        return f"'gold' is {gold!r}; expected \"equivalent\", \"inequivalent\" or null"
    return ""
