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

import gc
import inspect
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from afcheck.errors import MissingDependency
from afcheck.install import install_command
from afcheck.llm.client import BackendError
from afcheck.llm.records import Completion, Prompt, Sampling


class Engine(Protocol):
    """The part of ``vllm.LLM`` this backend uses."""

    def generate(self, prompts: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]: ...

    def chat(self, messages: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]: ...

    def get_tokenizer(self) -> Any: ...


EngineFactory = Callable[..., Engine]
"""Builds an engine as ``vllm.LLM(model=…, **engine_kwargs)`` does."""

DEFAULT_MEMORY_SHARE = 0.9
"""vLLM's default ``gpu_memory_utilization``: the share of GPU memory one engine takes."""

_Key = tuple[str, tuple[tuple[str, Any], ...]]


class _Loaded:
    """One live engine and the GPU memory share it holds."""

    def __init__(self, engine: Engine, share: float) -> None:
        self.engine = engine
        self.share = share


_engines: dict[_Key, _Loaded] = {}
_engines_lock = threading.Lock()


def load_engine(
    model: str,
    engine_kwargs: Mapping[str, Any],
    *,
    defaults: Mapping[str, Any] | None = None,
    factory: EngineFactory | None = None,
) -> Engine:
    """The process-wide engine for ``model`` and these engine arguments, built once.

    ``defaults`` are engine arguments the caller would like but the model may not allow: a
    preset's ``max_model_len`` above the model's own context is dropped (vLLM refuses it)
    rather than forced. Engines already loaded whose memory shares (``gpu_memory_utilization``,
    0.9 when unset) leave no room for this one are released first: on one GPU an offline
    formaliser gives its memory back before the offline prover loads. Give both engines
    shares that add up to at most 1 to keep both loaded.
    """
    chosen = {**dict(defaults or {}), **dict(engine_kwargs)}
    key = (model, tuple(sorted(chosen.items())))
    with _engines_lock:
        if key in _engines:
            return _engines[key].engine
        share = float(chosen.get("gpu_memory_utilization", DEFAULT_MEMORY_SHARE))
        if _engines and sum(e.share for e in _engines.values()) + share > 1.0 + 1e-9:
            _release_all()
        build = factory or _vllm_llm()
        engine = _build(build, model, dict(engine_kwargs), dict(defaults or {}))
        _engines[key] = _Loaded(engine, share)
        return engine


def release_engines() -> None:
    """Release every engine this process loaded and give their GPU memory back."""
    with _engines_lock:
        _release_all()


def release_engine(model: str, engine_kwargs: Mapping[str, Any],
                   defaults: Mapping[str, Any] | None = None) -> None:
    """Release the engine :func:`load_engine` built for these arguments, if it is loaded."""
    chosen = {**dict(defaults or {}), **dict(engine_kwargs)}
    with _engines_lock:
        loaded = _engines.pop((model, tuple(sorted(chosen.items()))), None)
        if loaded is not None:
            _shut_down(loaded.engine)
            del loaded
            _free_gpu_memory()


def _release_all() -> None:
    loaded = list(_engines.values())
    _engines.clear()
    for item in loaded:
        _shut_down(item.engine)
    del loaded
    _free_gpu_memory()


def _shut_down(engine: Engine) -> None:
    """Stop an engine's workers: vLLM's V1 engine core runs in its own process."""
    core = getattr(getattr(engine, "llm_engine", None), "engine_core", None)
    shutdown = getattr(core, "shutdown", None)
    if callable(shutdown):
        try:
            shutdown()
        except Exception:  # noqa: BLE001 - releasing is best effort; the memory check follows
            pass


def _free_gpu_memory() -> None:
    gc.collect()
    try:
        from vllm.distributed.parallel_state import (
            destroy_distributed_environment,
            destroy_model_parallel,
        )

        destroy_model_parallel()
        destroy_distributed_environment()
    except Exception:  # noqa: BLE001 - absent in some versions, or nothing to destroy
        pass
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except Exception:  # noqa: BLE001 - no torch, or no GPU
        pass


def _build(build: EngineFactory, model: str, kwargs: dict[str, Any],
           defaults: dict[str, Any]) -> Engine:
    try:
        try:
            return build(model=model, **{**defaults, **kwargs})
        except Exception as exc:
            # vLLM: "User-specified max_model_len (16384) is greater than the derived
            # max_model_len (…)": the preset asked for more context than the model has.
            if "max_model_len" in defaults and "max_model_len" in str(exc):
                rest = {k: v for k, v in defaults.items() if k != "max_model_len"}
                return build(model=model, **{**rest, **kwargs})
            raise
    except Exception as exc:  # noqa: BLE001 - any load failure ends the run in one line
        message = f"vLLM could not load {model}: {type(exc).__name__}: {exc}"
        raise BackendError(" ".join(message.split())) from None


def _vllm_llm() -> EngineFactory:
    try:
        from vllm import LLM
    except ImportError:
        raise MissingDependency("the vLLM backend", "vllm", install_command("vllm")) from None
    factory: EngineFactory = LLM
    return factory


def accepts_keyword(method: Callable[..., Any], name: str) -> bool:
    """Whether ``method`` takes the keyword ``name`` (vLLM's signatures change by version:
    ``LLM.chat`` has ``chat_template_kwargs`` only from 0.9)."""
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    return name in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def _vllm_sampling_params() -> Callable[..., Any]:
    try:
        from vllm import SamplingParams
    except ImportError:
        raise MissingDependency("the vLLM backend", "vllm", install_command("vllm")) from None
    return SamplingParams


class VLLMClient:
    """An :class:`afcheck.llm.client.LLMClient` over vLLM's offline ``LLM``.

    :param engine: an :class:`Engine` to use instead of loading ``vllm.LLM``.
    :param sampling_params: the ``SamplingParams`` constructor to use instead of vLLM's.
    :param chat_template_kwargs: passed to the chat template (``{"enable_thinking": True}``).
    :param engine_defaults: engine arguments wanted unless the model refuses them (a preset's
        ``max_model_len``); see :func:`load_engine`.
    :param engine_factory: builds the engine instead of ``vllm.LLM`` (tests, embedders).

    Works with vLLM 0.6 and later: where ``LLM.chat`` cannot take ``chat_template_kwargs``
    (before 0.9) chats are rendered with the model's chat template and sent to ``generate``.
    The client holds no engine it loaded itself: :func:`release_engines` frees its memory,
    and the next call loads it again.
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
        engine_defaults: Mapping[str, Any] | None = None,
        engine_factory: EngineFactory | None = None,
    ) -> None:
        self.model = model
        self.engine_kwargs = dict(engine_kwargs or {})
        self.engine_defaults = dict(engine_defaults or {})
        self._engine = engine
        self._factory = engine_factory
        self._sampling_params = sampling_params or _vllm_sampling_params()
        self.chat_template_kwargs = dict(chat_template_kwargs or {})

    @property
    def engine(self) -> Engine:
        if self._engine is not None:
            return self._engine
        return load_engine(self.model, self.engine_kwargs, defaults=self.engine_defaults,
                           factory=self._factory)

    def __repr__(self) -> str:
        return f"VLLMClient(model={self.model!r})"

    def close(self) -> None:
        """Give back the GPU memory of the engine this client loaded (none if it was given
        one)."""
        if self._engine is None:
            release_engine(self.model, self.engine_kwargs, self.engine_defaults)

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
        """One engine call for the whole batch: ``chat`` when every prompt is a plain chat and
        ``chat`` takes the template's arguments, otherwise ``generate`` on the prompts
        rendered with the model's own chat template (:meth:`_render`)."""
        engine = self.engine
        if all(p.is_chat and not p.assistant_prefix for p in prompts) and accepts_keyword(
                engine.chat, "chat_template_kwargs"):
            return list(
                engine.chat(
                    [p.as_dicts() for p in prompts],
                    params,
                    use_tqdm=False,
                    chat_template_kwargs=self.chat_template_kwargs or None,
                )
            )
        rendered = [self._render(engine, p) for p in prompts]
        return list(engine.generate(rendered, params, use_tqdm=False))

    def _render(self, engine: Engine, prompt: Prompt) -> str | dict[str, list[int]]:
        """A raw prompt as it is; a chat rendered with the model's template and tokenized
        without special tokens, as ``LLM.chat`` does: the template already holds the BOS
        token, and a string prompt would get a second one from the tokenizer."""
        if prompt.raw is not None:
            return prompt.raw
        tokenizer = engine.get_tokenizer()
        rendered = str(tokenizer.apply_chat_template(
            prompt.as_dicts(),
            tokenize=False,
            add_generation_prompt=True,
            **self.chat_template_kwargs,
        )) + prompt.assistant_prefix
        encode = getattr(tokenizer, "encode", None)
        if not callable(encode):
            return rendered
        return {"prompt_token_ids": list(encode(rendered, add_special_tokens=False))}


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
