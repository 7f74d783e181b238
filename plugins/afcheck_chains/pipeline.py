"""The chains method on a batch of items: formalise, verify, classify, judge.

For every item (seed Fig. 2): NL→FOL of premises, conclusion and kept steps in one pass; the
translation is accepted when every formula prints as TPTP and the prover's label of the
conclusion under the premises equals the gold label. Otherwise the item is formalised again,
up to ``max_attempts`` times in all (deterministic formalisers: once); exhausting them is the
outcome *analysis failure*. When the last attempt stopped at a prover limit instead, or its
request got no answer (a backend error), the item is *undecided* (a limit says nothing about
the translation). Accepted items get Algorithms
2–3 and a class T1–T4 / F1–F2; a limit on a step or on the path's conclusion also leaves the
item undecided.

A response that stopped at the generation limit (the record's ``finish_reason``) is *cut off*:
it is not formalised, since its last step and its answer are missing, and it is no
translation failure. A chain whose response gives no answer that
:func:`afcheck_chains.segment.read_answer` reads is formalised and its steps labelled, but it
gets no class: *no answer*. A response with an answer but no kept reasoning step is no chain
to classify either: *no reasoning* (its answer is still scored).

An item without a chain (ProofWriter and FOLIO as released) checks only the formalisation:
it passes when the prover reproduces the gold label. An item with a chain passes when its
class is T1, or the suite's expected class when it gives one.

:func:`analyse` leaves each chain as an :class:`Analysed` (the formulas and the prover's
answers behind its labels); :func:`run_chains` writes each down as the method's one result
type, :class:`~afcheck_chains.records.ChainResult` (:func:`result`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from afcheck_fol.formula import Formula
from afcheck_fol.printer import folio
from afcheck_fol.provers import FolProver
from afcheck_fol.tptp import SymbolMap, TptpError, formula_to_tptp, problem

from afcheck_chains.classes import classify, meaning
from afcheck_chains.formalise import ChainFormaliser, Formalised
from afcheck_chains.quality import canonical, compare
from afcheck_chains.records import (
    Analysis,
    ChainRecord,
    ChainResult,
    ConclusionResult,
    Label,
    SentenceQuality,
    StepResult,
    Translation,
)
from afcheck_chains.verify import (
    ChainVerdict,
    FormalChain,
    Verdict,
    check_conclusions,
    verify_chains,
)


@dataclass(frozen=True)
class Analysed:
    """One chain as the pipeline leaves it, before it is written down as a
    :class:`~afcheck_chains.records.ChainResult` (:func:`result`): the record as analysed and
    the formulas and prover answers behind its labels."""

    record: ChainRecord
    status: Analysis
    reason: str
    attempts: int
    first_executed: bool
    first_matched: bool
    formal: FormalChain | None = None
    verdict: ChainVerdict | None = None
    chain_class: str | None = None
    answer_correct: bool | None = None
    valid_path: bool | None = None
    prover: str = ""
    raw_outputs: tuple[str, ...] = ()
    repeated: tuple[tuple[int, int, str], ...] = ()
    quality: tuple[SentenceQuality, ...] = ()
    translation: FormalChain | None = None

    @property
    def restatement_only(self) -> bool | None:
        """The path is valid only because a path step restates the conclusion (the
        path-dependence diagnostic); ``None`` when the path is not valid."""
        if not self.valid_path or self.verdict is None:
            return None
        reduced = self.verdict.path_without_restating
        return reduced is not None and reduced.label is not self.record.label


def _prints(chain: FormalChain) -> str:
    """Why the chain has no TPTP form (free variables), or empty."""
    symbols = SymbolMap()
    try:
        problem(chain.premises, chain.conclusion, symbols)
        for index, step in enumerate(chain.steps, 1):
            try:
                problem((), step, symbols)
            except TptpError as exc:
                raise TptpError(f"step {index}: {exc}") from None
    except TptpError as exc:
        return str(exc)
    return ""


def run_chains(
    records: Sequence[ChainRecord],
    formaliser: ChainFormaliser,
    prover: FolProver,
    *,
    max_attempts: int = 3,
) -> list[ChainResult]:
    """Every item of a run in one batch (formaliser and prover calls are per stage)."""
    return [result(a) for a in analyse(records, formaliser, prover, max_attempts=max_attempts)]


def analyse(
    records: Sequence[ChainRecord],
    formaliser: ChainFormaliser,
    prover: FolProver,
    *,
    max_attempts: int = 3,
) -> list[Analysed]:
    """:func:`run_chains` with the formulas and prover answers behind each result."""
    attempts_allowed = 1 if formaliser.deterministic else max(1, max_attempts)
    accepted: dict[int, tuple[FormalChain, Verdict, int]] = {}
    last_reason: dict[int, str] = {}
    limited: set[int] = set()
    """Items whose last attempt stopped at a limit: the prover's on the conclusion, the
    ``translate`` budget on a formula, or a request that got no answer."""
    first: dict[int, tuple[bool, bool]] = {}
    first_chain: dict[int, FormalChain] = {}
    """The first translation that parsed, per item (scored against gold FOL)."""
    raw: dict[int, list[str]] = {i: [] for i in range(len(records))}
    pending = [i for i, r in enumerate(records) if not r.cut_off]
    for attempt in range(attempts_allowed):
        if not pending:
            break
        answers: list[Formalised] = formaliser.formalise([records[i] for i in pending], attempt)
        runnable: list[tuple[int, FormalChain]] = []
        for index, answer in zip(pending, answers, strict=True):
            if answer.raw:
                raw[index].append(answer.raw)
            if answer.chain is not None:
                first_chain.setdefault(index, answer.chain)
            problem_text = answer.failure or ("" if answer.chain is None else
                                              _prints(answer.chain))
            if answer.chain is None or problem_text:
                last_reason[index] = problem_text or "no formalisation"
                if answer.unread:  # nothing known about the translation
                    limited.add(index)
                else:
                    limited.discard(index)
                first.setdefault(index, (False, False))
                continue
            runnable.append((index, answer.chain))
        verdicts = check_conclusions([c for _, c in runnable], prover)
        still: list[int] = []
        for (index, chain), verdict in zip(runnable, verdicts, strict=True):
            gold = records[index].label
            executed = verdict.label not in (Label.INVALID,)
            first.setdefault(index, (executed, verdict.label is gold))
            if verdict.label is gold:
                accepted[index] = (chain, verdict, attempt + 1)
            elif verdict.label is Label.LIMIT:
                limited.add(index)
                last_reason[index] = ("no decision for the conclusion under the premises "
                                      f"(a prover limit: {verdict.detail or 'no detail'})")
            else:
                limited.discard(index)
                last_reason[index] = _mismatch(verdict, gold)
        for index in pending:
            if index not in accepted:
                still.append(index)
        pending = still

    order = sorted(accepted)
    # Repeated statements go before labelling (seed §3.2.1: compared in FOL, where the
    # wording no longer differs).
    unique: dict[int, tuple[ChainRecord, FormalChain, tuple[tuple[int, int, str], ...]]] = {
        i: _without_repeats(records[i], accepted[i][0]) for i in order}
    verdicts_of = verify_chains(
        [unique[i][1] for i in order], [records[i].label for i in order], prover,
        conclusions=[accepted[i][1] for i in order],
    ) if order else []
    by_index: dict[int, ChainVerdict] = dict(zip(order, verdicts_of, strict=True))
    prover_name = f"{prover.name} ({prover.version})"
    results: list[Analysed] = []
    for index, record in enumerate(records):
        executed, matched = first.get(index, (False, False))
        quality = compare(record, first_chain[index]) if index in first_chain else ()
        if record.cut_off:
            results.append(Analysed(
                record=record, status="cut_off", attempts=0, first_executed=False,
                first_matched=False, prover=prover_name,
                reason=f"the response stopped at the generation limit ({record.cut_off}): "
                       "its last step and its answer are missing; not analysed"))
            continue
        base = Analysed(record=record, status="analysis_failure", reason="",
                           attempts=attempts_allowed, first_executed=executed,
                           first_matched=matched, prover=prover_name,
                           raw_outputs=tuple(raw[index]), quality=quality,
                           translation=first_chain.get(index))
        if index in limited and index not in accepted:
            # A limit is not a wrong translation: the item is undecided, not a failure.
            results.append(replace(base, status="undecided", reason=last_reason[index]))
            continue
        if index not in accepted:
            results.append(replace(
                base, reason=f"analysis failure after {attempts_allowed} attempt(s): "
                             f"{last_reason.get(index, 'no formalisation')}"))
            continue
        _, _, used = accepted[index]
        kept, chain, repeated = unique[index]
        results.append(_judge(replace(base, record=kept, formal=chain,
                                      verdict=by_index[index], attempts=used,
                                      repeated=repeated, translation=chain)))
    return results


def _without_repeats(record: ChainRecord, chain: FormalChain
                     ) -> tuple[ChainRecord, FormalChain, tuple[tuple[int, int, str], ...]]:
    """The record and chain without the steps whose FOL (up to bound-variable names) repeats
    an earlier step's, and which steps went."""
    seen: dict[Formula, int] = {}
    keep: list[int] = []
    repeated: list[tuple[int, int, str]] = []
    for index, step in enumerate(chain.steps):
        key = canonical(step)
        if key in seen:
            repeated.append((index + 1, seen[key] + 1, record.steps[index]))
            continue
        seen[key] = index
        keep.append(index)
    if not repeated:
        return record, chain, ()
    gold = record.gold_step_labels
    kept = replace(record, steps=tuple(record.steps[i] for i in keep),
                   gold_step_labels=None if gold is None else tuple(gold[i] for i in keep))
    return kept, replace(chain, steps=tuple(chain.steps[i] for i in keep)), tuple(repeated)


def _mismatch(verdict: Verdict, gold: Label) -> str:
    got = verdict.label.value
    if verdict.label is Label.ERROR:
        got += " (the premises are inconsistent)"
    elif verdict.detail:
        got += f" ({verdict.detail})"
    return f"the prover labels the conclusion {got}, the gold label is {gold.value}"


NO_ANSWER = ("no answer found in the response (read: 'Answer: True', 'The correct option "
             "is: B', a final 'the statement is false', '**False**', a last line that is only "
             "a label); the steps are labelled, the chain gets no class")


def _judge(base: Analysed) -> Analysed:
    record, verdict = base.record, base.verdict
    assert verdict is not None
    if not record.steps and record.answer is None:
        return replace(base, status="label_only", reason="the prover reproduces the gold label")
    if not record.steps:
        assert record.answer is not None
        right = "right" if record.answer is record.label else "wrong"
        return replace(base, status="no_reasoning", answer_correct=record.answer is record.label,
                       reason=f"no reasoning step kept: the response gives only its answer "
                              f"({record.answer.value}, {right}); no chain to classify")
    if record.answer is None:
        last = record.raw_steps[-1].rstrip() if record.raw_steps else ""
        hint = ("; the response ends mid-sentence: if the generation limit stopped it, "
                "record its finish_reason") if last and last[-1] not in ".!?*)\"'`:" else ""
        return replace(base, status="no_answer", reason=NO_ANSWER + hint)
    labels = verdict.step_labels
    undecided = [i for i, label in enumerate(labels, 1) if not label.decided]
    if undecided:
        return replace(base, status="undecided", reason="no decision for step(s) " + ", ".join(
            f"{i} ({labels[i - 1].value}: {verdict.steps[i - 1].detail or 'no detail'})"
            for i in undecided[:3]))
    path_verdict = verdict.path_conclusion
    if path_verdict is None or not path_verdict.label.decided:
        detail = path_verdict.detail if path_verdict is not None else ""
        return replace(base, status="undecided",
                       reason=f"no decision for the conclusion under the proof path: {detail}")
    valid = path_verdict.label is record.label
    correct = record.answer is record.label
    name = classify(correct, labels, valid)
    return replace(base, status="classified", reason=meaning(name), chain_class=name,
                   answer_correct=correct, valid_path=valid)


def result(analysed: Analysed) -> ChainResult:
    """The chain's result as a run reports and a result file keeps it: the formulas printed
    as TPTP (one symbol map for the steps and the conclusion), the prover answers as labels
    and statuses."""
    record, verdict, formal = analysed.record, analysed.verdict, analysed.formal
    symbols = SymbolMap()
    gold = record.gold_step_labels
    steps: list[StepResult] = []
    for index, text in enumerate(record.steps):
        step = StepResult(text, gold=None if gold is None else gold[index])
        if verdict is not None and formal is not None:
            labelled = verdict.steps[index]
            step = replace(step, fol=formula_to_tptp(formal.steps[index], symbols),
                           label=labelled.label,
                           statuses=tuple(r.status.value for r in
                                          (labelled.positive, labelled.negative) if r),
                           in_path=index in verdict.path)
        steps.append(step)
    conclusion = ConclusionResult(record.conclusion)
    if verdict is not None and formal is not None:
        conclusion = ConclusionResult(record.conclusion,
                                      formula_to_tptp(formal.conclusion, symbols),
                                      verdict.conclusion.label)
    reduced = verdict.path_without_restating if verdict is not None else None
    return ChainResult(
        id=record.id, dataset=record.dataset, location=str(record.location),
        premises=record.premises, conclusion=conclusion, gold_label=record.label,
        answer=record.answer, analysis=analysed.status, reason=analysed.reason,
        attempts=analysed.attempts, first_executed=analysed.first_executed,
        first_matched=analysed.first_matched, prover=analysed.prover,
        chain_class=analysed.chain_class, expected_class=record.expected_class,
        answer_correct=analysed.answer_correct, valid_path=analysed.valid_path,
        steps=tuple(steps), path=verdict.path if verdict is not None else (),
        path_conclusion_label=(verdict.path_conclusion.label
                               if verdict is not None and verdict.path_conclusion else None),
        restating=verdict.restating if verdict is not None and reduced is not None else (),
        path_without_restating_label=reduced.label if reduced is not None else None,
        restatement_only=analysed.restatement_only,
        prover_seconds=verdict.seconds if verdict is not None else 0.0,
        repeated=analysed.repeated, quality=analysed.quality,
        # Printed when first read (the result file): most runs' outcomes never show it.
        translation=None if analysed.translation is None
        else partial(_translation, analysed.translation),
        response=record.response, answer_cut=record.answer_cut,
        raw_outputs=analysed.raw_outputs, metadata=dict(record.metadata),
        fresh_seconds=verdict.fresh_seconds if verdict is not None else 0.0,
    )


def _translation(chain: FormalChain) -> Translation:
    """The FOL of a translation as TPTP, in FOLIO's notation where TPTP has no form for a
    formula (one with a free variable)."""
    symbols = SymbolMap()

    def printed(formula: Formula) -> str:
        try:
            return formula_to_tptp(formula, symbols)
        except TptpError:
            return folio(formula)

    return Translation(tuple(printed(f) for f in chain.premises),
                       tuple(printed(f) for f in chain.steps), printed(chain.conclusion))
