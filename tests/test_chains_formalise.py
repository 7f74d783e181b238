"""Chain formalisers: choosing one by name, and FOLIO's reference FOL through the printer."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest
from afcheck_chains.formalise import (
    ReferenceFormaliser,
    RuleFormaliser,
    make_chain_formaliser,
)
from afcheck_chains.loaders import load_folio
from afcheck_chains.provers import find_eprover, make_fol_prover
from afcheck_chains.records import ChainRecord
from afcheck_chains.tptp import SymbolMap, problem

from afcheck.errors import UnknownComponent, UsageError


def test_formalisers_by_name_and_bad_choices() -> None:
    assert isinstance(make_chain_formaliser("rules"), RuleFormaliser)
    assert isinstance(make_chain_formaliser("reference"), ReferenceFormaliser)
    with pytest.raises(UnknownComponent, match="rules"):
        make_chain_formaliser("rulez")
    with pytest.raises(UsageError, match="takes no options"):
        make_chain_formaliser("rules", {"x": "1"})
    with pytest.raises(UsageError, match="model=NAME"):
        make_chain_formaliser("llm")


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
