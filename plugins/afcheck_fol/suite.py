"""Items of the ``nl2fol`` method: a sentence, its gold formulas, a difficulty tag, a language.

Two sources:

* :func:`load_jsonl` reads suites written for afcheck, one JSON object a line::

      {"id": "tw-001", "sentence": "a is a cube.", "gold": ["Cube(a)"],
       "difficulty": "low", "language": "tarski"}

  ``gold`` is a formula or a non-empty list of them (all correct translations); ``difficulty``
  and ``language`` are optional (``unrated`` and the suite's language).
* :func:`load_folio` reads FOLIO's premises with their gold FOL (``premises`` and
  ``premises-FOL``), one item per distinct premise of a story, from ``$AFCHECK_DATA_DIR``. The
  story's ``source`` (``wiki``/``hyb``) is the item's tag, as FOLIO has no difficulty.

A bad record costs only itself: it becomes a :class:`~afcheck.errors.LoadError` (``file:line``,
what is wrong, what to do) and loading goes on. A gold formula the parser rejects is also kept
as a :class:`Rejection` with its syntax error, so that rejections can be counted by class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from afcheck.errors import LoadError
from afcheck.jsonlines import read_json_lines
from afcheck.suites import find_in_data_dir
from afcheck.types import Location
from afcheck_fol.formula import Formula, predicates
from afcheck_fol.language import LANGUAGES, Language
from afcheck_fol.syntax import FolSyntaxError, parse

UNRATED = "unrated"
FOLIO_FILES = ("folio/folio-train.jsonl", "folio-train.jsonl")


@dataclass(frozen=True)
class Item:
    """One sentence to formalise, with its parsed gold formulas."""

    id: str
    sentence: str
    gold: tuple[str, ...]
    formulas: tuple[Formula, ...]
    """``gold`` parsed, in the same order."""
    difficulty: str
    language: Language
    location: Location = field(default=Location(""), compare=False)
    dataset: str = "nl2fol"
    """The group a run reports its metrics under (the suite's name)."""

    @property
    def source(self) -> Location:
        return self.location

    @property
    def case_name(self) -> str:
        return self.id


@dataclass(frozen=True)
class Rejection:
    """A gold formula the parser refused."""

    location: Location
    item_id: str
    text: str
    error: FolSyntaxError


@dataclass(frozen=True)
class Loaded:
    items: tuple[Item, ...]
    errors: tuple[LoadError, ...]
    rejections: tuple[Rejection, ...] = ()


def _gold_list(raw: object) -> list[str] | None:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        return None
    if not all(isinstance(g, str) and g.strip() for g in raw):
        return None
    return [g.strip() for g in raw]


def load_jsonl(path: Path, language: Language) -> Loaded:
    """Items of a suite file; ``language`` is used where a record names none."""
    items: list[Item] = []
    errors: list[LoadError] = []
    rejections: list[Rejection] = []
    seen: set[str] = set()
    try:
        lines = list(read_json_lines(path))
    except OSError as exc:
        return Loaded((), (LoadError(Location(str(path)), f"cannot read the suite data: {exc}"),))
    for line in lines:
        location = line.location

        def bad(message: str, name: str = "", where: Location = location) -> None:
            errors.append(LoadError(where, message, name))

        if not line.ok:
            bad(line.problem)
            continue
        record = line.value
        if not isinstance(record, dict):
            bad("expected a JSON object with id, sentence and gold")
            continue
        item_id = record.get("id")
        if not isinstance(item_id, str) or not item_id.strip():
            bad("missing 'id' (a non-empty string)")
            continue
        if item_id in seen:
            bad(f"id {item_id!r} is used twice; ids must be unique", item_id)
            continue
        seen.add(item_id)
        sentence = record.get("sentence")
        if not isinstance(sentence, str) or not sentence.strip():
            bad("missing 'sentence' (the natural-language text)", item_id)
            continue
        gold = _gold_list(record.get("gold"))
        if gold is None:
            bad("'gold' must be a formula or a non-empty list of formulas", item_id)
            continue
        name = record.get("language", language.name)
        if name not in LANGUAGES:
            bad(f"unknown language {name!r}; use one of {', '.join(sorted(LANGUAGES))}",
                item_id)
            continue
        difficulty = record.get("difficulty", UNRATED)
        if not isinstance(difficulty, str):
            bad("'difficulty' must be a string tag", item_id)
            continue
        item = _item(item_id, sentence, gold, difficulty, LANGUAGES[name], location, {},
                     errors, rejections)
        if item is not None:
            items.append(item)
    return Loaded(tuple(items), tuple(errors), tuple(rejections))


def _item(
    item_id: str,
    sentence: str,
    gold: list[str],
    difficulty: str,
    language: Language,
    location: Location,
    arities: Mapping[str, int],
    errors: list[LoadError],
    rejections: list[Rejection],
) -> Item | None:
    formulas = []
    for index, text in enumerate(gold):
        try:
            formulas.append(parse(text, language, arities))
        except FolSyntaxError as exc:
            rejections.append(Rejection(location, item_id, text, exc))
            errors.append(LoadError(
                location,
                f"gold formula {index} of {item_id} is not a sentence of {language.name}: "
                f"{exc}; fix the formula or drop it",
                item_id,
            ))
            return None
    return Item(item_id, sentence.strip(), tuple(gold), tuple(formulas), difficulty.strip(),
                language, location)


def folio_path(data_dir: str | None = None) -> Path | None:
    """FOLIO's file under ``data_dir`` (default ``$AFCHECK_DATA_DIR``), if it is there."""
    return find_in_data_dir(FOLIO_FILES, data_dir)


def load_folio(path: Path, language: Language | None = None) -> Loaded:
    """One item per distinct premise of each story, with its gold FOL.

    Predicates keep the arity of their first use across a story's premises, as FOLIO writes
    one signature per story.
    """
    from afcheck_fol.language import FOLIO

    language = language or FOLIO
    items: list[Item] = []
    errors: list[LoadError] = []
    rejections: list[Rejection] = []
    seen: set[tuple[int, str]] = set()
    arities: dict[int, dict[str, int]] = {}
    counters: dict[int, int] = {}
    try:
        lines = list(read_json_lines(path))
    except OSError as exc:
        return Loaded((), (LoadError(Location(str(path)), f"cannot read FOLIO: {exc}"),))
    for line in lines:
        location = line.location
        if not line.ok:
            errors.append(LoadError(location, f"{line.problem} (is this FOLIO's jsonl?)"))
            continue
        record = line.value if isinstance(line.value, dict) else {}
        premises = record.get("premises")
        formulas = record.get("premises-FOL")
        story = record.get("story_id")
        if not isinstance(premises, list) or not isinstance(formulas, list) \
                or not isinstance(story, int):
            errors.append(LoadError(location, "expected story_id, premises and premises-FOL"))
            continue
        if len(premises) != len(formulas):
            errors.append(LoadError(
                location,
                f"story {story}: {len(premises)} premises but {len(formulas)} formulas; "
                "the record cannot be paired and is left out",
                f"folio-{story}",
            ))
            continue
        source = record.get("source")
        tag = source if isinstance(source, str) and source else UNRATED
        for sentence, text in _pairs(premises, formulas):
            key = (story, sentence + "\0" + text)
            if key in seen:
                continue
            seen.add(key)
            counters[story] = counters.get(story, 0) + 1
            item_id = f"folio-{story}/p{counters[story]}"
            story_arities = arities.setdefault(story, {})
            item = _item(item_id, sentence, [text], tag, language, location, story_arities,
                         errors, rejections)
            if item is not None:
                items.append(item)
                for formula in item.formulas:
                    for name, arity in predicates(formula).items():
                        story_arities.setdefault(name, arity)
    return Loaded(tuple(items), tuple(errors), tuple(rejections))


def _pairs(premises: Iterable[object], formulas: Iterable[object]) -> Iterable[tuple[str, str]]:
    for sentence, text in zip(premises, formulas, strict=True):
        if isinstance(sentence, str) and isinstance(text, str):
            yield sentence.strip(), text.strip()
