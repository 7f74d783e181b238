"""Chains into first-order logic through the ``fol_formaliser`` kind.

A chain is one :class:`~afcheck_fol.formaliser.FolTask` (:func:`task`): its premises, kept
steps and conclusion in one vocabulary, the seed's NL2FOL prompt (:mod:`afcheck_chains.llm`)
for a model, and the data's reference FOL (FOLIO's ``premises-FOL``, ``*_fol`` fields of
recorded responses) for ``reference``. :func:`read_chain` parses the answer into a
:class:`FormalChain`, or says why there is none (a sentence outside a formaliser's reach, FOL
that does not parse). This plugin adds the FOL formaliser ``rules``: the controlled-English
translator of PrOntoQA and ProofWriter sentences (:class:`RuleFormaliser`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from afcheck_fol.formaliser import FolAnswer, FolFormaliser, FolTask, deterministic
from afcheck_fol.formula import Formula

from afcheck.budget import Budget, OverBudget
from afcheck_chains.controlled import Untranslatable, translate_chain
from afcheck_chains.records import ChainRecord
from afcheck_chains.verify import FormalChain


@dataclass(frozen=True)
class Formalised:
    chain: FormalChain | None
    failure: str = ""
    """Why there is no chain (empty when there is one)."""
    raw: str = ""
    """The model's output, when a model wrote it."""
    unread: bool = False
    """Nothing is known about the translation, so the item is undecided, not an analysis
    failure: a formula over the ``translate`` budget (not parsed), or a request that got no
    answer (a backend error: a server that failed, a request stopped by the ``formalise``
    budget)."""


TRANSLATE_BUDGET = Budget(size=100_000, unit="bytes")
"""The largest formula read from a formaliser's answer. Parsing is about linear in its size
(measured: a conjunction of 10,000 atoms, 110 KB, 1.3 s; of 50,000, 7.4 s), and every formula
then goes to the prover twice per query; the formulas of the data sets are under 1 KB."""


class ChainFormaliser(Protocol):
    """What :func:`afcheck_chains.pipeline.run_chains` asks: a whole chain per record."""

    deterministic: bool

    def formalise(self, records: Sequence[ChainRecord], attempt: int) -> list[Formalised]:
        """One answer per record; ``attempt`` (0, 1, …) varies a sampling formaliser's seed."""
        ...


def task(record: ChainRecord) -> FolTask:
    """The chain as one FOL task: premises, then the kept steps and the conclusion (the
    seed translates them in one pass, so that names agree), with the seed's prompt and the
    data's reference FOL where it has one."""
    from afcheck_chains.llm import prompt_text

    sentences = (*record.premises, *record.steps, record.conclusion)
    reference, why = _reference(record)
    return FolTask(
        record.id, sentences, prompt_text(record),
        sections=(("Premises", len(record.premises)), ("Conclusions", len(record.steps) + 1)),
        reference=reference, no_reference=why, max_tokens=4096)


def _reference(record: ChainRecord) -> tuple[tuple[tuple[str, ...], ...] | None, str]:
    gold = record.gold_fol
    if gold is None:
        return None, "no reference FOL in the data for this chain"
    if gold.conclusion is None:
        return None, ("no reference FOL for the conclusion (FOLIO's training split has "
                      "none); use a model formaliser")
    if len(gold.steps) != len(record.steps) or any(s is None for s in gold.steps):
        return None, f"reference FOL for {len(gold.steps)} of {len(record.steps)} kept steps"
    texts = (*gold.premises, *(s or "" for s in gold.steps), gold.conclusion)
    return tuple((text,) for text in texts), ""


def read_chains(records: Sequence[ChainRecord], answers: Sequence[FolAnswer],
                budget: Budget = TRANSLATE_BUDGET) -> list[Formalised]:
    """:func:`read_chain` of each answer, each distinct formula text parsed once: chains of
    one story share their premises (ProofWriter's 600 dev chains hold 11,690 formulas, 3,192
    of them distinct), and a parse is a pure function of its text."""
    parsed: dict[str, Formula] = {}
    return [read_chain(r, a, budget, parsed) for r, a in zip(records, answers, strict=True)]


def read_chain(record: ChainRecord, answer: FolAnswer, budget: Budget = TRANSLATE_BUDGET,
               parsed: dict[str, Formula] | None = None) -> Formalised:
    """The chain in FOL from a FOL formaliser's answer (FOLIO's syntax), or why not; a formula
    over ``budget`` (its ``size`` in bytes) is not parsed. ``parsed`` holds formulas already
    parsed, by text; those parsed here are added."""
    from afcheck_fol.language import FOLIO
    from afcheck_fol.syntax import FolSyntaxError, parse

    known = {} if parsed is None else parsed
    if answer.formulas is None:
        return Formalised(None, answer.error or "no formalisation", answer.raw,
                          unread=answer.transient)
    # The kept steps and the conclusion close the answer; the premises are what comes first
    # (the data's reference may state the premises in more or fewer formulas than sentences).
    tail = len(record.steps) + 1
    if len(answer.formulas) <= tail:
        return Formalised(None, f"{len(answer.formulas)} formulas for "
                                f"{len(record.premises) + tail} sentences", answer.raw)
    count = len(answer.formulas) - tail
    # The formaliser's own trees, which its text prints (``rules``): parsing that text again
    # gives the same trees (tests/test_chains_formalise.py checks it on the data). The size
    # bound holds for them too, so that a cached answer (text only) is decided alike.
    trees = answer.trees if answer.trees is not None and len(
        answer.trees) == len(answer.formulas) else None
    names = [*(f"premise {i}" for i in range(1, count + 1)),
             *(f"step {i}" for i in range(1, tail)), "conclusion"]
    formulas: list[Formula] = []
    for index, (name, text) in enumerate(zip(names, answer.formulas, strict=True)):
        formula = known.get(text)
        if formula is None:
            try:
                budget.check_size("translate", len(text.encode("utf-8", "surrogatepass")))
            except OverBudget as exc:
                return Formalised(None, f"{name}: {exc} (--budget chains.translate.size)",
                                  answer.raw, unread=True)
            if trees is not None:
                formula = trees[index]
            else:
                try:
                    formula = known[text] = parse(text, FOLIO)
                except FolSyntaxError as exc:
                    return Formalised(None, f"{name}: {exc}", answer.raw)
        formulas.append(formula)
    chain = FormalChain(tuple(formulas[:count]), formulas[-1], tuple(formulas[count:-1]))
    return Formalised(chain, "", answer.raw)


class FolChains:
    """A FOL formaliser asked for whole chains, directly (the method asks through the run's
    result cache instead; see :mod:`afcheck_chains.backends`)."""

    def __init__(self, formaliser: FolFormaliser) -> None:
        self.formaliser = formaliser
        self.deterministic = deterministic(formaliser)

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        answers = self.formaliser.formalise([task(r) for r in records], attempt)
        return read_chains(records, answers)


class RuleFormaliser:
    """The controlled-English translator (PrOntoQA, ProofWriter) as a FOL formaliser: every
    sentence of a task, or the first one outside its reach. A chain's sentences are read in
    the context of its premises (:func:`afcheck_chains.controlled.translate_chain`): its
    classes, its names, what a pronoun refers to."""

    name = "rules"
    version = "3"
    fingerprint = "rules/3"
    deterministic = True
    cacheable = False  # cheaper to translate again than to look up

    def formalise(self, tasks: Sequence[FolTask], attempt: int = 0) -> list[FolAnswer]:
        return [self._one(task) for task in tasks]

    @staticmethod
    def _one(task: FolTask) -> FolAnswer:
        from afcheck_fol.printer import Unprintable, folio

        premises = next((count for name, count in task.sections if name == "Premises"),
                        len(task.sentences))
        try:
            trees = tuple(translate_chain(task.sentences, premises))
            formulas = tuple(folio(f) for f in trees)
        except (Untranslatable, Unprintable) as exc:
            return FolAnswer(task.id, None, error=str(exc))
        return FolAnswer(task.id, formulas, trees=trees)


def make_rules(options: Mapping[str, str]) -> RuleFormaliser:
    if options:
        from afcheck.errors import UsageError

        raise UsageError(f"fol formaliser rules takes no options, got "
                         f"{', '.join(sorted(options))}")
    return RuleFormaliser()
