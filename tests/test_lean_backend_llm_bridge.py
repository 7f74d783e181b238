"""The deepseek prover's model call goes through the LLM client layer with pass@k sampling."""

from __future__ import annotations

from afcheck_lean.llm_bridge import deepseek_generate
from llm_server import Reply, StubServer, chat_body

PROOF = "```lean4\ntheorem t : 1 + 1 = 2 := by\n  norm_num\n```"


def test_k_samples_per_prompt_with_card_sampling_and_truncations_dropped() -> None:
    stub = StubServer([Reply(200, chat_body(PROOF)), Reply(200, chat_body("cut", "length")),
                       Reply(200, chat_body(PROOF))])
    with stub.running() as url:
        generate = deepseek_generate({"base_url": url, "model": "ds", "seed": "7"})
        [samples] = generate(["Complete the following Lean 4 code: …"], 2)
    assert samples == [PROOF]  # the sample cut at max_tokens never reaches Lean
    bodies = [r["body"] for r in stub.requests]
    assert len(bodies) == 2  # k = 2 samples, one request each
    assert {b["temperature"] for b in bodies} == {0.6} and {b["top_p"] for b in bodies} == {0.95}
    assert sorted(b["seed"] for b in bodies) == [7, 8]
    assert all(b["max_tokens"] == 8192 and b["model"] == "ds" for b in bodies)
    assert bodies[0]["messages"][-1]["content"].startswith("Complete the following Lean 4")
