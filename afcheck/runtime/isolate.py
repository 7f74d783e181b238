"""One item's crash in a stage is that item's result, not the run's end.

A component that raises on one input (a 10,000-digit number a perturber cannot convert, a
formula a parser runs out of memory on) would otherwise take down its whole chunk and the
run with it, and every good item with them. A stage that can say what a crashed item's
result is (``failed(item, reason)``: a perturbation that could not be made, a formalisation
that failed) has its call wrapped in :class:`Isolated`: a chunk that raises is run again one
item at a time, and each item that still raises gets ``failed``'s result with the reason.

What an :class:`~afcheck.errors.AfcheckError` says (a usage error, a server that cannot be
reached) stops the run as before: it is about the run, not the item. The ``failed`` results
must be ones the stage never caches (``transient``), so that a fixed component computes them
again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from afcheck.errors import AfcheckError
from afcheck.printable import one_line

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Isolated(Generic[T, R]):
    """``call`` over a chunk, with an item that makes it raise given ``failed``'s result.
    Picklable when ``call`` and ``failed`` are (an executor may ship it to a worker).

    A component that has not yet answered a single item and raises on every item of a chunk
    is broken, not given bad items (a plugin's bug, a missing model file): the chunk's
    exception is raised, and the run stops with it as before."""

    call: Callable[[list[T]], Sequence[R]]
    failed: Callable[[T, str], R]
    where: str
    """``regex at the perturb stage``: names the component and stage in the reason."""
    answered: bool = False
    """Whether the component answered an item yet (in this process)."""

    def __call__(self, chunk: list[T]) -> list[R]:
        try:
            made = list(self.call(chunk))
        except AfcheckError:
            raise
        except Exception as exc:  # noqa: BLE001 - retried item by item below
            return self._one_by_one(chunk, exc)
        self.answered = True
        return made

    def _one_by_one(self, chunk: list[T], first: Exception) -> list[R]:
        out: list[R] = []
        crashed = 0
        for item in chunk:
            try:
                made = list(self.call([item]))
            except AfcheckError:
                raise
            except Exception as exc:  # noqa: BLE001 - this item's own result
                crashed += 1
                out.append(self.failed(item, self.reason(exc)))
            else:
                if len(made) != 1:
                    return out + made  # a broken contract: the runtime says so
                self.answered = True
                out.extend(made)
        if crashed == len(chunk) and not self.answered:
            raise first
        return out

    def reason(self, exc: BaseException) -> str:
        return (f"{self.where} crashed on this item: {type(exc).__name__}: "
                f"{one_line(str(exc))}")
