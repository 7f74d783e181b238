"""The interfaces of the core's component kinds (formaliser, checker, prover, suite kind,
reporter), and what the runtime reads of any component.

A kind a method declares has its interface next to it, in the method's package
(``afcheck_faithfulness.kinds``: ``Perturber``, ``Detector``; ``afcheck_equivalence.kinds``:
``EquivalenceCriterion``). Every interface is batch-first: a stage receives all the work of
a run in one call, so a backend can batch (one vLLM call for thousands of prompts, a pool of
Lean REPLs or SMT workers). Components are created by the factories plugins register (see
:mod:`afcheck.hookspecs`); ``version`` enters cache keys and the JSON results.

Besides its interface, a component may set these optional members, which the runtime reads
once, when it builds the component (:func:`describe`):

- ``fingerprint: str``: what identifies its behaviour for the result cache (a formaliser
  preset puts its prompt template, sampling and model id there); default: its name and
  version. Either way the runtime adds its options, less those its registration calls
  ``volatile`` (options that change no kept answer: a request's deadline, its retries, how
  many are in flight), so that every option that can change an answer decides a cache hit;
- ``cacheable: bool``: ``False`` for components whose output depends on more than their
  inputs (``reference`` and ``replay`` read files that may change); default ``True``;
- ``close() -> None``: releases processes or servers at the end of a run;
- ``summary_lines() -> list[str]``: lines for the end of the run (how each replica of a
  server fared), read before ``close``;
- ``resources: Mapping[str, float]``: what one worker running it needs on a cluster (e.g.
  ``{"GPU": 2}``; nothing for a client of a server), read by executors that place work on a
  cluster (``ray``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from afcheck.errors import LoadError
    from afcheck.suites import Record, SuiteSpec
    from afcheck.summary import RunSummary
    from afcheck.types import Formalisation, FormaliseRequest, ProofTask, Verdict


@runtime_checkable
class Formaliser(Protocol):
    """Natural language → Lean statements."""

    name: str
    version: str

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        """One :class:`Formalisation` per request, in the same order."""
        ...


@runtime_checkable
class Checker(Protocol):
    """Type-checks extracted statements."""

    name: str
    version: str

    def check(self, formalisations: Sequence[Formalisation]) -> list[Formalisation]:
        """The same records, in order; those that do not type-check become TC-Fail."""
        ...


@runtime_checkable
class Prover(Protocol):
    """Decides statements: PROVED, REFUTED (negation proved) or INCONCLUSIVE."""

    name: str
    version: str

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        """One :class:`Verdict` per task, in order. Never raises for a single bad statement:
        that statement is INCONCLUSIVE with the reason."""
        ...


@runtime_checkable
class SuiteKind(Protocol):
    """Reads a suite's data into the item records of one evaluation method.

    A kind may also define ``component_options(spec, kind, name) -> dict[str, str]``: the
    options its suite's own choice ``name`` of a component ``kind`` gets unless the suite's
    ``<kind>_opt`` or the command line say otherwise (a kind whose data file is also what a
    component reads passes its path there, so that a suite names its file once).
    """

    name: str
    method: str
    """The evaluation method its records are for (a suite's ``method`` key may override it)."""

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        """Records in a stable order; a bad record yields a :class:`LoadError` and loading goes
        on. Raise :class:`afcheck.errors.SuiteError` only when nothing can be read."""
        ...


@runtime_checkable
class Reporter(Protocol):
    """Writes a run's results."""

    name: str

    def report(self, summary: RunSummary, destination: str) -> None:
        """Write the whole run to ``destination``; called once, at the end of the run."""
        ...


C = TypeVar("C")


@dataclass(frozen=True)
class Built(Generic[C]):
    """A component as a run uses it: the object and what the runtime needs to know of it."""

    component: C
    name: str
    version: str
    fingerprint: str
    cacheable: bool
    close: Callable[[], None] | None


def describe(component: C, name: str, options: Mapping[str, str],
             volatile: frozenset[str] = frozenset()) -> Built[C]:
    """Read a component's optional members once (see the module's docstring). The default
    fingerprint leaves out the ``volatile`` options: a result they change is never kept, so
    a kept one is the same with any value of them, and a changed deadline keeps the cache."""
    version = str(getattr(component, "version", ""))
    answering = sorted((k, v) for k, v in options.items() if k not in volatile)
    own = getattr(component, "fingerprint", None)
    if own:
        # A component's own fingerprint may name only what it read of its options (a model
        # id, not the server that serves it): every option that can change an answer is
        # added, so that two checkpoints served under one name never share results.
        fingerprint = f"{own}|{json.dumps(answering)}" if answering else str(own)
    else:
        fingerprint = json.dumps([str(getattr(component, "name", name)), version, answering])
    close = getattr(component, "close", None)
    return Built(component, name, version, str(fingerprint),
                 bool(getattr(component, "cacheable", True)),
                 close if callable(close) else None)
