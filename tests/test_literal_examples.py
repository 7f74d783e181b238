"""The literal formaliser with the smt prover over every step of ``suites/examples``: what it
writes is what the step says, so a valid step is never refuted (no error induction) and its
hand-written corruption is never proved (no silent correction)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from afcheck_faithfulness.records import Side

from afcheck.components import Formaliser, Prover
from afcheck.errors import AfcheckError
from afcheck.plugins import get_plugins
from afcheck.types import FormaliseRequest, ProofTask, VerdictKind

STEPS = Path(__file__).resolve().parent.parent / "suites" / "examples" / "steps.jsonl"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in STEPS.read_text().splitlines() if line.strip()]


def _requests(rows: list[dict[str, Any]]) -> list[FormaliseRequest]:
    requests = []
    for row in rows:
        step_id = f"examples/{row['problem_id']}/{row['node_id']}"
        context = tuple(row["context"])
        for side, text in ((Side.ORIGINAL, row["step"]), (Side.PERTURBED, row["perturbed"])):
            requests.append(
                FormaliseRequest(
                    f"{step_id}#{side.value}", text, context, row["problem"],
                    {"step_id": step_id, "side": side.value},
                )
            )
    return requests


@pytest.fixture(scope="module")
def components() -> tuple[Formaliser, Prover]:
    plugins = get_plugins()
    try:
        prover = plugins.create("prover", "smt", {})
    except AfcheckError as error:
        pytest.skip(f"smt prover unavailable: {error}")
    return plugins.create("formaliser", "literal", {}), prover


def test_no_error_induction_and_no_silent_correction(
    components: tuple[Formaliser, Prover],
) -> None:
    formaliser, prover = components
    requests = _requests(_rows())
    results = formaliser.formalise(requests)
    formalised = [(q, r) for q, r in zip(requests, results, strict=True) if r.ok]
    verdicts = prover.prove([ProofTask(r.key, r.statement or "") for _, r in formalised])
    offenders = []
    for (request, result), verdict in zip(formalised, verdicts, strict=True):
        original = request.metadata["side"] == Side.ORIGINAL
        wrong = VerdictKind.REFUTED if original else VerdictKind.PROVED
        if verdict.kind is wrong:
            offenders.append(
                f"{request.key} {verdict.kind.value}: {request.text!r} -> {result.statement}"
            )
    assert not offenders, "\n".join(offenders)
    # the check says something only if a fair share of the suite is read at all
    assert len(formalised) >= 20, len(formalised)
    assert all(r.reason and "\n" not in r.reason for r in results if not r.ok)


@pytest.mark.parametrize(
    ("problem_id", "node_id"),
    [("nt-002", "1"), ("arith-004", "1")],
)
def test_thousands_separators_are_read_as_one_number(
    components: tuple[Formaliser, Prover], problem_id: str, node_id: str
) -> None:
    """``10{,}584`` and ``1{,}024``: the original is formalised and proved, the corruption
    refuted."""
    formaliser, prover = components
    (row,) = [r for r in _rows() if (r["problem_id"], r["node_id"]) == (problem_id, node_id)]
    results = formaliser.formalise(_requests([row]))
    assert all(r.ok for r in results), [r.reason for r in results]
    verdicts = prover.prove([ProofTask(r.key, r.statement or "") for r in results])
    assert [v.kind for v in verdicts] == [VerdictKind.PROVED, VerdictKind.REFUTED]
