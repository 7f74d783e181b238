"""Built-in afcheck plugin: llm — the formaliser presets and the ``llm`` perturber."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_formalisers(register: Register) -> None:
    from afcheck.llm import preset_factory
    from afcheck.llm.options import VOLATILE, request_budget
    from afcheck.model import ModelRef
    from afcheck_llm.presets import PRESETS

    for preset in PRESETS:
        register(
            preset.name,
            preset_factory(preset),
            description=preset.description,
            details=preset.details(),
            # A model: the FOL methods ask the same model with their own prompts.
            model=ModelRef(preset.model, preset.context_tokens),
            # A stage's seconds: one request's deadline, retries included (HTTP only).
            budget=request_budget,
            volatile=VOLATILE,  # a paid reply is kept whatever the deadline it came within
        )


@hookimpl
def afcheck_register_perturbers(register: Register) -> None:
    from afcheck.llm.options import VOLATILE, request_budget

    register(
        "llm",
        _make_perturber,
        description="App. E prompt: a model makes a minimal falsifying edit",
        details={"backend": "vllm|http", "model": "(model=…)"},
        budget=request_budget,  # a stage's seconds: one request's deadline (HTTP only)
        volatile=VOLATILE,
    )


def _make_perturber(options: Mapping[str, str]) -> Any:
    from afcheck_llm.perturber import make_perturber

    return make_perturber(options)
