"""``afcheck dag``: the App. D split of ProcessBench chains into DAGs, against a stub
OpenAI-compatible server (one request per chain, greedy), its file, its cache, and the
``--steps dag`` loader on what it wrote; then once against the real llama.cpp server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

import pytest
from llm_fixtures import llm_server_url  # noqa: F401 - pytest fixture
from llm_server import Reply, StubServer, chat_body

pytest.importorskip("httpx")

from afcheck_faithfulness.records import Step  # noqa: E402
from afcheck_suites.dag import PROMPT_VERSION, STATEMENT_TYPES, SYSTEM_PROMPT  # noqa: E402

from afcheck.cli import main as afcheck_main  # noqa: E402
from afcheck.errors import LoadError  # noqa: E402
from afcheck.plugins import get_plugins  # noqa: E402
from afcheck.suites import load_spec  # noqa: E402

CHAINS = [
    {"id": "gsm8k-0", "generator": "Qwen2-7B-Instruct", "label": -1,
     "final_answer_correct": True,
     "problem": "Sue has 18 pink flamingos. One third are painted white. How many pink remain?",
     "steps": ["First, Sue starts with 18 pink flamingos.",
               "One third of them is \\(1/3 \\times 18 = 6\\), so \\(18 - 6 = 12\\) stay pink."]},
    {"id": "gsm8k-1", "generator": "Llama-3.1-8B-Instruct", "label": 1,
     "final_answer_correct": False, "problem": "What is 2 + 2?",
     "steps": ["2 + 2 = 4.", "So the answer is 5."]},
    {"id": "gsm8k-2", "generator": "Qwen2-7B-Instruct", "label": -1,
     "final_answer_correct": True, "problem": "Tom buys 3 pens at $2 each. What does he pay?",
     "steps": ["Let p = 2 be the price of a pen.", "He pays \\(3 \\times 2 = 6\\) dollars."]},
    {"id": "gsm8k-3", "generator": "Qwen2-7B-Instruct", "label": -1,
     "final_answer_correct": True, "problem": "Is 7 prime?",
     "steps": ["7 has no divisors other than 1 and 7, so it is prime."]},
]

FLAMINGO_DAG = {
    "nodes": [
        {"id": "step_1", "content": "Sue starts with 18 pink flamingos.",
         "statement_type": "Declarative", "node_type": "axiom", "verifiable": False,
         "dependencies": [], "inference_rule": "", "verification_note": "given"},
        {"id": "step_2", "content": "1/3 × 18 = 6", "statement_type": "Computation",
         "node_type": "deduction", "verifiable": True, "dependencies": ["step_1"],
         "inference_rule": "arithmetic", "verification_note": "18 / 3 = 6"},
        {"id": "step_err_1", "content": "(a glitch node)", "statement_type": "logical",
         "dependencies": []},
        {"id": "step_3", "content": "18 - 6 = 12 flamingos stay pink.",
         "statement_type": "substitution", "node_type": "deduction", "verifiable": True,
         "dependencies": ["step_2", "step_1", "step_err_1"],
         "inference_rule": "substitution", "verification_note": "18 - 6 = 12"},
    ],
    "final_answer": "12",
    "metadata": {"notes": "short chain", "difficulty": "easy"},
}
PENS_DAG = {
    "nodes": [
        {"id": "step_1", "content": "Let p = 2 be the price of a pen.",
         "statement_type": "declarative", "dependencies": [], "inference_rule": "",
         "verification_note": ""},
        {"id": "step_2", "content": "3 × p = 3 × 2 = 6", "statement_type": "General_Knowledge",
         "dependencies": [1], "inference_rule": "multiplication",
         "verification_note": "3 * 2 = 6"},
    ],
    "final_answer": "6",
    "metadata": {"notes": "", "difficulty": "easy"},
}
FENCED = "Here is the DAG.\n\n```json\n" + json.dumps(FLAMINGO_DAG, indent=2) + "\n```\n"
UNFENCED = json.dumps(PENS_DAG)
MALFORMED = '{"nodes": [{"id": "step_1", "content": "7 is prime" "statement_type": "logical"}]}'


def _suite(tmp_path: Path, chains: list[dict[str, Any]] = CHAINS, name: str = "gsm8k",
           options: str = "") -> Path:
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "chains.json").write_text(json.dumps(chains), encoding="utf-8")
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "{name}"\nkind = "processbench"\nsplit = "gsm8k"\n'
        f'data = "chains.json"\n{options}', encoding="utf-8")
    return folder


def _dag(folder: Path, url: str, *extra: str, model: str = "splitter") -> int:
    return afcheck_main(["dag", str(folder), "--llm-opt",
                         f"base_url={url},model={model},concurrency=1", *extra])


def _load(folder: Path) -> list[Step | LoadError]:
    spec = load_spec(folder).with_settings({"steps": "dag"})
    return list(get_plugins().create("suite_kind", spec.kind).load(spec))


def _cached_files() -> list[Path]:
    import os

    return sorted((Path(os.environ["AFCHECK_CACHE_DIR"]) / "dags").glob("*.json"))


def test_one_batched_greedy_request_per_chain_with_the_app_d_prompt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite(tmp_path)
    stub = StubServer([Reply(200, chat_body(FENCED)), Reply(200, chat_body(UNFENCED)),
                       Reply(200, chat_body(MALFORMED))])
    with stub.running() as url:
        assert _dag(folder, url, "--llm-opt", "max_tokens=3000") == 0
    bodies = [r["body"] for r in stub.requests]
    assert len(bodies) == 3  # the three error-free chains, not gsm8k-1 (label 1)
    assert all(r["path"].endswith("/chat/completions") for r in stub.requests)
    for body, chain in zip(bodies, [CHAINS[0], CHAINS[2], CHAINS[3]], strict=True):
        system, user = body["messages"]
        assert system == {"role": "system", "content": SYSTEM_PROMPT}
        assert SYSTEM_PROMPT.startswith("You are an expert in mathematical logic and proof")
        assert user["content"].startswith("Analyze this mathematical reasoning chain")
        assert chain["problem"] in user["content"]
        assert all(step in user["content"] for step in cast(list[str], chain["steps"]))
        assert all(t in user["content"] for t in STATEMENT_TYPES)
        assert body["temperature"] == 0 and body["max_tokens"] == 3000
        assert body["model"] == "splitter"
    out, err = capsys.readouterr()
    [failure] = err.strip().splitlines()
    assert failure.startswith("afcheck dag: gsm8k-3: the answer is not valid JSON")
    [written] = _cached_files()
    assert f"afcheck dag: wrote {written}" in out
    assert "chains 3 (asked 3, reused 0), nodes 5, declarative 2, steps 3, failures 1" in out


def test_the_file_has_the_released_dags_format(tmp_path: Path) -> None:
    folder = _suite(tmp_path)
    stub = StubServer([Reply(200, chat_body(FENCED)), Reply(200, chat_body(UNFENCED)),
                       Reply(200, chat_body(MALFORMED))])
    out = tmp_path / "out" / "gsm8k.dags.json"
    with stub.running() as url:
        assert _dag(folder, url, "--out", str(out)) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(rows, list) and [r["id"] for r in rows] == ["gsm8k-0", "gsm8k-2",
                                                                  "gsm8k-3"]
    flamingo, pens, broken = rows
    assert {"id", "problem", "dags", "split", "generator",
            "final_answer_correct"} <= set(flamingo)
    assert flamingo["split"] == "gsm8k" and flamingo["generator"] == "Qwen2-7B-Instruct"
    assert flamingo["problem"] == CHAINS[0]["problem"] and flamingo["final_answer_correct"]
    assert flamingo["prompt_version"] == PROMPT_VERSION and flamingo["model"] == "splitter"
    dags = flamingo["dags"]
    assert set(dags) == {"nodes", "final_answer", "metadata"}
    assert dags["final_answer"] == "12"
    assert dags["metadata"] == {"notes": "short chain", "difficulty": "easy"}
    assert [n["id"] for n in dags["nodes"]] == ["step_1", "step_2", "step_3"]  # glitch dropped
    assert [n["statement_type"] for n in dags["nodes"]] == ["declarative", "computation",
                                                            "substitution"]
    third = dags["nodes"][2]
    assert third["dependencies"] == ["step_2", "step_1"]
    assert third["inference_rule"] == "substitution" and third["verification_note"]
    assert [n["statement_type"] for n in pens["dags"]["nodes"]] == ["declarative",
                                                                   "general knowledge"]
    assert pens["dags"]["nodes"][1]["dependencies"] == ["step_1"]
    assert broken["error_kind"] == "parse" and "not valid JSON" in broken["error"]
    assert broken["dags"]["nodes"] == []
    assert "error" not in flamingo and "error" not in pens


def test_second_run_asks_nothing_and_a_changed_chain_only_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite(tmp_path)
    stub = StubServer([Reply(200, chat_body(FENCED)), Reply(200, chat_body(UNFENCED)),
                       Reply(200, chat_body(MALFORMED))])
    with stub.running() as url:
        assert _dag(folder, url) == 0
        [written] = _cached_files()
        first = written.read_text(encoding="utf-8")
        capsys.readouterr()
        assert _dag(folder, url) == 0
        assert len(stub.requests) == 3  # nothing new: the parse failure is greedy, kept
        assert written.read_text(encoding="utf-8") == first
        assert "chains 3 (asked 0, reused 3)" in capsys.readouterr().out
        changed = [dict(c) for c in CHAINS]
        changed[2]["steps"] = ["Let p = 3 be the price of a pen.", "He pays 9 dollars."]
        _suite(tmp_path, changed)
        assert _dag(folder, url) == 0
    assert len(stub.requests) == 4
    assert "Let p = 3 be the price" in stub.requests[3]["body"]["messages"][1]["content"]


def test_retry_failed_asks_again_and_another_model_gets_its_own_file(tmp_path: Path) -> None:
    folder = _suite(tmp_path)
    stub = StubServer([Reply(200, chat_body(FENCED)), Reply(200, chat_body(UNFENCED)),
                       Reply(200, chat_body(MALFORMED)), Reply(200, chat_body(UNFENCED))])
    with stub.running() as url:
        assert _dag(folder, url) == 0
        assert _dag(folder, url, "--retry-failed") == 0
        assert len(stub.requests) == 4
        assert "Is 7 prime?" in stub.requests[3]["body"]["messages"][1]["content"]
        [written] = _cached_files()
        assert not any(r.get("error") for r in json.loads(written.read_text()))
        assert _dag(folder, url, model="other") == 0
    assert len(stub.requests) == 7 and len(_cached_files()) == 2
    names = [p.name for p in _cached_files()]
    assert all(re.fullmatch(r"gsm8k-[0-9a-f]{12}\.json", n) for n in names)


def test_a_backend_error_is_written_and_retried_on_the_next_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite(tmp_path, CHAINS[:1])
    stub = StubServer([Reply(400, {"error": {"message": "prompt too long"}}),
                       Reply(200, chat_body(FENCED))])
    with stub.running() as url:
        assert _dag(folder, url) == 0
        assert "gsm8k-0: backend error: HTTP 400" in capsys.readouterr().err
        [written] = _cached_files()
        assert json.loads(written.read_text())[0]["error_kind"] == "backend"
        assert _dag(folder, url) == 0
    assert len(stub.requests) == 2
    assert json.loads(written.read_text())[0]["dags"]["nodes"][0]["id"] == "step_1"


def test_a_truncated_answer_says_to_raise_max_tokens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite(tmp_path, CHAINS[:1])
    stub = StubServer([Reply(200, chat_body(FENCED[:120], finish_reason="length"))])
    with stub.running() as url:
        assert _dag(folder, url, "--llm-opt", "max_tokens=40") == 0
    err = capsys.readouterr().err
    assert "gsm8k-0: the answer was cut at max_tokens=40" in err
    assert "raise --llm-opt max_tokens" in err


def test_loader_reads_the_written_file(tmp_path: Path) -> None:
    folder = _suite(tmp_path)
    stub = StubServer([Reply(200, chat_body(FENCED)), Reply(200, chat_body(UNFENCED)),
                       Reply(200, chat_body(MALFORMED))])
    with stub.running() as url:
        assert _dag(folder, url) == 0
    loaded = _load(folder)
    steps = [s for s in loaded if isinstance(s, Step)]
    errors = [e for e in loaded if isinstance(e, LoadError)]
    assert [s.id for s in steps] == ["gsm8k/gsm8k-0/step_2", "gsm8k/gsm8k-0/step_3",
                                     "gsm8k/gsm8k-2/step_2"]
    two, three, pens = steps
    assert two.text == "1/3 × 18 = 6" and two.context == ("Sue starts with 18 pink flamingos.",)
    assert three.context == ("Sue starts with 18 pink flamingos.", "1/3 × 18 = 6")
    assert pens.context == ("Let p = 2 be the price of a pen.",)  # a declarative parent
    assert three.metadata["statement_type"] == "substitution"
    assert three.metadata["dependencies"] == ["step_2", "step_1"]
    assert three.metadata["inference_rule"] == "substitution"
    assert two.dataset == "gsm8k" and two.problem == CHAINS[0]["problem"]
    assert two.node_id == "step_2" and two.problem_id == "gsm8k-0"
    [error] = errors
    assert error.name == "gsm8k-3" and "chain gsm8k-3 has no DAG" in error.message
    assert [s.id for s in _load(folder) if isinstance(s, Step)] == [s.id for s in steps]


def test_bad_input_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _suite(tmp_path)
    assert afcheck_main(["dag", str(folder), "--llm-opt", "base_url=http://127.0.0.1:9/v1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "afcheck dag: error: afcheck dag needs a model: --llm-opt model=NAME "
        "(add base_url=http://HOST:PORT/v1 for an OpenAI-compatible server)")
    assert afcheck_main(["dag", str(folder), "--llm-opt", "model=m,temperature=0.7"]) == 2
    assert "decodes greedily; drop --llm-opt temperature" in capsys.readouterr().err
    examples = Path(__file__).resolve().parent.parent / "suites" / "examples"
    assert afcheck_main(["dag", str(examples), "--llm-opt", "model=m"]) == 2
    assert "is a 'jsonl' suite; afcheck dag splits processbench" in capsys.readouterr().err
    assert afcheck_main(["dag", str(tmp_path / "nowhere"), "--llm-opt", "model=m"]) == 2
    assert "is not a suite folder" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert afcheck_main(["dag", str(folder), "--out", str(bad), "--llm-opt",
                         "model=m,base_url=http://127.0.0.1:9/v1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "remove it or choose another --out" in err


@pytest.mark.llm_server
def test_real_server_completes_and_reports_failures_one_per_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        llm_server_url: str) -> None:  # noqa: F811
    folder = _suite(tmp_path, [CHAINS[0], CHAINS[3]])
    out = tmp_path / "real.json"
    code = afcheck_main(["dag", str(folder), "--out", str(out), "--llm-opt",
                         f"base_url={llm_server_url},model=smollm2,max_tokens=48"])
    assert code == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in rows] == ["gsm8k-0", "gsm8k-3"]
    err_lines = capsys.readouterr().err.strip().splitlines()
    failed = [r["id"] for r in rows if r.get("error")]
    assert len(err_lines) == len(failed)
    for chain_id, line in zip(failed, err_lines, strict=True):
        assert line.startswith(f"afcheck dag: {chain_id}: ")


@pytest.mark.realdata
@pytest.mark.heavy
def test_all_gsm8k_chains_go_out_in_one_run(data_dir: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("AFCHECK_DATA_DIR", str(data_dir))
    monkeypatch.delenv("AFCHECK_DAGS", raising=False)
    gsm8k = Path(__file__).resolve().parent.parent / "suites" / "gsm8k"
    raw = json.loads((data_dir / "processbench" / "gsm8k.json").read_text(encoding="utf-8"))
    error_free = [r["id"] for r in raw if r["label"] == -1]
    stub = StubServer([Reply(200, chat_body(FENCED))])
    out = tmp_path / "gsm8k.dags.json"
    with stub.running() as url:
        assert afcheck_main(["dag", str(gsm8k), "--out", str(out), "--llm-opt",
                             f"base_url={url},model=splitter"]) == 0
    assert len(stub.requests) == len(error_free) == 193
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in rows] == error_free
    assert "chains 193 (asked 193, reused 0), nodes 579, declarative 193, steps 386" \
        in capsys.readouterr().out
    monkeypatch.setenv("AFCHECK_DAGS", str(out))
    spec = load_spec(gsm8k).with_settings({"steps": "dag"})
    steps = list(get_plugins().create("suite_kind", spec.kind).load(spec))
    assert len(steps) == 386 and len({s.id for s in steps if isinstance(s, Step)}) == 386
