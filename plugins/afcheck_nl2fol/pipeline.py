"""The ``nl2fol`` run's stages: every item's candidate from its FOL formaliser (one batched
call per formaliser, stage ``fol-formalise``), each group's signature alignment
(:mod:`afcheck_nl2fol.align`, a judge's confirmations asked in one call), then every item
decided (:mod:`afcheck_nl2fol.decide`) through the run's result cache (stage ``nl2fol-decide``),
keyed by the candidate, the gold formulas, the theory, the limits, the alignment and the
evaluator's version, so a rerun decides only what changed. Undecided verdicts are not cached:
they are asked again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from afcheck_fol.formaliser import FolAnswer, FolTask, formalise_cached
from afcheck_fol.formula import Formula
from afcheck_fol.kinds import FOL_FORMALISER

from afcheck.components import Built, describe
from afcheck.errors import UsageError
from afcheck.method import Case, Choice
from afcheck.runtime import Runtime
from afcheck_nl2fol.align import Alignment, Evidence
from afcheck_nl2fol.decide import Settings, decide
from afcheck_nl2fol.records import (
    UNDECIDED,
    Candidate,
    Decision,
    Subject,
    checked,
    from_json,
    to_json,
)
from afcheck_nl2fol.suite import Item


@dataclass(frozen=True)
class Nl2FolCase:
    """One item as the run decides it: the sentence, the FOL formaliser that writes its
    candidate and the settings of its decision."""

    item: Item
    formaliser: Choice
    settings: Settings
    judge: Choice | None = None
    """The FOL formaliser of the run's model, asked to confirm the alignment's renamings
    (``--nl2fol-align-judge``); ``None``: the rules alone decide."""


class Evaluator:
    """The decision stage as a component of the run: its fingerprint names everything a
    verdict depends on besides its inputs (z3's version, the grammars, taxonomy, languages and
    theories as shipped), so that a change to any of them is a cache miss."""

    name = "z3"

    def __init__(self) -> None:
        import afcheck_fol
        import z3
        from afcheck_fol.taxonomy import TABLE_VERSION

        digest = hashlib.sha256()
        language, own = Path(afcheck_fol.__file__).parent, Path(__file__).parent
        for folder in ("grammars", "languages", "theories"):
            for path in sorted((language / folder).iterdir()):
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
        for module in (own / "align.py", own / "decide.py", own / "records.py",
                       language / "equiv.py", language / "grid.py", language / "syntax.py",
                       language / "taxonomy.py", language / "ted.py"):
            digest.update(module.read_bytes())
        self.version = f"z3 {z3.get_version_string()}; taxonomy {TABLE_VERSION}"
        self.fingerprint = f"nl2fol-evaluator:{self.version}:{digest.hexdigest()[:16]}"


def run(method: str, cases: Sequence[Case[Nl2FolCase]], runtime: Runtime,
        notify: Callable[[Decision], None] | None) -> list[Decision]:
    """Every case decided, in order (see the module docstring); ``method`` names the budgets
    (``--budget nl2fol.ted.size=N``)."""
    from afcheck_fol.theory import TheoryError, theory_named

    for case in cases:  # a wrong theory name is the user's, before any work
        try:
            theory_named(case.spec.item.language, case.spec.settings.theory)
        except TheoryError as exc:
            raise UsageError(f"--nl2fol-theory: {exc}") from None
    groups: dict[Choice, list[int]] = {}
    for index, case in enumerate(cases):
        groups.setdefault(case.spec.formaliser, []).append(index)
    # Before any formaliser is built: a budget it cannot hold is one line, not a model
    # loaded for nothing.
    formalisers = {choice: runtime.budgeted(FOL_FORMALISER, choice, method, "formalise")
                   for choice in groups}
    candidates: dict[int, Candidate] = {}
    for choice, indices in groups.items():
        answers = formalise_cached(runtime, formalisers[choice],
                                   [task(cases[i].spec.item) for i in indices])
        for index, answer in zip(indices, answers, strict=True):
            candidates[index] = _candidate(answer)
    evaluator = cast("Built[object]", describe(Evaluator(), "z3", {}))
    ted, search = runtime.budget(method, "ted"), runtime.budget(method, "search")
    ordered = [candidates[i] for i in range(len(cases))]
    judges = {case.spec.judge for case in cases if case.spec.judge is not None}
    ask: Callable[[list[str]], list[str]] | None = None
    if judges:
        choice = min(judges, key=str)  # one run, one model

        def ask(questions: list[str]) -> list[str]:
            return _ask(runtime, choice, questions)
    alignments = align_groups([case.spec.item for case in cases], ordered, ask)
    work = [(replace(cases[i].spec, settings=replace(cases[i].spec.settings, ted=ted,
                                                     search=search)),
             candidates[i], alignments[i]) for i in range(len(cases))]
    records = runtime.cached(
        "nl2fol-decide", evaluator, work,
        key=lambda entry: (
            entry[0].item.language.name, entry[0].item.gold, entry[1].formula,
            entry[0].settings.theory, entry[0].settings.rlimit,
            entry[0].settings.max_domain,
            entry[0].settings.ted.size, entry[0].settings.search.size,
            entry[0].settings.search.seconds,
            # The group too: the decision's record names it.
            None if entry[2] is None else (entry[2].group, entry[2].predicates,
                                           entry[2].constants, entry[2].why, entry[2].rejected),
        ),
        call=lambda chunk: [to_json(decide(spec.item, cand, spec.settings, own))
                            for spec, cand, own in chunk],
        load=checked,
        dump=lambda record: record,
        keep=lambda record: record.get("decision") != UNDECIDED,
    ).results
    decisions = []
    for (spec, candidate, _), record in zip(work, records, strict=True):
        # A row is the decision of any item with the same gold formulas and candidate: this
        # item's own sentence, tags and raw output replace the ones it was stored with.
        decision = replace(from_json(record), item=Subject.of(spec.item), candidate=candidate)
        decisions.append(decision)
        if notify is not None:
            notify(decision)
    return decisions


def align_groups(items: Sequence[Item], candidates: Sequence[Candidate],
                 ask: Callable[[list[str]], list[str]] | None = None
                 ) -> list[Alignment | None]:
    """Each item's part of its group's signature alignment (:mod:`afcheck_nl2fol.align`):
    ``None`` where the language fixes its vocabulary (its names mean what the vocabulary
    says), where the candidate does not parse, or where nothing of it is renamed and no
    renaming of it was refused by the judge.

    The group's evidence is each item's candidate and golds, its sentence and the model's
    glosses of its names (its raw output's ``Name(x) ::: …`` lines). ``ask``, when given, is
    the judge (:func:`afcheck_nl2fol.align.judge`): every group's questions go in one call."""
    from afcheck_fol.syntax import FolSyntaxError, parse

    from afcheck_nl2fol.align import align, glosses

    parsed: list[Formula | None] = []
    for item, candidate in zip(items, candidates, strict=True):
        formula = None
        if item.language.arity != "fixed" and candidate.formula is not None:
            try:
                formula = parse(candidate.formula, item.language)
            except FolSyntaxError:
                formula = None
        parsed.append(formula)
    members: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        # Two suites of a run may use the same group names: a group is a suite's own.
        members.setdefault((item.dataset, item.alignment_group), []).append(index)
    proposed: list[tuple[list[int], list[Evidence], Alignment]] = []
    for (_, group), indices in members.items():
        evidence = [Evidence(formula, items[i].formulas, items[i].sentence,
                             glosses(candidates[i].output))
                    for i in indices for formula in (parsed[i],) if formula is not None]
        if evidence:
            proposed.append((indices, evidence, align(group, evidence, ask is not None)))
    if ask is not None:
        proposed = _judged(proposed, ask)
    found: list[Alignment | None] = [None] * len(items)
    for indices, _, alignment in proposed:
        for i in indices:
            formula = parsed[i]
            if formula is not None:
                restricted = alignment.restricted(formula)
                shown = not restricted.empty or restricted.rejected
                found[i] = restricted if shown else None
    return found


def _judged(proposed: list[tuple[list[int], list[Evidence], Alignment]],
            ask: Callable[[list[str]], list[str]]
            ) -> list[tuple[list[int], list[Evidence], Alignment]]:
    """Every group's alignment as the judge confirms it, its questions asked in one call."""
    from afcheck_nl2fol.align import confirmed, questions

    asked = [questions(alignment, evidence) for _, evidence, alignment in proposed]
    flat = [q for group in asked for q in group]
    answers = iter(ask(flat) if flat else [])
    return [(indices, evidence, confirmed(alignment, [next(answers) for _ in group]))
            for (indices, evidence, alignment), group in zip(proposed, asked, strict=True)]


def _ask(runtime: Runtime, judge: Choice, questions: list[str]) -> list[str]:
    """The judge's answers: the run's model asked each question through the result cache
    (stage ``fol-formalise``); a request that failed answers its error, which is no yes."""
    from afcheck_nl2fol.align import JUDGE_SYSTEM

    tasks = [FolTask(f"align-judge/{hashlib.sha256(q.encode()).hexdigest()[:16]}", (q,), q,
                     system=JUDGE_SYSTEM, max_tokens=128) for q in questions]
    answers = formalise_cached(runtime, judge, tasks)
    return [answer.raw or f"(no answer: {answer.error})" for answer in answers]


def task(item: Item) -> FolTask:
    """The sentence as a FOL task: the seed's prompt for the item's language (Tarski's World's
    fixed vocabulary, or FOLIO's open one, with the suite's vocabulary where it gives one)
    and its gold formulas as the reference."""
    from afcheck_nl2fol import prompts

    tarski = item.language.name == "tarski"
    system = prompts.TARSKI_SYSTEM if tarski else prompts.folio_system(
        None if item.vocabulary is None else item.vocabulary.predicates,
        () if item.vocabulary is None else item.vocabulary.constants)
    user = (prompts.TARSKI_USER if tarski else prompts.FOLIO_USER).format(sentence=item.sentence)
    return FolTask(item.id, (item.sentence,), user, system=system, reference=(item.gold,))


def _candidate(answer: FolAnswer) -> Candidate:
    if answer.formulas is None:
        return Candidate(answer.id, None, answer.raw, answer.error)
    return Candidate(answer.id, answer.formulas[0], answer.raw or answer.formulas[0])
