"""The ``fol_formaliser`` kind: natural language into first-order logic, for every method that
needs it (nl2fol, chains).

A method asks with :class:`FolTask` records: the sentences to translate in one vocabulary, the
method's own prompt for a model and the layout a model's answer takes, and the reference
formulas its data gives. A formaliser answers one :class:`FolAnswer` per task: a formula text
per sentence, in order, or why there is none. Formulas are text in the method's language (the
method parses them: a syntax error is the formaliser's, and the method classifies it). A
formaliser that builds the formulas as trees and prints them (chains' ``rules``) may pass the
trees along (:attr:`FolAnswer.trees`), so that a reader of the printer's language need not parse
its own printing again.

Reading a model's answer is this module's (:func:`read_answer`), so that every formaliser
that gets text from a model (an LLM, recorded outputs) reads it the same way: a task without
sections expects one formula in free text (:func:`afcheck_fol.extract.extract`); a task with
sections expects the seed's ``formula ::: (index) sentence`` lines under each section's
heading.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from afcheck_fol.extract import extract, without_thinking

if TYPE_CHECKING:
    from afcheck.components import Built
    from afcheck.method import Choice
    from afcheck.runtime import Runtime
    from afcheck_fol.formula import Formula


FORMALISER_LIMITS = ("the formaliser's own limits (an LLM over HTTP: timeout_s each attempt, "
                     "max_retries retries)")
"""What bounds one FOL formaliser request when a method's ``formalise`` budget sets no
bound (``nl2fol.formalise``, ``chains.formalise``)."""


@dataclass(frozen=True)
class FolTask:
    """One request: sentences to translate together (one vocabulary for all of them)."""

    id: str
    sentences: tuple[str, ...]
    user: str
    """The method's prompt for a model (the user turn)."""
    system: str | None = None
    """The method's system prompt, if it has one."""
    sections: tuple[tuple[str, int], ...] = ()
    """How a model lays out its answer: ``(("Premises", 3), ("Conclusions", 2))`` asks for
    ``formula ::: (i) sentence`` lines under each heading, the sentences in order; empty: one
    sentence, one formula in free text."""
    reference: tuple[tuple[str, ...], ...] | None = None
    """The data's own formulas, per sentence (alternatives, the first preferred; an empty
    tuple where the data has none); ``None`` when it gives none at all."""
    no_reference: str = ""
    """Why the data's reference is missing or incomplete, said when it is asked for."""
    max_tokens: int = 512
    """How long a model's answer may be (a whole chain needs more than one sentence), unless
    the formaliser's own ``max_tokens`` option says otherwise."""


@dataclass(frozen=True)
class FolAnswer:
    """A formaliser's answer to one task."""

    id: str
    formulas: tuple[str, ...] | None
    """One formula text per sentence, in order; ``None`` when there is none."""
    raw: str = ""
    """The model's output it came from, when a model wrote it."""
    error: str = ""
    """Why there are no formulas."""
    transient: bool = False
    """A backend failure (a request that failed): asked again next run, never cached."""
    trees: tuple[Formula, ...] | None = field(default=None, compare=False, repr=False)
    """The formulas as trees, when the formaliser built them and ``formulas`` is their
    FOLIO printing (:func:`afcheck_fol.printer.folio`): what parsing that text gives, so a
    FOLIO reader may take them instead. Not kept by the result cache (a cached answer is
    read from its text) and not compared (the text says the same)."""


@runtime_checkable
class FolFormaliser(Protocol):
    """Translates tasks into first-order formulas; every task of a run in one call."""

    name: str
    version: str

    def formalise(self, tasks: Sequence[FolTask], attempt: int = 0) -> list[FolAnswer]:
        """One answer per task, in order. ``attempt`` (0, 1, …) varies a sampling
        formaliser's seed when a method asks again; a deterministic one ignores it."""
        ...


def answer_to_json(answer: FolAnswer) -> dict[str, object]:
    """The answer's record in the result cache (its one codec)."""
    return {"id": answer.id, "formulas": None if answer.formulas is None
            else list(answer.formulas), "raw": answer.raw, "error": answer.error}


def answer_from_json(data: Mapping[str, object]) -> FolAnswer:
    formulas = data.get("formulas")
    return FolAnswer(str(data["id"]),
                     None if not isinstance(formulas, list) else tuple(str(f) for f in formulas),
                     str(data.get("raw", "")), str(data.get("error", "")))


def formalise_cached(runtime: Runtime, choice: Choice, tasks: Sequence[FolTask],
                     attempt: int = 0) -> list[FolAnswer]:
    """The run's FOL formaliser ``choice`` over ``tasks``, through the run's result cache
    (stage ``fol-formalise``): keyed by everything a task asks (prompt, sentences, reference)
    and the attempt (a sampling formaliser's seed derives from the task and the attempt), so
    a rerun asks a model only what it has not answered. A backend failure is asked again."""
    from afcheck_fol.kinds import FOL_FORMALISER

    built = runtime.component(FOL_FORMALISER, choice)
    formaliser = built.component
    return runtime.cached(
        "fol-formalise", cast("Built[object]", built), list(tasks),
        key=lambda t: (t.id, t.system, t.user, t.sentences, t.reference, attempt),
        call=lambda chunk: formaliser.formalise(chunk, attempt),
        load=answer_from_json,
        dump=answer_to_json,
        keep=lambda a: not a.transient,
        # A task the formaliser crashed on has no formulas, with the crash as the reason.
        failed=lambda task, reason: FolAnswer(task.id, None, error=reason, transient=True),
    ).results


def deterministic(formaliser: object) -> bool:
    """Whether asking again cannot change the answer (``deterministic = True``)."""
    return bool(getattr(formaliser, "deterministic", False))


_LINE = re.compile(r"^\s*(?P<formula>.+?)\s*:::\s*\((?P<index>\d+)\)")


def read_answer(task: FolTask, text: str) -> FolAnswer:
    """The formulas of a model's ``text`` for ``task``, or why they cannot be read."""
    if not task.sections:
        return FolAnswer(task.id, (extract(text),), raw=text)
    body = without_thinking(text)
    found: dict[str, dict[int, str]] = {name.lower(): {} for name, _ in task.sections}
    current: str | None = None
    for line in body.splitlines():
        head = line.strip().strip("#*` ").lower().rstrip(":")
        if head in found:
            current = head
            continue
        match = _LINE.match(line)
        if match and current is not None:
            found[current].setdefault(int(match.group("index")), match.group("formula"))
    formulas: list[str] = []
    for name, count in task.sections:
        lines = found[name.lower()]
        missing = [i for i in range(1, count + 1) if i not in lines]
        if missing:
            return FolAnswer(task.id, None, raw=text,
                             error=f"no formula for {name.lower()} {missing[:5]}")
        formulas.extend(lines[i] for i in range(1, count + 1))
    return FolAnswer(task.id, tuple(formulas), raw=text)
