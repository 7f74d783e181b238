"""The interfaces a plugin's components implement.

Every interface is batch-first: a stage receives all the work of a run in one call, so a
backend can batch (one vLLM call for thousands of prompts, a pool of Lean REPLs or SMT
workers). Components are created by the factories plugins register (see
:mod:`afcheck.hookspecs`); ``version`` enters cache keys and the JSON results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from afcheck.errors import LoadError
    from afcheck.metrics import RunSummary
    from afcheck.suites import SuiteSpec
    from afcheck.types import (
        Formalisation,
        FormaliseRequest,
        Perturbation,
        ProofTask,
        Step,
        Verdict,
    )


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
class Perturber(Protocol):
    """Makes an invalid counterpart of each step."""

    name: str
    version: str

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        """One :class:`Perturbation` per step, in order; deterministic per (step, seed)."""
        ...


@runtime_checkable
class EquivalenceCriterion(Protocol):
    """Judges whether pairs of Lean statements mean the same."""

    name: str
    version: str

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Verdict]:
        """PROVED: equivalent; REFUTED: not equivalent; INCONCLUSIVE: unknown."""
        ...


@runtime_checkable
class SuiteKind(Protocol):
    """Reads a suite's data into steps."""

    name: str

    def load(self, spec: SuiteSpec) -> Iterable[Step | LoadError]:
        """Steps in a stable order; a bad record yields a :class:`LoadError` and loading goes on.
        Raise :class:`afcheck.errors.SuiteError` only when nothing can be read."""
        ...


@runtime_checkable
class Reporter(Protocol):
    """Writes a run's results."""

    name: str

    def report(self, summary: RunSummary, destination: str) -> None: ...
