"""FOLIO's records as released (Yale-LILY/FOLIO): the one reader of its files for every method.

A record is ``{story_id, example_id, premises, premises-FOL, conclusion, label, source}``; the
validation split adds ``conclusion-FOL``, which is read whenever it is there. Files are JSON
Lines (one record a line) or one JSON array (pretty-printed or on one line). A record's
location names its line and, where a line does not name it alone (an array), its number in the
file; every error also names the record's ``example_id``, so that a bad record is found even in
a file that is one line long.

The validation split as its authors release it carries no ``story_id`` or ``example_id``. A
record without an ``example_id`` is named by its place in the file
(:func:`afcheck.jsonlines.place_name`: ``line12``, or ``record12`` in a JSON array); a record
without a ``story_id`` belongs to the story of the first record with the same premises, named
by that record's place. So a released file runs without editing, every record keeps its own
name, and a story's records still share one story.

``premises`` and ``premises-FOL`` are parallel lists in most records; in some (2 of v0.0's
training records, 10 of its validation records) the annotators stated the premises in more or
fewer formulas than sentences. Such a record is still read (:attr:`FolioRecord.paired` is
false): a method that needs one formula per sentence says so, one that needs only the premise
set in logic uses it as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from afcheck.errors import LoadError
from afcheck.jsonlines import place_name, read_json_array, read_json_lines
from afcheck.suites import find_in_data_dir
from afcheck.types import Location

SPLITS: dict[str, tuple[str, ...]] = {
    "train": ("folio/folio-train.jsonl", "folio-train.jsonl"),
    "validation": ("folio/folio-validation.jsonl", "folio-validation.jsonl",
                   "folio/folio_v2_validation.jsonl", "folio_v2_validation.jsonl"),
}
"""Where each split lies under ``AFCHECK_DATA_DIR`` (released names; first match wins)."""


@dataclass(frozen=True)
class FolioRecord:
    """One FOLIO example: a story's premises with a conclusion and its label."""

    location: Location
    story: str
    """The story's id, or the place name of the story's first record where the data gives
    no ``story_id`` (module docstring)."""
    example: str
    """The ``example_id``, or the record's place name where the data gives none."""
    premises: tuple[str, ...]
    premises_fol: tuple[str, ...]
    conclusion: str
    """Empty where the record has none (a method that needs one says so)."""
    conclusion_fol: str | None
    """The conclusion's gold FOL (validation split); ``None`` where the data has none."""
    label: str
    source: str
    """``wiki`` or ``hyb`` (how the story was written); empty when not given."""

    @property
    def paired(self) -> bool:
        """Whether the premises and their formulas are parallel lists (one formula a sentence)."""
        return len(self.premises) == len(self.premises_fol)

    @property
    def name(self) -> str:
        """How errors name the record: its example and story ids."""
        return f"example {self.example} (story {self.story or '?'})"


def folio_file(split: str = "train", data_dir: str | None = None) -> Path | None:
    """The file of ``split`` under ``data_dir`` (default ``$AFCHECK_DATA_DIR``), if there."""
    return find_in_data_dir(SPLITS[split], data_dir)


def read_folio(path: Path) -> Iterator[FolioRecord | LoadError]:
    """Each record of a FOLIO file, or one :class:`LoadError` for each one that cannot be read
    (and one for a file that cannot be read at all)."""
    try:
        with open(path, "rb") as handle:
            array = handle.read(4096).lstrip().startswith(b"[")
        lines = list(read_json_array(path) if array else read_json_lines(path))
        kind = "JSON array" if array else "jsonl"
    except OSError as exc:
        yield LoadError(Location(str(path)), f"cannot read FOLIO: {exc}")
        return
    stories: dict[tuple[str, ...], str] = {}
    """Premises → the place name of the first record stating them (a story without an id)."""
    for number, line in enumerate(lines, 1):
        if not line.ok:
            yield LoadError(line.location, f"{line.problem} (is this FOLIO's {kind}?)")
            continue
        place = place_name(line.location, number if array else None)
        yield _record(line.value, line.location, place, stories)


def _strings(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value)
    return None


def _id(value: object) -> str:
    return "" if value is None or isinstance(value, (dict, list)) else str(value).strip()


def _record(value: object, location: Location, place: str,
            stories: dict[tuple[str, ...], str]) -> FolioRecord | LoadError:
    if not isinstance(value, dict):
        return LoadError(location, "expected a JSON object (a FOLIO record)")
    example = _id(value.get("example_id")) or place
    story = _id(value.get("story_id"))
    if not story and _strings(value.get("premises")) is not None:
        story = stories.setdefault(_strings(value.get("premises")) or (), place)
    name = f"example {example} (story {story or '?'})"

    def bad(message: str) -> LoadError:
        return LoadError(location, f"{name}: {message}", f"folio-{story or '?'}/{example}")

    premises = _strings(value.get("premises"))
    formulas = _strings(value.get("premises-FOL"))
    if premises is None or formulas is None:
        return bad("premises and premises-FOL must be lists of strings")
    conclusion = value.get("conclusion", "")
    if not isinstance(conclusion, str):
        return bad("the conclusion must be a sentence")
    conclusion_fol = value.get("conclusion-FOL")
    if conclusion_fol is not None and not isinstance(conclusion_fol, str):
        return bad("conclusion-FOL must be a string")
    source = value.get("source")
    return FolioRecord(
        location=location, story=story, example=example, premises=premises,
        premises_fol=formulas, conclusion=conclusion.strip(),
        conclusion_fol=conclusion_fol.strip() if isinstance(conclusion_fol, str) else None,
        label=str(value.get("label", "")), source=source if isinstance(source, str) else "",
    )
