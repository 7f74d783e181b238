"""The faithfulness method's records and their one codec.

suite → :class:`Step` → (perturber) → :class:`Perturbation` → (formaliser) →
:class:`~afcheck.types.Formalisation` ×2 → (checker) → (prover) →
:class:`~afcheck.types.Verdict` ×2 → :class:`CaseResult` → metrics → reporters.

The records are frozen dataclasses with no behaviour beyond small derived properties; the
Lean records they hold are the core's (:mod:`afcheck.types`), shared with the other Lean
methods. :class:`CaseResult` is the one result type: the run makes it, observers receive it,
the summary counts it, and the report view and ``afcheck compare`` read it back from a
result file. The codec: :func:`to_json` writes one case to the JSON result file
(:func:`to_json_text` writes its text), :func:`from_json` reads it back, and
:func:`load_perturbation` reads a perturbation back from the result cache (the core's
:mod:`afcheck.runtime.cache` reads the shared records).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from afcheck import json_text
from afcheck.method import JsonObject
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Status,
    Usage,
    Verdict,
    VerdictKind,
)
from afcheck.types import to_json as data_of
from afcheck.types import to_json_text as text_of

RawOutputs = Callable[[str], str | None]
"""Raw model outputs kept out of the records during the run, by formalisation key."""


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
    raw_outputs: RawOutputs | None = field(default=None, compare=False, repr=False)
    """Where the run keeps this case's raw model outputs while they are out of its
    formalisations (the run's spool, by formalisation key), for :func:`to_json` to write
    them back in place; ``None`` where the formalisations hold their own."""

    def with_raw_outputs(self) -> CaseResult:
        """This result with the raw outputs the run kept apart put back in its
        formalisations: what observers receive, and what a pickle of it holds."""
        raw_outputs = self.raw_outputs
        if raw_outputs is None:
            return self

        def restored(formalisation: Formalisation | None) -> Formalisation | None:
            if formalisation is None or formalisation.raw_output:
                return formalisation
            raw = raw_outputs(formalisation.key)
            return (formalisation if raw is None
                    else dataclasses.replace(formalisation, raw_output=raw))

        original = restored(self.original)
        assert original is not None
        perturbed = restored(self.perturbed)
        if original is self.original and perturbed is self.perturbed:
            return self
        return dataclasses.replace(self, original=original, perturbed=perturbed)

    def __getstate__(self) -> dict[str, object]:
        # Where the run keeps the raw outputs is this process's: a pickle carries them.
        return {**self.with_raw_outputs().__dict__, "raw_outputs": None}

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
    def original_failed(self) -> bool:
        """The original side has a failure event (error induction or AF failure)."""
        return self.error_induction or self.af_fail_original

    @property
    def perturbed_failed(self) -> bool:
        """The perturbed side has a failure event (silent correction or AF failure)."""
        return self.silent_correction or self.af_fail_perturbed

    @property
    def failed(self) -> bool:
        """An included case with a failure event: what fails the test."""
        return not self.excluded and (self.original_failed or self.perturbed_failed)

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


def to_json(result: CaseResult) -> JsonObject:
    """Both inputs, the perturbation, both formalisations (with the raw outputs the run kept
    apart put back), both verdicts and the outcome."""
    step = result.step
    raw_outputs = result.raw_outputs
    return {
        "case_id": result.case_id,
        "step_id": step.id,
        "suite": step.suite,
        "dataset": step.dataset,
        "problem_id": step.problem_id,
        "node_id": step.node_id,
        "text": step.text,
        "context": list(step.context),
        "perturbation": data_of(result.perturbation),
        "original": _formalisation_data(result.original, raw_outputs),
        "perturbed": _formalisation_data(result.perturbed, raw_outputs),
        "z": _verdict_data(result.z),
        "z_bar": _verdict_data(result.z_bar),
        "outcome": result.outcome.value,
        "events": list(result.failure_events),
        "excluded": result.excluded,
        "timings": dict(result.timings),
        "warnings": [{"detector": w.detector, "side": w.side.value, "message": w.message}
                     for w in result.warnings],
        "source": str(step.source) if step.source else None,
    }


def _formalisation_data(formalisation: Formalisation | None,
                        raw_outputs: RawOutputs | None) -> JsonObject | None:
    if formalisation is None:
        return None
    data: JsonObject = data_of(formalisation)
    if raw_outputs is not None and not formalisation.raw_output:
        stored = raw_outputs(formalisation.key)  # moved to the spool during the run
        if stored is not None:
            data["raw_output"] = stored
    return data


def _verdict_data(verdict: Verdict | None) -> JsonObject | None:
    return None if verdict is None else data_of(verdict)


def to_json_text(result: CaseResult) -> str:
    """The JSON text of :func:`to_json` (what ``json_text.encoder(ensure_ascii=False)``
    writes for it, character for character), made without the record's dicts.

    The result file holds one per case: building the record (about nine dicts) and encoding
    it cost about the same, and most of both is per value, not per character. Here each
    key's text is written once, in this function's source, each value's text comes from a C
    function or :func:`afcheck.types.to_json_text`, and a context, shared by the steps of a
    paragraph (the same tuple, or an equal one), is encoded once."""
    step = result.step
    source = step.source
    raw_outputs = result.raw_outputs
    return (
        f'{{"case_id": {text_of(result.case_id)}, "step_id": {text_of(step.id)}, '
        f'"suite": {text_of(step.suite)}, "dataset": {text_of(step.dataset)}, '
        f'"problem_id": {text_of(step.problem_id)}, '
        f'"node_id": {text_of(step.node_id)}, '
        f'"text": {text_of(step.text)}, "context": {_context(step.context)}, '
        f'"perturbation": {text_of(result.perturbation)}, '
        f'"original": {_formalisation_text(result.original, raw_outputs)}, '
        f'"perturbed": {_formalisation_text(result.perturbed, raw_outputs)}, '
        f'"z": {text_of(result.z)}, "z_bar": {text_of(result.z_bar)}, '
        f'"outcome": {text_of(result.outcome.value)}, '
        f'"events": {_events_text(result.failure_events)}, '
        f'"excluded": {text_of(result.excluded)}, '
        f'"timings": {_ENCODE(_dict(result.timings))}, '
        f'"warnings": {_warnings_text(result.warnings)}, '
        f'"source": {text_of(str(source)) if source else "null"}}}')


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
    return text_of(formalisation)


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


def from_json(data: Mapping[str, object]) -> CaseResult:
    """The case :func:`to_json` wrote, read back from a result file (for the report view and
    ``afcheck compare``): the same result but for what the record leaves out (the step's
    problem, metadata and given perturbation). A part that is missing or of the wrong type
    reads as "nothing happened" (a file edited by hand, or written by an older afcheck): no
    formalisation is an AF failure, no verdict is none, a missing dataset or rule is
    ``(none)``."""
    perturbation = _object(data.get("perturbation"))
    edit = _object(perturbation.get("edit"))
    context = data.get("context")
    step_id = _str(data.get("step_id"))
    step = Step(
        id=step_id, suite=_str(data.get("suite")),
        dataset=_str(data.get("dataset")) or "(none)",
        problem_id=_str(data.get("problem_id")), node_id=_str(data.get("node_id")),
        text=_str(data.get("text")),
        context=tuple(map(str, context)) if isinstance(context, list) else (),
        source=_location(data.get("source")))
    effective = perturbation.get("effective")
    perturbed_text = perturbation.get("text")
    warnings = data.get("warnings")
    timings = data.get("timings")
    return CaseResult(
        case_id=_str(data.get("case_id")),
        step=step,
        perturbation=Perturbation(
            step_id=_str(perturbation.get("step_id")) or step_id,
            perturber=_str(perturbation.get("perturber")),
            text=perturbed_text if isinstance(perturbed_text, str) else None,
            rule=_str(perturbation.get("rule")) or "(none)",
            edit=_edit(edit) if edit else None,
            reason=_str(perturbation.get("reason")),
            effective=effective if isinstance(effective, bool) else None,
            transient=perturbation.get("transient") is True),
        original=_formalisation(data.get("original")) or _NOT_RECORDED,
        perturbed=_formalisation(data.get("perturbed")),
        z=_verdict(data.get("z")),
        z_bar=_verdict(data.get("z_bar")),
        excluded=_str(data.get("excluded")),
        timings=({str(k): v for k, v in timings.items() if isinstance(v, (int, float))}
                 if isinstance(timings, dict) else {}),
        warnings=tuple(_warning(w) for w in warnings if isinstance(w, dict))
        if isinstance(warnings, list) else (),
    )


_NOT_RECORDED = Formalisation("", "", FormalisationStatus.AF_FAIL, reason="not recorded")
"""The original side of a record that has none."""


def _object(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _str(value: object) -> str:
    """A string field; anything else that is not empty is its ``str``, nothing is ``""``."""
    return value if isinstance(value, str) else ("" if value is None or value is False
                                                 else str(value))


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


_LOCATION = re.compile(r"(?P<path>.*?)(?::(?P<line>\d+))?(?: \(record (?P<record>\d+)\))?")


def _location(value: object) -> Location | None:
    """The :class:`~afcheck.types.Location` whose ``str`` is ``value``."""
    if not isinstance(value, str) or not value:
        return None
    found = _LOCATION.fullmatch(value)
    assert found is not None  # every text matches: the path takes what the rest does not
    line, record = found["line"], found["record"]
    return Location(found["path"], int(line) if line else 0,
                    int(record) if record else None)


def _edit(data: Mapping[str, object]) -> Edit | None:
    start, end = data.get("start"), data.get("end")
    if not isinstance(start, int) or not isinstance(end, int):
        return None
    return Edit(start, end, _str(data.get("old")), _str(data.get("new")))


def _formalisation(value: object) -> Formalisation | None:
    if not isinstance(value, dict):
        return None
    status, statement, usage = value.get("status"), value.get("statement"), value.get("usage")
    return Formalisation(
        key=_str(value.get("key")), formaliser=_str(value.get("formaliser")),
        status=(FormalisationStatus(status) if status in _FORMALISATION_STATUSES
                else FormalisationStatus.AF_FAIL),
        statement=statement if isinstance(statement, str) else None,
        header=_str(value.get("header")), raw_output=_str(value.get("raw_output")),
        reason=_str(value.get("reason")),
        usage=_usage(usage) if isinstance(usage, dict) else None,
        transient=value.get("transient") is True)


_FORMALISATION_STATUSES = frozenset(s.value for s in FormalisationStatus)
_VERDICT_KINDS = frozenset(k.value for k in VerdictKind)


def _usage(data: Mapping[str, object]) -> Usage:
    cost = data.get("cost_usd")
    return Usage(int(_float(data.get("prompt_tokens"))),
                 int(_float(data.get("completion_tokens"))), _float(data.get("latency_s")),
                 float(cost) if isinstance(cost, (int, float)) else None,
                 _str(data.get("finish_reason")))


def _verdict(value: object) -> Verdict | None:
    kind = value.get("kind") if isinstance(value, dict) else None
    if not isinstance(value, dict) or kind not in _VERDICT_KINDS:
        return None
    unjudged, counterexample = value.get("unjudged"), value.get("counterexample")
    return Verdict(
        kind=VerdictKind(kind), backend=_str(value.get("backend")),
        certified=value.get("certified") is True, reason=_str(value.get("reason")),
        evidence=_str(value.get("evidence")),
        counterexample=({str(k): _str(v) for k, v in counterexample.items()}
                        if isinstance(counterexample, dict) else None),
        elapsed_s=_float(value.get("elapsed_s")), transient=value.get("transient") is True,
        judged_by=_str(value.get("judged_by")),
        unjudged=VerdictKind(unjudged) if unjudged in _VERDICT_KINDS else None)


def _warning(data: Mapping[str, object]) -> DriftWarning:
    side = data.get("side")
    return DriftWarning(_str(data.get("detector")),
                        Side.PERTURBED if side == "perturbed" else Side.ORIGINAL,
                        _str(data.get("message")))
