"""Loading nl2fol items: suites written for afcheck, and FOLIO's premises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_fol.language import FOLIO, TARSKI
from afcheck_nl2fol.suite import folio_path, load_folio, load_jsonl

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_good_records_and_one_line_per_bad_one(tmp_path: Path) -> None:
    good = {"id": "t1", "sentence": "a is a cube.", "gold": ["Cube(a)", "¬¬Cube(a)"],
            "difficulty": "low"}
    path = write(tmp_path, [
        json.dumps(good, ensure_ascii=False),
        "{not json",
        json.dumps({"id": "t2", "sentence": "b is small."}),
        json.dumps({"id": "t1", "sentence": "again", "gold": "Cube(a)"}),
        json.dumps({"id": "t3", "sentence": "bad gold", "gold": ["Cube(a) ∧"]}),
        json.dumps({"id": "t4", "sentence": "x", "gold": "Cube(a)", "language": "klingon"}),
        "",
        json.dumps({"id": "t5", "sentence": "b is small.", "gold": "Small(b)"}),
    ])
    loaded = load_jsonl(path, TARSKI)
    # The record whose gold does not parse keeps its item, with the gold's error on it.
    assert [item.id for item in loaded.items] == ["t1", "t3", "t5"]
    assert loaded.items[0].gold == ("Cube(a)", "¬¬Cube(a)")
    assert loaded.items[2].difficulty == "unrated"
    bad = loaded.items[1].gold_error
    assert bad is not None and bad.index == 0 and bad.error.rule == "missing-operand"
    assert loaded.items[1].formulas == ()
    messages = [str(error) for error in loaded.errors]
    assert [m.split(": ", 1)[0] for m in messages] == [f"{path}:{n}" for n in (2, 3, 4, 6)]
    assert "not JSON" in messages[0] and "'gold'" in messages[1] and "twice" in messages[2]
    assert "unknown language" in messages[3]
    assert loaded.rejections[0].error.rule == "missing-operand"


def test_tarski_suite_golds_all_parse() -> None:
    loaded = load_jsonl(ROOT / "suites" / "tarski" / "sentences.jsonl", TARSKI)
    assert loaded.errors == ()
    assert len(loaded.items) >= 80
    assert all(len(item.gold) >= 2 for item in loaded.items)
    assert {item.difficulty for item in loaded.items} == {
        "super-low", "low", "mid-low", "mid-high", "high", "super-high"}


def test_folio_items_are_distinct_premises_with_story_arities(tmp_path: Path) -> None:
    records = [
        {"story_id": 1, "example_id": 1, "premises": ["All A are B.", "rina is A."],
         "premises-FOL": ["∀x (A(x) → B(x))", "A(rina)"], "label": "True", "source": "wiki"},
        {"story_id": 1, "example_id": 2, "premises": ["All A are B.", "rina knows bo."],
         "premises-FOL": ["∀x (A(x) → B(x))", "A(rina, bo)"], "label": "True", "source": "wiki"},
        {"story_id": 2, "example_id": 3, "premises": ["One.", "Two."],
         "premises-FOL": ["P(a)"], "label": "True", "source": "hyb"},
    ]
    path = tmp_path / "folio" / "folio-train.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert folio_path(str(tmp_path)) == path
    loaded = load_folio(path)
    assert [item.id for item in loaded.items] == ["folio-1/p1", "folio-1/p2", "folio-1/p3"]
    assert loaded.items[0].difficulty == "wiki" and loaded.items[0].language is FOLIO
    assert {item.group for item in loaded.items} == {"folio-1"}
    # A(rina, bo) uses A with two arguments after the story used it with one: the item stays,
    # with the gold's error.
    assert [r.error.rule for r in loaded.rejections] == ["arity"]
    bad = loaded.items[2].gold_error
    assert bad is not None and bad.error.rule == "arity"
    (error,) = loaded.errors
    assert "example 3 (story 2): 2 premises but 1 formulas" in str(error)
    assert str(error).startswith(f"{path}:3: ")


@pytest.mark.realdata
def test_folio_gold_parse_rate(data_dir: Path) -> None:
    path = folio_path(str(data_dir))
    if path is None:
        pytest.skip("no folio/folio-train.jsonl under AFCHECK_DATA_DIR")
    loaded = load_folio(path)
    total = len(loaded.items)
    assert total > 1500 and len(loaded.rejections) == sum(
        1 for item in loaded.items if item.gold_error is not None)
    # FOLIO v0.0's gold FOL has errors; nearly all of it reads, and every rejection has a class.
    assert 1 - len(loaded.rejections) / total > 0.97
    assert all(r.error.rule for r in loaded.rejections)


def test_groups_and_vocabularies_of_records(tmp_path: Path) -> None:
    path = write(tmp_path, [
        json.dumps({"id": "s1/p1", "group": "s1", "sentence": "Lewandowski is a striker.",
                    "gold": "Striker(robertLewandowski)",
                    "vocabulary": {"predicates": ["Striker/1"],
                                   "constants": ["robertLewandowski"]}}),
        json.dumps({"id": "s1/p2", "group": "s1", "sentence": "x",
                    "gold": "∀x (Striker(x) → Player(x))", "vocabulary": {"predicates": ["P"]}}),
        json.dumps({"id": "s1/p3", "group": 7, "sentence": "x", "gold": "Player(ann)"}),
    ])
    loaded = load_jsonl(path, FOLIO)
    (first,) = loaded.items
    assert first.group == "s1" and first.vocabulary is not None
    assert first.vocabulary.predicates == (("Striker", 1),)
    assert first.vocabulary.constants == ("robertLewandowski",)
    assert ["'vocabulary'" in str(e) for e in loaded.errors] == [True, False]
    assert "'group' must be a string" in str(loaded.errors[1])


def test_gold_vocabulary_is_the_story_s_symbols(tmp_path: Path) -> None:
    from afcheck_nl2fol.suite import with_gold_vocabulary

    path = write(tmp_path, [
        json.dumps({"id": "a", "group": "s", "sentence": "x",
                    "gold": "Striker(robertLewandowski)"}),
        json.dumps({"id": "b", "group": "s", "sentence": "x",
                    "gold": "∀x (Striker(x) → Plays(x, soccer))"}),
        json.dumps({"id": "c", "sentence": "x", "gold": "Orchestra(viennaMusicSociety)"}),
    ])
    items = with_gold_vocabulary(load_jsonl(path, FOLIO).items)
    vocabulary = items[0].vocabulary
    assert vocabulary is not None and vocabulary == items[1].vocabulary
    assert vocabulary.predicates == (("Striker", 1), ("Plays", 2))
    assert vocabulary.constants == ("robertLewandowski", "soccer")
    assert items[2].vocabulary is not None
    assert items[2].vocabulary.predicates == (("Orchestra", 1),)


def test_folio_validation_reads_conclusions_and_keeps_unpaired_records(tmp_path: Path) -> None:
    # FOLIO's validation split: conclusion-FOL present; one record states two premises in one
    # formula. The file is one JSON array on one line.
    records = [
        {"story_id": 5, "example_id": 11, "premises": ["All cats purr.", "Tom is a cat."],
         "premises-FOL": ["∀x (Cat(x) → Purr(x))", "Cat(tom)"], "conclusion": "Tom purrs.",
         "conclusion-FOL": "Purr(tom)", "label": "True"},
        {"story_id": 5, "example_id": 12, "premises": ["All cats purr.", "Tom is a cat."],
         "premises-FOL": ["∀x (Cat(x) → Purr(x)) ∧ Cat(tom)"], "conclusion": "Tom is no cat.",
         "conclusion-FOL": "¬Cat(tom)", "label": "False"},
        {"story_id": 6, "example_id": 13, "premises": "not a list"},
    ]
    path = tmp_path / "folio-validation.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    loaded = load_folio(path)
    assert [i.id for i in loaded.items] == ["folio-5/p1", "folio-5/p2", "folio-5/c11",
                                            "folio-5/c12"]
    assert loaded.items[2].gold == ("Purr(tom)",) and loaded.items[2].group == "folio-5"
    unpaired, broken = (str(e) for e in loaded.errors)
    # One line holds every record: the error names the record's number and its id.
    assert unpaired.startswith(f"{path}:1 (record 2): example 12 (story 5): 2 premises but 1")
    assert "its conclusion is kept" in unpaired
    assert broken.startswith(f"{path}:1 (record 3): example 13 (story 6)")
@pytest.mark.parametrize("damage", [b"\xff\xfe not UTF-8\n",
                                    b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"],
                         ids=["bad-bytes", "nested-5000"])
def test_a_damaged_record_loses_only_itself_at_its_line(tmp_path: Path, damage: bytes) -> None:
    good = {"id": "a", "sentence": "a is a cube.", "gold": "Cube(a)"}
    path = tmp_path / "s.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n" + damage
                     + json.dumps({**good, "id": "b"}).encode() + b"\n")
    loaded = load_jsonl(path, TARSKI)
    assert [item.id for item in loaded.items] == ["a", "b"]
    [error] = loaded.errors
    assert error.location.line == 2
    assert error.message.startswith(("not UTF-8 (byte 0xff", "nested more than 256 levels"))
    folio = tmp_path / "folio.jsonl"
    folio.write_bytes(damage)
    [error] = load_folio(folio).errors
    assert error.location.line == 1 and "is this FOLIO's jsonl?" in error.message


# FOLIO's validation split as released: no story_id, no example_id. Two stories, the first
# with two conclusions over the same premises.
RELEASED = [
    {"premises": ["All cats purr.", "Tom is a cat."],
     "premises-FOL": ["∀x (Cat(x) → Purr(x))", "Cat(tom)"], "conclusion": "Tom purrs.",
     "conclusion-FOL": "Purr(tom)", "label": "True"},
    {"premises": ["All cats purr.", "Tom is a cat."],
     "premises-FOL": ["∀x (Cat(x) → Purr(x))", "Cat(tom)"], "conclusion": "Tom is no cat.",
     "conclusion-FOL": "¬Cat(tom)", "label": "False"},
    {"premises": ["Rina drinks."], "premises-FOL": ["Drinks(rina)"],
     "conclusion": "Rina drinks.", "conclusion-FOL": "Drinks(rina)", "label": "True"},
]


@pytest.mark.parametrize("layout", ["jsonl", "array", "one-line-array"])
def test_folio_records_without_ids_are_named_by_their_place(tmp_path: Path,
                                                           layout: str) -> None:
    path = tmp_path / "folio-validation.jsonl"
    if layout == "jsonl":
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RELEASED)
    else:
        text = json.dumps(RELEASED, ensure_ascii=False, indent=None if "one" in layout else 2)
    path.write_text(text, encoding="utf-8")
    loaded = load_folio(path)
    assert loaded.errors == ()
    first, second, third = ("line1", "line2", "line3") if layout == "jsonl" \
        else ("record1", "record2", "record3")
    # The records that share premises are one story, named by its first record's place.
    assert [i.id for i in loaded.items] == [
        f"folio-{first}/p1", f"folio-{first}/p2", f"folio-{first}/c{first}",
        f"folio-{first}/c{second}", f"folio-{third}/p1", f"folio-{third}/c{third}"]
    assert {i.group for i in loaded.items[:4]} == {f"folio-{first}"}


def test_suite_records_without_ids_are_named_by_their_line(tmp_path: Path) -> None:
    path = write(tmp_path, [json.dumps({"sentence": "a is a cube.", "gold": "Cube(a)"}),
                            json.dumps({"sentence": "b is a cube.", "gold": "Cube(b)"}),
                            json.dumps({"id": 7, "sentence": "c", "gold": "Cube(c)"})])
    loaded = load_jsonl(path, TARSKI)
    assert [i.id for i in loaded.items] == ["line1", "line2"]
    [error] = loaded.errors
    assert error.location.line == 3 and "'id' must be a non-empty string" in error.message


def test_the_validation_suite_runs_on_the_released_file_without_ids(tmp_path: Path) -> None:
    """``suites/folio-nl2fol-validation`` on a file without ids: every item, no error."""
    import subprocess
    import sys

    (tmp_path / "folio").mkdir()
    (tmp_path / "folio" / "folio-validation.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RELEASED), encoding="utf-8")
    out = tmp_path / "run.json"
    subprocess.run(
        [sys.executable, "-m", "afcheck", "suites/folio-nl2fol-validation", "-q",
         "-p", "no:cacheprovider", "--cache-dir", str(tmp_path / "cache"), "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**__import__("os").environ, "AFCHECK_DATA_DIR": str(tmp_path)})
    steps = json.loads(out.read_text("utf-8"))["steps"]
    assert len(steps) == 6 and {s["status"] for s in steps} == {"passed"}


@pytest.mark.realdata
def test_folio_without_its_ids_reads_as_with_them(data_dir: Path, tmp_path: Path) -> None:
    """FOLIO's training split with every story_id and example_id removed (as the validation
    split is released): the same items, the same stories, only named by place."""
    from afcheck_chains.loaders import load_folio as load_chains

    path = folio_path(str(data_dir))
    if path is None:
        pytest.skip("no folio/folio-train.jsonl under AFCHECK_DATA_DIR")
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    bare = tmp_path / "folio-validation.jsonl"
    bare.write_text("".join(json.dumps({k: v for k, v in r.items()
                                        if k not in ("story_id", "example_id")},
                                       ensure_ascii=False) + "\n" for r in rows), "utf-8")
    given, placed = load_folio(path), load_folio(bare)
    assert len(placed.items) == len(given.items) and len(placed.errors) == len(given.errors)

    def stories(items: object) -> set[frozenset[str]]:
        groups: dict[str, set[str]] = {}
        for i in items:  # type: ignore[attr-defined]
            groups.setdefault(i.group, set()).add(f"{i.sentence}\0{i.gold}")
        return {frozenset(g) for g in groups.values()}

    assert stories(placed.items) == stories(given.items)
    chains = list(load_chains(bare))
    assert len({c.id for c in chains}) == len(chains) == len(rows)
