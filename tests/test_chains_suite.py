"""Suites of kind ``chains``: the shipped ones, sources, the classification build, errors."""

from __future__ import annotations

import json
from pathlib import Path

import chains_data
import pytest
from afcheck_chains.formalise import FolChains, RuleFormaliser
from afcheck_chains.outcome import outcome
from afcheck_chains.pipeline import run_chains
from afcheck_chains.records import ChainRecord
from afcheck_chains.suite import load
from afcheck_fol.provers import find_eprover, make_fol_prover

from afcheck.errors import LoadError, SuiteError
from afcheck.suites import load_spec

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("prontoqa", "proofwriter", "folio", "prontoqa-classification", "chains-examples")


def _load(root: Path) -> list[ChainRecord | LoadError]:
    spec = load_spec(root)
    return list(load(root, spec.source, spec.data, spec.options))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_suites_parse_and_name_their_source(name: str) -> None:
    spec = load_spec(ROOT / "suites" / name)
    assert spec.kind == "chains" and spec.name == name
    assert spec.source in ("prontoqa", "proofwriter", "folio", "responses")


@pytest.mark.parametrize("prover_name", ["z3-fol", "eprover"])
def test_examples_suite_passes_with_the_rule_translator(prover_name: str) -> None:
    if prover_name == "eprover" and find_eprover() is None:
        pytest.skip("E is not installed")
    items = _load(ROOT / "suites" / "chains-examples")
    records = [i for i in items if isinstance(i, ChainRecord)]
    assert len(records) == len(items) == 7
    results = run_chains(records, FolChains(RuleFormaliser()), make_fol_prover(prover_name))
    assert [outcome(r).status.value for r in results] == ["passed"] * 7
    assert sorted({r.chain_class for r in results}) == ["F1", "F2", "T1", "T2", "T3", "T4"]
    for result in results:
        assert result.step_labels == tuple(s.gold for s in result.steps)


def test_classification_build_reads_the_data_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "prontoqa").mkdir()
    chains_data.write(tmp_path / "prontoqa" / "dev.json", 8)
    monkeypatch.setenv("AFCHECK_DATA_DIR", str(tmp_path))
    items = _load(ROOT / "suites" / "prontoqa-classification")
    assert [getattr(i, "expected_class", None) for i in items] == [
        "T1", "T1", "T2", "T2", "T3", "T3", "T4", "T4"]


def test_bad_suite_settings_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="source 'gsm8k' is not one of"):
        list(load(tmp_path, "gsm8k", None, {}))
    with pytest.raises(SuiteError, match="needs data"):
        list(load(tmp_path, "responses", None, {}))
    (tmp_path / "c.jsonl").write_text(json.dumps({"id": "x"}) + "\n")
    with pytest.raises(SuiteError, match="build = 'dag'"):
        list(load(tmp_path, "responses", "c.jsonl", {"build": "dag"}))
    with pytest.raises(SuiteError, match="needs source = \"prontoqa\""):
        list(load(tmp_path, "responses", "c.jsonl", {"build": "classification"}))
    [error] = load(tmp_path, "responses", "c.jsonl", {})
    assert isinstance(error, LoadError) and str(error).startswith(f"{tmp_path / 'c.jsonl'}:1:")
