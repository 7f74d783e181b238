"""The literal formaliser on ProcessBench GSM8K steps labelled error-free."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_literal.formaliser import LiteralFormaliser

from afcheck.errors import AfcheckError
from afcheck.plugins import get_plugins
from afcheck.types import FormaliseRequest, ProofTask, Side, VerdictKind

SHARE_FLOOR = 0.45
"""Measured: 457 of 976 error-free steps (46.8%) are formalised; 379 steps state no relation."""

REFUTED_CEILING = 0.002
"""Measured: none of the 457 statements is refuted; a refutation here is error induction."""

pytestmark = pytest.mark.realdata


def _requests(data_dir: Path) -> list[FormaliseRequest]:
    records = json.loads((data_dir / "processbench" / "gsm8k.json").read_text())
    requests = []
    for record in records:
        if record["label"] != -1:
            continue
        steps = record["steps"]
        for i, text in enumerate(steps):
            step_id = f"gsm8k/{record['id']}/{i}"
            requests.append(
                FormaliseRequest(
                    f"{step_id}#original",
                    step_id,
                    Side.ORIGINAL,
                    text,
                    tuple(steps[:i]),
                    record["problem"],
                )
            )
    return requests


def test_share_of_error_free_steps_formalised(data_dir: Path) -> None:
    requests = _requests(data_dir)
    results = LiteralFormaliser().formalise(requests)
    assert len(results) == len(requests) > 900
    share = sum(r.ok for r in results) / len(results)
    print(f"literal: {share:.1%} of {len(results)} error-free gsm8k steps formalised")
    assert share >= SHARE_FLOOR
    assert all(r.reason and "\n" not in r.reason for r in results if not r.ok)


def test_error_free_steps_are_almost_never_refuted(data_dir: Path) -> None:
    """A refuted statement of an error-free step is a misreading (error induction)."""
    try:
        prover = get_plugins().create("prover", "smt", {})
    except AfcheckError as error:
        pytest.skip(f"smt prover unavailable: {error}")
    results = [r for r in LiteralFormaliser().formalise(_requests(data_dir)) if r.ok]
    tasks = [ProofTask(r.key, r.statement or "") for r in results]
    verdicts = prover.prove(tasks)
    refuted = [
        t.statement for t, v in zip(tasks, verdicts, strict=True) if v.kind is VerdictKind.REFUTED
    ]
    assert len(refuted) <= REFUTED_CEILING * len(tasks), "\n".join(refuted)
