"""The formaliser presets of the FaithformBench systems, as data.

Sampling follows the paper's protocol (App. F): greedy decoding, up to 16,384 new tokens, and
2,048 for Herald, whose context is 4,096 tokens. The model cards' own sampling (temperature
0.6–0.99, top_p 0.95, top_k 20) is one ``--formaliser-opt temperature=…`` away; top_p/top_k
are kept at the cards' values since greedy decoding ignores them.
"""

from __future__ import annotations

from afcheck.llm import OutputRule, Preset, PromptTemplate, Sampling
from afcheck_llm import prompts

_PAPER_MAX_TOKENS = 16384

KIMINA = Preset(
    name="kimina",
    model="AI-MO/Kimina-Autoformalizer-7B",
    template=PromptTemplate(system=prompts.LEAN_EXPERT, user=prompts.KIMINA_USER),
    sampling=Sampling(max_tokens=_PAPER_MAX_TOKENS, temperature=0.0, top_p=0.95),
    # Plain Lean, usually unfenced; a ```lean4 block when there is one.
    rule=OutputRule(think="none", fence="optional"),
    context_tokens=32768,
    description="Kimina-Autoformalizer-7B (Qwen2.5 chat template)",
)

GOEDEL = Preset(
    name="goedel",
    model="Goedel-LM/Goedel-Formalizer-V2-8B",
    template=PromptTemplate(user=prompts.GOEDEL_USER),
    sampling=Sampling(max_tokens=_PAPER_MAX_TOKENS, temperature=0.0, top_p=0.95, top_k=20),
    # <think>…</think>, then the last ```lean4 block (the card's extractor).
    rule=OutputRule(think="strip", fence="required", languages=("lean4", "lean")),
    context_tokens=40960,
    description="Goedel-Formalizer-V2-8B (Qwen3, thinking)",
)

STEPFUN = Preset(
    name="stepfun",
    model="stepfun-ai/StepFun-Formalizer-7B",
    # The card appends "<think>" after the chat template's generation prompt.
    template=PromptTemplate(
        system=prompts.LEAN_EXPERT, user=prompts.STEPFUN_USER, assistant_prefix="<think>\n"
    ),
    sampling=Sampling(max_tokens=_PAPER_MAX_TOKENS, temperature=0.0, top_p=0.95),
    rule=OutputRule(think="required", fence="required", languages=("lean4", "lean", "")),
    context_tokens=32768,
    description="StepFun-Formalizer-7B (DeepSeek-R1-Distill-Qwen, <think> appended)",
)

HERALD = Preset(
    name="herald",
    model="FrenzyMath/Herald_translator",
    template=PromptTemplate(user=prompts.HERALD_RAW, raw=True),
    sampling=Sampling(max_tokens=2048, temperature=0.0),
    rule=OutputRule(think="none", fence="optional"),
    context_tokens=4096,
    description="Herald translator (raw DeepSeek-style prompt, 4,096-token context)",
)

FRONTIER = Preset(
    name="frontier",
    model="",
    template=PromptTemplate(system=prompts.FRONTIER_SYSTEM, user=prompts.FRONTIER_USER),
    sampling=Sampling(max_tokens=_PAPER_MAX_TOKENS, temperature=0.0),
    # The theorem of the final code block (App. F); reasoning models may add <think>.
    rule=OutputRule(think="strip", fence="optional"),
    context_tokens=32768,
    max_prompt_chars=0,
    description="App. G few-shot prompt for any chat model: model=NAME[,base_url=URL]",
)

PRESETS = (KIMINA, GOEDEL, STEPFUN, HERALD, FRONTIER)
