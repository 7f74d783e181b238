"""The ``llm`` chain formaliser over HTTP: a local stub server speaking the OpenAI protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from llm_server import Reply, StubServer, chat_body

ROOT = Path(__file__).resolve().parent.parent

PREMISES = ["∀x (Jompus(x) → Yumpus(x))", "∀x (Yumpus(x) → ¬Sour(x))", "Jompus(max)"]


def _answer(premises: list[str], conclusions: list[str]) -> str:
    lines = ["Premises:"] + [f"{f} ::: ({i}) s" for i, f in enumerate(premises, 1)]
    lines += ["Conclusions:"] + [f"{f} ::: ({i}) s" for i, f in enumerate(conclusions, 1)]
    return "\n".join(lines)


def _suite(tmp_path: Path) -> Path:
    """A one-chain suite of recorded responses: Max, a jompus, is not sour."""
    suite = tmp_path / "s"
    suite.mkdir()
    (suite / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "s"\nkind = "chains"\nsource = "responses"\n'
        'data = "c.jsonl"\n')
    row = {"id": "one", "premises": ["Jompuses are yumpuses.", "Yumpuses are not sour.",
                                     "Max is a jompus."],
           "conclusion": "Max is sour.", "label": "False",
           "steps": ["Max is a yumpus.", "Yumpuses are not sour.", "Max is not sour."],
           "answer": "False"}
    (suite / "c.jsonl").write_text(json.dumps(row) + "\n")
    return suite


def test_run_retries_an_unparsable_answer_then_accepts(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    broken = _answer(PREMISES[:2] + ["Jompus(max"], ["Yumpus(max)", "Sour(max)"])
    right = _answer(PREMISES, ["Yumpus(max)", "∀x (Yumpus(x) → ¬Sour(x))", "¬Sour(max)",
                               "Sour(max)"])
    stub = StubServer([Reply(body=chat_body(broken)), Reply(body=chat_body(right))])
    out = tmp_path / "r.json"
    with stub.running() as url:
        def run() -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "afcheck", str(suite), "--fol-prover", "z3-fol",
                 "--fol-formaliser", "llm", "--fol-formaliser-opt",
                 f"base_url={url},model=stub,concurrency=1", "--cache-dir",
                 str(tmp_path / "cache"), "--json", str(out)],
                capture_output=True, text=True, timeout=300, cwd=ROOT,
                env={**os.environ, "OPENAI_API_KEY": "none"})

        done = run()
        assert done.returncode == 0, done.stdout + done.stderr
        again = run()  # every answer, and every proof, from the result cache
    assert again.returncode == 0, again.stdout + again.stderr
    [record] = json.loads(out.read_text())["steps"]
    assert record["attempts"] == 2 and record["class"] == "T1"
    assert [s["label"] for s in record["steps"]] == ["True", "True", "True"]
    assert len(stub.requests) == 2
    prompts = [r["body"]["messages"][-1]["content"] for r in stub.requests]
    assert all(p.startswith("Parse the given premises and conclusions") for p in prompts)
    assert "(4) Max is sour." in prompts[0]
    assert stub.requests[0]["body"].get("seed") != stub.requests[1]["body"].get("seed")


def test_the_model_under_test_reaches_the_chains_method(tmp_path: Path) -> None:
    """``--formaliser frontier`` (a Lean model preset) is asked for the chain with the chains
    method's own prompt; the run says which model wrote its candidates."""
    suite = _suite(tmp_path)
    right = _answer(PREMISES, ["Yumpus(max)", "∀x (Yumpus(x) → ¬Sour(x))", "¬Sour(max)",
                               "Sour(max)"])
    stub = StubServer([Reply(body=chat_body(right))])
    out = tmp_path / "r.json"
    with stub.running() as url:
        done = subprocess.run(
            [sys.executable, "-m", "afcheck", str(suite), "--fol-prover", "z3-fol",
             "--formaliser", "frontier", "--formaliser-opt",
             f"base_url={url},model=stub,concurrency=1,theorem_name=t", "--no-cache",
             "--json", str(out)],
            capture_output=True, text=True, timeout=300, cwd=ROOT,
            env={**os.environ, "OPENAI_API_KEY": "none"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(stub.requests) == 1
    body = stub.requests[0]["body"]
    assert body["model"] == "stub"
    assert body["messages"][-1]["content"].startswith("Parse the given premises and conclusions")
    assert f"chains candidates: fol formaliser llm (model=stub, base_url={url})" in done.stdout
    doc = json.loads(out.read_text())
    assert doc["methods"]["chains"]["candidates"] == {
        "written_by": {f"fol formaliser llm (model=stub, base_url={url})": 1}, "fixed": 0}
    assert doc["steps"][0]["class"] == "T1"
