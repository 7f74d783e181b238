"""The files a run will write, checked against each other and the files it reads, before
any work.

A result file written at the end of an hour's run over the wrong path loses work twice: the
file it replaced (a suite's own data, another result file of the same run) and, when the
write fails, the results. So every destination is checked once the run knows them all, and
a problem is one line (exit 4) before anything runs:

- an empty path, a folder, or a path under a file;
- two results of the run at one file (``--json same.out --junitxml same.out``): only the
  last would be kept;
- a file of a suite of the run (``--json suites/tarski/sentences.jsonl``), or the baseline
  the run reads;

A link is followed (its target is what is compared, and what is written); a device or a FIFO
(``--json /dev/stdout``) is written to as it is, never replaced by a file
(:mod:`afcheck.fileio`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from afcheck.errors import UsageError


@dataclass(frozen=True)
class Output:
    """One file the run will write: what writes it (``json results``, ``the baseline``)
    and where."""

    what: str
    path: str


def check(outputs: Sequence[Output], suites: Sequence[Path] = (),
          reads: Sequence[Output] = ()) -> None:
    """:class:`UsageError` for the first destination of ``outputs`` that would lose a file or
    cannot be written: see the module's docstring. ``suites`` are the suites' folders, whose
    files no result may replace; ``reads`` are other files the run reads (the baseline)."""
    seen: dict[str, Output] = {}
    for output in outputs:
        where = _where(output)
        if not output.path.strip():
            raise UsageError(f"{output.what}: the file name is empty; give a file, e.g. "
                             f"results.json")
        path = Path(output.path)
        try:
            os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            pass  # not there yet; a file on the way is said below
        except OSError as exc:  # a name too long, a loop of links, a folder not readable
            raise UsageError(f"{where} cannot be used: {exc.strerror or exc}; give another "
                             "path") from None
        if path.is_dir():
            raise UsageError(f"{where} is a folder; give a file in it, e.g. "
                             f"{path / 'results.json'}")
        parent = _existing_parent(path)
        if parent is not None and not parent.is_dir():
            raise UsageError(f"{where}: {parent} is a file, so nothing can be written under "
                             "it; give another path")
        real = os.path.realpath(path)
        other = seen.get(real)
        if other is not None:
            raise UsageError(f"{output.what} and {other.what} would both be written to "
                             f"{output.path!r}, and only the last kept; give each its own "
                             "file")
        seen[real] = output
        for read in reads:
            if read.path and os.path.realpath(read.path) == real:
                raise UsageError(f"{where} is {read.what}, which this run reads; give "
                                 "another file")
        if path.exists() and path.is_file():
            for suite in suites:
                root = os.path.realpath(suite)
                if real.startswith(root.rstrip(os.sep) + os.sep):
                    raise UsageError(f"{where} is a file of the suite at {suite}, which "
                                     "would be replaced; write results outside the suite's "
                                     "folder")


def _where(output: Output) -> str:
    return f"{output.what}: {output.path!r}"


def _existing_parent(path: Path) -> Path | None:
    """The nearest ancestor of ``path`` that exists."""
    for parent in Path(os.path.abspath(path)).parents:
        if parent.exists():
            return parent
    return None
