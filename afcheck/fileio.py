"""Result files are written atomically: a reader never sees half a file."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO


@contextmanager
def atomic_writer(path: Path | str) -> Iterator[TextIO]:
    """A text file that appears at ``path`` only once it is complete (temporary file in the
    same folder, fsync, rename); on error nothing appears."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
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
