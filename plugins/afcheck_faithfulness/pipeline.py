"""The batched pipeline: perturb → formalise → check → prove → case results.

Each stage receives all of its work in one call per component (one vLLM call for thousands of
prompts, one pool of provers), never one call per test item. Identical work is sent once: a
step perturbed by one perturber is formalised once on its original side however many
perturbers there are, and a statement is proved once however many cases produced it. Every
call goes through the runtime's cached call (:meth:`afcheck.runtime.Runtime.cached`), so each
finished chunk is stored at once and a killed run resumes where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, NamedTuple, TypeVar

from afcheck.components import Built
from afcheck.method import Choice
from afcheck.registry import CHECKER, FORMALISER, PROVER, Kind
from afcheck.runtime import Batch, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.spool import Spool
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    ProofTask,
    Verdict,
    VerdictKind,
)
from afcheck_faithfulness import screen
from afcheck_faithfulness.kinds import DETECTOR, PERTURBER, Detector, Perturber
from afcheck_faithfulness.records import (
    CaseResult,
    DetectTask,
    DriftWarning,
    Perturbation,
    RawOutputs,
    Side,
    Step,
    load_perturbation,
)

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")
K = TypeVar("K")
G = TypeVar("G")


@dataclass(frozen=True)
class CaseSpec:
    """What one test item needs to be decided; collection builds these, nothing heavier."""

    case_id: str
    step: Step
    perturber: Choice
    formaliser: Choice
    checker: Choice
    prover: Choice
    seed: int = 0
    keep_ineffective: bool = False
    detectors: tuple[Choice, ...] = ()
    """The semantic-drift detectors run on both checked statements."""


@dataclass(frozen=True)
class CaseTemplate:
    """What every case of a suite shares: a case is one of its perturbers and a step with the
    rest of these (:meth:`afcheck.method.Selection.derived` makes it once per suite)."""

    perturbers: tuple[Choice, ...]
    formaliser: Choice
    checker: Choice
    prover: Choice
    seed: int
    keep_ineffective: bool
    detectors: tuple[Choice, ...]


def run(
    cases: Sequence[CaseSpec],
    rt: Runtime,
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Decide every case; one result per case, in order, reported through ``on_result`` (with
    its raw outputs) as it forms."""
    # Each stage returns one entry per case, in the order of ``cases``: a case finds its own
    # work by position, not by looking its parts up again in every later stage.
    perturbed = _perturb(cases, rt)
    formalised = _formalise(cases, perturbed, rt)
    checked = _check(cases, formalised, rt)
    drift = _detect(cases, perturbed, checked, rt)
    screened = [_screened(case, perturbation, sides)
                for case, (perturbation, _), sides in zip(cases, perturbed, checked,
                                                          strict=True)]
    proved = _prove(cases, checked, screened, rt)
    # The results name where their raw outputs are while the run keeps them apart, so that
    # their records (:func:`afcheck_faithfulness.records.to_json`) can put them back.
    raw_outputs = rt.spool.get if rt.spool is not None else None
    results = []
    for i, case in enumerate(cases):
        result = _assemble(case, perturbed[i], formalised[i], checked[i], proved[i],
                           screened[i], drift[i], raw_outputs)
        results.append(result)
        if on_result is not None:
            on_result(result.with_raw_outputs())
    return results


def _call(rt: Runtime, stage: str, kind: Kind[C], choice: Choice, batch: Sequence[T], *,
          key: Callable[[T], tuple[object, ...]], call: Callable[[C, list[T]], Sequence[R]],
          load: Callable[[Mapping[str, Any]], R],
          keep: Callable[[R], bool] = lambda r: True,
          dump: Callable[[R], object] = codec.dump,
          failed: Callable[[T, str], R] | None = None) -> Batch[R]:
    """One stage's batch for one component, through the runtime's cache; ``failed``: the
    result of an item the component crashed on (never kept)."""
    built = rt.component(kind, choice)
    return rt.cached(stage, built, batch, key=key,  # type: ignore[arg-type]
                     call=lambda chunk: call(built.component, chunk),
                     load=load, dump=dump, keep=keep, failed=failed)


class _Work(Generic[K, T, R]):
    """One component's share of a stage while the stage runs: its distinct inputs in the
    order first met, the position of each by what makes two inputs the same work, and, once
    the component has answered, the result and backend seconds of each."""

    __slots__ = ("index", "items", "results", "seconds")

    def __init__(self) -> None:
        self.index: dict[K, int] = {}
        self.items: list[T] = []
        self.results: list[R] = []
        self.seconds: list[float] = []

    def add(self, key: K, item: T) -> int:
        """The position of ``key``'s work; ``item`` is added when it is new."""
        at = self.index.get(key)
        if at is None:
            at = self.index[key] = len(self.items)
            self.items.append(item)
        return at

    def done(self, batch: Batch[R]) -> None:
        self.results, self.seconds = batch.results, batch.seconds


def _work_of(groups: dict[G, _Work[K, T, R]], key: G) -> _Work[K, T, R]:
    work = groups.get(key)
    if work is None:
        work = groups[key] = _Work()
    return work


class _Sides(NamedTuple):
    """A case's two formalisations after a stage, with that stage's backend seconds on
    them."""

    original: Formalisation
    perturbed: Formalisation | None
    """``None`` when the step has no perturbation."""
    seconds: float


class _Proved(NamedTuple):
    """A case's verdicts: on AF(x), on AF(x̄), on the screened statement, and the prover's
    seconds on the two sides."""

    z: Verdict | None
    z_bar: Verdict | None
    screened: Verdict | None
    seconds: float


# -- stages ------------------------------------------------------------------------------------

_FKey = tuple[Choice, str]  # formaliser, request key


def _perturb(cases: Sequence[CaseSpec], rt: Runtime) -> list[tuple[Perturbation, float]]:
    """Each case's perturbation and its seconds; one perturber call per step id."""
    groups: dict[tuple[Choice, int], _Work[str, Step, Perturbation]] = {}
    where = []
    for case in cases:
        work = _work_of(groups, (case.perturber, case.seed))
        at = work.add(case.step.id, case.step)
        work.items[at] = case.step  # the last step of an id is the one perturbed
        where.append((work, at))
    for (choice, seed), work in groups.items():
        work.done(_call(rt, "perturb", PERTURBER, choice, work.items, key=_step_key(seed),
                        call=_perturb_with(seed), load=load_perturbation,
                        keep=lambda p: not p.transient,
                        failed=_unperturbed(choice.name)))
    return [(work.results[at], work.seconds[at]) for work, at in where]


def _unperturbed(perturber: str) -> Callable[[Step, str], Perturbation]:
    """A step the perturber crashed on: no perturbation, with the crash as the reason (the
    step's own side still runs); never kept, so a fixed perturber tries it again."""
    return lambda step, reason: Perturbation(step.id, perturber, None, "none", reason=reason,
                                             transient=True)


def _af_fail(formaliser: str) -> Callable[[FormaliseRequest, str], Formalisation]:
    """A request the formaliser crashed on: AF-Fail with the crash (never kept)."""
    return lambda request, reason: Formalisation(
        key=request.key, formaliser=formaliser, status=FormalisationStatus.AF_FAIL,
        reason=reason, transient=True)


def _undecided(prover: str) -> Callable[[ProofTask, str], Verdict]:
    """A statement the prover crashed on: INCONCLUSIVE with the crash (never kept)."""
    return lambda task, reason: Verdict(VerdictKind.INCONCLUSIVE, prover, reason=reason,
                                        transient=True)


def _step_key(seed: int) -> Callable[[Step], tuple[object, ...]]:
    return lambda step: (seed, step.id, step.text, step.context, step.problem)


def _perturb_with(seed: int) -> Callable[[Perturber, list[Step]], Sequence[Perturbation]]:
    return lambda perturber, chunk: perturber.perturb(chunk, seed=seed)


def _request_keys(case: CaseSpec) -> tuple[str, str]:
    """The keys of a case's two formalise requests (original, perturbed)."""
    step_id = case.step.id
    return (f"{step_id}#original",
            f"{step_id}#perturbed@{case.perturber.name}/{case.seed}")


def _requests_of(case: CaseSpec, perturbation: Perturbation, keys: tuple[str, str]
                 ) -> Iterable[FormaliseRequest]:
    """The requests of a case's sides: each names its step and side in its metadata
    (:class:`~afcheck_faithfulness.records.Side`), for the formalisers that answer by them
    (``reference``, ``replay``)."""
    step = case.step
    metadata = {
        **step.metadata,
        "dataset": step.dataset,
        "perturber": case.perturber.name,
        "perturbation_rule": perturbation.rule,
        "given_perturbation": step.perturbed_text,
        "step_id": step.id,
        "side": Side.ORIGINAL.value,
    }
    yield FormaliseRequest(keys[0], step.text, step.context, step.problem, metadata)
    if perturbation.text is not None:
        yield FormaliseRequest(keys[1], perturbation.text, step.context, step.problem,
                               {**metadata, "side": Side.PERTURBED.value})


def _formalise(cases: Sequence[CaseSpec], perturbed: Sequence[tuple[Perturbation, float]],
               rt: Runtime) -> list[_Sides]:
    """Each case's two formalisations; one request per request key and formaliser."""
    groups: dict[Choice, _Work[str, FormaliseRequest, Formalisation]] = {}
    where = []
    for case, (perturbation, _) in zip(cases, perturbed, strict=True):
        work = _work_of(groups, case.formaliser)
        keys = _request_keys(case)
        for request in _requests_of(case, perturbation, keys):
            work.add(request.key, request)
        where.append((work, keys))
    for choice, work in groups.items():
        batch = work.items
        made = _call(
            rt, "formalise", FORMALISER, choice, batch,
            key=lambda r: (r.text, r.context, r.problem),
            call=lambda formaliser, chunk: formaliser.formalise(chunk),
            load=codec.load_formalisation,
            # A backend error is this run's answer, never a result for the next run.
            keep=lambda f: not f.transient,
            failed=_af_fail(choice.name),
        )
        # A cached record may come from another step with the same text.
        results = [formalisation if formalisation.key == request.key
                   else replace(formalisation, key=request.key)
                   for request, formalisation in zip(batch, made.results, strict=True)]
        if rt.spool is not None:
            results = _spool_raw(rt.spool, results)
        work.done(Batch(results, made.seconds))
    out = []
    for work, (original_key, perturbed_key) in where:
        at = work.index[original_key]
        # Looked up by key, not by whether this case has a perturbation: the request of
        # another case with the same key is the same request.
        other = work.index.get(perturbed_key)
        if other is None:
            out.append(_Sides(work.results[at], None, work.seconds[at]))
        else:
            out.append(_Sides(work.results[at], work.results[other],
                              work.seconds[at] + work.seconds[other]))
    return out


def _spool_raw(spool: Spool, results: list[Formalisation]) -> list[Formalisation]:
    """``results`` with the raw outputs worth keeping moved to the spool."""
    moved = []
    out = []
    for formalisation in results:
        if formalisation.raw_output and formalisation.raw_output != formalisation.statement:
            moved.append((formalisation.key, formalisation.raw_output))
            formalisation = replace(formalisation, raw_output="")
        out.append(formalisation)
    spool.put_many(moved)
    return out


def _check(cases: Sequence[CaseSpec], formalised: Sequence[_Sides], rt: Runtime
           ) -> list[_Sides]:
    """Each case's two formalisations after the checker; one check per formalisation."""
    groups: dict[Choice, _Work[_FKey, Formalisation, Formalisation]] = {}
    # Per case, each side as the position of its check, or the formalisation itself when
    # there is nothing to check.
    where: list[tuple[_Work[_FKey, Formalisation, Formalisation],
                      tuple[int | Formalisation | None, ...]]] = []
    for case, sides in zip(cases, formalised, strict=True):
        work = _work_of(groups, case.checker)
        places: list[int | Formalisation | None] = []
        for key, formalisation in zip(_request_keys(case), (sides.original, sides.perturbed),
                                      strict=True):
            if formalisation is not None and formalisation.ok:
                places.append(work.add((case.formaliser, key), formalisation))
            else:
                # Nothing to type-check: a failure keeps its own reason, never a cached one
                # from another request that failed in the same way.
                places.append(formalisation)
        where.append((work, tuple(places)))
    for choice, work in groups.items():
        if not work.items:
            continue
        batch = work.items
        made = _call(
            rt, "check", CHECKER, choice, batch,
            key=lambda f: (f.status.value, f.statement, f.header),
            call=lambda checker, chunk: checker.check(chunk),
            load=codec.load_formalisation,
            keep=lambda f: not f.transient,
            failed=lambda f, reason: replace(f, status=FormalisationStatus.AF_FAIL,
                                             reason=reason, transient=True),
        )
        results = []
        for original, formalisation in zip(batch, made.results, strict=True):
            # The cache keeps the verdict of the check; the record stays this request's own.
            if (formalisation.status, formalisation.reason, formalisation.transient) != (
                    original.status, original.reason, original.transient):
                original = replace(original, status=formalisation.status,
                                   reason=formalisation.reason,
                                   transient=formalisation.transient)
            results.append(original)
        work.done(Batch(results, made.seconds))
    out = []
    for work, at in where:
        checked: list[Formalisation | None] = []
        seconds = 0.0
        for place in at:
            if isinstance(place, int):
                checked.append(work.results[place])
                seconds += work.seconds[place]
            else:
                checked.append(place)
        first, second = checked
        assert first is not None
        out.append(_Sides(first, second, seconds))
    return out


def _detect_tasks(case: CaseSpec, perturbation: Perturbation, checked: _Sides
                  ) -> list[tuple[Side, DetectTask]]:
    """Each checked statement of a case with the text it stands for (the step, or its
    perturbation): what the detectors read."""
    out = []
    for side, text, formalisation in (
            (Side.ORIGINAL, case.step.text, checked.original),
            (Side.PERTURBED, perturbation.text or "", checked.perturbed)):
        if formalisation is not None and formalisation.ok and formalisation.statement:
            out.append((side, DetectTask(text, formalisation.statement, formalisation.header)))
    return out


def _detect(cases: Sequence[CaseSpec], perturbed: Sequence[tuple[Perturbation, float]],
            checked: Sequence[_Sides], rt: Runtime
            ) -> list[tuple[tuple[DriftWarning, ...], float] | None]:
    """Every detector over every checked statement, in one batch per set of detectors: each
    case's warnings and the detectors' seconds on its statements (``None`` for a case
    without detectors).

    The detectors a case uses are one cached stage together (one cache key per statement,
    not one per detector and statement): the stage runs on every statement of a run, and its
    keys would otherwise be most of a cached re-run's look-ups.
    """
    groups: dict[tuple[Choice, ...], _Work[DetectTask, DetectTask, list[list[str]]]] = {}
    where: list[tuple[_Work[DetectTask, DetectTask, list[list[str]]],
                      list[tuple[Side, int]]] | None] = []
    for case, (perturbation, _), sides in zip(cases, perturbed, checked, strict=True):
        if not case.detectors:
            where.append(None)
            continue
        work = _work_of(groups, case.detectors)
        where.append((work, [(side, work.add(task, task))
                             for side, task in _detect_tasks(case, perturbation, sides)]))
    for detectors, work in groups.items():
        built = [rt.component(DETECTOR, choice) for choice in detectors]
        together: Built[object] = Built(
            tuple(b.component for b in built), "detectors",
            ",".join(f"{b.name}:{b.version}" for b in built),
            json.dumps([b.fingerprint for b in built]), all(b.cacheable for b in built), None)

        def call(chunk: list[DetectTask], built: list[Built[Detector]] = built
                 ) -> list[list[list[str]]]:
            each = [b.component.detect(chunk) for b in built]
            return [[found[index] for found in each] for index in range(len(chunk))]

        work.done(rt.cached("detect", together, work.items,
                            key=lambda t: (t.text, t.statement, t.header), call=call,
                            load=lambda data: [list(m) for m in data["messages"]],
                            dump=lambda messages: {"messages": messages}))
    out: list[tuple[tuple[DriftWarning, ...], float] | None] = []
    for case, place in zip(cases, where, strict=True):
        if place is None:
            out.append(None)
            continue
        work, tasks = place
        warnings: list[DriftWarning] = []
        spent = 0.0
        share = len(case.detectors)
        for side, at in tasks:
            seconds = work.seconds[at] / share
            for detector, messages in zip(case.detectors, work.results[at], strict=True):
                warnings += [DriftWarning(detector.name, side, message) for message in messages]
                spent += seconds
        out.append((tuple(warnings), spent))
    return out


def _prove(cases: Sequence[CaseSpec], checked: Sequence[_Sides],
           screened: Sequence[str | None], rt: Runtime) -> list[_Proved]:
    """Each case's verdicts; one prover call per statement and header."""
    groups: dict[Choice, _Work[tuple[str, str], ProofTask, Verdict]] = {}

    def add(work: _Work[tuple[str, str], ProofTask, Verdict], statement: str,
            header: str) -> int:
        at = work.index.get((statement, header))
        if at is None:
            at = work.add((statement, header), ProofTask(str(len(work.items)), statement,
                                                         header))
        return at

    def side(work: _Work[tuple[str, str], ProofTask, Verdict],
             formalisation: Formalisation | None) -> int | None:
        if formalisation is None or not formalisation.ok or not formalisation.statement:
            return None
        return add(work, formalisation.statement, formalisation.header)

    where = []
    for case, sides, edited in zip(cases, checked, screened, strict=True):
        work = _work_of(groups, case.prover)
        where.append((work, side(work, sides.original), side(work, sides.perturbed),
                      None if edited is None else add(work, edited, sides.original.header)))
    for choice, work in groups.items():
        if not work.items:
            continue
        work.done(_call(
            rt, "prove", PROVER, choice, work.items,
            key=lambda t: (t.statement, t.header),
            call=lambda prover, chunk: prover.prove(chunk),
            load=codec.load_verdict,
            # A limit is this run's answer: the next run asks again.
            keep=lambda v: not v.transient,
            failed=_undecided(choice.name),
        ))
    out = []
    for work, z, z_bar, edited_at in where:
        # Both sides' seconds, as the sum over the sides that have a statement: 0 for none.
        seconds = sum(work.seconds[at] for at in (z, z_bar) if at is not None)
        out.append(_Proved(None if z is None else work.results[z],
                           None if z_bar is None else work.results[z_bar],
                           None if edited_at is None else work.results[edited_at], seconds))
    return out


def _screened(case: CaseSpec, perturbation: Perturbation, checked: _Sides) -> str | None:
    """The original statement with the perturbation's edit applied, when worth proving."""
    if perturbation.effective is not None or perturbation.edit is None:
        return None
    original = checked.original
    if not original.ok or not original.statement:
        return None
    return screen.edited_statement(original.statement, perturbation.edit, text=case.step.text)


def _assemble(case: CaseSpec, perturbed: tuple[Perturbation, float], formalised: _Sides,
              checked: _Sides, proved: _Proved, screened: str | None,
              drift: tuple[tuple[DriftWarning, ...], float] | None = None,
              raw_outputs: RawOutputs | None = None) -> CaseResult:
    """The case's result; ``drift``: the detectors' warnings and seconds, when it has
    detectors; ``raw_outputs``: where the run keeps the raw outputs it moved out of the
    formalisations."""
    perturbation, perturb_seconds = perturbed
    timings = {
        "perturb": perturb_seconds,
        "formalise": formalised.seconds,
        "check": checked.seconds,
        "prove": proved.seconds,
    }
    warnings: tuple[DriftWarning, ...] = ()
    if drift is not None:
        warnings, timings["detect"] = drift
    z = proved.z
    why = "the perturbed step still holds"
    if z is not None and z.kind is VerdictKind.REFUTED:
        # An error induction is never hidden as an ineffective perturbation.
        if perturbation.effective is False:
            perturbation = replace(perturbation, effective=None)
    elif screened is not None:
        verdict = proved.screened
        assert verdict is not None
        if verdict.kind is VerdictKind.PROVED:
            perturbation = replace(perturbation, effective=False)
            why = f"the same edit applied to AF(x) is still provable: {screened}"
    return CaseResult(
        case_id=case.case_id,
        step=case.step,
        perturbation=perturbation,
        original=checked.original,
        perturbed=checked.perturbed,
        z=z,
        z_bar=proved.z_bar,
        excluded=_exclusion(case, perturbation, why),
        timings=timings,
        warnings=warnings,
        raw_outputs=raw_outputs,
    )


def _exclusion(case: CaseSpec, perturbation: Perturbation, why: str) -> str:
    if perturbation.text is None:
        return f"unperturbable: {perturbation.reason or 'no perturbation applies'}"
    if perturbation.effective is False and not case.keep_ineffective:
        return f"ineffective perturbation: {why}"
    return ""
