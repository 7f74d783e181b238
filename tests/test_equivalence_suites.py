"""The shipped equivalence suites: well-formed, labelled, large enough, reproducible."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from afcheck_equivalence.suite import Item, load
from afcheck_equivalence.suitegen import HARD_CASES

from afcheck.errors import LoadError
from afcheck.lean import parse_theorem
from afcheck.suites import load_spec

ROOT = Path(__file__).resolve().parent.parent / "suites"


def items(name: str) -> list[Item]:
    spec = load_spec(ROOT / name)
    assert spec.kind == "equivalence"
    loaded = list(load(spec.data_path()))
    assert not [x for x in loaded if isinstance(x, LoadError)]
    return [x for x in loaded if isinstance(x, Item)]


@pytest.mark.parametrize(("name", "gold", "minimum"), [
    ("equivalence-unrelated", "inequivalent", 50),
    ("equivalence-perturbations", "inequivalent", 50),
    ("equivalence-rewrites", "equivalent", 50),
])
def test_suites_load_with_gold_labels_and_sources(name: str, gold: str, minimum: int) -> None:
    found = items(name)
    assert len(found) >= minimum
    assert {i.gold for i in found} == {gold}
    for item in found:
        parse_theorem(item.reference)
        assert item.candidate is not None
        parse_theorem(item.candidate)
        assert item.candidate != item.reference
    rows = [json.loads(line) for line in (ROOT / name / "items.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert all("miniF2F" in r["source"] or r["id"].startswith("hard/") for r in rows)


def test_every_perturbation_kind_is_present() -> None:
    kinds = Counter(i.group.split(":")[1] for i in items("equivalence-perturbations"))
    assert set(kinds) == {"constant", "relation", "binder-type", "exponent",
                          "dropped-hypothesis", "swapped-quantifier"}


def test_rewrites_include_the_hard_cases() -> None:
    ids = {i.id for i in items("equivalence-rewrites")}
    assert {f"hard/{kind}" for kind, _, _ in HARD_CASES} <= ids


def test_the_generator_proves_with_the_registrys_smt_prover() -> None:
    pytest.importorskip("z3")
    from afcheck_equivalence.suitegen import smt_prover
    from afcheck_smt.prover import SmtProver

    # The prover the committed files were generated with: one process, 5 s per statement.
    assert smt_prover() == SmtProver(timeout_ms=5000, jobs=1, deadline_s=30.0, isolate=False)


@pytest.mark.realdata
@pytest.mark.slow
def test_the_generator_reproduces_the_committed_files(tmp_path: Path) -> None:
    pytest.importorskip("z3")
    from afcheck_equivalence.suitegen import main

    data = Path(os.environ.get("AFCHECK_DATA_DIR", ROOT.parent.parent / "shared" / "data"))
    source = data / "minif2f" / "minif2f_valid.jsonl"
    if not source.is_file():
        pytest.skip(f"{source} not found (set AFCHECK_DATA_DIR)")
    assert main([str(source), str(tmp_path)]) == 0
    for name in ("equivalence-unrelated", "equivalence-perturbations", "equivalence-rewrites"):
        assert (tmp_path / name / "items.jsonl").read_text(encoding="utf-8") == (
            ROOT / name / "items.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("damage", [b"\xff\xfe not UTF-8\n",
                                    b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"],
                         ids=["bad-bytes", "nested-5000"])
def test_a_damaged_record_loses_only_itself_at_its_line(tmp_path: Path, damage: bytes) -> None:
    good = {"id": "a", "reference": "theorem t : 1 + 1 = 2 := by sorry",
            "candidate": "theorem t : 2 = 1 + 1 := by sorry"}
    path = tmp_path / "items.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n" + damage
                     + json.dumps({**good, "id": "b"}).encode() + b"\n")
    loaded = list(load(path))
    assert [i.id for i in loaded if isinstance(i, Item)] == ["a", "b"]
    [bad] = [i for i in loaded if isinstance(i, LoadError)]
    assert bad.location.line == 2
    assert bad.message.startswith(("not UTF-8 (byte 0xff", "nested more than 256 levels"))
