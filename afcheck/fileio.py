"""Result files are written atomically: a reader never sees half a file."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, TextIO


@contextmanager
def atomic_writer(path: Path | str) -> Iterator[TextIO]:
    """A text file that appears at ``path`` only once it is complete (temporary file in the
    same folder, fsync, rename); on error nothing appears."""
    with _replacing(path) as fd, os.fdopen(fd, "w", encoding="utf-8") as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


@contextmanager
def atomic_bytes_writer(path: Path | str) -> Iterator[BinaryIO]:
    """:func:`atomic_writer` for bytes: for a writer that encodes its text itself (in large
    pieces, which costs less than a text file's encoding of each write)."""
    with _replacing(path) as fd, os.fdopen(fd, "wb") as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


@contextmanager
def _replacing(path: Path | str) -> Iterator[int]:
    """A temporary file beside ``path``, open for writing: renamed to ``path`` once the block
    ends (the caller's file closed by then), removed if it raises."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        yield fd
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_writer(path) as handle:
        handle.write(text)


def stdin_bytes(limit: int = -1) -> bytes:
    """Standard input as bytes, so that bad UTF-8 is reported rather than raised; a text-only
    stream (an embedding host's) is taken as it is."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return bytes(buffer.read(limit))
    return sys.stdin.read(limit).encode("utf-8", "surrogatepass")
