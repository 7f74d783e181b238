"""Overhead of the LLM client layer per request.

1. Against the local llama.cpp server (SmolLM2-135M): the same greedy prompts sent once with a
   bare ``urllib`` POST (the server's own time, plus a minimal client) and once through
   ``afcheck.llm`` (prompt records, thread pool, retry loop, parsing). Prints the ratio of
   afcheck's end-to-end time to the bare time, and the difference per request.
2. Against an instant local stub: the client's own cost per request, with no generation.

Prints ``name value target`` lines. Run: ``python bench/bench_llm_client.py [--prompts N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from llm_server import (  # noqa: E402
    SKIP_REASON_NO_SERVER,
    Reply,
    StubServer,
    llama_server,
    server_available,
)

from afcheck.llm import LLMClient, Options, Sampling, chat, make_client  # noqa: E402

QUESTIONS = [
    "What is 2 + 3?",
    "Name a prime number.",
    "Is 7 odd?",
    "What is 10 / 2?",
    "Spell the word cat.",
    "What is 3 * 4?",
    "Name a colour.",
    "What is 9 - 4?",
]
MAX_TOKENS = 8
REPEATS = 4


def _bare(url: str, question: str) -> float:
    body = json.dumps({
        "model": "m",
        "messages": [{"role": "user", "content": question}],
        "max_tokens": MAX_TOKENS,
        "temperature": 0.0,
        "top_p": 1.0,
        "seed": 0,
        "n": 1,
    }).encode()
    request = urllib.request.Request(
        url + "/chat/completions", body, {"content-type": "application/json"}
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        json.loads(response.read())
    return time.perf_counter() - start


def _through_afcheck(client: LLMClient, question: str) -> float:
    sampling = Sampling(max_tokens=MAX_TOKENS, temperature=0.0, seed=0)
    start = time.perf_counter()
    [[completion]] = client.generate([chat(None, question)], sampling)
    elapsed = time.perf_counter() - start
    if not completion.ok:
        raise SystemExit(f"request failed: {completion.error}")
    return elapsed


def bench_server(prompts: int) -> None:
    if not server_available():
        print(f"# skipped llama.cpp part: {SKIP_REASON_NO_SERVER}")
        return
    questions = (QUESTIONS * (prompts // len(QUESTIONS) + 1))[:prompts]
    bare: list[float] = []
    ours: list[float] = []
    with llama_server() as url:
        client = make_client(Options("bench", {"base_url": url, "concurrency": "1"}), model="m")
        _bare(url, "warm up")
        # Each prompt goes both ways back to back, REPEATS times, alternating which goes
        # first (the server caches the last prompt); the fastest of each side is kept, since
        # other load on the machine only ever adds time.
        for question in questions:
            bare_times, our_times = [], []
            for repeat in range(REPEATS):
                if repeat % 2 == 0:
                    bare_times.append(_bare(url, question))
                    our_times.append(_through_afcheck(client, question))
                else:
                    our_times.append(_through_afcheck(client, question))
                    bare_times.append(_bare(url, question))
            bare.append(min(bare_times))
            ours.append(min(our_times))
    differences = sorted(o - b for o, b in zip(ours, bare, strict=True))
    print(f"llm_client_end_to_end_over_server_ratio {sum(ours) / sum(bare):.3f} 1.05")
    median = differences[len(differences) // 2]
    print(f"llm_client_overhead_ms_per_request_median {median * 1000:.2f} 10")


def bench_stub(requests: int) -> None:
    stub = StubServer([Reply(200)])
    with stub.running() as url:
        client = make_client(Options("bench", {"base_url": url, "concurrency": "1"}), model="m")
        client.generate([chat(None, "warm")], Sampling(max_tokens=1))
        start = time.perf_counter()
        client.generate([chat(None, str(i)) for i in range(requests)], Sampling(max_tokens=1))
        serial = time.perf_counter() - start
    print(f"llm_client_stub_ms_per_request {serial / requests * 1000:.2f} 5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=8, help="prompts, each sent both ways")
    parser.add_argument("--stub-requests", type=int, default=200)
    args = parser.parse_args()
    bench_stub(args.stub_requests)
    bench_server(args.prompts)


if __name__ == "__main__":
    main()
