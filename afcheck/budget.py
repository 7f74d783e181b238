"""Budgets: what one item may spend in one stage of a method, so that no item takes a run down.

Every per-item stage of a method runs under a :class:`Budget` that the method declares
(``budgets``: stage name → budget, read by :func:`budgets_of`) and the user may change on the
command line (``--budget METHOD.STAGE.KEY=VALUE``, repeatable; ``docs/budgets.md`` lists each
method's). A budget bounds three things:

- ``seconds``: wall clock for one item. Where the stage runs in worker processes
  (:class:`afcheck.runtime.workers.WorkerPool`) the worker is killed past it; an in-process
  algorithm checks a :class:`Clock` as it goes.
- ``memory_mb``: the address space of a worker process running the stage.
- ``size``: the largest input the stage's algorithm is started on, in the stage's own unit
  (bytes of a formula, tree nodes, binders). An algorithm whose cost is known to explode with
  its input refuses larger ones up front instead of running out of memory.

An item over its budget gets its own outcome, with the reason (``over budget: tree edit
distance on 7,204 nodes (limit 2,000)``): :class:`OverBudget` is raised by the stage's
algorithm and caught by the method at that item, and the run goes on with the next item.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from afcheck.errors import UsageError
from afcheck.method import AnyMethod, checked

KEYS = ("seconds", "memory_mb", "size")
"""The settings of a budget, as ``--budget`` names them."""


@dataclass(frozen=True)
class Budget:
    """What one item may spend in one stage; ``None``: no bound of that kind."""

    seconds: float | None = None
    """Wall clock for one item."""
    memory_mb: int | None = None
    """Address space of a worker process running the stage, in MiB."""
    size: int | None = None
    """The largest input the stage's algorithm is started on, in the stage's unit."""
    unit: str = "bytes"
    """What ``size`` counts, for messages (``nodes``, ``binders``)."""
    otherwise: str = ""
    """What bounds the stage when no bound is set here (a component's own limits), as
    :meth:`describe` says it."""

    def clock(self, stage: str) -> Clock:
        """A clock for one item of ``stage``, started now."""
        return Clock(stage, self.seconds)

    def check_size(self, stage: str, size: int) -> None:
        """:class:`OverBudget` when an input of ``size`` is over :attr:`size`."""
        if self.size is not None and size > self.size:
            raise OverBudget(stage, f"{size:,} {self.unit}", f"{self.size:,}")

    def changed(self, key: str, value: float) -> Budget:
        """The budget with ``key`` set to ``value`` (checked by :func:`parse_change`)."""
        if key == "seconds":
            return replace(self, seconds=float(value))
        if key == "memory_mb":
            return replace(self, memory_mb=int(value))
        return replace(self, size=int(value))

    def describe(self) -> str:
        """``seconds=30 memory_mb=2048 size=2000 (nodes)``: what ``afcheck list`` shows; with
        no bound, :attr:`otherwise` (or ``unbounded``)."""
        parts = [f"{key}={getattr(self, key):g}" for key in KEYS
                 if getattr(self, key) is not None]
        if self.size is not None:
            parts[-1] += f" ({self.unit})"
        return " ".join(parts) or self.otherwise or "unbounded"


class OverBudget(Exception):
    """An item that exceeded its budget in a stage; ``str(error)`` is its one-line reason."""

    def __init__(self, stage: str, spent: str, limit: str) -> None:
        super().__init__(f"over budget: {stage} on {spent} (limit {limit})")
        self.stage = stage


class Clock:
    """The wall clock of one item in one stage, for algorithms that run in-process: call
    :meth:`check` in their loops, it raises :class:`OverBudget` once the time is spent.
    Reading the clock costs a system call, so :meth:`check` reads it every ``every`` calls."""

    def __init__(self, stage: str, seconds: float | None, every: int = 256) -> None:
        self.stage = stage
        self.seconds = seconds
        self.started = time.monotonic()
        self._deadline = math.inf if seconds is None else self.started + seconds
        self._every = every
        self._count = 0

    def check(self, what: str = "") -> None:
        self._count += 1
        if self._count % self._every:
            return
        if time.monotonic() > self._deadline:
            on = f"{what}, " if what else ""
            raise OverBudget(self.stage, f"{on}{self.seconds:g} s spent",
                             f"{self.seconds:g} s")


UNBOUNDED_CLOCK = Clock("", None)


def budgets_of(method: AnyMethod) -> Mapping[str, Budget]:
    """A method's declared budgets by stage (:attr:`~afcheck.method.Method.budgets`)."""
    return checked(method, "budgets", method.budgets, Budget)


@dataclass(frozen=True)
class Change:
    """One ``--budget METHOD.STAGE.KEY=VALUE``."""

    method: str
    stage: str
    key: str
    value: float


def parse_change(text: str) -> Change:
    """``nl2fol.ted.size=5000`` as a :class:`Change`; :class:`UsageError` when malformed or
    not a number above 0."""
    where, equals, value = text.partition("=")
    parts = where.strip().split(".")
    if not equals or len(parts) != 3 or not all(parts):
        raise UsageError(f"--budget {text}: write METHOD.STAGE.KEY=VALUE "
                         f"(KEY one of {', '.join(KEYS)}), e.g. nl2fol.ted.size=5000")
    method, stage, key = (part.strip() for part in parts)
    if key not in KEYS:
        raise UsageError(f"--budget {text}: unknown budget '{key}'; use one of "
                         f"{', '.join(KEYS)}")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not number > 0 or math.isinf(number) or (key != "seconds" and number != int(number)):
        kind = "a number of seconds above 0" if key == "seconds" else "a whole number above 0"
        raise UsageError(f"--budget {text}: {key} must be {kind}")
    return Change(method, stage, key, number)


def resolve(declared: Mapping[str, Mapping[str, Budget]], changes: Iterable[str]
            ) -> dict[str, dict[str, Budget]]:
    """Each method's budgets by stage with the user's ``changes`` applied; a change naming a
    method or stage that declares no budget is a :class:`UsageError` listing those that do."""
    out = {method: dict(stages) for method, stages in declared.items()}
    for text in changes:
        change = parse_change(text)
        stages = out.get(change.method)
        if stages is None or change.stage not in stages:
            known = [f"{m}.{s}" for m, ss in sorted(declared.items()) for s in sorted(ss)]
            raise UsageError(f"--budget {text}: no stage '{change.method}.{change.stage}' in "
                             f"this run; stages with a budget: {', '.join(known) or 'none'}")
        stages[change.stage] = stages[change.stage].changed(change.key, change.value)
    return out


def as_json(budget: Budget) -> dict[str, object]:
    """The budget as the run's configuration records it."""
    return {f.name: getattr(budget, f.name) for f in fields(budget)}
