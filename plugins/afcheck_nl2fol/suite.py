"""The suite kind ``nl2fol`` (:class:`Nl2FolSuite`) and its items: a sentence, its gold
formulas, a difficulty tag, a language.

Two sources:

* :func:`load_jsonl` reads suites written for afcheck, one JSON object a line::

      {"id": "tw-001", "sentence": "a is a cube.", "gold": ["Cube(a)"],
       "difficulty": "low", "language": "tarski", "group": "story-1",
       "vocabulary": {"predicates": ["Cube/1"], "constants": ["a"]}}

  ``id`` is optional (a record without one is named by its line, ``line12``); ``gold`` is a
  formula or a non-empty list of them (all correct translations); ``difficulty``
  and ``language`` are optional (``unrated`` and the suite's language); ``group`` (optional)
  names the story or problem the sentence belongs to: its items share one signature alignment
  (:mod:`afcheck_nl2fol.align`); ``vocabulary`` (optional) is given to a model in its prompt.
* :func:`load_folio` reads FOLIO (:mod:`afcheck_fol.folio`): one item per distinct premise
  of each story with its gold FOL (``premises-FOL``), and, where the split has
  ``conclusion-FOL`` (validation), one item per distinct conclusion. A story is a group. The
  story's ``source`` (``wiki``/``hyb``) is the item's tag, as FOLIO has no difficulty.

A bad record costs only itself: it becomes a :class:`~afcheck.errors.LoadError` (``file:line``,
what is wrong, what to do) and loading goes on. A gold formula the parser rejects does not
lose its item: the item is kept with :attr:`Item.gold_error` (the run reports it with its own
outcome, ``gold-error``), and the rejection is also listed (:class:`Rejection`), so that
rejections can be counted by class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from afcheck_fol.folio import SPLITS, folio_file, read_folio
from afcheck_fol.formula import Formula, Pred, constants, predicates, subformulas
from afcheck_fol.language import LANGUAGES, Language, language_named
from afcheck_fol.syntax import FolSyntaxError, parse

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import place_name, read_json_lines
from afcheck.suites import Record, SuiteSpec
from afcheck.types import Location
from afcheck_nl2fol.records import GoldError

UNRATED = "unrated"
FOLIO_FILES = SPLITS["train"]


@dataclass(frozen=True)
class Vocabulary:
    """The symbols a suite gives a model to use: predicates with their arities, constants."""

    predicates: tuple[tuple[str, int], ...]
    constants: tuple[str, ...] = ()

    @classmethod
    def of(cls, formulas: Iterable[Formula]) -> Vocabulary:
        """The symbols of ``formulas``: predicates in order of first use, constants formula by
        formula (each formula's new ones in name order)."""
        found: dict[tuple[str, int], None] = {}
        names: dict[str, None] = {}
        for formula in formulas:
            for node in subformulas(formula):
                if isinstance(node, Pred):
                    found.setdefault((node.name, len(node.args)))
            names.update(dict.fromkeys(sorted(constants(formula))))
        return cls(tuple(found), tuple(names))

    @classmethod
    def from_json(cls, value: object) -> Vocabulary | None:
        """``{"predicates": ["Name/2", …], "constants": ["name", …]}``; ``None`` if malformed."""
        if not isinstance(value, dict):
            return None
        predicates_raw = value.get("predicates", [])
        constants_raw = value.get("constants", [])
        if not isinstance(predicates_raw, list) or not isinstance(constants_raw, list):
            return None
        found: list[tuple[str, int]] = []
        for entry in predicates_raw:
            name, _, arity = str(entry).rpartition("/")
            if not name or not arity.isdigit():
                return None
            found.append((name, int(arity)))
        if not all(isinstance(c, str) and c for c in constants_raw):
            return None
        return cls(tuple(found), tuple(constants_raw))


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
    group: str = ""
    """The story or problem the sentence belongs to (its items share one signature
    alignment); empty: the item is a group of its own."""
    gold_error: GoldError | None = None
    """The first gold formula that does not parse; ``formulas`` is then empty."""
    vocabulary: Vocabulary | None = None
    """The symbols the model is told to use, when the suite gives them."""

    @property
    def alignment_group(self) -> str:
        """The key of the items that share a signature alignment."""
        return self.group or self.id

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


def load_jsonl(path: Path, language: Language,
               name_of: Callable[[Location], str | None] | None = None) -> Loaded:
    """Items of a suite file; ``language`` is used where a record names none. ``name_of``
    names a record in place of its ``id`` where it gives a name (a ``recorded`` suite names
    each output by its model and id)."""
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
        named = name_of(location) if name_of is not None else None
        item_id = named or record.get("id", place_name(location))
        if not isinstance(item_id, str) or not item_id.strip():
            bad("'id' must be a non-empty string (or left out: the record is then named by "
                "its line, 'line12')")
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
        group = record.get("group", "")
        if not isinstance(group, str):
            bad("'group' must be a string (the story or problem the sentence belongs to)",
                item_id)
            continue
        vocabulary = None
        if "vocabulary" in record:
            vocabulary = Vocabulary.from_json(record["vocabulary"])
            if vocabulary is None:
                bad("'vocabulary' must be {\"predicates\": [\"Name/arity\", …], "
                    "\"constants\": [\"name\", …]}", item_id)
                continue
        item = _item(item_id, sentence, gold, difficulty, LANGUAGES[name], location, {},
                     rejections)
        items.append(replace(item, group=group, vocabulary=vocabulary))
    return Loaded(tuple(items), tuple(errors), tuple(rejections))


def _item(
    item_id: str,
    sentence: str,
    gold: list[str],
    difficulty: str,
    language: Language,
    location: Location,
    arities: Mapping[str, int],
    rejections: list[Rejection],
) -> Item:
    """The item; a gold formula that does not parse is recorded on it (and in
    ``rejections``), never a reason to drop it."""
    formulas = []
    for index, text in enumerate(gold):
        try:
            formulas.append(parse(text, language, arities))
        except FolSyntaxError as exc:
            rejections.append(Rejection(location, item_id, text, exc))
            return Item(item_id, sentence.strip(), tuple(gold), (), difficulty.strip(),
                        language, location, gold_error=GoldError(index, text, exc))
    return Item(item_id, sentence.strip(), tuple(gold), tuple(formulas), difficulty.strip(),
                language, location)


def folio_path(data_dir: str | None = None, split: str = "train") -> Path | None:
    """FOLIO's file of ``split`` under ``data_dir`` (default ``$AFCHECK_DATA_DIR``), if there."""
    return folio_file(split, data_dir)


def load_folio(path: Path, language: Language | None = None) -> Loaded:
    """One item per distinct premise of each story, with its gold FOL, and one per distinct
    conclusion where the split gives its FOL (``conclusion-FOL``).

    Predicates keep the arity of their first use across a story's formulas, as FOLIO writes
    one signature per story. A record whose premises and formulas cannot be paired (lists of
    different lengths) gives no premise items, one error naming it, and still its conclusion.
    """
    from afcheck_fol.language import FOLIO

    language = language or FOLIO
    items: list[Item] = []
    errors: list[LoadError] = []
    rejections: list[Rejection] = []
    seen: set[tuple[str, str]] = set()
    arities: dict[str, dict[str, int]] = {}
    counters: dict[str, int] = {}
    for record in read_folio(path):
        if isinstance(record, LoadError):
            errors.append(record)
            continue
        story = record.story  # the story_id, or where the story first appears
        group = f"folio-{story}"
        story_arities = arities.setdefault(story, {})
        pairs: list[tuple[str, str, str]] = []
        if record.paired:
            pairs = [("p", sentence, text)
                     for sentence, text in zip(record.premises, record.premises_fol,
                                               strict=True)]
        else:
            errors.append(LoadError(
                record.location,
                f"{record.name}: {len(record.premises)} premises but "
                f"{len(record.premises_fol)} formulas; its premises cannot be paired one to "
                "one and are left out" + (" (its conclusion is kept)"
                                          if record.conclusion_fol is not None else ""),
                f"{group}/{record.example}",
            ))
        if record.conclusion_fol is not None and record.conclusion:
            pairs.append(("c", record.conclusion, record.conclusion_fol))
        tag = record.source or UNRATED
        for kind, sentence, text in pairs:
            key = (story, f"{kind}\0{sentence}\0{text}")
            if key in seen:
                continue
            seen.add(key)
            if kind == "p":
                counters[story] = counters.get(story, 0) + 1
                item_id = f"{group}/p{counters[story]}"
            else:
                item_id = f"{group}/c{record.example}"
            item = _item(item_id, sentence, [text], tag, language, record.location,
                         story_arities, rejections)
            items.append(replace(item, group=group))
            for formula in item.formulas:
                for name, arity in predicates(formula).items():
                    story_arities.setdefault(name, arity)
    return Loaded(tuple(items), tuple(errors), tuple(rejections))


def with_gold_vocabulary(items: Iterable[Item]) -> list[Item]:
    """Each item with the vocabulary of its group's gold formulas (for suites that give the
    model the gold signature, as Tarski's World's prompt gives its fixed one)."""
    listed = list(items)
    golds: dict[str, list[Formula]] = {}
    for item in listed:
        golds.setdefault(item.alignment_group, []).extend(item.formulas)
    return [replace(item, vocabulary=Vocabulary.of(golds[item.alignment_group]))
            for item in listed]


class Nl2FolSuite:
    """The suite kind ``nl2fol``: ``data = FILE`` (jsonl written for afcheck, see
    the module docstring) or ``source = "folio"`` (FOLIO from ``$AFCHECK_DATA_DIR``, the
    split of ``[afcheck.options] split``: ``train``, default, or ``validation``).
    ``[afcheck.options] language`` names the language of records that do not (default
    ``tarski``); ``vocabulary = "gold"`` gives each item its group's gold symbols, which the
    model's prompt lists."""

    name = "nl2fol"
    method = "nl2fol"

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        language_name = str(spec.options.get("language", "tarski"))
        try:
            language = language_named(language_name)
        except KeyError as exc:
            raise SuiteError(spec.manifest, str(exc.args[0])) from None
        vocabulary = spec.options.get("vocabulary")
        if vocabulary not in (None, "gold"):
            raise SuiteError(spec.manifest, f"[afcheck.options] vocabulary = {vocabulary!r}: "
                             "use \"gold\" (tell the model the symbols of the gold formulas "
                             "of its story) or leave it out")
        if spec.source == "folio":
            split = str(spec.options.get("split", "train"))
            if split not in SPLITS:
                raise SuiteError(spec.manifest, f"[afcheck.options] split = {split!r}: use "
                                 f"one of {', '.join(SPLITS)}")
            path = folio_path(split=split)
            if path is None:
                raise SuiteError(spec.manifest, "FOLIO is not shipped: set AFCHECK_DATA_DIR to "
                                 f"a folder holding {SPLITS[split][0]} (Yale-LILY/FOLIO)")
            loaded = load_folio(path, language)
        elif spec.source is not None:
            raise SuiteError(spec.manifest, f"unknown source {spec.source!r} for kind nl2fol; "
                             "use source = \"folio\" or data = FILE")
        else:
            loaded = load_jsonl(spec.data_path(), language)
        items = list(loaded.items)
        if vocabulary == "gold":
            items = with_gold_vocabulary(items)
        for item in items:
            yield _in_suite(item, spec.name)
        yield from loaded.errors


def _in_suite(item: Item, suite: str) -> Item:
    return replace(item, dataset=suite)
