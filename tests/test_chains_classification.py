"""The rebuilt classification set: deterministic mutations, and MATP classifying them."""

from __future__ import annotations

import json
from pathlib import Path

import chains_data
import pytest
from afcheck_chains.classification import command, generate, negate_sentence
from afcheck_chains.formalise import FolChains, RuleFormaliser
from afcheck_chains.pipeline import run_chains
from afcheck_chains.records import ChainRecord
from afcheck_fol.provers import find_eprover, make_fol_prover

from afcheck.errors import LoadError


def _items(path: Path, per_type: int = 50, seed: int = 0) -> list[ChainRecord]:
    out = list(generate(path, seed, per_type))
    assert not [i for i in out if isinstance(i, LoadError)]
    return [i for i in out if isinstance(i, ChainRecord)]


@pytest.mark.parametrize(("sentence", "negated"), [
    ("Max is a yumpus.", "Max is not a yumpus."),
    ("Tumpuses are not sour.", "Tumpuses are sour."),
    ("Each yumpus is a dumpus.", "Each yumpus is not a dumpus."),
    ("Dumpuses are wumpuses.", "Dumpuses are not wumpuses."),
])
def test_negating_a_premise_flips_its_copula(sentence: str, negated: str) -> None:
    assert negate_sentence(sentence) == negated


def test_mutations_do_what_each_type_says(tmp_path: Path) -> None:
    items = _items(chains_data.write(tmp_path / "dev.json", 8), per_type=2)
    assert [i.expected_class for i in items] == ["T1"] * 2 + ["T2"] * 2 + ["T3"] * 2 + ["T4"] * 2
    assert len({i.metadata["source"] for i in items}) == 8  # distinct chains per type
    source = {r["id"]: r for r in (chains_data.item(n) for n in range(8))}
    for item in items:
        gold = source[item.metadata["source"]]["explanation"]
        assert item.answer is item.label
        kind = item.expected_class
        if kind == "T1":
            assert list(item.steps) == gold
        if kind in ("T2", "T4"):
            target, negated = item.metadata["negated"].split(" -> ")
            assert target in item.premises and negated in item.steps
        if kind in ("T3", "T4"):
            assert gold[-1] not in item.steps and gold[-2] not in item.steps
            for injected in item.metadata["injected"].split(" | "):
                assert injected in item.premises and injected not in gold


def test_same_seed_same_set_other_seed_other_draw(tmp_path: Path) -> None:
    path = chains_data.write(tmp_path / "dev.json", 16)
    first = _items(path, per_type=3)
    assert first == _items(path, per_type=3)
    assert [i.id for i in first] != [i.id for i in _items(path, per_type=3, seed=1)]


def test_fewer_chains_give_fewer_items_per_type(tmp_path: Path) -> None:
    items = _items(chains_data.write(tmp_path / "dev.json", 9), per_type=50)
    assert len(items) == 8  # 9 // 4 = 2 per type


@pytest.mark.parametrize("prover_name", ["z3-fol", "eprover"])
@pytest.mark.heavy
def test_rule_translation_classifies_every_type_right(tmp_path: Path, prover_name: str) -> None:
    if prover_name == "eprover" and find_eprover() is None:
        pytest.skip("E is not installed")
    items = _items(chains_data.write(tmp_path / "dev.json", 12), per_type=3)
    results = run_chains(items, FolChains(RuleFormaliser()), make_fol_prover(prover_name))
    assert [r.chain_class for r in results] == [i.expected_class for i in items]


def test_generate_command_writes_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    data = chains_data.write(tmp_path / "dev.json", 8)
    out = tmp_path / "set.jsonl"
    assert command(["generate", str(data), "--per-type", "1", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["expected_class"] for r in rows] == ["T1", "T2", "T3", "T4"]
    assert "wrote 4 chains" in capsys.readouterr().err
    assert command(["generate", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.realdata
def test_released_prontoqa_gives_fifty_per_type(data_dir: Path) -> None:
    items = _items(data_dir / "prontoqa" / "dev.json")
    assert [sum(1 for i in items if i.expected_class == k) for k in ("T1", "T2", "T3", "T4")
            ] == [50] * 4
