"""The chains method's records: the item (a reasoning chain over premises, with its gold
label), the case a run decides, and the one result type with its codec.

:class:`ChainResult` is what a run decides for one chain and what a result file holds:
:func:`to_json` writes it (the item's record in the file), :func:`from_json` reads it back.
The run's outcome, its metrics (:mod:`afcheck_chains.metrics`), observers and the report's
view all read this one type, whether it was just decided or read from a file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, get_args

from afcheck import fields
from afcheck.method import Choice
from afcheck.types import Location


class Label(str, Enum):
    """A statement's truth under the premises (gold labels, answers and step labels).

    ``ERROR`` is the seed's Error: the statement and its negation both follow, so the premises
    are inconsistent. ``LIMIT`` and ``INVALID`` are not logical answers: a prover limit
    stopped one of the two queries, or the prover refused the formula; they are reported
    apart from ``UNKNOWN`` (independent of the premises).
    """

    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"
    ERROR = "Error"
    LIMIT = "Limit"
    INVALID = "Invalid"

    @property
    def decided(self) -> bool:
        return self in (Label.TRUE, Label.FALSE, Label.UNKNOWN, Label.ERROR)


GOLD_LABELS = (Label.TRUE, Label.FALSE, Label.UNKNOWN)


def parse_label(text: object) -> Label | None:
    """``True``/``False``/``Unknown`` in the spellings data sets use (``Uncertain``, A/B/C)."""
    if isinstance(text, bool):
        return Label.TRUE if text else Label.FALSE
    if not isinstance(text, str):
        return None
    key = text.strip().lower()
    return {
        "true": Label.TRUE, "yes": Label.TRUE, "a": Label.TRUE,
        "false": Label.FALSE, "no": Label.FALSE, "b": Label.FALSE,
        "unknown": Label.UNKNOWN, "uncertain": Label.UNKNOWN, "c": Label.UNKNOWN,
    }.get(key)


@dataclass(frozen=True)
class GoldFol:
    """Reference FOL given with the data (FOLIO's ``premises-FOL``), as source text."""

    premises: tuple[str, ...] = ()
    conclusion: str | None = None
    steps: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class SentenceQuality:
    """One translated sentence against its gold formula (:mod:`afcheck_chains.quality`)."""

    role: str
    """``premise 2``, ``step 1``, ``conclusion``."""
    bleu: float
    """FOL-BLEU, 0–1."""
    equivalent: bool | None
    """Logically equivalent to the gold formula; ``None``: undecided."""

    def to_json(self) -> dict[str, object]:
        return {"role": self.role, "bleu": self.bleu, "equivalent": self.equivalent}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SentenceQuality | None:
        bleu, equivalent = data.get("bleu"), data.get("equivalent")
        if not isinstance(bleu, (int, float)) or not (equivalent is None
                                                       or isinstance(equivalent, bool)):
            return None
        return cls(str(data.get("role", "")), float(bleu), equivalent)


@dataclass(frozen=True)
class ChainRecord:
    """One item: premises P, conclusion C, gold label L, reasoning steps S, answer A.

    ``steps`` are the kept steps (after segmentation and filtering); ``raw_steps`` what the
    source gave. ``answer`` is the model's predicted label (``None`` when it gave none).
    ``expected_class`` is set by suites that know the chain's class (the rebuilt
    classification set); ``gold_step_labels`` by data that annotate steps.
    """

    id: str
    dataset: str
    premises: tuple[str, ...]
    conclusion: str
    label: Label
    steps: tuple[str, ...]
    answer: Label | None
    location: Location
    raw_steps: tuple[str, ...] = ()
    expected_class: str | None = None
    gold_step_labels: tuple[Label, ...] | None = None
    gold_fol: GoldFol | None = None
    cut_off: str = ""
    """What the record says about a response that stopped at the generation limit
    (``finish_reason 'length'``); empty for a complete one."""
    response: str = ""
    """The model's response as recorded, all of it (empty where the data has none)."""
    answer_cut: str = ""
    """Where the response was cut because the model's answer had ended
    (:func:`afcheck_chains.segment.answer_end`) and how much went; empty: nothing cut."""
    metadata: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @property
    def source(self) -> Location:
        """Where the record was read (the run's :class:`afcheck.suites.Record`)."""
        return self.location

    @property
    def case_name(self) -> str:
        return self.id


@dataclass(frozen=True)
class ChainCase:
    """One chain of a run with the components that decide it."""

    record: ChainRecord
    formaliser: Choice
    prover: Choice


Analysis = Literal["classified", "label_only", "analysis_failure", "undecided", "no_answer",
                   "no_reasoning", "cut_off"]
"""How far a chain's analysis got (the record's ``analysis``); its test status is
:func:`afcheck_chains.outcome.outcome`'s."""

ANALYSES: tuple[Analysis, ...] = get_args(Analysis)


@dataclass(frozen=True)
class StepResult:
    """One kept reasoning step: its text, and once the chain was verified its FOL (TPTP), its
    label under the premises, the prover's statuses of both queries and whether it is on the
    proof path; its gold label where the data gives one."""

    text: str
    fol: str | None = None
    label: Label | None = None
    """``None``: the chain was not verified (no accepted translation)."""
    statuses: tuple[str, ...] = ()
    """SZS statuses of ``P ⊢ s`` and ``P ⊢ ¬s`` (none for a formula the prover refused)."""
    in_path: bool = False
    gold: Label | None = None


@dataclass(frozen=True)
class ConclusionResult:
    """The chain's conclusion: its text, and once verified its FOL and label under the
    premises."""

    text: str
    fol: str | None = None
    label: Label | None = None


@dataclass(frozen=True)
class Translation:
    """The FOL of a translation, as TPTP (in FOLIO's notation where TPTP has no form for a
    formula, such as one with a free variable)."""

    premises: tuple[str, ...]
    steps: tuple[str, ...]
    conclusion: str


Made = Callable[[], "Translation | None"]
"""A function of no arguments that makes a chain's :class:`Translation`."""


class LazyTranslation:
    """The ``translation`` field of :class:`ChainResult`: given as a :class:`Translation` (or
    ``None``) or as a function that makes one (``functools.partial(printed, chain)``), called
    on the first read and kept. Only the result file reads it, so a run that writes none
    never prints the translation.

    A data descriptor, as :class:`afcheck.method.LazyText` is: the frozen dataclass's
    ``__init__`` stores the value through :meth:`__set__`."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}_value"

    def __get__(self, instance: object | None, owner: type) -> Translation | None:
        if instance is None:  # the class's attribute: dataclasses reads it as the default
            return None
        value: Translation | Made | None = instance.__dict__.get(self._slot)
        if value is None or isinstance(value, Translation):
            return value
        made = value()
        instance.__dict__[self._slot] = made
        return made

    def __set__(self, instance: object, value: Translation | Made | None) -> None:
        instance.__dict__[self._slot] = value


@dataclass(frozen=True)
class ChainResult:
    """What a run decided for one chain: the item as analysed, how far the analysis got, the
    labels, the proof path and the class, and what the model and the formaliser wrote.

    ``steps`` are the steps that were labelled (after the repeats went: ``repeated``).
    """

    id: str
    dataset: str
    location: str
    premises: tuple[str, ...]
    conclusion: ConclusionResult
    gold_label: Label | None
    """``None`` only in a record read back without one (an unreadable item's)."""
    answer: Label | None
    analysis: Analysis | Literal[""]
    """Empty only in a record read back without one (an unreadable item's): counted among
    the items, in no analysis."""
    reason: str
    attempts: int
    first_executed: bool | None
    """The first translation ran in the prover (the seed's execution rate counts these);
    ``None``: a file written before records said."""
    first_matched: bool | None
    """… and its label of the conclusion equalled the gold label (execution accuracy)."""
    prover: str = ""
    chain_class: str | None = None
    expected_class: str | None = None
    answer_correct: bool | None = None
    valid_path: bool | None = None
    steps: tuple[StepResult, ...] = ()
    path: tuple[int, ...] = ()
    """Indices of the steps on the proof path, in chain order."""
    path_conclusion_label: Label | None = None
    """The conclusion's label under the path alone."""
    restating: tuple[int, ...] = ()
    """Indices of the path's steps that state the conclusion or its negation."""
    path_without_restating_label: Label | None = None
    """The conclusion's label under the path without those steps (the path-dependence
    diagnostic); ``None`` when there are none."""
    restatement_only: bool | None = None
    """The path is valid only because a path step restates the conclusion; ``None`` when the
    path is not valid (or a file written before records said)."""
    prover_seconds: float = 0.0
    """Prover time of the conclusion's and the steps' labels, as first measured."""
    repeated: tuple[tuple[int, int, str], ...] = ()
    """Steps dropped before labelling because their FOL repeats an earlier step's: (its
    1-based position among the kept steps as segmented, the position of the step it repeats,
    its text)."""
    quality: tuple[SentenceQuality, ...] = ()
    """FB and LE of the first translation against the data's gold FOL, where it has some."""
    translation: LazyTranslation = LazyTranslation()
    """The translation the analysis used: the accepted one, else the first that parsed (what
    an analysis failure can be looked at in). Read as ``Translation | None``."""
    response: str = ""
    answer_cut: str = ""
    raw_outputs: tuple[str, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)
    fresh_seconds: float = field(default=0.0, compare=False)
    """Prover time this run spent on the chain (answers read from the cache cost nothing);
    not written: a result read back from a file spent none."""

    @property
    def verified(self) -> bool:
        """The chain's steps were labelled (a translation was accepted)."""
        return self.conclusion.label is not None

    @property
    def conclusion_label(self) -> Label | None:
        return self.conclusion.label

    @property
    def step_labels(self) -> tuple[Label, ...]:
        return tuple(s.label for s in self.steps if s.label is not None)

    @property
    def step_pairs(self) -> tuple[tuple[str, str], ...]:
        """(gold, predicted) label of each step that has both."""
        return tuple((s.gold.value, s.label.value) for s in self.steps
                     if s.gold is not None and s.label is not None)


def to_json(result: ChainResult) -> dict[str, object]:
    """The item's record in a result file (:func:`from_json` reads it back)."""
    steps: list[dict[str, object]] = []
    for step in result.steps:
        entry: dict[str, object] = {"text": step.text}
        # A verified step has all four; a step of a chain never verified has none.
        if step.fol is not None:
            entry["fol"] = step.fol
        if step.label is not None:
            entry["label"] = step.label.value
        if step.label is not None or step.statuses:
            entry["statuses"] = list(step.statuses)
        if step.label is not None or step.in_path:
            entry["in_path"] = step.in_path
        if step.gold is not None:
            entry["gold"] = step.gold.value
        steps.append(entry)
    conclusion: dict[str, object] = {"text": result.conclusion.text}
    if result.conclusion.fol is not None:
        conclusion["fol"] = result.conclusion.fol
    if result.conclusion.label is not None:
        conclusion["label"] = result.conclusion.label.value
    data: dict[str, object] = {
        "id": result.id, "dataset": result.dataset, "location": result.location,
        "premises": list(result.premises), "conclusion": conclusion,
        "analysis": result.analysis, "reason": result.reason, "class": result.chain_class,
        "expected_class": result.expected_class, "gold_label": _value(result.gold_label),
        "answer": _value(result.answer),
        "answer_correct": result.answer_correct, "valid_path": result.valid_path,
        "conclusion_label": _value(result.conclusion_label),
        "path": list(result.path),
        "path_conclusion_label": _value(result.path_conclusion_label),
        "attempts": result.attempts, "first_executed": result.first_executed,
        "first_matched": result.first_matched, "prover": result.prover,
        "prover_seconds": result.prover_seconds,
        "steps": steps, "metadata": dict(result.metadata),
        "repeated_steps": [{"step": p, "repeats": e, "text": t} for p, e, t in result.repeated],
        "fol_quality": [q.to_json() for q in result.quality],
        "restatement_only": result.restatement_only,
        "response": result.response, "answer_cut": result.answer_cut,
        "raw_outputs": list(result.raw_outputs),
        "translation": None if result.translation is None else {
            "premises": list(result.translation.premises),
            "steps": list(result.translation.steps),
            "conclusion": result.translation.conclusion},
    }
    if result.restating or result.path_without_restating_label is not None:
        # Written only where the path has such steps: the diagnostic's evidence.
        data["restating"] = list(result.restating)
        data["path_without_restating_label"] = _value(result.path_without_restating_label)
    return data


def from_json(data: Mapping[str, object]) -> ChainResult:
    """Read one item's record back; a part that is missing or of the wrong type reads as
    unknown (a file written before records said, or by hand), never as an error."""
    found = data.get("conclusion")
    conclusion: Mapping[str, object] = found if isinstance(found, dict) else {}
    entries = data.get("steps")
    steps = tuple(_step(e) for e in (entries if isinstance(entries, list) else ())
                  if isinstance(e, dict))
    quality = [SentenceQuality.from_json(q) for q in fields.listed(data.get("fol_quality"))
               if isinstance(q, dict)]
    analysis = data.get("analysis")
    metadata = data.get("metadata")
    return ChainResult(
        id=fields.text(data, "id", "case_id"),
        dataset=fields.text(data, "dataset", "group") or "(none)",
        location=fields.text(data, "location"),
        premises=tuple(str(p) for p in fields.listed(data.get("premises"))),
        conclusion=ConclusionResult(fields.text(conclusion, "text"),
                                    fields.maybe_text(conclusion, "fol"),
                                    _label(conclusion.get("label"))),
        gold_label=_label(data.get("gold_label")),
        answer=_label(data.get("answer")),
        analysis=next((a for a in ANALYSES if a == analysis), ""),
        reason=fields.text(data, "reason"),
        attempts=fields.whole(data.get("attempts")) or 0,
        first_executed=fields.flag(data.get("first_executed")),
        first_matched=fields.flag(data.get("first_matched")),
        prover=fields.text(data, "prover"),
        chain_class=fields.text(data, "class") or None,
        expected_class=fields.text(data, "expected_class") or None,
        answer_correct=fields.flag(data.get("answer_correct")),
        valid_path=fields.flag(data.get("valid_path")),
        steps=steps,
        path=fields.wholes(data.get("path")),
        path_conclusion_label=_label(data.get("path_conclusion_label")),
        restating=fields.wholes(data.get("restating")),
        path_without_restating_label=_label(data.get("path_without_restating_label")),
        restatement_only=fields.flag(data.get("restatement_only")),
        prover_seconds=fields.number(data.get("prover_seconds")),
        repeated=tuple((fields.whole(r.get("step")) or 0, fields.whole(r.get("repeats")) or 0,
                        str(r.get("text") or "")) for r in fields.listed(data.get("repeated_steps"))
                       if isinstance(r, dict)),
        quality=tuple(q for q in quality if q is not None),
        translation=_translation(data.get("translation")),
        response=fields.text(data, "response"),
        answer_cut=fields.text(data, "answer_cut"),
        raw_outputs=tuple(o for o in fields.listed(data.get("raw_outputs")) if isinstance(o, str)),
        metadata={str(k): str(v) for k, v in metadata.items()}
        if isinstance(metadata, dict) else {},
    )


def _step(entry: Mapping[str, object]) -> StepResult:
    statuses = entry.get("statuses")
    return StepResult(
        text=fields.text(entry, "text"), fol=fields.maybe_text(entry, "fol"),
        label=_label(entry.get("label")),
        statuses=tuple(str(s) for s in statuses) if isinstance(statuses, list) else (),
        in_path=entry.get("in_path") is True, gold=_label(entry.get("gold")))


def _translation(found: object) -> Translation | None:
    if not isinstance(found, dict):
        return None
    return Translation(tuple(str(f) for f in fields.listed(found.get("premises"))),
                       tuple(str(f) for f in fields.listed(found.get("steps"))),
                       fields.text(found, "conclusion"))


def _value(label: Label | None) -> str | None:
    return None if label is None else label.value


_LABELS = {label.value: label for label in Label}


def _label(value: object) -> Label | None:
    return _LABELS.get(value) if isinstance(value, str) else None
