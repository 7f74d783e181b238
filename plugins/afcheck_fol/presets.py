"""The models the FOL plugin registers as FOL formalisers, as data: registering them reads
this module only (the client code is imported when one is built, in
:mod:`afcheck_fol.formalisers`). The prompt is the asking method's, never the preset's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class FolPreset:
    """A model as a FOL formaliser: its id, how its chat template takes the prompt, and its
    sampling (greedy by default)."""

    name: str
    model: str
    """The default model id; ``""``: ``model=…`` must be given."""
    description: str
    system_in_user: bool = False
    """For chat templates without a system role (Gemma): the system text opens the user turn."""
    max_tokens: int = 512
    temperature: float = 0.0
    version: str = "1"


GENERIC = FolPreset(
    "llm", "", "the asking method's prompt to any chat model; what a model given with "
    "--formaliser becomes for the FOL methods")
LLAMA = FolPreset("nl2fol-llama", "meta-llama/Llama-3.1-8B-Instruct", "Llama 3.1 8B Instruct")
GEMMA = FolPreset("nl2fol-gemma", "google/gemma-2-9b-it", "Gemma 2 9B (no system role)",
                  system_in_user=True)
FOLIO_CHAT = FolPreset("nl2fol-folio", "", "any chat model (model=NAME)")

PRESETS: Mapping[str, FolPreset] = {p.name: p for p in (GENERIC, LLAMA, GEMMA, FOLIO_CHAT)}
