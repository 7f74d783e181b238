"""Front-end coverage of the 244 miniF2F validation statements (floors, see docs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_smt.prover import SmtProver

from afcheck.lean.coverage import measure
from afcheck.types import ProofTask, VerdictKind


def _rows(data_dir: Path) -> list[dict[str, str]]:
    path = data_dir / "minif2f" / "minif2f_valid.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.mark.realdata
def test_minif2f_coverage_floor(data_dir: Path) -> None:
    rows = _rows(data_dir)
    coverage = measure((r["formal_statement"], r["header"]) for r in rows)
    assert coverage.total == 244
    assert coverage.parsed >= 240
    assert coverage.round_trip >= 240
    assert coverage.in_fragment >= 95


@pytest.mark.realdata
@pytest.mark.slow
def test_minif2f_theorems_are_never_refuted(data_dir: Path) -> None:
    """Every miniF2F statement but one is a true theorem: any other refutation would be a
    wrong verdict. ``induction_sum_odd`` is false as written: the body of ``∑`` stops before
    ``+``, so it states ``(∑ k in Finset.range n, 2 * k) + 1 = n ^ 2``, false at ``n = 0``."""
    rows = _rows(data_dir)
    odd = next(r["formal_statement"] for r in rows if r["name"] == "induction_sum_odd")
    assert "(∑ k in Finset.range n, 2 * k) + 1 = n ^ 2" in odd
    assert sum(2 * k for k in range(0)) + 1 != 0 ** 2
    tasks = [ProofTask(r["name"], r["formal_statement"], r["header"]) for r in rows]
    verdicts = SmtProver(timeout_ms=1000).prove(tasks)
    refuted = [t.key for t, v in zip(tasks, verdicts, strict=True) if v.kind is VerdictKind.REFUTED]
    assert refuted in ([], ["induction_sum_odd"])
    assert sum(v.kind is VerdictKind.PROVED for v in verdicts) >= 110


@pytest.mark.realdata
def test_proofnet_valid_share_read(data_dir: Path) -> None:
    """ProofNet valid: real Mathlib statements (``Type*``, quotients, norms, linear maps)."""
    path = data_dir / "proofnet" / "proofnet_valid.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    coverage = measure((r["formal_statement"] + " by sorry", r["header"]) for r in rows)
    assert coverage.total == 185
    assert coverage.parsed >= 175
    assert coverage.round_trip == coverage.parsed
