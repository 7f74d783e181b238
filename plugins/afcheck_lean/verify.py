"""Kernel verification of candidate proofs, with every integrity rule.

A candidate is accepted only if all hold:

1. the proof body passes the static rules of :mod:`afcheck_lean.integrity`, and so does the
   task header;
2. the theorem Lean checks is rebuilt from *our* statement (under a fixed name) with only the
   candidate's body;
3. Lean answers with no error, no ``sorry`` (neither in ``sorries`` nor as a warning);
4. ``#print axioms`` on the rebuilt theorem, read at the line where we put it, lists only
   ``propext``, ``Classical.choice`` and ``Quot.sound`` (plus the compiler axioms when
   ``native_decide`` is allowed);
5. with kernel checks on (``kernel_checks``, :mod:`afcheck_lean.kernel`): the kernel accepts
   every declaration the command added when it is replayed, and the proved theorem's type is
   exactly that of our statement elaborated in a clean environment.

All of these read the REPL's output, which the checked code can write to: they reject, and
they never certify. With a ``judge`` (:mod:`afcheck_lean.judge`), each candidate they accept
is then compiled apart and judged in a process of its own; a candidate is certified only
by the judge's own result, and one the judge rejects is rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from afcheck.types import Verdict, VerdictKind
from afcheck_lean.integrity import (
    allowed_axioms,
    bounds_for,
    header_violation,
    proof_violation,
)
from afcheck_lean.judge import Challenge, Judge, Judgement, Solution, Trust
from afcheck_lean.kernel import MODULE as KERNEL_MODULE
from afcheck_lean.kernel import (
    REFERENCE_NAME,
    parse_replay,
    parse_type,
    reference_source,
)
from afcheck_lean.pool import Breaker, Failure, LeanPool, Result
from afcheck_lean.replies import Reply
from afcheck_lean.source import Source, SourceError, declaration_source, header_lines
from afcheck_lean.statement import TARGET_NAME, StatementError, split_statement


@dataclass(frozen=True)
class Candidate:
    """A proof body proposed for a statement."""

    statement: str
    header: str
    body: str
    """The text after ``:=`` (``by norm_num``, a term …)."""


@dataclass(frozen=True)
class Check:
    """The decision on one candidate."""

    accepted: bool
    reason: str
    proof: str = ""
    """The exact theorem text Lean checked (evidence)."""
    failure: Failure | None = None
    """Set when Lean gave no answer (timeout, crash, out of memory)."""
    seconds: float = 0.0
    """The wall clock Lean's commands for this candidate took (with kernel checks, the
    statement's reference command too); 0 when no command ran."""
    judgement: Judgement | None = None
    """The judge's answer on an accepted candidate; ``None`` when no judge ran."""

    @property
    def certified(self) -> bool:
        """Accepted, and certified by a judge."""
        return self.accepted and self.judgement is not None and self.judgement.certified


def verify(pool: LeanPool, candidates: Sequence[Candidate], *,
           allow_native_decide: bool = False, breaker: Breaker | None = None,
           timeouts: Sequence[float] | None = None, judge: Judge | None = None) -> list[Check]:
    """Check all candidates in one pool batch; results in input order. With a ``breaker``,
    the commands left once it trips are not run (the caller raises its error). With
    ``timeouts``, candidate ``i``'s command is limited to ``timeouts[i]`` seconds (its
    statement's reference command, with kernel checks, to the largest of its candidates'),
    else to the pool's ``timeout_s``. With a ``judge``, the accepted candidates are judged
    (:func:`judged`)."""
    checks = _verify(pool, candidates, allow_native_decide, breaker, timeouts)
    if judge is None:
        return checks
    return judged(judge, candidates, checks, pool.settings.header, allow_native_decide)


def judged(judge: Judge, candidates: Sequence[Candidate], checks: Sequence[Check],
           pool_header: str, allow_native_decide: bool) -> list[Check]:
    """``checks`` with each accepted one judged: the challenge is afcheck's statement with
    ``sorry`` under the pool's header and the task's header lines, the solution the same
    file with the candidate's body. A judge's rejection rejects the candidate; a judgement
    that decided nothing (no isolation) leaves it accepted and uncertified."""
    picked = [i for i, check in enumerate(checks) if check.accepted]
    cases = [_case(candidates[i], pool_header, allow_native_decide) for i in picked]
    answers = iter(judge.judge(cases)) if cases else iter(())
    out = list(checks)
    for index in picked:
        answer = next(answers)
        check = replace(out[index], judgement=answer)
        if answer.decided and not answer.certified:
            check = replace(check, accepted=False,
                            reason=f"rejected by the judge {answer.judge}: {answer.reason}")
        out[index] = check
    return out


def _case(candidate: Candidate, pool_header: str,
          allow_native: bool) -> tuple[Challenge, Solution]:
    statement = split_statement(candidate.statement)
    base = "\n".join(line for line in pool_header.split("\n")
                     if line.strip() != f"import {KERNEL_MODULE}")
    extra = header_lines(candidate.header, pool_header)
    header = f"{base}\n\n{extra}" if extra.strip() else base
    challenge = Challenge(header, statement.with_sorry(), TARGET_NAME,
                          allowed_axioms(allow_native))
    solution = Solution(f"{header.rstrip()}\n\n{statement.with_proof(candidate.body)}\n")
    return challenge, solution


def _verify(pool: LeanPool, candidates: Sequence[Candidate], allow_native_decide: bool,
            breaker: Breaker | None, timeouts: Sequence[float] | None) -> list[Check]:
    kernel = pool.settings.kernel_checks == "on"
    limits = list(timeouts) if timeouts is not None else \
        [pool.settings.timeout_s] * len(candidates)
    prepared: list[Check | _Job] = [
        _prepare(c, pool.settings.header, allow_native_decide, kernel) for c in candidates
    ]
    jobs = [p for p in prepared if isinstance(p, _Job)]
    job_limits = [t for p, t in zip(prepared, limits, strict=True) if isinstance(p, _Job)]
    reference_limits: dict[tuple[str, int], float] = {}
    for job, limit in zip(jobs, job_limits, strict=True):
        if job.reference:
            reference_limits[job.reference] = max(limit, reference_limits.get(job.reference, 0))
    references = sorted(reference_limits)
    results = pool.run_within([j.source.text for j in jobs] + [r[0] for r in references],
                              job_limits + [reference_limits[r] for r in references], breaker)
    answers = dict(zip(references, results[len(jobs):], strict=True))
    checked = iter(results[: len(jobs)])
    checks = []
    for item in prepared:
        if isinstance(item, Check):
            checks.append(item)
            continue
        timed = next(checked)
        reference = answers.get(item.reference) if item.reference else None
        check = _judge(item, timed.result, reference.result if reference else None,
                       allow_native_decide)
        seconds = timed.seconds + (reference.seconds if reference else 0.0)
        checks.append(replace(check, seconds=seconds))
    return checks


@dataclass(frozen=True)
class _Job:
    source: Source
    reference: tuple[str, int] | None = None
    """The command elaborating our statement in a clean environment and the line of its type
    print (kernel checks only)."""


def _prepare(candidate: Candidate, pool_header: str, allow_native: bool,
             kernel: bool) -> Check | _Job:
    try:
        statement = split_statement(candidate.statement)
        header = header_lines(candidate.header, pool_header)
    except (StatementError, SourceError) as exc:
        return Check(False, str(exc))
    problem = header_violation(header, allow_native_decide=allow_native) or proof_violation(
        candidate.body, allow_native_decide=allow_native, bounds=bounds_for(pool_header),
        signature=statement.signature,
    )
    if problem:
        return Check(False, problem)
    source = declaration_source(header, statement.with_proof(candidate.body), print_axioms=True,
                                kernel=kernel)
    if not kernel:
        return _Job(source)
    return _Job(source, reference_source(header, statement.signature))


def _judge(job: _Job, result: Result, reference: Result | None, allow_native: bool) -> Check:
    source = job.source
    proof = source.text
    if isinstance(result, Failure):
        return Check(False, result.reason, proof, failure=result)
    if result.refusal:
        return Check(False, f"Lean refused the command: {result.refusal}", proof)
    if result.errors:
        first = result.errors[0]
        return Check(False, f"Lean error at {source.relative(first.line)}:{first.column}: "
                     f"{_first_line(first.data)}", proof)
    if result.uses_sorry:
        return Check(False, "Lean reports that the proof uses sorry", proof)
    reported = result.axioms_at(source.axioms_line)
    if len(reported) != 1:
        return Check(False, "no single #print axioms answer for the checked theorem", proof)
    extra = reported[0] - allowed_axioms(allow_native)
    if extra:
        return Check(False, f"the proof depends on axioms {', '.join(sorted(extra))}", proof)
    if job.reference is None:
        return Check(True, "accepted by the Lean kernel", proof)
    problem = _kernel_problem(source, result, job.reference[1], reference)
    if problem:
        return Check(False, problem, proof)
    return Check(True, "accepted by the Lean kernel; every declaration replayed, statement "
                 "identical to afcheck's", proof)


def _kernel_problem(source: Source, result: Reply, reference_line: int,
                    reference: Result | None) -> str:
    """Why the kernel-side checks fail, or ``""``."""
    replays = [r for r in (parse_replay(m.data) for m in result.infos_at(source.replay_line))
               if r is not None]
    if len(replays) != 1:
        return "no single answer of the kernel replay (#afcheck_replay) for the checked command"
    if not replays[0].ok:
        return (f"the kernel rejects {replays[0].rejected} when it is replayed: "
                f"{_first_line(replays[0].why)}")
    proved = [t for t in (parse_type(m.data, TARGET_NAME)
                          for m in result.infos_at(source.type_line)) if t is not None]
    if not isinstance(reference, Reply) or reference.errors or reference.refusal:
        return "afcheck's own statement did not elaborate in a clean environment, so the " \
               "proved statement cannot be compared with it"
    wanted = [t for t in (parse_type(m.data, REFERENCE_NAME)
                          for m in reference.infos_at(reference_line)) if t is not None]
    if len(proved) != 1 or len(wanted) != 1:
        return "no single type print (#afcheck_type) for the proved theorem and the statement"
    if proved[0] != wanted[0]:
        return ("the proved theorem's type differs from afcheck's statement elaborated in a "
                "clean environment (the header changes what the statement means)")
    return ""


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "(empty message)"


def verdict_of(check: Check, side: VerdictKind, backend: str, reason: str,
               trust: Trust) -> Verdict:
    """The verdict of an accepted candidate proving ``side``: certified when a judge
    certified it; otherwise uncertified, and under ``trust="judge"`` INCONCLUSIVE with the
    claim kept in :attr:`~afcheck.types.Verdict.unjudged` (never cached: a judge may be at
    hand next time)."""
    judgement = check.judgement
    if check.certified and judgement is not None:
        isolation = " with the sandbox turned off (--lean-sandbox off)" \
            if judgement.sandbox == "off" else ""
        return Verdict(side, backend, certified=True, judged_by=judgement.judge,
                       reason=f"{reason}; certified by the judge {judgement.judge}{isolation}",
                       evidence=check.proof)
    why = f"not judged: {judgement.reason}" if judgement is not None else "no judge"
    if trust == "repl":
        return Verdict(side, backend, reason=f"{reason} in the Lean REPL; uncertified ({why})",
                       evidence=check.proof)
    return Verdict(VerdictKind.INCONCLUSIVE, backend, evidence=check.proof, unjudged=side,
                   transient=True,
                   reason=f"uncertified: {reason} in the Lean REPL, {why}; --trust repl "
                   "counts it")


def judged_version(base: str, judge: Judge | None, trust: Trust) -> str:
    """A Lean prover's version with its judge and trust: both change its verdicts, so a
    cached verdict is found only by the same judge under the same trust."""
    return f"{base}+judge={judge.name if judge is not None else 'none'}+trust={trust}"
