"""The built-in FOL formalisers (kind ``fol_formaliser``, see :mod:`afcheck_fol.formaliser`).

* ``reference`` answers with the data's own formulas (``gold=N``: the N-th alternative, the last
  one when a sentence has fewer; default 0): a run with it must score 100%, which checks the
  suite and the evaluator together;
* ``replay`` reads recorded outputs, one JSON object a line ``{"id": …, "output": …}``
  (``path=FILE``), or a ``recorded`` suite's lines, whose answer is their ``translation``
  (keyed by model and id: :func:`recorded_names`), read as a model's answer, so a model's
  answers can be scored again without the model. A ``recorded`` suite gives it its own data
  file: the path is named once, as the suite's ``data``;
* ``llm`` and the presets ``nl2fol-llama``, ``nl2fol-gemma``, ``nl2fol-folio`` send the method's
  prompt to a chat model through :mod:`afcheck.llm` (vLLM offline or any OpenAI-compatible
  server), greedy, one batched call. ``llm`` is also what a model given with ``--formaliser``
  (``kimina``, ``frontier``) becomes for the FOL methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from afcheck.errors import UsageError
from afcheck.jsonlines import place_name, read_json_lines
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
from afcheck.printable import printable
from afcheck.types import Location
from afcheck_fol.formaliser import FolAnswer, FolTask, read_answer
from afcheck_fol.presets import PRESETS, FolPreset


class ReferenceFormaliser:
    """Answers with the data's formulas: alternative ``index`` of each sentence."""

    cacheable = False  # nothing to save: the reference is in the suite
    deterministic = True

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.name = "reference"
        self.version = f"2:gold={index}"

    def formalise(self, tasks: Sequence[FolTask], attempt: int = 0) -> list[FolAnswer]:
        return [self._one(task) for task in tasks]

    def _one(self, task: FolTask) -> FolAnswer:
        why = task.no_reference or "no reference FOL in the data for this item"
        if task.reference is None or any(not options for options in task.reference):
            return FolAnswer(task.id, None, error=why)
        formulas = tuple(options[min(self.index, len(options) - 1)]
                         for options in task.reference)
        return FolAnswer(task.id, formulas, raw="\n".join(formulas))


RECORDED_FIELDS = ("translation", "model", "source", "sentence", "premises", "context",
                   "response", "steps")
"""Fields that make a line a recorded output of a ``recorded`` suite, whose model answer is
its ``translation``; a line with none of them is in the replay format ``{"id", "output"}``."""

REPLAY_FORMAT = 'expected {"id": …, "output": …} (a recorded output, one JSON object a line)'
RECORDED_FORMAT = ("no 'translation' (the model's FOL answer, as text) on this recorded output; "
                   "add it, or choose another --fol-formaliser to translate its sentences")


def recorded_names(lines: Sequence[tuple[Location, Mapping[str, object]]]) -> list[str]:
    """The name each recorded output answers to, in order: its ``id`` (its place in the file,
    ``line12``, where it has none), or ``MODEL/ID`` where lines of several models share the id.

    Outputs are keyed by (model, id): two models that answered the same item are two items,
    and neither is judged on the other's answer. The ``recorded`` suite names its records by
    this function and the ``replay`` formaliser its outputs, so the two always agree."""
    ids = []
    for location, value in lines:
        given = value.get("id")
        ids.append(given.strip() if isinstance(given, str) and given.strip()
                   else place_name(location))
    models: dict[str, set[object]] = {}
    for (_, value), item_id in zip(lines, ids, strict=True):
        models.setdefault(item_id, set()).add(value.get("model"))
    return [f"{value.get('model')}/{item_id}" if len(models[item_id]) > 1
            and isinstance(value.get("model"), str) else item_id
            for (_, value), item_id in zip(lines, ids, strict=True)]


class ReplayFormaliser:
    """Answers with recorded outputs; a missing or malformed record is an answer without
    formulas whose error says which line to fix and which format it expects.

    A line is either the replay format ``{"id": …, "output": …}`` or a ``recorded`` suite's
    line (:data:`RECORDED_FIELDS`), whose answer is its ``translation``; outputs are named by
    :func:`recorded_names` (model and id)."""

    cacheable = False  # the file is the record
    deterministic = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = "replay"
        self.outputs: dict[str, str] = {}
        self.problems: list[str] = []
        self.unusable: dict[str, str] = {}
        """Names of lines that were read but hold no answer → what is wrong with them."""
        where: dict[str, Location] = {}
        try:
            lines = list(read_json_lines(path))
        except OSError as exc:
            raise UsageError(f"replay: cannot read {path}: {exc}") from None
        records: list[tuple[Location, Mapping[str, object]]] = []
        for line in lines:
            if not line.ok:
                self.problems.append(f"{line.location}: {line.problem}")
            elif not isinstance(line.value, dict):
                self.problems.append(f"{line.location}: {REPLAY_FORMAT}")
            else:
                records.append((line.location, line.value))
        for (location, record), name in zip(records, recorded_names(records), strict=True):
            recorded = any(key in record for key in RECORDED_FIELDS) and "output" not in record
            output = record.get("translation" if recorded else "output")
            if not isinstance(output, str):
                problem = f"{location}: {RECORDED_FORMAT if recorded else REPLAY_FORMAT}"
                self.problems.append(problem)
                self.unusable.setdefault(name, problem)
            elif name in where:
                # Two answers to one item from one model: which the run would score is a guess.
                raise UsageError(f"{location}: a second output for "
                                 f"{printable(name, newlines=False)} (model and id); the first "
                                 f"is at {where[name]}: keep one of them")
            else:
                where[name] = location
                self.outputs[name] = output
        self.version = f"2:{path.name}:{len(self.outputs)}"

    def formalise(self, tasks: Sequence[FolTask], attempt: int = 0) -> list[FolAnswer]:
        answers = []
        for task in tasks:
            output = self.outputs.get(task.id)
            if output is not None:
                answers.append(read_answer(task, output))
                continue
            own = self.unusable.get(task.id)
            if own is not None:
                error = f"no recorded output for {task.id}: {own}"
            else:
                hint = f" ({len(self.problems)} malformed line(s), first: {self.problems[0]})" \
                    if self.problems else ""
                error = f"no recorded output for {task.id} in {self.path}{hint}"
            answers.append(FolAnswer(task.id, None, error=error))
        return answers


class PresetFormaliser:
    """A :class:`FolPreset` on an :class:`~afcheck.llm.LLMClient`: one batched call per
    answer length the tasks ask for."""

    deterministic = False

    def __init__(self, preset: FolPreset, client: LLMClient, sampling: Sampling,
                 max_tokens_given: bool = False) -> None:
        self.preset = preset
        self.client = client
        self.sampling = sampling
        self.max_tokens_given = max_tokens_given
        self.name = preset.name
        self.version = (
            f"{preset.version}:{client.backend}:{client.model}:t={sampling.temperature:g}"
            f":max={sampling.max_tokens if max_tokens_given else 'task'}:seed={sampling.seed}"
        )
        self.fingerprint = f"fol-llm/{self.version}"

    def prompt_for(self, task: FolTask, attempt: int = 0) -> Prompt:
        seed = derive_seed(self.sampling.seed, task.id if not attempt else f"{task.id}#{attempt}")
        if task.system is not None and self.preset.system_in_user:
            return chat(None, f"{task.system}\n\n{task.user}", seed=seed)
        return chat(task.system, task.user, seed=seed)

    def formalise(self, tasks: Sequence[FolTask], attempt: int = 0) -> list[FolAnswer]:
        groups: dict[int, list[int]] = {}
        for index, task in enumerate(tasks):
            length = self.sampling.max_tokens if self.max_tokens_given else task.max_tokens
            groups.setdefault(length, []).append(index)
        answers: dict[int, FolAnswer] = {}
        for length, indices in groups.items():
            sampling = replace(self.sampling, max_tokens=length)
            outputs = self.client.generate([self.prompt_for(tasks[i], attempt) for i in indices],
                                           sampling)
            for index, samples in zip(indices, outputs, strict=True):
                task = tasks[index]
                ok = [sample for sample in samples if sample.ok]
                if not ok:
                    reason = samples[0].error if samples else "the backend returned no sample"
                    answers[index] = FolAnswer(task.id, None, error=f"backend error: {reason}",
                                               transient=True)
                else:
                    answers[index] = read_answer(task, ok[0].text)
        return [answers[i] for i in range(len(tasks))]


def sampling_of(preset: FolPreset) -> Sampling:
    """The preset's own sampling, before any ``max_tokens=…``/``temperature=…`` option."""
    return Sampling(max_tokens=preset.max_tokens, temperature=preset.temperature)


def make_reference(options: Mapping[str, str]) -> ReferenceFormaliser:
    unknown = sorted(set(options) - {"gold"})
    if unknown:
        raise UsageError(f"fol formaliser reference: unknown option(s) {', '.join(unknown)}; "
                         "it takes gold=N")
    raw = options.get("gold", "0")
    if not raw.isdigit():
        raise UsageError(f"fol formaliser reference: gold={raw}: expected a whole number")
    return ReferenceFormaliser(int(raw))


def make_replay(options: Mapping[str, str]) -> ReplayFormaliser:
    if "path" not in options:
        raise UsageError("fol formaliser replay: pass path=FILE (recorded outputs, jsonl)")
    unknown = sorted(set(options) - {"path"})
    if unknown:
        raise UsageError(f"fol formaliser replay: unknown option(s) {', '.join(unknown)}")
    return ReplayFormaliser(Path(options["path"]))


def make_preset(name: str, options: Mapping[str, str]) -> PresetFormaliser:
    """The LLM formaliser ``name`` (``llm`` or a preset) with its client options."""
    preset = PRESETS[name]
    llm_options = Options(f"fol formaliser '{name}'", dict(options))
    llm_options.check_known()
    if not preset.model and not llm_options.text("model"):
        raise UsageError(f"fol formaliser '{name}': pass model=NAME (and base_url=URL for a "
                         "server), or give the model with --formaliser")
    client = make_client(llm_options, model=preset.model)
    return PresetFormaliser(preset, client, sampling_from(llm_options, sampling_of(preset)),
                            max_tokens_given="max_tokens" in options)
