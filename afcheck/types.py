"""The records that flow one way through the pipeline.

suite → :class:`Step` → (perturber) → :class:`Perturbation` → (formaliser) →
:class:`Formalisation` ×2 → (checker) → :class:`Formalisation` ×2 → (prover) →
:class:`Verdict` ×2 → :class:`CaseResult` → metrics → reporters.

Every record is a frozen dataclass with no behaviour beyond small derived properties and
``to_json``; stages never mutate what they receive, they return new records
(``dataclasses.replace``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any


class Side(str, enum.Enum):
    """Which version of a step a formal statement stands for."""

    ORIGINAL = "original"
    PERTURBED = "perturbed"


@dataclass(frozen=True)
class Location:
    """Where a record came from, for error messages and reports."""

    path: str
    line: int = 0
    record: int | None = None
    """The record's number in its file (from 1), given when a line does not name it alone
    (records of a one-line JSON array)."""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return where if self.record is None else f"{where} (record {self.record})"


@dataclass(frozen=True)
class Step:
    """One reasoning step of a suite: the unit a test case is built from."""

    id: str
    """Stable id ``<suite>/<problem_id>/<node_id>``; seeds and caches derive from it."""
    suite: str
    dataset: str
    """Group for per-dataset metrics (``gsm8k``, ``math``, ``examples`` …)."""
    problem_id: str
    node_id: str
    text: str
    """The natural-language step to formalise."""
    problem: str = ""
    context: tuple[str, ...] = ()
    """Earlier or parent steps, in order, given to the formaliser with the step."""
    perturbed_text: str | None = None
    """A perturbation written with the data (used by the ``given`` perturber)."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Free-form fields: ``statement_type``, reference statements, edit records …"""
    source: Location | None = None

    @property
    def case_name(self) -> str:
        """The test name inside its suite: ``<problem_id>/<node_id>``."""
        return f"{self.problem_id}/{self.node_id}"


@dataclass(frozen=True)
class Edit:
    """A textual edit made by a perturber: ``text[start:end]`` was ``old``, is now ``new``."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True)
class Perturbation:
    """The perturbed counterpart of a step, or the record that none could be made."""

    step_id: str
    perturber: str
    text: str | None
    """Perturbed step text; ``None`` when the step is unperturbable."""
    rule: str
    """What was done: ``number``, ``operator``, ``negation``, ``prefix``, ``given``, ``llm``,
    or ``none`` when unperturbable."""
    edit: Edit | None = None
    reason: str = ""
    effective: bool | None = None
    """Whether the perturbation is known to make the step invalid; ``None`` when unknown."""
    transient: bool = False
    """A backend error (the LLM perturber's server failed), not a perturbation: the result
    cache never keeps it, so the next run asks again."""


class FormalisationStatus(str, enum.Enum):
    """Result of formalising one input; both failures count as AF(x) = ∅ in the metrics."""

    OK = "ok"
    AF_FAIL = "af_fail"
    """Nothing extractable, prompt over budget, backend error."""
    TC_FAIL = "tc_fail"
    """Extracted, but does not type-check with ``by sorry``."""


@dataclass(frozen=True)
class FormaliseRequest:
    """One input to formalise. Formalisers receive all requests of a run in one batch."""

    key: str
    """``<step id>#<side>``, unique within a batch."""
    step_id: str
    side: Side
    text: str
    context: tuple[str, ...] = ()
    problem: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Usage:
    """Token counts and cost of a model call, when the backend reports them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = None
    finish_reason: str = ""


@dataclass(frozen=True)
class Formalisation:
    """A formaliser's answer to one :class:`FormaliseRequest`."""

    key: str
    formaliser: str
    status: FormalisationStatus
    statement: str | None = None
    """The extracted Lean theorem statement (``theorem … : … := by sorry``)."""
    header: str = ""
    """Imports, ``open``, ``set_option`` and auxiliary definitions that came with it."""
    raw_output: str = ""
    reason: str = ""
    """Why it failed, in one line; empty when ``status`` is OK."""
    usage: Usage | None = None
    transient: bool = False
    """A backend error (HTTP error, timeout, malformed reply), not the model's answer: the
    result cache never keeps it, so the next run asks again."""

    @property
    def ok(self) -> bool:
        return self.status is FormalisationStatus.OK


class VerdictKind(str, enum.Enum):
    """⊤ / ⊥ / ∅ of the paper."""

    PROVED = "proved"
    REFUTED = "refuted"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class ProofTask:
    """One statement to prove or refute. Provers receive all tasks of a run in one batch."""

    key: str
    statement: str
    header: str = ""


@dataclass(frozen=True)
class Verdict:
    """A prover's decision on one statement, with its evidence."""

    kind: VerdictKind
    backend: str
    """Which backend decided (``smt``, ``lean-tactics``, ``deepseek`` …)."""
    certified: bool = False
    """True only when the Lean kernel checked the proof."""
    reason: str = ""
    evidence: str = ""
    """A proof text, or a rendering of the counterexample."""
    counterexample: Mapping[str, str] | None = None
    elapsed_s: float = 0.0


@dataclass(frozen=True)
class DetectTask:
    """One formalisation for the semantic-drift detectors: the text it stands for (the step,
    or its perturbation) and the statement written for it."""

    text: str
    statement: str
    header: str = ""


@dataclass(frozen=True)
class DriftWarning:
    """A sign that a statement may not say what its text says. Never changes a verdict."""

    detector: str
    side: Side
    message: str


class Outcome(str, enum.Enum):
    """The 5-way contingency of (z, z̄)."""

    FAITHFUL = "faithful"
    """(⊤, ⊥)"""
    SYCOPHANCY = "sycophancy"
    """(⊤, ⊤)"""
    ABSTENTION = "abstention"
    """(⊥, ⊥)"""
    INVERSION = "inversion"
    """(⊥, ⊤)"""
    INCONCLUSIVE = "inconclusive"
    """Any ∅, at formalisation or at proof."""


class Status(str, enum.Enum):
    """How a test item shows: a method's outcome gives PASSED, FAILED or SKIPPED
    (:class:`afcheck.method.ItemOutcome`); the run turns a failure the baseline expects into
    XFAILED."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    XFAILED = "xfailed"
    """Failed, and listed as failing in the baseline (never a method's own outcome)."""


@dataclass(frozen=True)
class CaseResult:
    """Everything the run learnt about one test case (step × perturbation)."""

    case_id: str
    """The pytest node id, e.g. ``suites/gsm8k::gsm8k-216/4``."""
    step: Step
    perturbation: Perturbation
    original: Formalisation
    perturbed: Formalisation | None
    """``None`` when the step could not be perturbed."""
    z: Verdict | None
    """Verdict on AF(x); ``None`` when AF(x) = ∅."""
    z_bar: Verdict | None
    excluded: str = ""
    """Why the case is left out of the metrics (unperturbable, ineffective); empty if not."""
    timings: Mapping[str, float] = field(default_factory=dict)
    warnings: tuple[DriftWarning, ...] = ()
    """What the semantic-drift detectors noticed in either statement; never part of the
    outcome, the status or the metrics."""

    @property
    def af_fail_original(self) -> bool:
        return not self.original.ok

    @property
    def af_fail_perturbed(self) -> bool:
        return self.perturbed is None or not self.perturbed.ok

    @property
    def error_induction(self) -> bool:
        """A valid step formalised into a refutable statement: z = ⊥."""
        return self.z is not None and self.z.kind is VerdictKind.REFUTED

    @property
    def silent_correction(self) -> bool:
        """An invalid step formalised into a provable statement: z̄ = ⊤."""
        return self.z_bar is not None and self.z_bar.kind is VerdictKind.PROVED

    @property
    def af_failure(self) -> bool:
        return self.af_fail_original or self.af_fail_perturbed

    @property
    def proved_original(self) -> bool:
        """z = ⊤."""
        return self.z is not None and self.z.kind is VerdictKind.PROVED

    @property
    def tc_fail(self) -> int:
        """How many of the two formalisations do not type-check (0, 1 or 2)."""
        return sum(f is not None and f.status is FormalisationStatus.TC_FAIL
                   for f in (self.original, self.perturbed))

    @property
    def outcome(self) -> Outcome:
        if self.z is None or self.z_bar is None:
            return Outcome.INCONCLUSIVE
        pair = (self.z.kind, self.z_bar.kind)
        return _CONTINGENCY.get(pair, Outcome.INCONCLUSIVE)

    @property
    def failure_events(self) -> tuple[str, ...]:
        events = []
        if self.error_induction:
            events.append("error induction")
        if self.silent_correction:
            events.append("silent correction")
        if self.af_failure and not self.excluded:
            events.append("AF failure")
        return tuple(events)

    @property
    def status(self) -> Status:
        """Faithful → passed; any failure event → failed; otherwise skipped."""
        if self.excluded:
            return Status.SKIPPED
        if self.failure_events:
            return Status.FAILED
        if self.outcome is Outcome.FAITHFUL:
            return Status.PASSED
        return Status.SKIPPED


_P, _R = VerdictKind.PROVED, VerdictKind.REFUTED
_CONTINGENCY = {
    (_P, _R): Outcome.FAITHFUL,
    (_P, _P): Outcome.SYCOPHANCY,
    (_R, _R): Outcome.ABSTENTION,
    (_R, _P): Outcome.INVERSION,
}


def to_json(record: Any) -> Any:
    """Plain JSON-ready data for any record of this module (enums by value)."""
    kind = type(record)
    if kind in _PLAIN:
        return record
    names = _FIELD_NAMES.get(kind)
    if names is None and hasattr(record, "__dataclass_fields__"):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(record))
    if names is not None:
        # A walk over the fields, not dataclasses.asdict: that deep-copies every value first.
        return {name: to_json(getattr(record, name)) for name in names}
    if isinstance(record, enum.Enum):
        return record.value
    if isinstance(record, Mapping):
        return {str(k): to_json(v) for k, v in record.items()}
    if isinstance(record, (list, tuple)):
        return [to_json(v) for v in record]
    return record


_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
