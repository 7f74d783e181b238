"""vLLM offline backend: one engine per process, one batched call per stage.

The engine is anything with vLLM's ``LLM`` methods ``generate``, ``chat`` and
``get_tokenizer`` (see :class:`Engine`). :class:`VLLMClient` builds the real one lazily on first
use and keeps it for the life of the process (loading a 7B model takes minutes); tests and
embedders pass their own through the ``engine`` and ``sampling_params`` arguments, which is the
seam, rather than patching this module.

Sampling parameters are always built explicitly: vLLM's default ``max_tokens`` is 16, and an
explicit ``SamplingParams`` is used as-is, not merged with the model's generation config.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from afcheck.errors import MissingDependency
from afcheck.llm.client import BackendError
from afcheck.llm.records import Completion, Prompt, Sampling

_INSTALL = "pip install 'afcheck[vllm]'"


class Engine(Protocol):
    """The part of ``vllm.LLM`` this backend uses."""

    def generate(self, prompts: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]: ...

    def chat(self, messages: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]: ...

    def get_tokenizer(self) -> Any: ...


_engines: dict[tuple[str, tuple[tuple[str, Any], ...]], Engine] = {}
_engines_lock = threading.Lock()


def load_engine(model: str, engine_kwargs: Mapping[str, Any]) -> Engine:
    """The process-wide ``vllm.LLM`` for ``model`` and these engine arguments, built once."""
    key = (model, tuple(sorted(engine_kwargs.items())))
    with _engines_lock:
        if key not in _engines:
            try:
                from vllm import LLM
            except ImportError:
                raise MissingDependency("the vLLM backend", "vllm", _INSTALL) from None
            try:
                _engines[key] = LLM(model=model, **dict(engine_kwargs))
            except Exception as exc:  # noqa: BLE001 - any load failure ends the run in one line
                message = f"vLLM could not load {model}: {type(exc).__name__}: {exc}"
                raise BackendError(message) from None
        return _engines[key]


def _vllm_sampling_params() -> Callable[..., Any]:
    try:
        from vllm import SamplingParams
    except ImportError:
        raise MissingDependency("the vLLM backend", "vllm", _INSTALL) from None
    return SamplingParams


class VLLMClient:
    """An :class:`afcheck.llm.client.LLMClient` over vLLM's offline ``LLM``.

    :param engine: an :class:`Engine` to use instead of loading ``vllm.LLM``.
    :param sampling_params: the ``SamplingParams`` constructor to use instead of vLLM's.
    :param chat_template_kwargs: passed to the chat template (``{"enable_thinking": True}``).
    """

    backend = "vllm"

    def __init__(
        self,
        model: str,
        *,
        engine_kwargs: Mapping[str, Any] | None = None,
        engine: Engine | None = None,
        sampling_params: Callable[..., Any] | None = None,
        chat_template_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.engine_kwargs = dict(engine_kwargs or {})
        self._engine = engine
        self._sampling_params = sampling_params or _vllm_sampling_params()
        self.chat_template_kwargs = dict(chat_template_kwargs or {})

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = load_engine(self.model, self.engine_kwargs)
        return self._engine

    def __repr__(self) -> str:
        return f"VLLMClient(model={self.model!r})"

    def generate(self, prompts: Sequence[Prompt], sampling: Sampling) -> list[list[Completion]]:
        if not prompts:
            return []
        params = [self._params(p, sampling) for p in prompts]
        start = time.perf_counter()
        outputs = self._call(prompts, params)
        share = (time.perf_counter() - start) / len(prompts)
        if len(outputs) != len(prompts):
            raise BackendError(f"vLLM returned {len(outputs)} outputs for {len(prompts)} prompts")
        return [
            _completions(out, prompt.assistant_prefix, share)
            for out, prompt in zip(outputs, prompts, strict=True)
        ]

    def _params(self, prompt: Prompt, sampling: Sampling) -> Any:
        kwargs: dict[str, Any] = {
            "n": sampling.n,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
            "seed": sampling.seed if prompt.seed is None else prompt.seed,
        }
        if sampling.top_k is not None:
            kwargs["top_k"] = sampling.top_k
        if sampling.repetition_penalty is not None:
            kwargs["repetition_penalty"] = sampling.repetition_penalty
        if sampling.stop:
            kwargs["stop"] = list(sampling.stop)
        return self._sampling_params(**kwargs)

    def _call(self, prompts: Sequence[Prompt], params: list[Any]) -> list[Any]:
        """One engine call for the whole batch: ``chat`` when every prompt is a plain chat,
        otherwise ``generate`` on strings rendered with the model's own chat template."""
        engine = self.engine
        if all(p.is_chat and not p.assistant_prefix for p in prompts):
            return list(
                engine.chat(
                    [p.as_dicts() for p in prompts],
                    params,
                    use_tqdm=False,
                    chat_template_kwargs=self.chat_template_kwargs or None,
                )
            )
        return list(engine.generate([self._render(p) for p in prompts], params, use_tqdm=False))

    def _render(self, prompt: Prompt) -> str:
        if prompt.raw is not None:
            return prompt.raw
        rendered = self.engine.get_tokenizer().apply_chat_template(
            prompt.as_dicts(),
            tokenize=False,
            add_generation_prompt=True,
            **self.chat_template_kwargs,
        )
        return str(rendered) + prompt.assistant_prefix


def _completions(output: Any, prefix: str, latency: float) -> list[Completion]:
    prompt_tokens = len(getattr(output, "prompt_token_ids", None) or ())
    samples = list(getattr(output, "outputs", None) or ())
    return [
        Completion(
            text=prefix + str(sample.text),
            finish_reason=str(getattr(sample, "finish_reason", "") or ""),
            # The n samples share one prompt pass: count it once, so totals add up.
            prompt_tokens=prompt_tokens if index == 0 else 0,
            completion_tokens=len(getattr(sample, "token_ids", None) or ()),
            latency_s=latency / max(1, len(samples)),
        )
        for index, sample in enumerate(samples)
    ]
