"""The ``nl2fol`` evaluation method and suite kind on the run API (:mod:`afcheck.method`).

A test item is a sentence with its gold formulas (:class:`~afcheck_fol.suite.Item`). The
candidate comes from the run's FOL formaliser (kind ``fol_formaliser``): ``--fol-formaliser
NAME`` (``reference``, ``replay`` with ``path=FILE``, ``llm``, the nl2fol presets), else the
model of ``--formaliser`` asked with the seed's prompt, else the suite's ``[afcheck.defaults]
fol_formaliser``, else ``reference``. The background theory is
``--nl2fol-theory``, else the suite's ``[afcheck.options] theory``, else each language's
default (Tarski's World: ``analytic``).

Two batched stages, both through the run's result cache: ``fol-formalise`` (one call of the
formaliser for every item) and ``nl2fol-decide`` (parse, nearest gold, z3), keyed by the
candidate, the gold formulas, the theory, the limits and the evaluator's version, so a rerun
decides only what changed. Undecided verdicts are not cached: they are asked again.

Outcome: passed when the candidate is equivalent to a gold formula; failed with the syntax
error's class or the counter-model; skipped when z3 could not decide. Beside it, the aligned
outcome (:mod:`afcheck_fol.align`): before deciding, each group's (story's) candidates and gold
formulas give one signature alignment, and each item is also judged with its symbols renamed;
the aligned outcome is evidence and a metric, never the test's status. With
``--nl2fol-align-judge`` the run's model (``--formaliser``, adopted as the FOL formaliser
kind adopts it) confirms each renaming before it is used, all questions in one call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from afcheck.budget import Budget
from afcheck.components import Built, describe
from afcheck.errors import LoadError, SuiteError, UsageError
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.runtime import Runtime
from afcheck.suites import Record, SuiteSpec
from afcheck.types import Status
from afcheck_fol.align import Alignment, Evidence
from afcheck_fol.decide import (
    UNDECIDED,
    Candidate,
    Decision,
    Settings,
    checked_record,
    decide,
    from_record,
    outcome,
    to_json,
    verdict_record,
)
from afcheck_fol.equiv import SEARCH_BUDGET
from afcheck_fol.formaliser import FORMALISER_LIMITS, FolAnswer, FolTask, formalise_cached
from afcheck_fol.formula import Formula
from afcheck_fol.kinds import FOL_FORMALISER
from afcheck_fol.presets import PRESETS
from afcheck_fol.suite import Item
from afcheck_fol.summary import GATES, Nl2FolSummary, summarise
from afcheck_fol.ted import BUDGET as TED_BUDGET

DEFAULT_FORMALISER = "reference"


@dataclass(frozen=True)
class Nl2FolCase:
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
        import z3

        from afcheck_fol.taxonomy import TABLE_VERSION

        digest = hashlib.sha256()
        root = Path(__file__).parent
        for folder in ("grammars", "languages", "theories"):
            for path in sorted((root / folder).iterdir()):
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
        for module in ("align.py", "decide.py", "equiv.py", "grid.py", "syntax.py",
                       "taxonomy.py", "ted.py"):
            digest.update((root / module).read_bytes())
        self.version = f"z3 {z3.get_version_string()}; taxonomy {TABLE_VERSION}"
        self.fingerprint = f"nl2fol-evaluator:{self.version}:{digest.hexdigest()[:16]}"


class Nl2FolMethod(MethodBase[Nl2FolCase, Decision]):
    """Parse → syntax-error class, or nearest gold by tree edit distance → z3 equivalence."""

    name = "nl2fol"
    version = "1"
    kinds: tuple[str, ...] = ("fol_formaliser",)
    defaults: Mapping[str, object] = {"fol_formaliser": DEFAULT_FORMALISER}
    gates: Mapping[str, str] = GATES
    next_steps: Mapping[str, str] = {
        "model run": "afcheck {paths} --formaliser frontier "
                     "--formaliser-opt model=NAME,base_url=http://127.0.0.1:8000/v1",
        "gate in CI": "afcheck {paths} --gate 'nl2fol.aligned_accuracy>=0.6' "
                      "--json results.json --junitxml results.xml",
    }
    """What to try after a first run: a model's translations (behind an OpenAI-compatible
    server), a gate."""
    budgets: Mapping[str, Budget] = {"ted": TED_BUDGET, "search": SEARCH_BUDGET,
                                     "formalise": Budget(otherwise=FORMALISER_LIMITS)}
    """``formalise``: one FOL formaliser request for one sentence; its ``seconds`` reach the
    formaliser as the options that bound it (:meth:`afcheck.runtime.Runtime.budgeted`; an LLM
    over HTTP: the whole request, retries included), and a request stopped there is that
    item's backend error, never cached; unset, the formaliser's own limits hold. The tree edit
    distance is computed only on trees up to a size (see
    :mod:`afcheck_fol.ted`): above it the golds are ranked by a bound and the item says so.
    The finite-model search before z3 expands only up to a size and for a time
    (:mod:`afcheck_fol.equiv`); the z3 attempts after it are bounded by ``rlimit``."""

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, Nl2FolCase]]:
        if not isinstance(record, Item):
            raise TypeError(f"the nl2fol method reads sentences, got {type(record).__name__}")
        options = selection.suite.options
        theory = selection.option("nl2fol_theory") or options.get("theory")
        rlimit = options.get("rlimit", Settings.rlimit)
        if not isinstance(rlimit, int) or rlimit < 1:
            raise SuiteError(selection.suite.manifest,
                             f"[afcheck.options] rlimit = {rlimit!r}: give z3's resource limit "
                             "per call as a whole number >= 1")
        if theory is not None and not selection.option("nl2fol_theory"):
            from afcheck_fol.theory import TheoryError, theory_named

            try:  # the suite's own choice: its file is the place to fix it
                theory_named(record.language, str(theory))
            except TheoryError as exc:
                raise SuiteError(selection.suite.where("theory"),
                                 f"[afcheck.options] theory: {exc}") from None
        settings = Settings(theory=None if theory is None else str(theory), rlimit=rlimit)
        judge = None
        if selection.option("nl2fol_align_judge"):
            model = selection.option("formaliser")
            if not model:
                raise UsageError("--nl2fol-align-judge asks the run's model: name it with "
                                 "--formaliser MODEL (--formaliser-opt K=V for its options)")
            # The run's one model, as the FOL formaliser kind adopts it (afcheck.model).
            judge = selection.choose("fol_formaliser", str(model))
            if judge.name not in PRESETS:
                raise UsageError(f"--nl2fol-align-judge asks the run's model, and --formaliser "
                                 f"{model} is no model; name one (--formaliser frontier "
                                 "--formaliser-opt model=NAME,base_url=URL)")
        yield record.case_name, Nl2FolCase(record, selection.choice("fol_formaliser"), settings,
                                           judge)

    def choices(self, case: Nl2FolCase) -> Iterable[tuple[str, Choice]]:
        own = (("fol_formaliser", case.formaliser),)
        return own if case.judge is None else (*own, ("fol_formaliser", case.judge))

    def run(self, cases: Sequence[Case[Nl2FolCase]], runtime: Runtime,
            notify: Callable[[Decision], None] | None) -> list[Decision]:
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
        formalisers = {choice: runtime.budgeted(FOL_FORMALISER, choice, self.name, "formalise")
                       for choice in groups}
        candidates: dict[int, Candidate] = {}
        for choice, indices in groups.items():
            answers = formalise_cached(runtime, formalisers[choice],
                                       [task(cases[i].spec.item) for i in indices])
            for index, answer in zip(indices, answers, strict=True):
                candidates[index] = _candidate(answer)
        evaluator = cast("Built[object]", describe(Evaluator(), "z3", {}))
        ted, search = runtime.budget(self.name, "ted"), runtime.budget(self.name, "search")
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
                None if entry[2] is None else (entry[2].predicates, entry[2].constants,
                                               entry[2].why, entry[2].rejected),
            ),
            call=lambda chunk: [verdict_record(decide(spec.item, cand, spec.settings, own))
                                for spec, cand, own in chunk],
            load=checked_record,
            dump=lambda r: r,
            keep=lambda r: r.get("status") != UNDECIDED,
        ).results
        decisions = []
        for (spec, candidate, _), record in zip(work, records, strict=True):
            decision = from_record(spec.item, candidate, record)
            decisions.append(decision)
            if notify is not None:
                notify(decision)
        return decisions

    def outcome(self, result: Decision) -> ItemOutcome:
        shown = outcome(result)
        status = shown.status
        # A passed item has no message (the run's contract); its evidence stays in details.
        return ItemOutcome(status, "" if status is Status.PASSED else shown.message,
                           shown.details)

    def timings(self, result: Decision) -> Mapping[str, float]:
        return {"nl2fol-decide": result.seconds}

    def to_json(self, result: Decision) -> JsonObject:
        return to_json(result)

    def summarise(self, items: Sequence[ItemResult[Decision]]) -> Nl2FolSummary:
        return summarise([item.result for item in items])


def align_groups(items: Sequence[Item], candidates: Sequence[Candidate],
                 ask: Callable[[list[str]], list[str]] | None = None
                 ) -> list[Alignment | None]:
    """Each item's part of its group's signature alignment (:mod:`afcheck_fol.align`):
    ``None`` where the language fixes its vocabulary (its names mean what the vocabulary
    says), where the candidate does not parse, or where nothing of it is renamed and no
    renaming of it was refused by the judge.

    The group's evidence is each item's candidate and golds, its sentence and the model's
    glosses of its names (its raw output's ``Name(x) ::: …`` lines). ``ask``, when given, is
    the judge (:func:`afcheck_fol.align.judge`): every group's questions go in one call."""
    from afcheck_fol.align import align, glosses
    from afcheck_fol.syntax import FolSyntaxError, parse

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
    from afcheck_fol.align import confirmed, questions

    asked = [questions(alignment, evidence) for _, evidence, alignment in proposed]
    flat = [q for group in asked for q in group]
    answers = iter(ask(flat) if flat else [])
    return [(indices, evidence, confirmed(alignment, [next(answers) for _ in group]))
            for (indices, evidence, alignment), group in zip(proposed, asked, strict=True)]


def _ask(runtime: Runtime, judge: Choice, questions: list[str]) -> list[str]:
    """The judge's answers: the run's model asked each question through the result cache
    (stage ``fol-formalise``); a request that failed answers its error, which is no yes."""
    from afcheck_fol.align import JUDGE_SYSTEM

    tasks = [FolTask(f"align-judge/{hashlib.sha256(q.encode()).hexdigest()[:16]}", (q,), q,
                     system=JUDGE_SYSTEM, max_tokens=128) for q in questions]
    answers = formalise_cached(runtime, judge, tasks)
    return [answer.raw or f"(no answer: {answer.error})" for answer in answers]


def task(item: Item) -> FolTask:
    """The sentence as a FOL task: the seed's prompt for the item's language (Tarski's World's
    fixed vocabulary, or FOLIO's open one, with the suite's vocabulary where it gives one)
    and its gold formulas as the reference."""
    from afcheck_fol import prompts

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


class Nl2FolSuite:
    """The suite kind ``nl2fol``: ``data = FILE`` (jsonl written for afcheck, see
    :mod:`afcheck_fol.suite`) or ``source = "folio"`` (FOLIO from ``$AFCHECK_DATA_DIR``, the
    split of ``[afcheck.options] split``: ``train``, default, or ``validation``).
    ``[afcheck.options] language`` names the language of records that do not (default
    ``tarski``); ``vocabulary = "gold"`` gives each item its group's gold symbols, which the
    model's prompt lists."""

    name = "nl2fol"
    method = "nl2fol"

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        from afcheck_fol.folio import SPLITS
        from afcheck_fol.language import language_named
        from afcheck_fol.suite import folio_path, load_folio, load_jsonl, with_gold_vocabulary

        language_name = str(spec.options.get("language", "tarski"))
        try:
            language = language_named(language_name)
        except KeyError as exc:
            raise SuiteError(spec.manifest, str(exc.args[0])) from None
        vocabulary = spec.options.get("vocabulary")
        if vocabulary not in (None, "gold"):
            raise SuiteError(spec.manifest, f"[afcheck.options] vocabulary = {vocabulary!r}: "
                             "use \"gold\" (tell the model the symbols of the gold formulas "
                             "of its story) or leave it out")
        if spec.source == "folio":
            split = str(spec.options.get("split", "train"))
            if split not in SPLITS:
                raise SuiteError(spec.manifest, f"[afcheck.options] split = {split!r}: use "
                                 f"one of {', '.join(SPLITS)}")
            path = folio_path(split=split)
            if path is None:
                raise SuiteError(spec.manifest, "FOLIO is not shipped: set AFCHECK_DATA_DIR to "
                                 f"a folder holding {SPLITS[split][0]} (Yale-LILY/FOLIO)")
            loaded = load_folio(path, language)
        elif spec.source is not None:
            raise SuiteError(spec.manifest, f"unknown source {spec.source!r} for kind nl2fol; "
                             "use source = \"folio\" or data = FILE")
        else:
            loaded = load_jsonl(spec.data_path(), language)
        items = list(loaded.items)
        if vocabulary == "gold":
            items = with_gold_vocabulary(items)
        for item in items:
            yield _in_suite(item, spec.name)
        yield from loaded.errors


def _in_suite(item: Item, suite: str) -> Item:
    from dataclasses import replace

    return replace(item, dataset=suite)
