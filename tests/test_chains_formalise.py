"""Chain formalisers: choosing one by name, and FOLIO's reference FOL through the printer."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest
from afcheck_chains.formalise import RuleFormaliser, make_rules, read_chain, task
from afcheck_chains.loaders import load_folio
from afcheck_chains.records import ChainRecord, Label
from afcheck_fol.provers import find_eprover, make_fol_prover
from afcheck_fol.tptp import SymbolMap, problem

from afcheck.errors import UsageError
from afcheck.types import Location


def test_rules_takes_no_options() -> None:
    assert isinstance(make_rules({}), RuleFormaliser)
    with pytest.raises(UsageError, match="takes no options"):
        make_rules({"x": "1"})


def test_rules_writes_folio_text_that_reads_back_as_its_translation() -> None:
    """The controlled-English translator answers FOLIO text; the chain read back from it is
    the translator's own formulas (the printer and the reader agree)."""
    from afcheck_chains.controlled import translate

    record = ChainRecord("r", "d", ("Every jompus is a yumpus.", "Max is a jompus."),
                         "Max is a yumpus.", Label.TRUE, ("Max is a yumpus.",), Label.TRUE,
                         Location("t.jsonl", 1))
    [answer] = RuleFormaliser().formalise([task(record)])
    chain = read_chain(record, answer).chain
    assert chain is not None
    assert chain.premises == tuple(translate(s) for s in record.premises)
    assert chain.conclusion == translate(record.conclusion)


def test_the_translate_size_bound_holds_for_trees_as_for_text() -> None:
    """A fresh ``rules`` answer (trees) and the same answer read back from the cache (text
    only) are decided alike under a size bound."""
    import dataclasses

    from afcheck.budget import Budget

    record = ChainRecord("r", "d", ("Every jompus is a yumpus.", "Max is a jompus."),
                         "Max is a yumpus.", Label.TRUE, ("Max is a yumpus.",), Label.TRUE,
                         Location("t.jsonl", 1))
    [answer] = RuleFormaliser().formalise([task(record)])
    assert answer.trees is not None
    small = Budget(size=12)
    fresh = read_chain(record, answer, small)
    cached = read_chain(record, dataclasses.replace(answer, trees=None), small)
    assert fresh.chain is None and fresh.unread
    assert (fresh.chain, fresh.failure, fresh.unread) == (
        cached.chain, cached.failure, cached.unread)
    assert read_chain(record, answer).chain == read_chain(
        record, dataclasses.replace(answer, trees=None)).chain


@pytest.mark.realdata
@pytest.mark.skipif(find_eprover() is None, reason="E is not installed")
def test_folio_reference_premises_print_and_run_in_e(data_dir: Path) -> None:
    """FOLIO's gold premises: those the FOLIO parser reads print as TPTP and E decides each
    premise set (v0.0's known annotation errors show up as inconsistent sets)."""
    from afcheck_fol.language import FOLIO
    from afcheck_fol.syntax import FolSyntaxError, parse

    sets: dict[tuple[str, ...], bool] = {}
    problems = []
    for record in load_folio(data_dir / "folio" / "folio-train.jsonl"):
        if not isinstance(record, ChainRecord) or record.gold_fol is None:
            continue
        texts = record.gold_fol.premises
        if texts in sets:
            continue
        try:
            formulas = [parse(t, FOLIO) for t in texts]
        except FolSyntaxError:
            sets[texts] = False
            continue
        sets[texts] = True
        problems.append(problem(formulas, None, SymbolMap()))
    assert len(problems) >= 300
    statuses = collections.Counter(r.status.value for r in make_fol_prover("eprover").prove(
        problems))
    assert statuses["Satisfiable"] >= 0.95 * len(problems)
    assert set(statuses) <= {"Satisfiable", "Unsatisfiable"}


@pytest.mark.realdata
@pytest.mark.parametrize("dataset", ["prontoqa", "proofwriter"])
@pytest.mark.heavy
def test_rules_trees_read_as_their_text_parses_on_the_dev_sets(data_dir: Path,
                                                                dataset: str) -> None:
    """``rules`` passes its trees along so the chain is not parsed back from the text it
    printed: on every chain of the dev set the trees read as the text does (each alone and in
    one batch, where each distinct text is parsed once), and as the translator's formulas."""
    import dataclasses

    from afcheck_chains.controlled import translate_chain
    from afcheck_chains.formalise import read_chains
    from afcheck_chains.loaders import load_logic_llm

    path = data_dir / dataset / "dev.json"
    if not path.is_file():
        pytest.skip(f"no {path}")
    records = [r for r in load_logic_llm(path, dataset) if isinstance(r, ChainRecord)]
    answers = RuleFormaliser().formalise([task(r) for r in records])
    assert all(a.trees is not None for a in answers if a.formulas is not None)
    texts = [dataclasses.replace(a, trees=None) for a in answers]
    from_trees = read_chains(records, answers)
    from_text = read_chains(records, texts)
    assert from_trees == from_text
    assert from_text == [read_chain(r, a) for r, a in zip(records, texts, strict=True)]
    read = [(r, f.chain) for r, f in zip(records, from_text, strict=True) if f.chain is not None]
    assert len(read) > len(records) // 2
    for record, chain in read:
        sentences = (*record.premises, *record.steps, record.conclusion)
        assert (*chain.premises, *chain.steps, chain.conclusion) == tuple(
            translate_chain(sentences, len(record.premises)))
