"""A formaliser preset is data: a prompt template, sampling, a context limit and an output rule.

:class:`PresetFormaliser` turns any :class:`Preset` plus an :class:`~afcheck.llm.client.LLMClient`
into an :class:`afcheck.components.Formaliser`; :func:`preset_factory` makes the factory a
plugin registers, so a new preset takes a few lines (see ``docs/formalisers.md``).
"""

from __future__ import annotations

import hashlib
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from afcheck.errors import UsageError
from afcheck.lean.extract import ExtractionError, extract_statement
from afcheck.llm.client import LLMClient, worker_resources
from afcheck.llm.options import Options, make_client, sampling_from
from afcheck.llm.postprocess import OutputRule, lean_source
from afcheck.llm.records import (
    Completion,
    Prompt,
    Sampling,
    backend_failure_reason,
    chat,
    derive_seed,
    total_usage,
)
from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest

DEFAULT_THEOREM_NAME = "my_favorite_theorem"


@dataclass(frozen=True)
class PromptTemplate:
    """A prompt as ``str.format`` templates over the fields of :func:`prompt_fields`.

    ``raw=True`` sends ``user`` alone as a raw completion prompt (Herald's hand-built
    template); otherwise it is the user turn of a chat, after ``system`` when given.
    Literal braces in a template are written ``{{`` and ``}}``.
    """

    user: str
    system: str | None = None
    raw: bool = False
    assistant_prefix: str = ""


@dataclass(frozen=True)
class Preset:
    """Everything that makes one model a formaliser."""

    name: str
    model: str
    """Default model id (HF id for vLLM, served name for HTTP); ``model=…`` overrides it."""
    template: PromptTemplate
    sampling: Sampling
    rule: OutputRule
    context_tokens: int
    """The model's context window, given to vLLM as ``max_model_len``."""
    max_prompt_chars: int = 4000
    """Prompts longer than this are AF-Fail without a model call (App. F); 0 = no limit."""
    description: str = ""
    header: str = "import Mathlib\n"
    """The ``{header}`` field, for templates that show the model how to start."""
    chat_template_kwargs: Mapping[str, Any] = field(default_factory=dict)
    version: str = "1"

    def details(self) -> dict[str, str]:
        """What ``afcheck list formalisers`` shows."""
        return {
            "backend": "vllm|http",
            "model": self.model or "(model=…)",
            "context": str(self.context_tokens),
        }


def informal_input(request: FormaliseRequest) -> str:
    """The step with its context, as FaithformBench gives it to the fine-tuned formalisers."""
    if not request.context:
        return request.text
    context = "\n".join(request.context)
    return (
        f"<context>\n{context}\n</context>\n"
        f"Based on the context, formalize the following statement: {request.text}"
    )


def prompt_fields(request: FormaliseRequest, preset: Preset, theorem_name: str) -> dict[str, str]:
    """The fields a :class:`PromptTemplate` may use."""
    return {
        "informal": informal_input(request),
        "statement": request.text,
        "context": "\n".join(request.context) or request.problem,
        "problem": request.problem,
        "name": theorem_name,
        "header": preset.header,
    }


def build_prompt(
    preset: Preset, request: FormaliseRequest, theorem_name: str, seed: int | None = None
) -> Prompt:
    fields = prompt_fields(request, preset, theorem_name)
    template = preset.template
    user = template.user.format(**fields)
    if template.raw:
        return Prompt(raw=user, seed=seed)
    system = template.system.format(**fields) if template.system else None
    return chat(system, user, assistant_prefix=template.assistant_prefix, seed=seed)


FORMALISER_OPTIONS: Mapping[str, str] = {
    "max_prompt_chars": "prompts longer than this are AF-Fail without a model call (0 = none)",
    "theorem_name": f"theorem name asked for in the prompt ({DEFAULT_THEOREM_NAME})",
    "prompt_file": "a TOML file with the prompt: user = \"…\", and system = \"…\" for a chat "
                   "preset, templates over {informal} {statement} {context} {problem} {name} "
                   "{header}",
}

PROMPT_FIELDS = ("informal", "statement", "context", "problem", "name", "header")
"""The fields of :func:`prompt_fields`, which a template may name."""


def load_prompt_file(path: Path, preset: Preset, who: str) -> tuple[PromptTemplate, str]:
    """The prompt of ``prompt_file=PATH`` and a digest of it (for the formaliser's version,
    so that cached results of another prompt are never reused). The file is TOML: ``user``
    (required), ``system`` and ``assistant_prefix`` (a chat preset's), each a ``str.format``
    template over :data:`PROMPT_FIELDS`. Any problem is one :class:`UsageError` line."""
    where = f"{who}: prompt_file {path}"
    try:
        data = path.read_bytes()
        table = tomllib.loads(data.decode("utf-8"))
    except OSError as exc:
        raise UsageError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not UTF-8; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: not TOML ({exc}); write user = \"\"\"…\"\"\"") from None
    keys = ("user",) if preset.template.raw else ("user", "system", "assistant_prefix")
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(unknown)}; "
                         f"{preset.name} takes {', '.join(keys)}"
                         + (" (a raw completion prompt has no system turn)"
                            if preset.template.raw else ""))
    if not isinstance(table.get("user"), str) or not table["user"].strip():
        raise UsageError(f"{where}: needs user = \"…\", the prompt's text")
    for key, value in table.items():
        if not isinstance(value, str):
            raise UsageError(f"{where}: {key} must be a string")
        try:
            named = {field for _, field, _, _ in string.Formatter().parse(value) if field}
        except ValueError as exc:
            raise UsageError(f"{where}: {key}: {exc} (write a literal brace as {{{{ or }}}})"
                             ) from None
        bad = sorted(named - set(PROMPT_FIELDS))
        if bad:
            raise UsageError(f"{where}: {key} names {', '.join('{' + b + '}' for b in bad)}; "
                             f"the fields are {', '.join('{' + f + '}' for f in PROMPT_FIELDS)}")
    template = PromptTemplate(user=table["user"], system=table.get("system"),
                              raw=preset.template.raw,
                              assistant_prefix=table.get("assistant_prefix", ""))
    return template, hashlib.sha256(data).hexdigest()[:12]


class PresetFormaliser:
    """An :class:`afcheck.components.Formaliser` from a preset and a client.

    With ``n > 1`` samples the first one (in seed order) that yields a statement is kept, and
    usage adds up all of them.
    """

    def __init__(
        self,
        preset: Preset,
        client: LLMClient,
        sampling: Sampling | None = None,
        *,
        max_prompt_chars: int | None = None,
        theorem_name: str = DEFAULT_THEOREM_NAME,
    ) -> None:
        self.preset = preset
        self.client = client
        self.sampling = sampling or preset.sampling
        self.max_prompt_chars = (
            preset.max_prompt_chars if max_prompt_chars is None else max_prompt_chars
        )
        self.theorem_name = theorem_name
        self.name = preset.name
        s = self.sampling
        self.version = (
            f"{preset.version}:{client.backend}:{client.model}:t={s.temperature:g}:p={s.top_p:g}"
            f":k={s.top_k}:max={s.max_tokens}:n={s.n}:seed={s.seed}"
        )

    @property
    def resources(self) -> dict[str, float]:
        """What one cluster worker running this formaliser needs: an offline vLLM engine
        takes ``tensor_parallel_size`` GPUs; a client of a server needs none."""
        return worker_resources(self.client)

    def summary_lines(self) -> list[str]:
        """The client's lines for the end of the run (one per replica of ``base_url``)."""
        lines = getattr(self.client, "summary_lines", None)
        return list(lines()) if callable(lines) else []

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        prompts = [self._prompt(r) for r in requests]
        results: dict[int, Formalisation] = {}
        to_send: list[int] = []
        for index, (request, prompt) in enumerate(zip(requests, prompts, strict=True)):
            if self.max_prompt_chars and prompt.chars > self.max_prompt_chars:
                results[index] = self._fail(
                    request,
                    f"prompt is {prompt.chars} characters, over the {self.max_prompt_chars}-"
                    "character budget; not sent to the model",
                )
            else:
                to_send.append(index)
        if to_send:
            outputs = self.client.generate([prompts[i] for i in to_send], self.sampling)
            for index, samples in zip(to_send, outputs, strict=True):
                results[index] = self._formalisation(requests[index], samples)
        return [results[i] for i in range(len(requests))]

    def _prompt(self, request: FormaliseRequest) -> Prompt:
        seed = derive_seed(self.sampling.seed, request.key)
        return build_prompt(self.preset, request, self.theorem_name, seed)

    def _fail(self, request: FormaliseRequest, reason: str, **kwargs: Any) -> Formalisation:
        return Formalisation(
            key=request.key,
            formaliser=self.name,
            status=FormalisationStatus.AF_FAIL,
            reason=reason,
            **kwargs,
        )

    def _formalisation(
        self, request: FormaliseRequest, samples: Sequence[Completion]
    ) -> Formalisation:
        usage = total_usage(samples)
        if not samples:
            return self._fail(request, "the backend returned no sample", usage=usage)
        reasons: list[str] = []
        backend_errors: list[str] = []
        for sample in samples:
            if not sample.ok:
                backend_errors.append(sample.error)
                reasons.append(backend_failure_reason(sample.error))
                continue
            try:
                extracted = extract_statement(
                    lean_source(sample.text, self.preset.rule, sample.truncated),
                    self.theorem_name,
                )
            except ExtractionError as exc:
                reasons.append(str(exc))
                continue
            return Formalisation(
                key=request.key,
                formaliser=self.name,
                status=FormalisationStatus.OK,
                statement=extracted.statement,
                header=extracted.preamble,
                raw_output=sample.text,
                usage=usage,
            )
        reason = reasons[0] if len(set(reasons)) == 1 else "; ".join(
            f"sample {i}: {r}" for i, r in enumerate(reasons)
        )
        if backend_errors:
            # A sample the backend never produced might have been the one that extracts: the
            # result is the backend's failure, not the model's, whatever the other samples did.
            reason = backend_failure_reason(
                backend_errors[0] if len(reasons) == 1 else f"{backend_errors[0]} ({reason})"
            )
        return self._fail(request, reason, raw_output=samples[0].text, usage=usage,
                          transient=bool(backend_errors))


def preset_factory(
    preset: Preset, *, client_factory: Callable[[Options, Preset], LLMClient] | None = None
) -> Callable[[Mapping[str, str]], PresetFormaliser]:
    """The ``factory(options)`` to register for ``preset``.

    Options: the client options of :mod:`afcheck.llm.options` plus ``max_prompt_chars`` and
    ``theorem_name``. ``client_factory`` replaces backend selection (tests, custom clients).
    """

    def factory(values: Mapping[str, str]) -> PresetFormaliser:
        options = Options(f"formaliser '{preset.name}'", dict(values))
        options.check_known(FORMALISER_OPTIONS)
        chosen = preset
        prompt_file = options.text("prompt_file")
        if prompt_file:
            template, digest = load_prompt_file(Path(prompt_file).expanduser(), preset,
                                                f"formaliser '{preset.name}'")
            chosen = replace(preset, template=template, version=f"{preset.version}+{digest}")
        sampling = sampling_from(options, preset.sampling)
        max_chars = options.typed("max_prompt_chars", int, preset.max_prompt_chars)
        make = client_factory or _default_client
        return PresetFormaliser(
            chosen,
            make(options, preset),
            sampling,
            max_prompt_chars=max_chars,
            theorem_name=options.text("theorem_name", DEFAULT_THEOREM_NAME),
        )

    return factory


def _default_client(options: Options, preset: Preset) -> LLMClient:
    # The preset's context is what the paper used, but a model given with model=… may have
    # less: vLLM refuses a max_model_len above the model's own, so it is only a default.
    defaults: dict[str, Any] = {"max_model_len": preset.context_tokens}
    client = make_client(options, model=preset.model, engine_defaults=defaults)
    if preset.chat_template_kwargs and hasattr(client, "chat_template_kwargs"):
        client.chat_template_kwargs = dict(preset.chat_template_kwargs)
    return client
