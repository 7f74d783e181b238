"""Checker ``lean``: a statement type-checks when it elaborates with ``by sorry``."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from afcheck.types import Formalisation, FormalisationStatus
from afcheck_lean.pool import Failure, ReplPool
from afcheck_lean.replies import Reply
from afcheck_lean.source import Source, SourceError, declaration_source, header_lines
from afcheck_lean.statement import StatementError, split_statement


class LeanChecker:
    """Type-checks every OK formalisation in one pool batch.

    Records that are not OK pass through unchanged. A statement Lean rejects becomes TC-Fail
    with the first error (position counted inside the statement) as the reason. A check that
    times out or crashes says nothing about the statement, so the record stays OK and the
    Lean provers will report INCONCLUSIVE for it.
    """

    name = "lean"
    version = "1"

    def __init__(self, pool: ReplPool) -> None:
        self.pool = pool

    def check(self, formalisations: Sequence[Formalisation]) -> list[Formalisation]:
        prepared = [self._prepare(f) for f in formalisations]
        sources = [p for p in prepared if isinstance(p, Source)]
        results = iter(self.pool.run([s.text for s in sources]))
        out = []
        for record, item in zip(formalisations, prepared, strict=True):
            if isinstance(item, Source):
                out.append(_apply(record, item, next(results)))
            elif isinstance(item, str):
                out.append(_tc_fail(record, item))
            else:
                out.append(record)
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
        return declaration_source(header, statement.with_sorry(), print_axioms=False)

    def close(self) -> None:
        self.pool.close()


def _apply(record: Formalisation, source: Source, result: Reply | Failure) -> Formalisation:
    if isinstance(result, Failure):
        return record
    if result.refusal:
        return _tc_fail(record, f"Lean refused the statement: {result.refusal}")
    if not result.errors:
        return record
    first = result.errors[0]
    text = first.data.strip().splitlines()[0] if first.data.strip() else "(empty message)"
    return _tc_fail(record, f"{source.relative(first.line)}:{first.column}: {text}")


def _tc_fail(record: Formalisation, reason: str) -> Formalisation:
    return dataclasses.replace(record, status=FormalisationStatus.TC_FAIL, reason=reason)
