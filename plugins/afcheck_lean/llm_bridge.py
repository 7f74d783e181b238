"""The model call of the ``deepseek`` prover, through afcheck's LLM client layer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from afcheck_lean.deepseek import Generate

MODEL = "deepseek-ai/DeepSeek-Prover-V2-7B"
SAMPLING = {"max_tokens": "8192", "temperature": "0.6", "top_p": "0.95"}
"""The model card's sampling; pass@k needs temperature > 0."""
CONTEXT_TOKENS = 16384
"""vLLM ``max_model_len`` unless given: the prompt and 8,192 generated tokens fit, and the KV
cache of a longer context would not leave room on a GPU shared with a formaliser. Dropped
when the model's own context is shorter."""


def llm_option_names() -> set[str]:
    """The prover options that go to the LLM client: every client and sampling option but
    ``n`` (the prover's ``k``) and ``timeout_s`` (Lean's; the client's is ``timeout_s_llm``)."""
    from afcheck.llm.options import CLIENT_OPTIONS, SAMPLING_OPTIONS

    return (set(CLIENT_OPTIONS) | set(SAMPLING_OPTIONS) | {"timeout_s_llm"}) - {"n", "timeout_s"}


def deepseek_generate(options: Mapping[str, str]) -> Generate:
    """``generate(prompts, k)`` on DeepSeek-Prover-V2: chat template, k samples per prompt,
    one batched call per round; truncated samples (``finish_reason == "length"``) and failed
    requests are dropped, so they never reach Lean."""
    from afcheck.llm import Options, Sampling, chat, make_client, sampling_from

    values = {**SAMPLING, **{k: v for k, v in options.items() if k != "timeout_s_llm"}}
    if "timeout_s_llm" in options:
        values["timeout_s"] = options["timeout_s_llm"]
    settings = Options("prover 'deepseek'", values)
    settings.check_known()
    client = make_client(settings, model=MODEL,
                         engine_defaults={"max_model_len": CONTEXT_TOKENS})
    base = sampling_from(settings, Sampling())

    def generate(prompts: Sequence[str], k: int) -> list[list[str]]:
        sampling = Sampling(max_tokens=base.max_tokens, temperature=base.temperature,
                            top_p=base.top_p, top_k=base.top_k, n=k, seed=base.seed)
        results = client.generate([chat(None, p) for p in prompts], sampling)
        return [[c.text for c in samples if not c.error and c.finish_reason != "length"]
                for samples in results]

    return generate
