"""The ``replay`` formaliser re-scores recorded outputs with the right metrics."""

from __future__ import annotations

import json

import pytest

PB = [
    {"id": "gsm8k-1", "problem": "p", "label": -1, "steps": ["So: 2 + 3 = 5", "So: 5 * 2 = 10"]},
    {"id": "gsm8k-2", "problem": "q", "label": -1, "steps": ["So: 7 - 3 = 4"]},
    {"id": "gsm8k-3", "problem": "r", "label": 0, "steps": ["So: 1 = 2"]},
]
SUITE = """[afcheck]
name = "gsm8k"
kind = "processbench"
data = "pb.json"
[afcheck.defaults]
perturber = "bump"
"""


def fence(statement: str) -> str:
    return f"Sure, here it is:\n```lean4\nimport Mathlib\n\n{statement} := by\n  norm_num\n```"


RECORDS = [
    # gsm8k-1/0 faithful: x proved, x̄ refuted.
    {"step_id": "gsm8k/gsm8k-1/0", "side": "original", "output": fence("theorem a : 2 + 3 = 5")},
    {"step_id": "gsm8k/gsm8k-1/0", "side": "perturbed", "output": fence("theorem a : 2 + 3 = 6")},
    # gsm8k-1/1 silent correction: the perturbation (5 * 2 = 11) was written back as 10.
    {"step_id": "gsm8k/gsm8k-1/1", "side": "original", "statement": "theorem b : 5 * 2 = 10"},
    {"step_id": "gsm8k/gsm8k-1/1", "side": "perturbed", "statement": "theorem b : 5 * 2 = 10"},
    # gsm8k-2/0: nothing extractable on the original side, the perturbed side has no record.
    {"step_id": "gsm8k/gsm8k-2/0", "side": "original", "output": "I cannot formalise this."},
]


def test_replay_gives_the_metrics_of_the_recording(arith: pytest.Pytester) -> None:
    folder = arith.path / "gsm8k"
    folder.mkdir()
    (folder / "suite.toml").write_text(SUITE)
    (folder / "pb.json").write_text(json.dumps(PB))
    recorded = arith.path / "recorded.jsonl"
    recorded.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    out = arith.path / "r.json"
    result = arith.runpytest("gsm8k", "--afcheck-plugin", "arith", "--afcheck-formaliser",
                             "replay", "--afcheck-formaliser-opt", f"path={recorded}",
                             "--afcheck-prover", "arith", "--afcheck-json", str(out))
    result.assert_outcomes(passed=1, failed=2)
    doc = json.loads(out.read_text())
    steps = {r["case_id"]: r for r in doc["steps"]}
    # Raw outputs are kept on disk during the run and come back whole in the result file.
    assert steps["gsm8k::gsm8k-1/0"]["original"]["raw_output"] == RECORDS[0]["output"]
    assert steps["gsm8k::gsm8k-1/0"]["original"]["statement"] == "theorem a : 2 + 3 = 5 := by sorry"
    m = doc["metrics"]["overall"]
    assert m["N"] == 3
    assert m["FPR"] == pytest.approx(1 / 3)
    assert m["FNR"] == 0
    assert m["AFFR"] == pytest.approx(2 / 6)
    assert m["TPR"] == pytest.approx(2 / 3)
    assert m["UFLB"] == pytest.approx(1 / 6 + 2 / 6)
    assert m["contingency"]["faithful"] == 1 and m["contingency"]["sycophancy"] == 1


def test_replay_without_path_is_one_line(arith: pytest.Pytester) -> None:
    folder = arith.path / "gsm8k"
    folder.mkdir()
    (folder / "suite.toml").write_text(SUITE)
    (folder / "pb.json").write_text(json.dumps(PB))
    result = arith.runpytest("gsm8k", "--afcheck-plugin", "arith", "--afcheck-formaliser",
                             "replay", "--afcheck-prover", "arith")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--formaliser-opt path=FILE.jsonl" in result.stderr.str()
    result.assert_outcomes()  # stopped before any case ran


def test_replayed_output_keeps_auxiliary_definitions_like_a_live_one() -> None:
    from afcheck_replay.replay import extract

    output = ("```lean4\nimport Mathlib\n\ndef double (n : ℕ) : ℕ := 2 * n\n\n"
              "theorem t : double 3 = 6 := by\n  rfl\n```")
    formalisation = extract("k", "replay", output)
    assert formalisation.statement == "theorem t : double 3 = 6 := by sorry"
    assert formalisation.header.startswith("import Mathlib")
    assert "def double (n : ℕ) : ℕ := 2 * n" in formalisation.header
