"""How a run stops early: Ctrl-C and SIGTERM take one path, and nothing temporary is left.

Ctrl-C raises :class:`KeyboardInterrupt` in the main thread; :func:`handled` makes SIGTERM
raise :class:`Terminated`, a :class:`KeyboardInterrupt` of its own, at the same place. So a
stop by either goes through the same code: pytest ends the session as interrupted, the run
writes the result files of the items that finished, its spool and the temporary files of
the writes in progress are removed on the way out, and the stop ends with afcheck's own
line (:func:`stop_line`), never a bare traceback.

SIGKILL cannot be caught: the temporary files a killed run leaves carry its process id
(:func:`owned_name`), and the next run removes those whose process is gone
(:func:`remove_orphans`).
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

INTERRUPTED_EXIT = 2
"""The exit status of a stopped run (pytest's "interrupted")."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be: a run stops the same way for both."""


def signal_name(stop: BaseException) -> str:
    """How a stop is named in its line: ``SIGTERM`` or ``Ctrl-C``."""
    return "SIGTERM" if isinstance(stop, Terminated) else "Ctrl-C"


received: list[str] = []
"""The stops received by :func:`handled`'s handlers (``Ctrl-C``, ``SIGTERM``), in order."""
said = False
"""Whether afcheck's own line about a stop was printed (:func:`say`)."""


def say() -> None:
    """Note that afcheck's line about the stop was printed."""
    global said
    said = True


@contextmanager
def handled() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread, as Ctrl-C
    raises :class:`KeyboardInterrupt`, and each stop is noted in :data:`received`; the
    previous handlers come back after. Elsewhere than in the main thread nothing changes
    (only it may set handlers)."""
    global said
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # What an earlier command of this process received and said is not this one's.
    received.clear()
    said = False

    def terminate(signum: int, frame: object) -> None:
        received.append("SIGTERM")
        raise Terminated()

    def interrupt(signum: int, frame: object) -> None:
        received.append("Ctrl-C")
        raise KeyboardInterrupt()

    previous = signal.signal(signal.SIGTERM, terminate)
    before = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, before)


def unsaid_stop() -> str | None:
    """The line for a stop that nothing has reported yet (one in pytest's own start-up,
    before any reporter is there), or ``None``."""
    if not received or said:
        return None
    return (f"afcheck: interrupted ({received[-1]}) while the run was starting; nothing was "
            f"written; exit status {INTERRUPTED_EXIT}")


def stop_line(stop: BaseException, where: str) -> str:
    """afcheck's line for a stop outside a run's session (before it started, say)."""
    return f"afcheck: interrupted ({signal_name(stop)}) {where}; exit status {INTERRUPTED_EXIT}"


def owned_name(prefix: str) -> str:
    """A temporary name's prefix that carries this process's id: ``prefix`` + ``PID-``."""
    return f"{prefix}{os.getpid()}-"


def remove_orphans(folder: Path, prefix: str) -> int:
    """Remove the entries of ``folder`` named ``prefix`` + ``PID-…`` whose process is gone
    (a run killed by SIGKILL); how many were removed. Entries of live processes, and names
    without a process id, are left alone."""
    removed = 0
    try:
        entries = list(folder.iterdir())
    except OSError:
        return 0
    for entry in entries:
        name = entry.name
        if not name.startswith(prefix):
            continue
        pid, dash, _ = name[len(prefix):].partition("-")
        if not dash or not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            removed += 1
        except OSError:
            continue  # another run removed it first, or it is not ours to remove
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive, and not ours
    return True
