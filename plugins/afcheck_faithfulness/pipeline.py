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
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from afcheck.components import Built
from afcheck.method import Choice
from afcheck.registry import CHECKER, FORMALISER, PROVER, Kind
from afcheck.runtime import Batch, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.spool import Spool
from afcheck.types import Formalisation, FormaliseRequest, ProofTask, Side, Verdict, VerdictKind
from afcheck_faithfulness import screen
from afcheck_faithfulness.kinds import DETECTOR, PERTURBER, Detector, Perturber
from afcheck_faithfulness.records import (
    CaseResult,
    DetectTask,
    DriftWarning,
    Perturbation,
    Step,
    load_perturbation,
)

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")


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


def run(
    cases: Sequence[CaseSpec],
    rt: Runtime,
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Decide every case; one result per case, in order, reported through ``on_result`` (with
    its raw outputs) as it forms."""
    seconds: dict[tuple[object, ...], float] = defaultdict(float)
    perturbations = _perturb(cases, rt, seconds)
    formalisations = _formalise(cases, perturbations, rt, seconds)
    checked = _check(cases, formalisations, rt, seconds)
    tasks = {case.case_id: _detect_tasks(case, perturbations, checked)
             for case in cases if case.detectors}
    found = _detect(cases, tasks, rt, seconds)
    screened = {case.case_id: _screened(case, perturbations, checked) for case in cases}
    verdicts = _prove(cases, screened, checked, rt, seconds)
    results = []
    for case in cases:
        drift = (_warnings_of(case, tasks[case.case_id], found, seconds) if case.detectors
                 else None)
        result = _assemble(case, perturbations, checked, verdicts, screened[case.case_id],
                           seconds, drift)
        results.append(result)
        if on_result is not None:
            on_result(_with_raw_outputs(result, rt.spool))
    return results


def _with_raw_outputs(result: CaseResult, spool: Spool | None) -> CaseResult:
    """The result with the raw outputs the run moved to the spool put back."""
    if spool is None:
        return result

    def restored(formalisation: Formalisation | None) -> Formalisation | None:
        if formalisation is None or formalisation.raw_output:
            return formalisation
        raw = spool.get(formalisation.key)
        return formalisation if raw is None else replace(formalisation, raw_output=raw)

    original = restored(result.original)
    assert original is not None
    perturbed = restored(result.perturbed)
    if original is result.original and perturbed is result.perturbed:
        return result
    return replace(result, original=original, perturbed=perturbed)


def _call(rt: Runtime, stage: str, kind: Kind[C], choice: Choice, batch: Sequence[T], *,
          key: Callable[[T], tuple[object, ...]], call: Callable[[C, list[T]], Sequence[R]],
          load: Callable[[Mapping[str, Any]], R],
          keep: Callable[[R], bool] = lambda r: True,
          dump: Callable[[R], object] = codec.dump) -> Batch[R]:
    """One stage's batch for one component, through the runtime's cache."""
    built = rt.component(kind, choice)
    return rt.cached(stage, built, batch, key=key,  # type: ignore[arg-type]
                     call=lambda chunk: call(built.component, chunk),
                     load=load, dump=dump, keep=keep)


# -- stages ------------------------------------------------------------------------------------

_PKey = tuple[Choice, int, str]  # perturber, seed, step id
_FKey = tuple[Choice, str]  # formaliser, request key


def _perturb(cases: Sequence[CaseSpec], rt: Runtime,
             seconds: dict[tuple[object, ...], float]) -> dict[_PKey, Perturbation]:
    groups: dict[tuple[Choice, int], dict[str, Step]] = defaultdict(dict)
    for case in cases:
        groups[(case.perturber, case.seed)][case.step.id] = case.step
    out: dict[_PKey, Perturbation] = {}
    for (choice, seed), steps in groups.items():
        batch = list(steps.values())
        made = _call(rt, "perturb", PERTURBER, choice, batch, key=_step_key(seed),
                     call=_perturb_with(seed), load=load_perturbation,
                     keep=lambda p: not p.transient)
        for step, perturbation, spent in zip(batch, made.results, made.seconds, strict=True):
            out[(choice, seed, step.id)] = perturbation
            seconds[("perturb", choice, seed, step.id)] = spent
    return out


def _step_key(seed: int) -> Callable[[Step], tuple[object, ...]]:
    return lambda step: (seed, step.id, step.text, step.context, step.problem)


def _perturb_with(seed: int) -> Callable[[Perturber, list[Step]], Sequence[Perturbation]]:
    return lambda perturber, chunk: perturber.perturb(chunk, seed=seed)


def _request_key(step: Step, side: Side, perturber: Choice, seed: int) -> str:
    if side is Side.ORIGINAL:
        return f"{step.id}#original"
    return f"{step.id}#perturbed@{perturber.name}/{seed}"


def _requests_of(case: CaseSpec, perturbation: Perturbation) -> Iterable[FormaliseRequest]:
    step = case.step
    metadata = {
        **step.metadata,
        "dataset": step.dataset,
        "perturber": case.perturber.name,
        "perturbation_rule": perturbation.rule,
        "given_perturbation": step.perturbed_text,
    }
    yield FormaliseRequest(_request_key(step, Side.ORIGINAL, case.perturber, case.seed),
                           step.id, Side.ORIGINAL, step.text, step.context, step.problem,
                           metadata)
    if perturbation.text is not None:
        yield FormaliseRequest(_request_key(step, Side.PERTURBED, case.perturber, case.seed),
                               step.id, Side.PERTURBED, perturbation.text, step.context,
                               step.problem, metadata)


def _formalise(cases: Sequence[CaseSpec], perturbations: Mapping[_PKey, Perturbation],
               rt: Runtime, seconds: dict[tuple[object, ...], float]
               ) -> dict[_FKey, Formalisation]:
    groups: dict[Choice, dict[str, FormaliseRequest]] = defaultdict(dict)
    for case in cases:
        perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
        for request in _requests_of(case, perturbation):
            groups[case.formaliser].setdefault(request.key, request)
    out: dict[_FKey, Formalisation] = {}
    for choice, requests in groups.items():
        batch = list(requests.values())
        made = _call(
            rt, "formalise", FORMALISER, choice, batch,
            key=lambda r: (r.text, r.context, r.problem),
            call=lambda formaliser, chunk: formaliser.formalise(chunk),
            load=codec.load_formalisation,
            # A backend error is this run's answer, never a result for the next run.
            keep=lambda f: not f.transient,
        )
        for request, formalisation, spent in zip(batch, made.results, made.seconds,
                                                 strict=True):
            # A cached record may come from another step with the same text.
            out[(choice, request.key)] = (formalisation if formalisation.key == request.key
                                          else replace(formalisation, key=request.key))
            seconds[("formalise", choice, request.key)] = spent
        if rt.spool is not None:
            _spool_raw(rt.spool, out, choice, batch)
    return out


def _spool_raw(spool: Spool, out: dict[_FKey, Formalisation], choice: Choice,
               batch: Sequence[FormaliseRequest]) -> None:
    moved = []
    for request in batch:
        formalisation = out[(choice, request.key)]
        if formalisation.raw_output and formalisation.raw_output != formalisation.statement:
            moved.append((request.key, formalisation.raw_output))
            out[(choice, request.key)] = replace(formalisation, raw_output="")
    spool.put_many(moved)


def _check(cases: Sequence[CaseSpec], formalisations: Mapping[_FKey, Formalisation],
           rt: Runtime, seconds: dict[tuple[object, ...], float]
           ) -> dict[tuple[Choice, _FKey], Formalisation]:
    groups: dict[Choice, dict[_FKey, Formalisation]] = defaultdict(dict)
    out: dict[tuple[Choice, _FKey], Formalisation] = {}
    for case in cases:
        for key in _case_fkeys(case):
            formalisation = formalisations.get(key)
            if formalisation is None:
                continue
            if formalisation.ok:
                groups[case.checker][key] = formalisation
            else:
                # Nothing to type-check: a failure keeps its own reason, never a cached one
                # from another request that failed in the same way.
                out[(case.checker, key)] = formalisation
    for choice, items in groups.items():
        keys = list(items)
        batch = [items[k] for k in keys]
        made = _call(
            rt, "check", CHECKER, choice, batch,
            key=lambda f: (f.status.value, f.statement, f.header),
            call=lambda checker, chunk: checker.check(chunk),
            load=codec.load_formalisation,
            keep=lambda f: not f.transient,
        )
        for key, original, formalisation, spent in zip(keys, batch, made.results,
                                                       made.seconds, strict=True):
            seconds[("check", choice, key)] = spent
            # The cache keeps the verdict of the check; the record stays this request's own.
            if (formalisation.status, formalisation.reason, formalisation.transient) != (
                    original.status, original.reason, original.transient):
                original = replace(original, status=formalisation.status,
                                   reason=formalisation.reason,
                                   transient=formalisation.transient)
            out[(choice, key)] = original
    return out


def _detect_tasks(case: CaseSpec, perturbations: Mapping[_PKey, Perturbation],
                  checked: Mapping[tuple[Choice, _FKey], Formalisation]
                  ) -> tuple[tuple[Side, DetectTask], ...]:
    """Each checked statement of a case with the text it stands for (the step, or its
    perturbation): what the detectors read."""
    original_key, perturbed_key = _case_fkeys(case)
    perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
    out = []
    for side, key, text in ((Side.ORIGINAL, original_key, case.step.text),
                            (Side.PERTURBED, perturbed_key, perturbation.text or "")):
        formalisation = checked.get((case.checker, key))
        if formalisation is not None and formalisation.ok and formalisation.statement:
            out.append((side, DetectTask(text, formalisation.statement, formalisation.header)))
    return tuple(out)


def _detect(cases: Sequence[CaseSpec], tasks: Mapping[str, Sequence[tuple[Side, DetectTask]]],
            rt: Runtime, seconds: dict[tuple[object, ...], float]
            ) -> dict[tuple[Choice, DetectTask], list[str]]:
    """Every detector over every checked statement, in one batch per set of detectors.

    The detectors a case uses are one cached stage together (one cache key per statement,
    not one per detector and statement): the stage runs on every statement of a run, and its
    keys would otherwise be most of a cached re-run's look-ups.
    """
    groups: dict[tuple[Choice, ...], dict[DetectTask, None]] = defaultdict(dict)
    for case in cases:
        for _, task in tasks.get(case.case_id, ()):
            groups[case.detectors][task] = None
    out: dict[tuple[Choice, DetectTask], list[str]] = {}
    for detectors, unique in groups.items():
        built = [rt.component(DETECTOR, choice) for choice in detectors]
        together: Built[object] = Built(
            tuple(b.component for b in built), "detectors",
            ",".join(f"{b.name}:{b.version}" for b in built),
            json.dumps([b.fingerprint for b in built]), all(b.cacheable for b in built), None)

        def call(chunk: list[DetectTask], built: list[Built[Detector]] = built
                 ) -> list[list[list[str]]]:
            each = [b.component.detect(chunk) for b in built]
            return [[found[index] for found in each] for index in range(len(chunk))]

        batch = list(unique)
        made = rt.cached("detect", together, batch,
                         key=lambda t: (t.text, t.statement, t.header), call=call,
                         load=lambda data: [list(m) for m in data["messages"]],
                         dump=lambda messages: {"messages": messages})
        for task, per_detector, spent in zip(batch, made.results, made.seconds, strict=True):
            for choice, messages in zip(detectors, per_detector, strict=True):
                out[(choice, task)] = messages
                seconds[("detect", choice, task)] = spent / len(detectors)
    return out


def _warnings_of(case: CaseSpec, tasks: Sequence[tuple[Side, DetectTask]],
                 found: Mapping[tuple[Choice, DetectTask], list[str]],
                 seconds: Mapping[tuple[object, ...], float]
                 ) -> tuple[tuple[DriftWarning, ...], float]:
    """The case's warnings and the detectors' seconds on its statements."""
    warnings = []
    spent = 0.0
    for side, task in tasks:
        for detector in case.detectors:
            warnings += [DriftWarning(detector.name, side, message)
                         for message in found.get((detector, task), ())]
            spent += seconds.get(("detect", detector, task), 0.0)
    return tuple(warnings), spent


def _prove(cases: Sequence[CaseSpec], screened: Mapping[str, str | None],
           checked: Mapping[tuple[Choice, _FKey], Formalisation],
           rt: Runtime, seconds: dict[tuple[object, ...], float]
           ) -> dict[tuple[Choice, str, str], Verdict]:
    groups: dict[Choice, dict[tuple[str, str], ProofTask]] = defaultdict(dict)

    def add(prover: Choice, statement: str, header: str) -> None:
        tasks = groups[prover]
        tasks.setdefault((statement, header), ProofTask(str(len(tasks)), statement, header))

    for case in cases:
        for key in _case_fkeys(case):
            formalisation = checked.get((case.checker, key))
            if formalisation is not None and formalisation.ok and formalisation.statement:
                add(case.prover, formalisation.statement, formalisation.header)
        edited = screened[case.case_id]
        if edited is not None:
            add(case.prover, edited, checked[(case.checker, _case_fkeys(case)[0])].header)
    out: dict[tuple[Choice, str, str], Verdict] = {}
    for choice, tasks in groups.items():
        batch = list(tasks.values())
        made = _call(
            rt, "prove", PROVER, choice, batch,
            key=lambda t: (t.statement, t.header),
            call=lambda prover, chunk: prover.prove(chunk),
            load=codec.load_verdict,
            # A limit is this run's answer: the next run asks again.
            keep=lambda v: not v.transient,
        )
        for task, verdict, spent in zip(batch, made.results, made.seconds, strict=True):
            out[(choice, task.statement, task.header)] = verdict
            seconds[("prove", choice, task.statement, task.header)] = spent
    return out


def _screened(case: CaseSpec, perturbations: Mapping[_PKey, Perturbation],
              checked: Mapping[tuple[Choice, _FKey], Formalisation]) -> str | None:
    """The original statement with the perturbation's edit applied, when worth proving."""
    perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
    if perturbation.effective is not None or perturbation.edit is None:
        return None
    original = checked.get((case.checker, _case_fkeys(case)[0]))
    if original is None or not original.ok or not original.statement:
        return None
    return screen.edited_statement(original.statement, perturbation.edit, text=case.step.text)


def _case_fkeys(case: CaseSpec) -> tuple[_FKey, _FKey]:
    return (
        (case.formaliser, _request_key(case.step, Side.ORIGINAL, case.perturber, case.seed)),
        (case.formaliser, _request_key(case.step, Side.PERTURBED, case.perturber, case.seed)),
    )


def _assemble(case: CaseSpec, perturbations: Mapping[_PKey, Perturbation],
              checked: Mapping[tuple[Choice, _FKey], Formalisation],
              verdicts: Mapping[tuple[Choice, str, str], Verdict],
              screened: str | None, seconds: Mapping[tuple[object, ...], float],
              drift: tuple[tuple[DriftWarning, ...], float] | None = None) -> CaseResult:
    """The case's result; ``drift``: the detectors' warnings and seconds, when it has
    detectors."""
    perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
    original_key, perturbed_key = _case_fkeys(case)
    original = checked[(case.checker, original_key)]
    perturbed = checked.get((case.checker, perturbed_key))
    sides = [f for f in (original, perturbed) if f is not None]
    timings = {
        "perturb": seconds.get(("perturb", case.perturber, case.seed, case.step.id), 0.0),
        "formalise": sum(seconds.get(("formalise", *key), 0.0)
                         for key in (original_key, perturbed_key)),
        "check": sum(seconds.get(("check", case.checker, key), 0.0)
                     for key in (original_key, perturbed_key)),
        "prove": sum(seconds.get(("prove", case.prover, f.statement, f.header), 0.0)
                     for f in sides if f.ok and f.statement),
    }
    warnings: tuple[DriftWarning, ...] = ()
    if drift is not None:
        warnings, timings["detect"] = drift

    def verdict_of(formalisation: Formalisation | None) -> Verdict | None:
        if formalisation is None or not formalisation.ok or not formalisation.statement:
            return None
        return verdicts[(case.prover, formalisation.statement, formalisation.header)]

    z = verdict_of(original)
    why = "the perturbed step still holds"
    if z is not None and z.kind is VerdictKind.REFUTED:
        # An error induction is never hidden as an ineffective perturbation.
        if perturbation.effective is False:
            perturbation = replace(perturbation, effective=None)
    elif screened is not None:
        verdict = verdicts[(case.prover, screened, original.header)]
        if verdict.kind is VerdictKind.PROVED:
            perturbation = replace(perturbation, effective=False)
            why = f"the same edit applied to AF(x) is still provable: {screened}"
    return CaseResult(
        case_id=case.case_id,
        step=case.step,
        perturbation=perturbation,
        original=original,
        perturbed=perturbed,
        z=z,
        z_bar=verdict_of(perturbed),
        excluded=_exclusion(case, perturbation, why),
        timings=timings,
        warnings=warnings,
    )


def _exclusion(case: CaseSpec, perturbation: Perturbation, why: str) -> str:
    if perturbation.text is None:
        return f"unperturbable: {perturbation.reason or 'no perturbation applies'}"
    if perturbation.effective is False and not case.keep_ineffective:
        return f"ineffective perturbation: {why}"
    return ""
