"""The ``llm`` perturber: the App. E prompt through the shared client, one batched call."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from afcheck_faithfulness.records import Edit, Perturbation, Step

from afcheck.errors import UsageError
from afcheck.llm import (
    Completion,
    LLMClient,
    Options,
    Sampling,
    chat,
    derive_seed,
    make_client,
    sampling_from,
    worker_resources,
)
from afcheck.llm.postprocess import THINK_CLOSE, THINK_OPEN
from afcheck.llm.records import backend_failure_reason
from afcheck_llm import prompts

NAME = "llm"
DEFAULT_SAMPLING = Sampling(max_tokens=1024, temperature=0.0)
_NOT_APPLICABLE = re.compile(r"^\W*not\s+applicable\W*$", re.I)
_FENCED = re.compile(r"^```[^\n]*\n(.*?)\n?```$", re.S)


class LLMPerturber:
    """An :class:`afcheck_faithfulness.kinds.Perturber` that asks a model for a minimal
    falsifying edit. Each step's seed derives from the run seed and the step id, so results do
    not depend on batch composition (where the backend honours seeds)."""

    name = NAME

    def __init__(self, client: LLMClient, sampling: Sampling = DEFAULT_SAMPLING) -> None:
        self.client = client
        self.sampling = sampling
        self.version = (
            f"1:{client.backend}:{client.model}:t={sampling.temperature:g}"
            f":max={sampling.max_tokens}"
        )

    @property
    def resources(self) -> dict[str, float]:
        """What one cluster worker running this perturber needs: an offline vLLM engine's
        GPUs, nothing for a client of a server."""
        return worker_resources(self.client)

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        if not steps:
            return []
        requests = [
            chat(
                prompts.PERTURB_SYSTEM,
                prompts.PERTURB_USER.format(step=step.text),
                seed=derive_seed(seed, step.id),
            )
            for step in steps
        ]
        outputs = self.client.generate(requests, self.sampling)
        return [_perturbation(step, samples) for step, samples in zip(steps, outputs, strict=True)]


def _perturbation(step: Step, samples: Sequence[Completion]) -> Perturbation:
    def none(reason: str) -> Perturbation:
        return Perturbation(step.id, NAME, None, "none", reason=f"LLM: {reason}")

    if not samples:
        return none("no output")
    sample = samples[0]
    if not sample.ok:
        # A backend failure decided it, not the model: never cached, asked again next run.
        reason = backend_failure_reason(sample.error)
        return Perturbation(step.id, NAME, None, "none", reason=reason, transient=True)
    if sample.truncated:
        return none("output truncated at max_tokens")
    text = clean_output(sample.text)
    if text is None:
        return none("output ends inside <think>")
    if not text:
        return none("empty output")
    if _NOT_APPLICABLE.match(text):
        return none("not applicable")
    if text == step.text.strip():
        return none("output equals the original step")
    return Perturbation(step.id, NAME, text, "llm", edit=minimal_edit(step.text, text))


def clean_output(text: str) -> str | None:
    """The rewritten step: reasoning, a wrapping code fence and quotes removed.
    ``None`` when the output never left its ``<think>`` section."""
    close = text.rfind(THINK_CLOSE)
    if close >= 0:
        text = text[close + len(THINK_CLOSE) :]
    elif THINK_OPEN in text:
        return None
    text = text.strip()
    fenced = _FENCED.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def minimal_edit(old: str, new: str) -> Edit:
    """The single span of ``old`` that differs from ``new`` (common prefix and suffix kept)."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]
    ):
        suffix += 1
    return Edit(prefix, len(old) - suffix, old[prefix : len(old) - suffix],
                new[prefix : len(new) - suffix])


def make_perturber(values: Mapping[str, str]) -> LLMPerturber:
    """Factory for ``--perturber llm --perturber-opt model=…[,base_url=…]``."""
    options = Options(f"perturber '{NAME}'", dict(values))
    options.check_known()
    if not options.text("model"):
        raise UsageError(
            f"perturber '{NAME}' needs a model: --perturber-opt model=NAME "
            "(add base_url=http://HOST:PORT/v1 for an OpenAI-compatible server)"
        )
    return LLMPerturber(make_client(options, model=""), sampling_from(options, DEFAULT_SAMPLING))
