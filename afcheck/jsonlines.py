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
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
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
    fatal: bool = False
    """The file itself is wrong here (not an array, cut short): nothing after it is read."""

    @property
    def ok(self) -> bool:
        return not self.problem


def json_message(exc: json.JSONDecodeError) -> str:
    """The decoder's message without the dangling "at" some end with ("Invalid control
    character at"), for a line that says where itself."""
    return exc.msg.removesuffix(" at")


BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark, which some editors put at the start of a file: skipped."""


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
        if number == 1 and raw.startswith(BOM):
            raw = raw[len(BOM):]  # a byte-order mark some editors write: not data
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
        return JsonLine(location, problem=f"not JSON ({json_message(exc)} at column "
                        f"{exc.colno}); "
                        "write one JSON value a line")
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits; a deep value
        return JsonLine(location, problem=f"not readable JSON ({exc}); fix the record")


_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def depth_problem(text: str, limit: int) -> str:
    """Why ``text`` nests arrays and objects deeper than ``limit``, or ""; linear, and cheap
    when the text has fewer brackets than the limit (the common case)."""
    at = _too_deep(text, limit)
    if at is None:
        return ""
    return (f"nested more than {limit:,} levels deep (at column {at + 1}); flatten the "
            "record")


def _too_deep(text: str, limit: int) -> int | None:
    """Where ``text`` first nests deeper than ``limit``, or ``None``."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return match.start()
        elif token in "]}":
            depth -= 1
    return None


DOCUMENT = Limits(line_bytes=4 * 2**30, depth=512)
"""The bounds of a file that is one JSON document (a result file, a baseline): a result file
of a large run holds every item's evidence, and nests a dozen levels."""


def read_json_document(path: Path | str, limits: Limits = DOCUMENT) -> JsonLine:
    """The one JSON value of the file at ``path``, or why there is none, located at the line
    of the fault (a byte that is not UTF-8, nesting deeper than :attr:`Limits.depth`, the
    decoder's error), so that no document raises ``UnicodeDecodeError`` or
    ``RecursionError`` in its reader. ``OSError`` when it cannot be read."""
    where = str(path)
    size = Path(path).stat().st_size
    if size > limits.line_bytes:
        return JsonLine(Location(where, 1), problem=f"the file is larger than "
                        f"{_size(limits.line_bytes)} ({size:,} bytes)")
    raw = Path(path).read_bytes()
    raw = raw[len(BOM):] if raw.startswith(BOM) else raw
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return JsonLine(Location(where, line), problem=f"not UTF-8 (byte "
                        f"0x{raw[exc.start]:02x}); save the file as UTF-8")
    deep = _too_deep(text, limits.depth)
    if deep is not None:
        return JsonLine(Location(where, text.count("\n", 0, deep) + 1),
                        problem=f"nested more than {limits.depth:,} levels deep")
    try:
        return JsonLine(Location(where, 1), json.loads(text))
    except json.JSONDecodeError as exc:
        return JsonLine(Location(where, exc.lineno),
                        problem=f"not valid JSON ({json_message(exc)} at column {exc.colno})")
    except (ValueError, RecursionError) as exc:  # a number of 5,000 digits
        return JsonLine(Location(where, 1), problem=f"not readable JSON ({exc})")


def named_by_line(elements: Sequence[JsonLine]) -> list[JsonLine]:
    """``elements`` of one array with ``record`` kept only where the element shares its line
    with another (a one-line array, two records on a line): where a line holds one record
    alone, ``file:line`` names it, and its number would only add noise to the message."""
    shared = Counter(element.location.line for element in elements)
    return [element if shared[element.location.line] > 1
            else replace(element, location=replace(element.location, record=None))
            for element in elements]


def read_json_array(path: Path | str, limits: Limits = LIMITS) -> Iterator[JsonLine]:
    """Each element of the JSON array in the file at ``path``, decoded one at a time and
    located at the line it starts on (``record``: its number in the array, from 1), with the
    same limits and problems as a line of JSON Lines: a bad byte or a too-deep value loses
    only its own record. ``OSError`` when it cannot be read.

    A record that never ends (an unclosed string or bracket), or one followed by something
    other than ``,`` or ``]``, is one bad record at its line too: reading goes on at the next
    line that starts a record the way it did (its opening character at its column, as a
    pretty-printed or one-record-a-line array starts each), and where no such line follows,
    the rest of the file is that one record. An array whose ``]`` is missing keeps its
    records and adds one problem at the end. Only a file that is not an array at all is
    :attr:`~JsonLine.fatal`.

    Records are read by the C decoder where it gives exactly what the careful reader would
    (an object or array within the limits: :func:`_plain`), ten times faster than finding
    each record's end in Python first. After a record it cannot decode, the next are read
    the careful way unless it failed within that record (so that a broken file costs at most
    one extra pass)."""
    raw = Path(path).read_bytes()
    yield from _array(str(path), raw[len(BOM):] if raw.startswith(BOM) else raw, limits)


def _array(where: str, raw: bytes, limits: Limits, fast: bool = True) -> Iterator[JsonLine]:
    """The elements of the array in ``raw``, the file ``where``; ``fast=False`` reads every
    record the careful way (which the fast way must agree with)."""
    try:
        text, clean = raw.decode("utf-8"), True
    except UnicodeDecodeError:
        text, clean = raw.decode("utf-8", "surrogateescape"), False
    lines = _Lines(text)
    position = _skip_space(text, 0)
    if not text.startswith("[", position):
        yield JsonLine(Location(where, lines.at(position)),
                       problem="expected a JSON array of records", fatal=True)
        return
    position, number = position + 1, 0
    # ``fast`` turns off at a record the C decoder cannot read, and back on only where it
    # failed inside that record's own extent: an unclosed bracket or string can make it
    # decode to the end of the file before it fails, which must happen at most once.
    while True:
        position = _skip_space(text, position)
        if position >= len(text):
            yield JsonLine(Location(where, lines.at(position)),
                           problem="the array is not closed with ']'; the file may be cut "
                           "short (the records before this line are read)")
            return
        if text[position] == "]":
            return
        number += 1
        location = Location(where, lines.at(position), number)
        start = position
        read: JsonLine | None = None
        end: int | None = None
        failed: int | None = None
        if fast and text[start] in "{[":
            try:
                value, end = _DECODER.raw_decode(text, start)
            except json.JSONDecodeError as exc:
                # An unterminated string is reported where it starts, not where the decoder
                # gave up looking for its end.
                fast = False
                failed = None if exc.msg.startswith("Unterminated string") else exc.pos
            except (ValueError, RecursionError):
                fast = False
            else:
                if _plain(text, start, end, limits, clean):
                    read = JsonLine(location, value)
        if read is None:
            end = _value_end(text, start, limits.line_bytes)
            if failed is not None and end is not None and failed <= end:
                fast = True
            read = None if end is None else _decode_piece(location, text[start:end], limits)
            resume = None
            if read is None or (not read.ok and "\n" in text[start:end]):
                resume = _next_record(text, start, start)
            if end is None or read is None or (resume is not None and resume < end):
                # Never ends (within the size a record may have), or ends only by swallowing
                # the records after it.
                yield JsonLine(location, problem=_resumed(
                    "a record that never ends (an unclosed string or bracket) or is longer "
                    f"than {_size(limits.line_bytes)}", text, resume))
                if resume is None:
                    return
                position = resume
                continue
        assert end is not None
        yield read
        position = _skip_space(text, end)
        if text.startswith(",", position):
            position += 1
        elif not text.startswith("]", position) and position < len(text):
            resume = _next_record(text, start, position)
            yield JsonLine(Location(where, lines.at(position)), problem=_resumed(
                "expected ',' or ']' after a record", text, resume))
            if resume is None:
                return
            position = resume


_DECODER = json.JSONDecoder()
"""The decoder ``json.loads`` uses, for :meth:`~json.JSONDecoder.raw_decode` at an offset."""


def _plain(text: str, start: int, end: int, limits: Limits, clean: bool) -> bool:
    """Whether the record the C decoder read from ``start`` to ``end`` is certainly within
    the limits, as the careful reader would find: no byte that is not UTF-8 (``clean``: the
    file has none), at most four bytes a character within :attr:`Limits.line_bytes`, no more
    brackets than :attr:`Limits.depth` (those in strings too: a bound on its nesting). An
    object or array decoded whole ends at the bracket that closes it, where
    :func:`_value_end` finds its end too; anything else is left to the careful reader."""
    if (end - start) * 4 > limits.line_bytes:
        return False
    if text.count("[", start, end) + text.count("{", start, end) > limits.depth:
        return False
    return clean or _BAD_BYTE.search(text, start, end) is None


def _next_record(text: str, start: int, after: int) -> int | None:
    """Where the next record that starts like the one at ``start`` begins after ``after``:
    the first later line whose first character is the same opening character at the same
    column."""
    opening = text[start]
    if opening not in "[{":
        return None
    column = start - (text.rfind("\n", 0, start) + 1)
    found = re.compile(rf"\n[ \t]{{{column}}}{re.escape(opening)}").search(text, after)
    return None if found is None else found.start() + 1 + column


def _resumed(problem: str, text: str, resume: int | None) -> str:
    if resume is None:
        return f"{problem}; fix it, the rest of the file is this record"
    return f"{problem}; fix it (reading goes on at line {text.count(chr(10), 0, resume) + 1})"


class _Lines:
    """Line numbers of offsets met in increasing order, counted once."""

    def __init__(self, text: str) -> None:
        self.text, self.offset, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


_SPACE = re.compile(r"\s*")
_BAD_BYTE = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as ``surrogateescape`` decodes it (JSON text never holds one)."""


def _skip_space(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    return match.end() if match else position


def _value_end(text: str, start: int, bound: int) -> int | None:
    """Where the JSON value at ``start`` ends, by brackets and strings alone (no decoding);
    ``None`` when it does not end within ``bound`` characters (a record is no longer than
    that, so looking further would only make one bad record cost the rest of the file)."""
    depth = 0
    stop = min(len(text), start + bound + 1)
    for match in _NESTING_OR_COMMA.finditer(text, start, stop):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
        elif token in ("]", "}"):
            depth -= 1
            if depth < 0:
                return match.start()  # the array's own ']' after a scalar
            if depth == 0:
                return match.end()
        elif token == ",":
            if depth == 0:
                return match.start()
        elif depth == 0:
            return match.end()  # a string on its own
    return None if depth or stop < len(text) else len(text)


_NESTING_OR_COMMA = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},]')


def _decode_piece(location: Location, piece: str, limits: Limits) -> JsonLine:
    bad = _BAD_BYTE.search(piece)
    if bad is not None:
        byte = ord(bad.group()) - 0xDC00
        return JsonLine(location, problem=f"not UTF-8 (byte 0x{byte:02x}); save the file as "
                        "UTF-8")
    if len(piece.encode("utf-8", "surrogatepass")) > limits.line_bytes:
        return JsonLine(location, problem=f"the record is longer than "
                        f"{_size(limits.line_bytes)}; split it, or drop it")
    return decode_line(location, piece.encode("utf-8", "surrogatepass"), limits)


def _size(count: int) -> str:
    return f"{count // 2**20:,} MiB" if count >= 2**20 else f"{count:,} bytes"


def place_name(location: Location, element: int | None = None) -> str:
    """The name of a record that carries no id of its own: its place in the file.

    ``line12`` for a line of JSON Lines; ``record3`` for the third element of a JSON array
    (``element``, from 1, or the location's ``record`` where its line holds several), which
    names it whether the array is pretty-printed or on one line. Every reader names id-less
    records this way, so a released file runs without editing and a name leads back to the
    record."""
    number = element if element is not None else location.record
    return f"record{number}" if number is not None else f"line{location.line}"
