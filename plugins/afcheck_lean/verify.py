"""Kernel verification of candidate proofs, with every integrity rule.

A candidate is accepted only if all hold:

1. the proof body passes the static rules of :mod:`afcheck_lean.integrity`, and so does the
   task header;
2. the theorem Lean checks is rebuilt from *our* statement (under a fixed name) with only the
   candidate's body;
3. Lean answers with no error, no ``sorry`` (neither in ``sorries`` nor as a warning);
4. ``#print axioms`` on the rebuilt theorem, read at the line where we put it, lists only
   ``propext``, ``Classical.choice`` and ``Quot.sound`` (plus the compiler axioms when
   ``native_decide`` is allowed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from afcheck_lean.integrity import (
    allowed_axioms,
    bounds_for,
    header_violation,
    proof_violation,
)
from afcheck_lean.pool import Breaker, Failure, LeanPool
from afcheck_lean.replies import Reply
from afcheck_lean.source import Source, SourceError, declaration_source, header_lines
from afcheck_lean.statement import StatementError, split_statement


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


def verify(pool: LeanPool, candidates: Sequence[Candidate], *,
           allow_native_decide: bool = False, breaker: Breaker | None = None) -> list[Check]:
    """Check all candidates in one pool batch; results in input order. With a ``breaker``,
    the commands left once it trips are not run (the caller raises its error)."""
    prepared: list[Check | Source] = [
        _prepare(c, pool.settings.header, allow_native_decide) for c in candidates
    ]
    sources = [p for p in prepared if isinstance(p, Source)]
    results = iter(pool.run([s.text for s in sources], breaker))
    checks = []
    for item in prepared:
        if isinstance(item, Check):
            checks.append(item)
        else:
            checks.append(_judge(item, next(results), allow_native_decide))
    return checks


def _prepare(candidate: Candidate, pool_header: str, allow_native: bool) -> Check | Source:
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
    return declaration_source(header, statement.with_proof(candidate.body), print_axioms=True)


def _judge(source: Source, result: Reply | Failure, allow_native: bool) -> Check:
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
    return Check(True, "accepted by the Lean kernel", proof)


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "(empty message)"
