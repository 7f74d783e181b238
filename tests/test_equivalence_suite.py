"""The ``equivalence`` suite kind: the items of a JSON-lines file, each bad line one
clear error."""

from __future__ import annotations

import json
from pathlib import Path

from afcheck_equivalence.suite import Item, load

from afcheck.errors import LoadError

REF = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"


def write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False))
                            + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_reports_each_bad_line_and_keeps_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path / "items.jsonl", [
        {"id": "a", "reference": REF, "candidate": REF, "gold": "equivalent"},
        "{not json",
        {"id": "b", "reference": REF},
        {"id": "c", "reference": REF, "candidate": REF, "gold": "yes"},
        {"id": "a", "reference": REF, "candidate": REF},
        {"id": "d", "reference": REF, "informal": "Show that 2 squared is 4."},
    ])
    loaded = list(load(path))
    errors = [x for x in loaded if isinstance(x, LoadError)]
    items = [x for x in loaded if isinstance(x, Item)]
    assert [i.id for i in items] == ["a", "d"]
    assert [e.location.line for e in errors] == [2, 3, 4, 5]
    assert "no 'candidate' and no 'informal'" in errors[1].message
    assert "expected \"equivalent\"" in errors[2].message
    assert "appears twice" in errors[3].message
    assert str(errors[0]).startswith(f"{path}:2: not JSON")
