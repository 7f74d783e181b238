"""The nl2fol method's result: one :class:`Decision` per item, and its one codec.

A decision is made by :func:`afcheck_nl2fol.decide.decide`; :func:`to_json` writes it and
:func:`from_json` reads it back, the same record wherever it goes: the run's result cache (the
``nl2fol-decide`` stage), the JSON result file, observers and the report view. The metrics
(:mod:`afcheck_nl2fol.metrics`) count decisions, so the report and ``afcheck compare`` count a
file exactly as the run counted its items. Reading a record needs no parser and no z3: the
decision keeps its item as the file does (:class:`Subject`), formulas as text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from afcheck_fol.equiv import Equivalence
from afcheck_fol.syntax import FolSyntaxError

from afcheck import fields
from afcheck_nl2fol.align import Alignment

if TYPE_CHECKING:
    from afcheck_nl2fol.suite import Item

CORRECT = "correct"
SYNTAX_ERROR = "syntax-error"
SEMANTIC_ERROR = "not-equivalent"
UNDECIDED = "undecided"
NO_OUTPUT = "no-output"
GOLD_ERROR = "gold-error"
STATUSES = (CORRECT, SYNTAX_ERROR, SEMANTIC_ERROR, UNDECIDED, NO_OUTPUT, GOLD_ERROR)

T = TypeVar("T")


@dataclass(frozen=True)
class GoldError:
    """A gold formula of an item that is not a sentence of its language."""

    index: int
    text: str
    error: FolSyntaxError = field(compare=False)


@dataclass(frozen=True)
class Subject:
    """The item a decision is about, as its record keeps it: the sentence, the gold formulas
    as text, the language's name and the tags its metrics are grouped by."""

    id: str
    sentence: str
    language: str
    """The name of the item's language."""
    difficulty: str
    dataset: str
    """The group a run reports its metrics under (the suite's name)."""
    gold: tuple[str, ...]
    group: str
    """The key of the items that share a signature alignment (the story, else the item)."""
    gold_error: GoldError | None = None
    """The first gold formula that does not parse."""

    @classmethod
    def of(cls, item: Item) -> Subject:
        return cls(item.id, item.sentence, item.language.name, item.difficulty, item.dataset,
                   item.gold, item.alignment_group, item.gold_error)


@dataclass(frozen=True)
class Candidate:
    """The formula an nl2fol item is judged on: what the FOL formaliser wrote for it."""

    item_id: str
    formula: str | None
    """The formula text to judge; ``None`` when the formaliser produced nothing."""
    output: str = ""
    """The raw output it came from."""
    error: str = ""
    """Why there is no formula."""


@dataclass(frozen=True)
class Aligned:
    """The judgement of the candidate after its group's renaming
    (:mod:`afcheck_nl2fol.align`)."""

    alignment: Alignment
    """The renamings of the symbols this candidate uses (the group's mapping, restricted)."""
    status: str
    """``correct``, ``not-equivalent`` or ``undecided``."""
    nearest: int | None = None
    ted: int | None = None
    gold: int | None = None
    verdict: Equivalence | None = None
    """z3's verdict on the renamed candidate; ``None`` when it follows from the exact one (a
    candidate equivalent as written is equivalent after the renaming)."""


@dataclass(frozen=True)
class Decision:
    """Everything decided about one item."""

    item: Subject
    candidate: Candidate
    status: str
    """One of :data:`STATUSES`."""
    syntax_error: FolSyntaxError | None = None
    nearest: int | None = None
    """Index of the gold nearest the candidate by tree edit distance."""
    ted: int | None = None
    """Its distance; ``None`` when not computed (:attr:`ted_skipped` says why)."""
    ted_skipped: str = ""
    gold: int | None = None
    """The gold the verdict is about: the one found equivalent, else the nearest."""
    verdict: Equivalence | None = None
    seconds: float = 0.0
    aligned: Aligned | None = None
    """The outcome after the group's renaming; ``None`` when the renaming changes nothing of
    this candidate (the aligned outcome is then the exact one)."""

    @property
    def aligned_decision(self) -> str:
        """The decision up to the signature alignment, as metrics count it."""
        return self.status if self.aligned is None else self.aligned.status

    @property
    def error_class(self) -> str | None:
        return None if self.syntax_error is None else self.syntax_error.error_class.value

    @property
    def error_rule(self) -> str | None:
        return None if self.syntax_error is None else self.syntax_error.rule

    @property
    def theory(self) -> str | None:
        """The theory of the verdict (for a correct item: the one that decided it)."""
        return None if self.verdict is None else self.verdict.theory


def to_json(decision: Decision) -> dict[str, object]:
    """The decision's record: an item of the result file, a row of the result cache."""
    item, candidate, aligned = decision.item, decision.candidate, decision.aligned
    return {
        "id": item.id,
        "sentence": item.sentence,
        "language": item.language,
        "difficulty": item.difficulty,
        "gold": list(item.gold),
        "output": candidate.output,
        "candidate": candidate.formula,
        "decision": decision.status,
        "syntax_error": None if decision.syntax_error is None else decision.syntax_error.to_json(),
        "nearest_gold": decision.nearest,
        "ted": decision.ted,
        "gold_index": decision.gold,
        "equivalence": None if decision.verdict is None else decision.verdict.to_json(),
        "aligned": None if aligned is None else {
            "decision": aligned.status,
            "alignment": aligned.alignment.to_json(),
            "nearest_gold": aligned.nearest,
            "ted": aligned.ted,
            "gold_index": aligned.gold,
            "equivalence": None if aligned.verdict is None else aligned.verdict.to_json(),
        },
        "aligned_decision": decision.aligned_decision,
        "gold_error": None if item.gold_error is None else {
            "index": item.gold_error.index, **item.gold_error.error.to_json()},
        "alignment_group": item.group,
        "error": candidate.error or None,
        "seconds": round(decision.seconds, 4),
        **({"ted_skipped": decision.ted_skipped} if decision.ted_skipped else {}),
    }


def from_json(data: Mapping[str, object]) -> Decision:
    """The decision :func:`to_json` wrote. A part that is missing or cannot be read reads as
    unknown (``None``); ``dataset`` is the record's, else the ``group`` the result file adds
    to every item."""
    gold = tuple(str(g) for g in fields.listed(data.get("gold")))
    item = Subject(
        id=fields.text(data, "id", "case_id"),
        sentence=fields.text(data, "sentence"),
        language=fields.text(data, "language"),
        difficulty=fields.text(data, "difficulty") or "(none)",
        dataset=fields.text(data, "dataset", "group") or "(none)",
        gold=gold,
        group=fields.text(data, "alignment_group", "id", "case_id"),
        gold_error=_part(data.get("gold_error"), lambda raw: _gold_error(raw, gold)),
    )
    formula = data.get("candidate")
    candidate = Candidate(item.id, formula if isinstance(formula, str) else None,
                          fields.text(data, "output"), fields.text(data, "error"))
    return Decision(
        item, candidate, fields.text(data, "decision"),
        syntax_error=_part(data.get("syntax_error"), FolSyntaxError.from_json),
        nearest=fields.whole(data.get("nearest_gold")), ted=fields.whole(data.get("ted")),
        ted_skipped=fields.text(data, "ted_skipped"), gold=fields.whole(data.get("gold_index")),
        verdict=_part(data.get("equivalence"), Equivalence.from_json),
        seconds=fields.number(data.get("seconds")),
        aligned=_part(data.get("aligned"), _aligned),
    )


def checked(data: Mapping[str, object]) -> Mapping[str, object]:
    """``data``, a record :func:`to_json` could have written: every part its decision needs is
    there and reads; ``ValueError`` otherwise (a damaged or hand-edited cache row, read as a
    miss)."""
    status = data.get("decision")
    needs = {CORRECT: ("equivalence", "gold_index"), SEMANTIC_ERROR: ("equivalence", "gold_index"),
             UNDECIDED: ("equivalence", "gold_index"), SYNTAX_ERROR: ("syntax_error",),
             NO_OUTPUT: (), GOLD_ERROR: ()}
    if not isinstance(status, str) or status not in needs:
        raise ValueError(f"not a decision record: decision {status!r}")
    for key in needs[status]:
        kind = int if key == "gold_index" else dict
        if not isinstance(data.get(key), kind):
            raise ValueError(f"a {status} decision record without its {key}")
    decision = from_json(data)
    if (status in (CORRECT, SEMANTIC_ERROR, UNDECIDED) and decision.verdict is None
            or status == SYNTAX_ERROR and decision.syntax_error is None
            or data.get("aligned") is not None and decision.aligned is None):
        raise ValueError(f"a {status} decision record whose evidence cannot be read")
    return data


def _aligned(data: Mapping[str, object]) -> Aligned:
    alignment = data.get("alignment")
    return Aligned(
        Alignment.from_json(alignment if isinstance(alignment, dict) else {}),
        fields.text(data, "decision"), nearest=fields.whole(data.get("nearest_gold")),
        ted=fields.whole(data.get("ted")), gold=fields.whole(data.get("gold_index")),
        verdict=_part(data.get("equivalence"), Equivalence.from_json),
    )


def _gold_error(data: Mapping[str, object], gold: tuple[str, ...]) -> GoldError:
    index = fields.whole(data.get("index"))
    if index is None:
        raise ValueError("a gold error without its index")
    text = gold[index] if 0 <= index < len(gold) else ""
    return GoldError(index, text, FolSyntaxError.from_json(data))


def _part(value: object, read: Callable[[Mapping[str, object]], T]) -> T | None:
    """``read(value)`` for a JSON object ``value``; ``None`` for anything else, or for an
    object ``read`` cannot read."""
    if not isinstance(value, dict):
        return None
    try:
        return read(value)
    except (ValueError, KeyError, TypeError, AssertionError):
        return None
