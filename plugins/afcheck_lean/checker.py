"""Checker ``lean``: a statement type-checks when it elaborates with ``by sorry``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from afcheck.types import Formalisation, FormalisationStatus
from afcheck_lean.integrity import header_violation
from afcheck_lean.kimina import pool_summary
from afcheck_lean.pool import Breaker, Failure, LeanPool
from afcheck_lean.replies import Reply
from afcheck_lean.source import Source, SourceError, declaration_source, header_lines
from afcheck_lean.statement import StatementError, split_statement

UNCHECKED = "not type-checked: "
"""Start of the reason of a record Lean gave no answer for (a retry may succeed)."""

BREAKER_LIMIT = 20
"""Failed commands in a row, before Lean has answered any, after which the run stops."""


class LeanChecker:
    """Type-checks every OK formalisation in one pool batch.

    Records that are not OK pass through unchanged. A header that breaks the integrity rules
    (code run at elaboration time, syntax extensions, axioms …) is never sent to Lean: the
    record becomes TC-Fail with the rule. A statement Lean rejects becomes TC-Fail with the
    first error (position counted inside the statement). A check that did not happen is not a
    pass: a command that timed out, crashed or ran out of memory makes the record AF-Fail
    (a backend error, ``transient`` so that no cache keeps it) with a reason starting with
    :data:`UNCHECKED`; it counts as a formalisation failure, never as type-correct. When Lean
    cannot work at all (the pool header fails, no REPL starts, or the first
    :data:`BREAKER_LIMIT` commands all fail) the run stops with
    :class:`~afcheck_lean.pool.LeanUnavailable`, one line.

    ``statement_s`` (a stage's ``seconds`` budget) is the wall clock of one statement's
    check: one Lean command, so it is that command's timeout when below the pool's
    ``timeout_s``. A check stopped there is the same transient AF-Fail as any timeout.
    """

    name = "lean"
    version = "2"

    def __init__(self, pool: LeanPool, *, breaker_limit: int = BREAKER_LIMIT,
                 statement_s: float | None = None) -> None:
        self.pool = pool
        self.breaker = Breaker(breaker_limit)
        self.statement_s = statement_s

    def check(self, formalisations: Sequence[Formalisation]) -> list[Formalisation]:
        prepared = [self._prepare(f) for f in formalisations]
        sources = [p for p in prepared if isinstance(p, Source)]
        texts = [s.text for s in sources]
        results: Iterator[Reply | Failure]
        if self.statement_s is None:
            results = iter(self.pool.run(texts, self.breaker))
        else:
            limit = min(self.statement_s, self.pool.settings.timeout_s)
            results = (timed.result for timed in
                       self.pool.run_within(texts, [limit] * len(texts), self.breaker))
        out = []
        for record, item in zip(formalisations, prepared, strict=True):
            if isinstance(item, Source):
                out.append(_apply(record, item, next(results)))
            elif isinstance(item, str):
                out.append(_tc_fail(record, item))
            else:
                out.append(record)
        if self.breaker.tripped is not None:
            raise self.breaker.error("checker lean")
        return out

    def _prepare(self, record: Formalisation) -> Source | str | None:
        if not record.ok:
            return None
        if not record.statement:
            return "no statement to check"
        try:
            statement = split_statement(record.statement)
            header = header_lines(record.header, self.pool.settings.header)
        except (StatementError, SourceError) as exc:
            return str(exc)
        allow_native = self.pool.settings.allow_native_decide
        problem = header_violation(header, allow_native_decide=allow_native)
        if problem:
            return f"not checked: {problem}"
        problem = header_violation(statement.signature, allow_native_decide=allow_native,
                                   term=True)
        if problem:
            return f"not checked: statement {problem.removeprefix('header ')}"
        return declaration_source(header, statement.with_sorry(), print_axioms=False)

    def summary_lines(self) -> list[str]:
        """The pool's line for the end of the run, when it has one (a kimina-lean-server)."""
        return pool_summary(self.pool)

    def close(self) -> None:
        self.pool.close()


def _apply(record: Formalisation, source: Source, result: Reply | Failure) -> Formalisation:
    if isinstance(result, Failure):
        return dataclasses.replace(record, status=FormalisationStatus.AF_FAIL,
                                   reason=f"{UNCHECKED}{result.reason}", transient=True)
    if result.refusal:
        return _tc_fail(record, f"Lean refused the statement: {result.refusal}")
    if not result.errors:
        return record
    first = result.errors[0]
    text = first.data.strip().splitlines()[0] if first.data.strip() else "(empty message)"
    return _tc_fail(record, f"{source.relative(first.line)}:{first.column}: {text}")


def _tc_fail(record: Formalisation, reason: str) -> Formalisation:
    return dataclasses.replace(record, status=FormalisationStatus.TC_FAIL, reason=reason)
