"""The ``replay`` formaliser re-scores recorded outputs with the right metrics."""

from __future__ import annotations

import json
from pathlib import Path

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
    m = doc["details"]["overall"]
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


def test_a_damaged_line_loses_only_its_own_record(tmp_path: Path) -> None:
    from afcheck_faithfulness.records import Side
    from afcheck_replay.replay import make_replay

    from afcheck.types import FormalisationStatus, FormaliseRequest

    good = [json.dumps(r, ensure_ascii=False).encode() for r in RECORDS[:4]]
    lines = [
        good[0],
        b'{"step_id": "gsm8k/gsm8k-2/0", "side": "original", "output": "x\xff"}',  # bad byte
        b'{"step_id": "deep", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",  # nested too deep
        b"[",  # an array that never ends, on a line of its own
        good[1],
        b'"just text"',  # not an object
        good[2],
        b'{"step_id": "gsm8k/gsm8k-2/0", "side": "perturbed", "nope": 1}',  # unknown field
        good[3],
    ]
    path = tmp_path / "recorded.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    replay = make_replay({"path": str(path)})

    def request(step: str, side: Side) -> FormaliseRequest:
        return FormaliseRequest(f"{step}#{side.value}", "t", (), "p",
                                {"step_id": step, "side": side.value})

    made = replay.formalise([request("gsm8k/gsm8k-1/0", Side.ORIGINAL),
                             request("gsm8k/gsm8k-1/0", Side.PERTURBED),
                             request("gsm8k/gsm8k-1/1", Side.ORIGINAL),
                             request("gsm8k/gsm8k-1/1", Side.PERTURBED),
                             request("gsm8k/gsm8k-2/0", Side.ORIGINAL)])
    assert [f.statement for f in made[:4]] == [
        "theorem a : 2 + 3 = 5 := by sorry", "theorem a : 2 + 3 = 6 := by sorry",
        "theorem b : 5 * 2 = 10", "theorem b : 5 * 2 = 10"]  # statements as recorded
    lost = made[4]
    assert lost.status is FormalisationStatus.AF_FAIL
    assert lost.reason == ("no recorded original output for gsm8k/gsm8k-2/0 (5 line(s) of the "
                           f"file are not records, first: {path}:2: not UTF-8 (byte 0xff at "
                           "column 64); save the file as UTF-8)")
    assert [p.split(": ", 1)[0] for p in replay.problems] == [
        f"{path}:{n}" for n in (2, 3, 4, 6, 8)]
    assert replay.summary_lines() == [
        f"replay: 5 line(s) of {path} are not records and were left out; first: "
        f"{replay.problems[0]}"]


def test_a_request_that_names_no_step_is_its_keys_item_on_the_original_side() -> None:
    from afcheck_replay.replay import ReplayFormaliser

    from afcheck.types import FormaliseRequest

    replay = ReplayFormaliser({
        ("tarski/7", "original"): {"statement": "theorem t : True"},
        ("tarski/7", "perturbed"): {"statement": "theorem u : False"},
    })
    named, unnamed, missing = replay.formalise([
        FormaliseRequest("x#perturbed", "t", metadata={"step_id": "tarski/7",
                                                       "side": "perturbed"}),
        FormaliseRequest("tarski/7#candidate", "t"),  # an equivalence item with no candidate
        FormaliseRequest("tarski/8#candidate", "t"),
    ])
    assert (named.statement, unnamed.statement) == ("theorem u : False", "theorem t : True")
    assert missing.reason == "no recorded original output for tarski/8"
