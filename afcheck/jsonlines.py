"""JSON Lines, the one reader of every suite kind's line-by-line data.

A file is read one line at a time, as bytes, so that one bad record loses only itself: a line
that is not UTF-8, not JSON, longer than :attr:`Limits.line_bytes` or nested deeper than
:attr:`Limits.depth` is a :class:`JsonLine` with a one-line ``problem`` at its own line, and
the next line is read as usual. Nothing here raises on a record's content (no
``UnicodeDecodeError`` for the whole file, no ``RecursionError`` from a deep value); only a
file that cannot be opened is the caller's to report.

Lines are numbered as the file numbers them (from 1, blank lines counted); blank lines are
skipped. What a value means (an object with an ``id`` …) is the caller's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from afcheck.types import Location


@dataclass(frozen=True)
class Limits:
    """How large one record may be. Beyond them a record is bad input, not work: a line of
    gigabytes is read in bounded pieces and skipped, a deep value is refused before Python's
    recursive decoder meets it."""

    line_bytes: int = 64 * 2**20
    depth: int = 256
    """Arrays and objects inside one another; real records nest a handful of levels."""


LIMITS = Limits()


@dataclass(frozen=True)
class JsonLine:
    """One non-blank line: its value, or why it has none."""

    location: Location
    value: object = None
    """The parsed value (any JSON type); ``None`` also when :attr:`problem` is set."""
    problem: str = ""
    """Empty when the line was read; else what is wrong and what to do, in one line."""

    @property
    def ok(self) -> bool:
        return not self.problem


def read_json_lines(path: Path | str, limits: Limits = LIMITS) -> Iterator[JsonLine]:
    """Each non-blank line of the file at ``path``. ``OSError`` when it cannot be opened."""
    with open(path, "rb") as handle:
        yield from _lines(str(path), handle, limits)


def json_lines(path: Path | str, lines: Iterable[str | bytes],
               limits: Limits = LIMITS) -> Iterator[JsonLine]:
    """Each non-blank line of ``lines`` (text already split into lines, such as a formaliser's
    reply or a test's data), located in ``path``."""
    for number, line in enumerate(lines, start=1):
        raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
        if raw.strip():
            yield decode_line(Location(str(path), number), raw, limits)


def _lines(path: str, handle: BinaryIO, limits: Limits) -> Iterator[JsonLine]:
    number = 0
    while True:
        raw = handle.readline(limits.line_bytes + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limits.line_bytes and not raw.endswith(b"\n"):
            while True:  # the rest of the long line, in bounded pieces
                rest = handle.readline(2**20)
                if not rest or rest.endswith(b"\n"):
                    break
            yield JsonLine(Location(path, number),
                           problem=f"the record is longer than {_size(limits.line_bytes)}; "
                           "split it, or drop it")
            continue
        if raw.strip():
            yield decode_line(Location(path, number), raw, limits)


def decode_line(location: Location, raw: bytes, limits: Limits = LIMITS) -> JsonLine:
    """One line's bytes as a :class:`JsonLine`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return JsonLine(location, problem=f"not UTF-8 (byte 0x{raw[exc.start]:02x} at column "
                        f"{exc.start + 1}); save the file as UTF-8")
    problem = depth_problem(text, limits.depth)
    if problem:
        return JsonLine(location, problem=problem)
    try:
        return JsonLine(location, json.loads(text))
    except json.JSONDecodeError as exc:
        return JsonLine(location, problem=f"not JSON ({exc.msg} at column {exc.colno}); "
                        "write one JSON value a line")
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits; a deep value
        return JsonLine(location, problem=f"not readable JSON ({exc}); fix the record")


_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def depth_problem(text: str, limit: int) -> str:
    """Why ``text`` nests arrays and objects deeper than ``limit``, or ""; linear, and cheap
    when the text has fewer brackets than the limit (the common case)."""
    if text.count("[") + text.count("{") <= limit:
        return ""
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return (f"nested more than {limit:,} levels deep (at column "
                        f"{match.start() + 1}); flatten the record")
        elif token in "]}":
            depth -= 1
    return ""


def _size(count: int) -> str:
    return f"{count // 2**20:,} MiB" if count >= 2**20 else f"{count:,} bytes"
