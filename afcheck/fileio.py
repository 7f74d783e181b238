"""Result files are written atomically: a reader never sees half a file."""

from __future__ import annotations

import os
import stat
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
        _sync(handle)


@contextmanager
def atomic_bytes_writer(path: Path | str) -> Iterator[BinaryIO]:
    """:func:`atomic_writer` for bytes: for a writer that encodes its text itself (in large
    pieces, which costs less than a text file's encoding of each write)."""
    with _replacing(path) as fd, os.fdopen(fd, "wb") as handle:
        yield handle
        _sync(handle)


@contextmanager
def _replacing(path: Path | str) -> Iterator[int]:
    """A temporary file beside ``path``, open for writing: renamed to ``path`` once the block
    ends (the caller's file closed by then), removed if it raises."""
    from afcheck.runtime.interrupt import owned_name, remove_orphans

    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        regular = True  # nothing there yet (or a dangling link): a new file
    if not regular:
        # A device or a FIFO (``/dev/stdout``): written to as it is, never replaced.
        yield os.open(path, os.O_WRONLY)  # closed by the caller's file
        return
    target = Path(os.path.realpath(path))  # a link is written through, never replaced
    target.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{target.name}."
    remove_orphans(target.parent, prefix)  # those of a run killed by SIGKILL
    fd, tmp = tempfile.mkstemp(prefix=owned_name(prefix), dir=target.parent)
    try:
        # A result file is the user's, with the user's umask (mkstemp makes it 0600).
        os.fchmod(fd, 0o666 & ~_umask())
        yield fd
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask, read without changing it where the system shows it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync(handle: TextIO | BinaryIO) -> None:
    """Flush ``handle`` and sync it to disk when it is a file (a terminal or a pipe has no
    disk to sync to)."""
    handle.flush()
    if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        os.fsync(handle.fileno())


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
