"""A multiprocessing context whose processes cannot start, for the tests of what a worker
pool does when the machine refuses it new processes (``EAGAIN`` from fork/spawn)."""

from __future__ import annotations


class NoProcesses:
    """A multiprocessing context whose processes cannot start (fork/spawn refused); its
    pipes are the real context's."""

    def __init__(self, real: object) -> None:
        self.Pipe = real.Pipe  # type: ignore[attr-defined]

    def Process(self, **kwargs: object) -> object:  # noqa: N802 - multiprocessing's name
        class Refused:
            def start(self) -> None:
                raise OSError(11, "Resource temporarily unavailable")

        return Refused()
