"""The ``llm`` chain formaliser over HTTP: a local stub server speaking the OpenAI protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
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


@pytest.mark.heavy
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


def test_a_formalise_budget_reaches_the_chain_formaliser_and_rules_refuse_it() -> None:
    from afcheck_chains.method import ChainsMethod
    from afcheck_fol.kinds import FOL_FORMALISER

    from afcheck.budget import resolve
    from afcheck.errors import UsageError
    from afcheck.method import Choice
    from afcheck.plugins import get_plugins
    from afcheck.runtime import Components, Runtime

    budgets = resolve({"chains": ChainsMethod.budgets}, ["chains.formalise.seconds=45"])
    runtime = Runtime(Components(get_plugins()), budgets=budgets)
    server = {"model": "m", "base_url": "http://127.0.0.1:9/v1"}
    choice = runtime.budgeted(FOL_FORMALISER, Choice.of("llm", server), "chains", "formalise")
    assert dict(choice.options) == {**server, "deadline_s": "45"}
    for name in ("rules", "reference", "replay"):
        with pytest.raises(UsageError, match=rf"^--budget chains.formalise: the fol formaliser "
                           rf"'{name}' takes no budget"):
            runtime.budgeted(FOL_FORMALISER, Choice.of(name), "chains", "formalise")


def test_a_budget_on_the_rules_formaliser_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(_suite(tmp_path)), "--fol-prover", "z3-fol",
         "--no-cache", "--budget", "chains.formalise.seconds=5"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert "--budget chains.formalise: the fol formaliser 'rules' takes no budget" in text, text
    assert "Traceback" not in text


@pytest.mark.heavy
def test_a_stalled_chain_request_is_undecided_and_the_other_chain_decided(
        tmp_path: Path) -> None:
    # The second chain's requests never get an answer: each of its three attempts is
    # stopped by the budget (not by 30 s and 4 retries), and the chain is undecided, not an
    # analysis failure, since nothing is known of its translation. The first is classified.
    from fake_openai import FakeOpenAI

    suite = _suite(tmp_path)
    stalled = {"id": "two", "premises": ["Wumpuses are STALL.", "Max is a wumpus."],
               "conclusion": "Max is sour.", "label": "Unknown",
               "steps": ["Max is STALL."], "answer": "Unknown"}
    with (suite / "c.jsonl").open("a") as rows:
        rows.write(json.dumps(stalled) + "\n")
    right = _answer(PREMISES, ["Yumpus(max)", "∀x (Yumpus(x) → ¬Sour(x))", "¬Sour(max)",
                               "Sour(max)"])
    fake = FakeOpenAI(stall="STALL", content=lambda prompt: right)
    out, cache = tmp_path / "r.json", tmp_path / "cache"
    with fake.running() as url:
        done = subprocess.run(
            [sys.executable, "-m", "afcheck", str(suite), "--fol-prover", "z3-fol",
             "--fol-formaliser", "llm", "--fol-formaliser-opt",
             f"base_url={url},model=fake,timeout_s=30,max_retries=4",
             "--budget", "chains.formalise.seconds=0.5", "--cache-dir", str(cache),
             "--json", str(out), "-rA"],
            capture_output=True, text=True, timeout=300, cwd=ROOT,
            env={**os.environ, "OPENAI_API_KEY": "none"})
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert "1 passed, 1 skipped" in text, text
    records = {r["id"]: r for r in json.loads(out.read_text())["steps"]}
    assert records["one"]["class"] == "T1"
    assert records["two"]["analysis"] == "undecided", records["two"]
    assert "no reply within the deadline of 0.5 s (deadline_s)" in records["two"]["reason"]
    assert fake.completions == 4  # one for the first chain, three attempts of the second
    info = subprocess.run([sys.executable, "-m", "afcheck", "cache", "info", "--json",
                           "--cache-dir", str(cache)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert json.loads(info.stdout)["entries"]["fol-formalise"] == 1
