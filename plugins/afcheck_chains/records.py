"""The chains method's item: a reasoning chain over premises, with its gold label; and an
item's result read back from a result file (:class:`ResultRecord`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

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
class ResultRecord:
    """One item read back from a result file (the record :func:`afcheck_chains.outcome.
    to_json` writes): what the metrics count (:class:`afcheck_chains.summary.Counted`, as a
    run's :class:`~afcheck_chains.method.ChainResult` is). Only the record is read: no
    prover."""

    case_id: str
    dataset: str
    status: str
    """The test's status (``passed``, ``failed`` …)."""
    analysis: str
    """``classified``, ``label_only``, ``analysis_failure``, ``undecided``, ``no_answer``,
    ``no_reasoning`` or ``cut_off``."""
    chain_class: str | None
    expected_class: str | None
    step_pairs: tuple[tuple[str, str], ...] = ()
    """(gold, predicted) label of each step that has both."""
    first_executed: bool | None = None
    """The first translation ran (``None``: a file written before records said)."""
    first_matched: bool | None = None
    quality: tuple[SentenceQuality, ...] = ()
    restatement_only: bool | None = None
    """The path is valid only because a step restates the conclusion (``None``: no valid
    path, or a file written before records said)."""

    @classmethod
    def from_json(cls, step: Mapping[str, object]) -> ResultRecord:
        """Read one record; a part that is missing or of the wrong type reads as unknown."""
        pairs = []
        entries = step.get("steps")
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict):
                gold, label = entry.get("gold"), entry.get("label")
                if isinstance(gold, str) and isinstance(label, str):
                    pairs.append((gold, label))
        executed, matched = step.get("first_executed"), step.get("first_matched")
        found = step.get("fol_quality")
        quality = [SentenceQuality.from_json(q) for q in (found if isinstance(found, list)
                                                          else ()) if isinstance(q, dict)]
        restated = step.get("restatement_only")
        return cls(
            case_id=_text(step, "case_id", "id"),
            dataset=_text(step, "dataset", "group") or "(none)",
            status=str(step.get("status") or ""),
            analysis=str(step.get("analysis") or ""),
            chain_class=_text(step, "class") or None,
            expected_class=_text(step, "expected_class") or None,
            step_pairs=tuple(pairs),
            first_executed=executed if isinstance(executed, bool) else None,
            first_matched=matched if isinstance(matched, bool) else None,
            quality=tuple(q for q in quality if q is not None),
            restatement_only=restated if isinstance(restated, bool) else None,
        )


def from_json(steps: Iterable[Mapping[str, object]]) -> list[ResultRecord]:
    return [ResultRecord.from_json(step) for step in steps]


def _text(step: Mapping[str, object], *keys: str) -> str:
    for key in keys:
        value = step.get(key)
        if isinstance(value, str) and value:
            return value
    return ""
