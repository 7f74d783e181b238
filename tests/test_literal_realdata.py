"""The literal formaliser on ProcessBench steps labelled error-free: GSM8K paragraphs and the
claims of MATH paragraphs (as ``--steps claims`` cuts them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_literal.formaliser import LiteralFormaliser
from afcheck_suites.claims import CLAIM, DECLARATIVE, split_claims

from afcheck.errors import AfcheckError
from afcheck.plugins import get_plugins
from afcheck.types import FormaliseRequest, ProofTask, Side, VerdictKind

SHARE_FLOOR = 0.45
"""Measured: 457 of 976 error-free steps (46.8%) are formalised; 379 steps state no relation."""

REFUTED_CEILING = 0.002
"""Measured: none of the 457 statements is refuted; a refutation here is error induction."""

MATH_SHARE_FLOOR = 0.13
"""Measured: 427 of 2,865 error-free MATH claims (14.9%) are formalised."""

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
    _assert_almost_never_refuted(_requests(data_dir))


def _math_claims(data_dir: Path) -> list[FormaliseRequest]:
    """The claims of the error-free MATH paragraphs, each after the earlier paragraphs and the
    declarations of its own, as the ``processbench`` suite builds them in ``claims`` mode."""
    records = json.loads((data_dir / "processbench" / "math.json").read_text())
    requests = []
    for record in records:
        if record["label"] != -1:
            continue
        steps = record["steps"]
        for i, paragraph in enumerate(steps):
            declared: list[str] = []
            for claim in split_claims(paragraph):
                if claim.kind == DECLARATIVE:
                    declared.append(claim.text)
                if claim.kind != CLAIM:
                    continue
                step_id = f"math/{record['id']}/{i}.{claim.index}"
                context = (*steps[:i], *declared)
                requests.append(
                    FormaliseRequest(
                        f"{step_id}#original",
                        step_id,
                        Side.ORIGINAL,
                        claim.text,
                        context,
                        record["problem"],
                    )
                )
    return requests


def test_math_claims_are_almost_never_refuted(data_dir: Path) -> None:
    """Matrices, vectors, mixed numbers, list bullets and values solved for in the context
    were once read as other claims; an error-free MATH claim refuted is such a misreading."""
    requests = _math_claims(data_dir)
    assert len(requests) > 2500
    share = _assert_almost_never_refuted(requests)
    print(f"literal: {share:.1%} of {len(requests)} error-free math claims formalised")
    assert share >= MATH_SHARE_FLOOR


def _assert_almost_never_refuted(requests: list[FormaliseRequest]) -> float:
    """Proves the formalised statements with ``smt``; returns the share formalised."""
    try:
        prover = get_plugins().create("prover", "smt", {})
    except AfcheckError as error:
        pytest.skip(f"smt prover unavailable: {error}")
    results = [r for r in LiteralFormaliser().formalise(requests) if r.ok]
    tasks = [ProofTask(r.key, r.statement or "") for r in results]
    verdicts = prover.prove(tasks)
    refuted = [
        f"{t.key}: {t.statement}"
        for t, v in zip(tasks, verdicts, strict=True)
        if v.kind is VerdictKind.REFUTED
    ]
    assert len(refuted) <= REFUTED_CEILING * len(tasks), "\n".join(refuted)
    return len(results) / len(requests)
