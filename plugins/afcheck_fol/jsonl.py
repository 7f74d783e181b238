"""JSON Lines: the numbered records of a file with one JSON value a line.

The caller reads the file (so that it reports a file it cannot read in its own words) and says
what a line that is not JSON, or not the object it expects, means for its data; this module
only numbers the lines as the file does, skips blank ones and parses the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from afcheck.types import Location


@dataclass(frozen=True)
class JsonLine:
    """One non-blank line."""

    location: Location
    """The file and the line's number in it (from 1, blank lines counted)."""
    value: object = None
    """The parsed value, any JSON type; ``None`` also when the line is not JSON."""
    error: json.JSONDecodeError | None = None
    """Why the line is not JSON, when it is not."""


def json_lines(path: Path | str, lines: Iterable[str]) -> Iterator[JsonLine]:
    """Each non-blank line of ``lines`` (the text of ``path``), parsed."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        location = Location(str(path), number)
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield JsonLine(location, error=exc)
            continue
        yield JsonLine(location, value)
