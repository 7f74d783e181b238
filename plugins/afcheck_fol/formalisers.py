"""Where the ``nl2fol`` method's candidate formulas come from.

* ``reference`` answers with a gold formula of each item (``gold=N``, default 0; the last one
  when an item has fewer): a run with it must score 100%, which checks the suite and the
  evaluator together;
* ``replay`` reads recorded outputs, one JSON object a line ``{"id": …, "output": …}``
  (``path=FILE``), so a model's answers can be scored again without the model;
* the LLM presets send the seed's prompt (:mod:`afcheck_fol.prompts`) through
  :mod:`afcheck.llm` (vLLM offline or any OpenAI-compatible server), greedy, one batched call.

Every formaliser returns one :class:`Candidate` per item, in order: the raw output and the
formula text :func:`~afcheck_fol.extract.extract` found in it, or why there is none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from afcheck.errors import UsageError
from afcheck.llm import (
    LLMClient,
    Options,
    Prompt,
    Sampling,
    chat,
    derive_seed,
    make_client,
    sampling_from,
)
from afcheck_fol import prompts
from afcheck_fol.extract import extract
from afcheck_fol.jsonl import json_lines
from afcheck_fol.suite import Item


@dataclass(frozen=True)
class Candidate:
    item_id: str
    formula: str | None
    """The formula text to judge; ``None`` when the formaliser produced nothing."""
    output: str = ""
    """The raw output it came from."""
    error: str = ""
    """Why there is no formula."""


class FolFormaliser(Protocol):
    name: str
    version: str

    def formalise(self, items: Sequence[Item]) -> list[Candidate]: ...


class ReferenceFormaliser:
    """Answers with gold formula ``index`` of each item."""

    cacheable = False  # nothing to save: the gold is in the suite

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.name = "reference"
        self.version = f"1:gold={index}"

    def formalise(self, items: Sequence[Item]) -> list[Candidate]:
        return [
            Candidate(item.id, item.gold[min(self.index, len(item.gold) - 1)],
                      output=item.gold[min(self.index, len(item.gold) - 1)])
            for item in items
        ]


class ReplayFormaliser:
    """Answers with recorded outputs; a missing or malformed record is a candidate without a
    formula whose error says which line to fix."""

    cacheable = False  # the file is the record

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = "replay"
        self.outputs: dict[str, str] = {}
        self.problems: list[str] = []
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"replay: cannot read {path}: {exc}") from None
        for line in json_lines(path, lines):
            record = line.value
            if line.error is not None:
                self.problems.append(f"{line.location}: not JSON ({line.error.msg})")
                continue
            item_id = record.get("id") if isinstance(record, dict) else None
            output = record.get("output") if isinstance(record, dict) else None
            if not isinstance(item_id, str) or not isinstance(output, str):
                self.problems.append(f"{line.location}: expected {{\"id\": …, \"output\": …}}")
                continue
            self.outputs[item_id] = output
        self.version = f"1:{path.name}:{len(self.outputs)}"

    def formalise(self, items: Sequence[Item]) -> list[Candidate]:
        candidates = []
        for item in items:
            output = self.outputs.get(item.id)
            if output is None:
                hint = f" ({len(self.problems)} malformed line(s), first: {self.problems[0]})" \
                    if self.problems else ""
                candidates.append(Candidate(
                    item.id, None, error=f"no recorded output for {item.id} in {self.path}{hint}"
                ))
            else:
                candidates.append(Candidate(item.id, extract(output), output=output))
        return candidates


@dataclass(frozen=True)
class FolPreset:
    """A model and the prompt it gets."""

    name: str
    model: str
    system: str
    user: str
    """``str.format`` template over ``{sentence}``."""
    sampling: Sampling = field(default_factory=lambda: Sampling(max_tokens=512, temperature=0.0))
    system_in_user: bool = False
    """For chat templates without a system role (Gemma): the system text opens the user turn."""
    description: str = ""
    version: str = "1"


LLAMA = FolPreset(
    name="nl2fol-llama",
    model="meta-llama/Llama-3.1-8B-Instruct",
    system=prompts.TARSKI_SYSTEM,
    user=prompts.TARSKI_USER,
    description="the seed's Prompt 1 (Tarski's World) for Llama 3.1 8B Instruct",
)
GEMMA = FolPreset(
    name="nl2fol-gemma",
    model="google/gemma-2-9b-it",
    system=prompts.TARSKI_SYSTEM,
    user=prompts.TARSKI_USER,
    system_in_user=True,
    description="the seed's Prompt 1 (Tarski's World) for Gemma 2 9B (no system role)",
)
FOLIO_CHAT = FolPreset(
    name="nl2fol-folio",
    model="",
    system=prompts.FOLIO_SYSTEM,
    user=prompts.FOLIO_USER,
    description="FOLIO-style translation prompt for any chat model: model=NAME",
)
PRESETS: Mapping[str, FolPreset] = {p.name: p for p in (LLAMA, GEMMA, FOLIO_CHAT)}


class PresetFormaliser:
    """A :class:`FolPreset` on an :class:`~afcheck.llm.LLMClient`: one batched call."""

    def __init__(self, preset: FolPreset, client: LLMClient, sampling: Sampling) -> None:
        self.preset = preset
        self.client = client
        self.sampling = sampling
        self.name = preset.name
        self.version = (
            f"{preset.version}:{client.backend}:{client.model}:t={sampling.temperature:g}"
            f":max={sampling.max_tokens}:seed={sampling.seed}"
        )

    def prompt_for(self, item: Item) -> Prompt:
        user = self.preset.user.format(sentence=item.sentence)
        seed = derive_seed(self.sampling.seed, item.id)
        if self.preset.system_in_user:
            return chat(None, f"{self.preset.system}\n\n{user}", seed=seed)
        return chat(self.preset.system, user, seed=seed)

    def formalise(self, items: Sequence[Item]) -> list[Candidate]:
        if not items:
            return []
        outputs = self.client.generate([self.prompt_for(i) for i in items], self.sampling)
        candidates = []
        for item, samples in zip(items, outputs, strict=True):
            ok = [s for s in samples if s.ok]
            if not ok:
                reason = samples[0].error if samples else "the backend returned no sample"
                candidates.append(Candidate(item.id, None, error=f"backend error: {reason}"))
                continue
            candidates.append(Candidate(item.id, extract(ok[0].text), output=ok[0].text))
        return candidates


def make_formaliser(name: str, options: Mapping[str, str]) -> FolFormaliser:
    """The formaliser called ``name`` with its ``key=value`` options."""
    if name == "reference":
        unknown = set(options) - {"gold"}
        if unknown:
            raise UsageError(f"formaliser reference: unknown option(s) {', '.join(unknown)}")
        raw = options.get("gold", "0")
        if not raw.isdigit():
            raise UsageError(f"formaliser reference: gold={raw}: expected a whole number")
        return ReferenceFormaliser(int(raw))
    if name == "replay":
        if "path" not in options:
            raise UsageError("formaliser replay: pass path=FILE (recorded outputs, jsonl)")
        return ReplayFormaliser(Path(options["path"]))
    if name in PRESETS:
        preset = PRESETS[name]
        llm_options = Options(f"formaliser '{name}'", dict(options))
        llm_options.check_known()
        client = make_client(llm_options, model=preset.model)
        return PresetFormaliser(preset, client, sampling_from(llm_options, preset.sampling))
    known = ", ".join(["reference", "replay", *PRESETS])
    raise UsageError(f"unknown nl2fol formaliser {name!r}; known: {known}")


FORMALISER_NAMES: Sequence[str] = ("reference", "replay", *PRESETS)
FormaliserFactory = Callable[[Mapping[str, str]], FolFormaliser]
