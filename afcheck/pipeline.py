"""The batched pipeline: perturb → formalise → check → prove → case results.

Each stage receives all of its work in one call per component (one vLLM call for thousands of
prompts, one pool of provers), never one call per test item. Identical work is sent once: a
step perturbed by one perturber is formalised once on its original side however many
perturbers there are, and a statement is proved once however many cases produced it.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from afcheck import cache, screen
from afcheck.cache import Cache
from afcheck.errors import AfcheckError
from afcheck.plugins import Plugins
from afcheck.progress import Progress
from afcheck.spool import Spool
from afcheck.types import (
    CaseResult,
    Formalisation,
    FormaliseRequest,
    Perturbation,
    ProofTask,
    Side,
    Step,
    Verdict,
    VerdictKind,
)

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Choice:
    """A component chosen for a case: its registered name and options."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, name: str, options: Mapping[str, str] | None = None) -> Choice:
        return cls(name, tuple(sorted((options or {}).items())))

    def __str__(self) -> str:
        return self.name


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


@dataclass
class StageTimes:
    """Seconds spent inside each kind of component (the rest is the runner's own cost)."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, stage: str, seconds: float) -> None:
        self.seconds[stage] += seconds

    @property
    def total(self) -> float:
        return sum(self.seconds.values())


@dataclass
class Runtime:
    """How a run executes: result cache, chunk size, progress, time accounting."""

    cache: Cache | None = None
    chunk_size: int = 256
    """Work is sent to a component in chunks of this size, and each finished chunk is
    cached at once, so a killed run loses at most one chunk per stage."""
    progress: Progress = field(default_factory=lambda: Progress(enabled=False))
    times: StageTimes = field(default_factory=StageTimes)
    spool: Spool | None = None
    """Where raw model outputs go, so that records in memory stay small; ``None`` keeps them
    in the records."""


class Components:
    """Creates each chosen component once per run."""

    def __init__(self, plugins: Plugins) -> None:
        self.plugins = plugins
        self._made: dict[tuple[str, Choice], Any] = {}

    def get(self, kind: str, choice: Choice) -> Any:
        key = (kind, choice)
        if key not in self._made:
            self._made[key] = self.plugins.create(kind, choice.name, dict(choice.options))
        return self._made[key]

    def close(self) -> None:
        """Let components that hold processes or servers release them."""
        for made in self._made.values():
            close = getattr(made, "close", None)
            if callable(close):
                close()

    def versions(self) -> dict[str, str]:
        return {f"{kind}:{choice.name}": str(getattr(made, "version", ""))
                for (kind, choice), made in self._made.items()}


def run(
    cases: Sequence[CaseSpec],
    components: Components,
    on_result: Callable[[CaseResult], None] | None = None,
    runtime: Runtime | None = None,
) -> dict[str, CaseResult]:
    """Decide every case; results by case id, reported through ``on_result`` as they form."""
    rt = runtime if runtime is not None else Runtime()
    perturbations = _perturb(cases, components, rt)
    formalisations = _formalise(cases, perturbations, components, rt)
    checked = _check(cases, formalisations, components, rt)
    screened = {case.case_id: _screened(case, perturbations, checked) for case in cases}
    verdicts = _prove(cases, screened, checked, components, rt)
    results: dict[str, CaseResult] = {}
    for case in cases:
        result = _assemble(case, perturbations, checked, verdicts, screened[case.case_id])
        results[case.case_id] = result
        if on_result is not None:
            on_result(result)
    return results


# -- stages ------------------------------------------------------------------------------------

_PKey = tuple[Choice, int, str]  # perturber, seed, step id
_FKey = tuple[Choice, str]  # formaliser, request key


def _perturb(cases: Sequence[CaseSpec], components: Components,
             rt: Runtime) -> dict[_PKey, Perturbation]:
    groups: dict[tuple[Choice, int], dict[str, Step]] = defaultdict(dict)
    for case in cases:
        groups[(case.perturber, case.seed)][case.step.id] = case.step
    out: dict[_PKey, Perturbation] = {}
    for (choice, seed), steps in groups.items():
        perturber = components.get("perturber", choice)
        fp = cache.fingerprint(perturber, dict(choice.options))
        batch = list(steps.values())
        made = _cached_call(
            rt, "perturb", choice, perturber, batch,
            key=lambda step: cache.key("perturb", fp, seed, step.id, step.text, step.context,
                                       step.problem),
            call=functools.partial(perturber.perturb, seed=seed),
            load=cache.load_perturbation,
        )
        for step, perturbation in zip(batch, made, strict=True):
            out[(choice, seed, step.id)] = perturbation
    return out


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
               components: Components, rt: Runtime) -> dict[_FKey, Formalisation]:
    groups: dict[Choice, dict[str, FormaliseRequest]] = defaultdict(dict)
    for case in cases:
        perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
        for request in _requests_of(case, perturbation):
            groups[case.formaliser].setdefault(request.key, request)
    out: dict[_FKey, Formalisation] = {}
    for choice, requests in groups.items():
        formaliser = components.get("formaliser", choice)
        fp = cache.fingerprint(formaliser, dict(choice.options))
        batch = list(requests.values())
        made = _cached_call(
            rt, "formalise", choice, formaliser, batch,
            key=lambda r: cache.key("formalise", fp, r.text, r.context, r.problem),
            call=formaliser.formalise,
            load=cache.load_formalisation,
        )
        for request, formalisation in zip(batch, made, strict=True):
            # A cached record may come from another step with the same text.
            out[(choice, request.key)] = replace(formalisation, key=request.key)
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
           components: Components, rt: Runtime) -> dict[tuple[Choice, _FKey], Formalisation]:
    groups: dict[Choice, dict[_FKey, Formalisation]] = defaultdict(dict)
    for case in cases:
        for key in _case_fkeys(case):
            if key in formalisations:
                groups[case.checker][key] = formalisations[key]
    out: dict[tuple[Choice, _FKey], Formalisation] = {}
    for choice, items in groups.items():
        checker = components.get("checker", choice)
        fp = cache.fingerprint(checker, dict(choice.options))
        keys = list(items)
        batch = [items[k] for k in keys]
        made = _cached_call(
            rt, "check", choice, checker, batch,
            key=lambda f: cache.key("check", fp, f.status.value, f.statement, f.header),
            call=checker.check,
            load=cache.load_formalisation,
        )
        for key, original, formalisation in zip(keys, batch, made, strict=True):
            # The cache keeps the verdict of the check; the record stays this request's own.
            if (formalisation.status, formalisation.reason) != (original.status, original.reason):
                original = replace(original, status=formalisation.status,
                                   reason=formalisation.reason)
            out[(choice, key)] = original
    return out


def _prove(cases: Sequence[CaseSpec], screened: Mapping[str, str | None],
           checked: Mapping[tuple[Choice, _FKey], Formalisation],
           components: Components, rt: Runtime) -> dict[tuple[Choice, str, str], Verdict]:
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
        prover = components.get("prover", choice)
        fp = cache.fingerprint(prover, dict(choice.options))
        batch = list(tasks.values())
        made = _cached_call(
            rt, "prove", choice, prover, batch,
            key=lambda t: cache.key("prove", fp, t.statement, t.header),
            call=prover.prove,
            load=cache.load_verdict,
        )
        for task, verdict in zip(batch, made, strict=True):
            out[(choice, task.statement, task.header)] = verdict
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
    return screen.edited_statement(original.statement, perturbation.edit)


def _case_fkeys(case: CaseSpec) -> tuple[_FKey, _FKey]:
    return (
        (case.formaliser, _request_key(case.step, Side.ORIGINAL, case.perturber, case.seed)),
        (case.formaliser, _request_key(case.step, Side.PERTURBED, case.perturber, case.seed)),
    )


def _assemble(case: CaseSpec, perturbations: Mapping[_PKey, Perturbation],
              checked: Mapping[tuple[Choice, _FKey], Formalisation],
              verdicts: Mapping[tuple[Choice, str, str], Verdict],
              screened: str | None) -> CaseResult:
    perturbation = perturbations[(case.perturber, case.seed, case.step.id)]
    original_key, perturbed_key = _case_fkeys(case)
    original = checked[(case.checker, original_key)]
    perturbed = checked.get((case.checker, perturbed_key))

    def verdict_of(formalisation: Formalisation | None) -> Verdict | None:
        if formalisation is None or not formalisation.ok or not formalisation.statement:
            return None
        return verdicts[(case.prover, formalisation.statement, formalisation.header)]

    why = "the perturbed step still holds"
    if screened is not None:
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
        z=verdict_of(original),
        z_bar=verdict_of(perturbed),
        excluded=_exclusion(case, perturbation, why),
    )


def _exclusion(case: CaseSpec, perturbation: Perturbation, why: str) -> str:
    if perturbation.text is None:
        return f"unperturbable: {perturbation.reason or 'no perturbation applies'}"
    if perturbation.effective is False and not case.keep_ineffective:
        return f"ineffective perturbation: {why}"
    return ""


def _cached_call(
    rt: Runtime,
    stage: str,
    choice: Choice,
    component: Any,
    batch: Sequence[T],
    *,
    key: Callable[[T], str],
    call: Callable[[list[T]], Sequence[R]],
    load: Callable[[Any], R],
) -> list[R]:
    """``call`` over the items the cache does not hold, in chunks; each chunk cached as done."""
    use_cache = rt.cache is not None and getattr(component, "cacheable", True)
    keys = [key(item) for item in batch] if use_cache else []
    found = rt.cache.get_many(stage, keys) if use_cache and rt.cache is not None else {}
    out: list[R | None] = [None] * len(batch)
    for i, k in enumerate(keys):
        if k in found:
            out[i] = load(found[k])
    missing = [i for i, item in enumerate(out) if item is None]
    progress = rt.progress.stage(f"{stage} ({choice.name})", len(missing))
    try:
        for start in range(0, len(missing), rt.chunk_size):
            indices = missing[start:start + rt.chunk_size]
            chunk = [batch[i] for i in indices]
            began = time.perf_counter()
            try:
                made = list(call(chunk))
            except AfcheckError:
                raise
            except Exception as exc:
                raise ComponentError(
                    f"{choice.name} failed at the {stage} stage: {type(exc).__name__}: {exc}"
                ) from exc
            rt.times.add(stage, time.perf_counter() - began)
            _check_length(choice, stage, chunk, made)
            for i, record in zip(indices, made, strict=True):
                out[i] = record
            if use_cache and rt.cache is not None:
                rt.cache.put_many(stage, [(keys[i], cache.dump(r))
                                          for i, r in zip(indices, made, strict=True)])
            progress.advance(len(chunk))
    finally:
        progress.close()
    return [r for r in out if r is not None]


class PipelineError(AfcheckError):
    """A component broke its contract."""


class ComponentError(AfcheckError):
    """A component raised instead of returning a result: a bug in that plugin."""


def _check_length(choice: Choice, stage: str, batch: Sequence[Any], made: Sequence[Any]) -> None:
    if len(made) != len(batch):
        raise PipelineError(f"{choice.name} returned {len(made)} results for {len(batch)} "
                            f"inputs at the {stage} stage")
