"""The faithfulness method's records and their one codec.

suite → :class:`Step` → (perturber) → :class:`Perturbation` → (formaliser) →
:class:`~afcheck.types.Formalisation` ×2 → (checker) → (prover) →
:class:`~afcheck.types.Verdict` ×2 → :class:`CaseResult` → metrics → reporters.

The records are frozen dataclasses with no behaviour beyond small derived properties; the
Lean records they hold are the core's (:mod:`afcheck.types`), shared with the other Lean
methods. The codec: :func:`load_perturbation` reads a perturbation back from the result
cache (the core's :mod:`afcheck.runtime.cache` reads the shared records); :func:`record`
writes one case to the JSON result file (:func:`record_text` writes its text) and
:class:`CaseRecord` reads what the metrics count
of it (for the report and ``afcheck compare``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from afcheck import json_text
from afcheck.method import JsonObject
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Status,
    Verdict,
    VerdictKind,
    to_json,
    to_json_text,
)


class Side(str, enum.Enum):
    """Which version of a step a formal statement stands for. A formalise request names its
    side as ``metadata["side"]`` (the value), with its step as ``metadata["step_id"]``."""

    ORIGINAL = "original"
    PERTURBED = "perturbed"


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
        # Two terms, not a sum over a generator: the metrics ask it of every case.
        original, perturbed = self.original, self.perturbed
        return ((original is not None and original.status is FormalisationStatus.TC_FAIL)
                + (perturbed is not None and perturbed.status is FormalisationStatus.TC_FAIL))

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
        # :attr:`failure_events` without its tuple: an included case has an event exactly
        # when one of these holds.
        if self.error_induction or self.silent_correction or self.af_failure:
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


# -- the result cache ---------------------------------------------------------------------


def load_perturbation(data: Mapping[str, Any]) -> Perturbation:
    """The perturbation :func:`afcheck.types.to_json` wrote (the ``perturb`` stage's cache)."""
    edit = data.get("edit")
    return Perturbation(
        step_id=data["step_id"], perturber=data["perturber"], text=data["text"],
        rule=data["rule"], edit=Edit(**edit) if edit else None, reason=data["reason"],
        effective=data["effective"], transient=data.get("transient", False),
    )


# -- the result file ----------------------------------------------------------------------


RawOutputs = Callable[[str], str | None]
"""Raw model outputs kept out of the records during the run, by formalisation key."""


def record(result: CaseResult, raw_outputs: RawOutputs | None = None) -> JsonObject:
    """Both inputs, the perturbation, both formalisations, both verdicts and the outcome."""
    step = result.step
    return {
        "case_id": result.case_id,
        "step_id": step.id,
        "suite": step.suite,
        "dataset": step.dataset,
        "problem_id": step.problem_id,
        "node_id": step.node_id,
        "text": step.text,
        "context": list(step.context),
        "perturbation": to_json(result.perturbation),
        "original": _formalisation(result.original, raw_outputs),
        "perturbed": _formalisation(result.perturbed, raw_outputs),
        "z": _verdict(result.z),
        "z_bar": _verdict(result.z_bar),
        "outcome": result.outcome.value,
        "events": list(result.failure_events),
        "excluded": result.excluded,
        "timings": dict(result.timings),
        "warnings": [{"detector": w.detector, "side": w.side.value, "message": w.message}
                     for w in result.warnings],
        "source": str(step.source) if step.source else None,
    }


def _formalisation(formalisation: Formalisation | None,
                   raw_outputs: RawOutputs | None) -> JsonObject | None:
    if formalisation is None:
        return None
    data: JsonObject = to_json(formalisation)
    if raw_outputs is not None and not formalisation.raw_output:
        stored = raw_outputs(formalisation.key)  # moved to the spool during the run
        if stored is not None:
            data["raw_output"] = stored
    return data


def _verdict(verdict: Verdict | None) -> JsonObject | None:
    return None if verdict is None else to_json(verdict)


def record_text(result: CaseResult, raw_outputs: RawOutputs | None = None) -> str:
    """The JSON text of :func:`record` (what ``json_text.encoder(ensure_ascii=False)`` writes
    for it, character for character), made without the record's dicts.

    The result file holds one per case: building the record (about nine dicts) and encoding
    it cost about the same, and most of both is per value, not per character. Here each
    key's text is written once, in this function's source, each value's text comes from a C
    function or :func:`afcheck.types.to_json_text`, and a context, shared by the steps of a
    paragraph (the same tuple, or an equal one), is encoded once."""
    step = result.step
    source = step.source
    return (
        f'{{"case_id": {to_json_text(result.case_id)}, "step_id": {to_json_text(step.id)}, '
        f'"suite": {to_json_text(step.suite)}, "dataset": {to_json_text(step.dataset)}, '
        f'"problem_id": {to_json_text(step.problem_id)}, '
        f'"node_id": {to_json_text(step.node_id)}, '
        f'"text": {to_json_text(step.text)}, "context": {_context(step.context)}, '
        f'"perturbation": {to_json_text(result.perturbation)}, '
        f'"original": {_formalisation_text(result.original, raw_outputs)}, '
        f'"perturbed": {_formalisation_text(result.perturbed, raw_outputs)}, '
        f'"z": {to_json_text(result.z)}, "z_bar": {to_json_text(result.z_bar)}, '
        f'"outcome": {to_json_text(result.outcome.value)}, '
        f'"events": {_events_text(result.failure_events)}, '
        f'"excluded": {to_json_text(result.excluded)}, '
        f'"timings": {_ENCODE(_dict(result.timings))}, '
        f'"warnings": {_warnings_text(result.warnings)}, '
        f'"source": {to_json_text(str(source)) if source else "null"}}}')


def _dict(mapping: Mapping[str, float]) -> dict[str, float]:
    return mapping if type(mapping) is dict else dict(mapping)


def _context(context: tuple[str, ...]) -> str:
    return _context_text(context) if type(context) is tuple else _ENCODE(list(context))


@functools.lru_cache(maxsize=1024)
def _context_text(context: tuple[str, ...]) -> str:
    """Equal contexts are equal texts: a bounded cache by value (the steps of a paragraph
    are consecutive, so the most recent contexts are the ones asked for again)."""
    return _ENCODE(list(context))


def _formalisation_text(formalisation: Formalisation | None,
                        raw_outputs: RawOutputs | None) -> str:
    if formalisation is not None and raw_outputs is not None and not formalisation.raw_output:
        stored = raw_outputs(formalisation.key)
        if stored is not None:
            formalisation = dataclasses.replace(formalisation, raw_output=stored)
    return to_json_text(formalisation)


@functools.cache
def _events_text(events: tuple[str, ...]) -> str:
    """A case's events are one of the eight combinations of three names: each one's text is
    made once."""
    return _ENCODE(events)


def _warnings_text(warnings: tuple[DriftWarning, ...]) -> str:
    if not warnings:
        return "[]"
    return _ENCODE([{"detector": w.detector, "side": w.side.value, "message": w.message}
                    for w in warnings])


_ENCODE = json_text.encoder(ensure_ascii=False)


@dataclass(frozen=True)
class CaseRecord:
    """What the metrics count of one case read back from a result file (a
    :class:`afcheck_faithfulness.metrics.Counted`, as a run's :class:`CaseResult` is)."""

    case_id: str
    dataset: str
    rule: str
    outcome: str
    status: str
    excluded: bool
    error_induction: bool
    """z = ⊥: the valid step's statement was refuted."""
    silent_correction: bool
    """z̄ = ⊤: the invalid step's statement was proved."""
    af_fail_original: bool
    af_fail_perturbed: bool
    proved_original: bool
    tc_fail: int = 0
    warnings: int = 0

    @property
    def original_failed(self) -> bool:
        """The original side has a failure event (error induction or AF failure)."""
        return self.error_induction or self.af_fail_original

    @property
    def perturbed_failed(self) -> bool:
        return self.silent_correction or self.af_fail_perturbed

    @property
    def af_failure(self) -> bool:
        return self.af_fail_original or self.af_fail_perturbed

    @property
    def failed(self) -> bool:
        """Any failure event (what fails the test)."""
        return not self.excluded and (self.original_failed or self.perturbed_failed)

    @classmethod
    def from_json(cls, step: Mapping[str, object]) -> CaseRecord:
        """Read the record :func:`record` wrote; a part that is missing or of the wrong type
        reads as "nothing happened" (a file edited by hand, or written by an older afcheck)."""
        original = _json_object(step.get("original"))
        perturbed = _json_object(step.get("perturbed"))
        z = _verdict_kind(step.get("z"))
        z_bar = _verdict_kind(step.get("z_bar"))
        perturbation = _json_object(step.get("perturbation"))
        warnings = step.get("warnings")
        return cls(
            case_id=str(step.get("case_id", "")),
            dataset=str(step.get("dataset") or "(none)"),
            rule=str(perturbation.get("rule") or "(none)"),
            outcome=str(step.get("outcome") or "inconclusive"),
            status=str(step.get("status") or ""),
            excluded=bool(step.get("excluded")),
            error_induction=z == "refuted",
            silent_correction=z_bar == "proved",
            af_fail_original=original.get("status") != "ok",
            af_fail_perturbed=perturbed.get("status") != "ok",
            proved_original=z == "proved",
            tc_fail=sum(side.get("status") == "tc_fail" for side in (original, perturbed)),
            warnings=len(warnings) if isinstance(warnings, list) else 0,
        )


def from_json(steps: Iterable[Mapping[str, object]]) -> list[CaseRecord]:
    """Every case of ``steps`` (records of a result file) as the metrics count them."""
    return [CaseRecord.from_json(step) for step in steps]


def _json_object(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _verdict_kind(value: object) -> str | None:
    kind = value.get("kind") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None
