"""Prover ``lean-tactics``: a fixed tactic portfolio on the statement and on its negation.

The portfolio is tried in the order of :data:`PORTFOLIO` (cheap decision procedures first,
search last); the first candidate the kernel accepts decides. For the negation, explicit
witnesses come first when the SMT prover found a counterexample (``push_neg``, ``use`` the
values, close the ground goal). Everything is deterministic: same statements, same
attempts, same order.

With ``trust_smt`` the prover also certifies SMT verdicts: a verdict Lean confirms is
certified; one Lean cannot confirm is returned as the SMT verdict with ``certified=False``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from afcheck.components import Prover
from afcheck.types import ProofTask, Verdict, VerdictKind
from afcheck_lean.deadline import Deadlines
from afcheck_lean.judge import Judge, Trust
from afcheck_lean.kimina import pool_summary
from afcheck_lean.negation import Negate, NegationError
from afcheck_lean.pool import Breaker, LeanPool
from afcheck_lean.statement import StatementError, split_statement, top_level_assign
from afcheck_lean.verify import Candidate, Check, judged_version, verdict_of, verify

PORTFOLIO: tuple[str, ...] = (
    "norm_num",
    "simp",
    "decide",
    "omega",
    "linarith",
    "nlinarith",
    "positivity",
    "aesop",
)
"""Tactics tried on each side, in this order."""

_CLOSERS = "first | (norm_num; done) | (simp; done) | decide | (nlinarith; done)"
_VALUE = re.compile(r"^-?\d+(?:\.\d+)?(?:/\d+)?$")


@dataclass(frozen=True)
class Attempt:
    """One candidate proof of one side of a task."""

    side: VerdictKind
    """PROVED: a proof of the statement; REFUTED: a proof of its negation."""
    statement: str
    body: str
    label: str


def tactic_body(tactic: str) -> str:
    return f"by\n  {tactic}"


def witness_body(values: Sequence[str]) -> str:
    """A proof of ¬(∀ xs, …) that instantiates ``xs`` with ``values``."""
    return (
        "by\n  push_neg\n  use " + ", ".join(f"({v})" for v in values)
        + f"\n  all_goals {_CLOSERS}"
    )


def witness_values(statement: str, counterexample: Mapping[str, str]) -> list[str] | None:
    """The counterexample's values in binder order, or ``None`` if one is not a plain number."""
    try:
        signature = split_statement(statement).signature
    except StatementError:
        return None
    values = []
    for name in binder_names(signature):
        if name in counterexample:
            value = counterexample[name].strip()
            if not _VALUE.match(value):
                return None
            values.append(value)
    return values or None


def binder_names(signature: str) -> list[str]:
    """Names bound by the explicit and implicit binder groups before the statement's colon."""
    names: list[str] = []
    depth, start, opener = 0, 0, ""
    for i, ch in enumerate(signature):
        if ch in "([{⦃":
            if depth == 0:
                start, opener = i + 1, ch
            depth += 1
        elif ch in ")]}⦄":
            depth -= 1
            if depth == 0 and opener != "[":
                names.extend(_group_names(signature[start:i]))
        elif depth == 0 and ch == ":":
            break
    return names


def _group_names(group: str) -> list[str]:
    colon = group.find(":")
    if colon < 0 or top_level_assign(group[:colon + 1]) is not None:
        return []
    return group[:colon].split()


def attempts(task: ProofTask, negate: Negate, hint: Verdict | None) -> tuple[list[Attempt], str]:
    """The attempts for a task, in order, and why the negation is unavailable (or "")."""
    prove = [Attempt(VerdictKind.PROVED, task.statement, tactic_body(t), t) for t in PORTFOLIO]
    try:
        negation = negate(task.statement)
    except NegationError as exc:
        return prove, str(exc)
    refute = []
    if hint is not None and hint.kind is VerdictKind.REFUTED and hint.counterexample:
        values = witness_values(task.statement, hint.counterexample)
        if values:
            refute.append(Attempt(VerdictKind.REFUTED, negation, witness_body(values),
                                  "witnesses " + ", ".join(values)))
    refute += [Attempt(VerdictKind.REFUTED, negation, tactic_body(t), t) for t in PORTFOLIO]
    if hint is not None and hint.kind is VerdictKind.REFUTED:
        return refute + prove, ""
    return prove + refute, ""


class LeanTacticsProver:
    """See the module docstring."""

    name = "lean-tactics"
    version = "1"

    def __init__(self, pool: LeanPool, negate: Negate, *, smt: Prover | None = None,
                 trust_smt: bool = False, allow_native_decide: bool = False,
                 statement_s: float | None = None, judge: Judge | None = None,
                 trust: Trust = "judge") -> None:
        self.pool = pool
        self.judge = judge
        """Certifies what Lean's REPL accepted (:mod:`afcheck_lean.judge`); ``None``: no
        verdict is certified."""
        self.trust = trust
        self.version = judged_version("1", judge, trust)
        self.statement_s = statement_s
        """Wall clock of one statement across its attempts (:mod:`afcheck_lean.deadline`);
        ``None``: only the pool's ``timeout_s`` per attempt."""
        self.negate = negate
        self.smt = smt
        self.trust_smt = trust_smt
        self.allow_native_decide = allow_native_decide
        # Stops the run when Lean cannot start, rather than answering INCONCLUSIVE for all.
        self.breaker = Breaker(limit=None)

    @property
    def contained(self) -> bool:
        """Every command runs in the pool's REPLs under their timeout and memory cap, and the
        smt hints (``smt`` on) in the smt prover's own workers when it is ``contained``."""
        return self.smt is None or bool(getattr(self.smt, "contained", False))

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        hints: list[Verdict | None] = [None] * len(tasks)
        if self.smt is not None:
            hints = list(self.smt.prove(tasks))
        plans = [attempts(t, self.negate, h) for t, h in zip(tasks, hints, strict=True)]
        found: list[tuple[Attempt, Check] | None] = [None] * len(tasks)
        failures: list[list[Check]] = [[] for _ in tasks]
        clock = Deadlines(self.statement_s, self.pool.settings.timeout_s, len(tasks))
        for round_ in range(max((len(p[0]) for p in plans), default=0)):
            todo = [i for i, (plan, _) in enumerate(plans)
                    if found[i] is None and round_ < len(plan) and not _stalled(failures[i])
                    and not clock.over(i)]
            if not todo:
                break
            picked = [plans[i][0][round_] for i in todo]
            checks = verify(self.pool, [Candidate(a.statement, tasks[i].header, a.body)
                                        for i, a in zip(todo, picked, strict=True)],
                            allow_native_decide=self.allow_native_decide,
                            breaker=self.breaker, timeouts=[clock.timeout(i) for i in todo],
                            judge=self.judge)
            if self.breaker.tripped is not None:
                raise self.breaker.error(f"prover {self.name}")
            for i, attempt, check in zip(todo, picked, checks, strict=True):
                clock.charge(i, check.seconds)
                if check.accepted:
                    found[i] = (attempt, check)
                else:
                    failures[i].append(check)
        return [self._verdict(found[i], failures[i], plans[i][1], hints[i],
                              clock.reason(i) if found[i] is None and clock.over(i) else "")
                for i in range(len(tasks))]

    def _verdict(self, found: tuple[Attempt, Check] | None, failures: list[Check],
                 no_negation: str, hint: Verdict | None, over: str) -> Verdict:
        if found is not None:
            attempt, check = found
            agrees = hint is not None and hint.kind is attempt.side
            verdict = verdict_of(check, attempt.side, self.name,
                                 f"{_side_name(attempt.side)} closed by {attempt.label}",
                                 self.trust)
            if agrees and hint is not None and verdict.kind is attempt.side:
                verdict = replace(verdict, counterexample=hint.counterexample,
                                  reason=verdict.reason + ("; certifies the smt verdict"
                                                           if verdict.certified else
                                                           "; agrees with the smt verdict"))
            elif agrees and hint is not None and self.trust_smt:
                # Unjudged under --trust judge: trust_smt still returns the smt verdict,
                # uncertified, as when Lean could not confirm it.
                return replace(hint, certified=False,
                               reason=f"{hint.reason}; not certified: {verdict.reason}")
            return verdict
        why = _summary(failures, no_negation, over)
        if self.trust_smt and hint is not None and hint.kind is not VerdictKind.INCONCLUSIVE:
            return Verdict(kind=hint.kind, backend=hint.backend, certified=False,
                           reason=f"{hint.reason}; not certified by Lean: {why}".strip("; "),
                           evidence=hint.evidence, counterexample=hint.counterexample)
        # An attempt that got no answer (a timeout, a crash) may close the goal on a machine
        # less loaded, and so may the attempts a spent budget left untried: the verdict is
        # this run's, never cached.
        stalled = bool(over) or any(c.failure is not None for c in failures)
        return Verdict(kind=VerdictKind.INCONCLUSIVE, backend=self.name, reason=why,
                       transient=stalled)

    def summary_lines(self) -> list[str]:
        """The pool's line for the end of the run, when it has one (a kimina-lean-server)."""
        return pool_summary(self.pool)

    def close(self) -> None:
        self.pool.close()


MAX_STALLS = 2
"""Attempts of one task that may get no answer (timeout, crash) before the task is given up:
each costs a REPL restart and a re-import."""


def _stalled(failures: list[Check]) -> bool:
    return sum(c.failure is not None for c in failures) >= MAX_STALLS


def _side_name(side: VerdictKind) -> str:
    return "statement" if side is VerdictKind.PROVED else "negation"


def _summary(failures: list[Check], no_negation: str, over: str) -> str:
    stalled = [c.failure.reason for c in failures if c.failure is not None]
    parts = [f"{over}; none of the {len(failures)} tactic(s) tried closed the statement or "
             "its negation" if over else
             "no portfolio tactic closed the statement or its negation"]
    if stalled:
        parts.append(f"{len(stalled)} attempt(s) got no answer: {stalled[0]}")
    if no_negation:
        parts.append(no_negation)
    return "; ".join(parts)
