"""The ``smt`` prover: decide Lean statements of the arithmetic fragment with z3.

PROVED when hypotheses ∧ ¬conclusion is unsatisfiable. REFUTED when the negation holds:
for a statement with parameters, z3's model of hypotheses ∧ ¬conclusion — but only after the
exact evaluator (:mod:`afcheck.lean.evaluate`) confirms that the model satisfies every
hypothesis and violates the conclusion; for a statement without parameters, when the body is
unsatisfiable. A big operator over a domain with a term as its upper end is unrolled up to
:data:`afcheck.lean.elaborate.UNROLL_LIMIT` terms (:data:`afcheck.lean.typed.UNROLLED`): then
PROVED also needs hypotheses ∧ (some operator has more terms) to be unsat — the hypotheses pin
every such operator within the unrolled range — and the counterexample is searched for within
it. Everything else — outside the fragment, z3 ``unknown``, a timeout, a model
that cannot be checked exactly — is INCONCLUSIVE with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from afcheck.runtime.workers import PoolError, WorkerPool
from afcheck.types import ProofTask, Verdict, VerdictKind

BACKEND = "smt"
VERSION = "1"
_POOL_THRESHOLD = 32
"""Batches smaller than this run in-process: a pool's start-up costs more than it saves."""
_POOL_WORTH_S = 4.0
"""Estimated in-process time above which starting the worker processes pays off."""


@dataclass
class SmtProver:
    """z3 with Lean's arithmetic semantics. ``jobs`` > 1 uses a process pool for batches of
    at least 32 statements; ``timeout_ms`` bounds each z3 call, and a statement that keeps a
    worker past ``deadline_s`` (z3 not honouring its timeout) has that worker killed; a pool
    worker's memory is bounded by ``memory_mb``. A pool that cannot start leaves its batch
    INCONCLUSIVE with the reason and is started afresh for the next batch."""

    timeout_ms: int = 2000
    jobs: int = 1
    deadline_s: float = 30.0
    memory_mb: int | None = 4096
    isolate: bool = False
    """Decide every batch in the pool, never in this process, however small: for a caller
    that must stay within its own bounds (a Lean prover taking the smt verdicts as hints),
    z3 ignoring its timeout then costs a killed worker, never the caller."""
    name: str = "smt"
    version: str = VERSION
    _pool: WorkerPool[tuple[ProofTask, int], Verdict] | None = field(default=None, repr=False)

    @property
    def contained(self) -> bool:
        """Whether every z3 call runs in a worker that is killed past ``deadline_s``."""
        return self.isolate

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        if self.isolate:
            return self._pool_map(tasks) if tasks else []
        # Most statements take a millisecond, and starting worker processes takes seconds:
        # decide a few here and move to the pool only when the rest would take longer.
        done: list[Verdict] = []
        if self._pool is None:
            start = time.perf_counter()
            for task in tasks:
                done.append(decide(task, self.timeout_ms))
                each = (time.perf_counter() - start) / len(done)
                rest = len(tasks) - len(done)
                if self.jobs > 1 and rest >= _POOL_THRESHOLD and each * rest > _POOL_WORTH_S:
                    break
            if len(done) == len(tasks):
                return done
        return done + self._pool_map(tasks[len(done):])

    def _pool_map(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        if self._pool is None:
            self._pool = WorkerPool(
                _decide_pair, self.jobs, self.deadline_s,
                on_timeout=lambda item, s: _inconclusive(f"no answer within {s:g} s; stopped",
                                                         transient=True),
                on_error=lambda item, why: _inconclusive(f"worker failed: {why}",
                                                         transient=True),
                memory_mb=self.memory_mb,
            )
        try:
            return self._pool.map([(t, self.timeout_ms) for t in tasks])
        except PoolError as exc:
            self._pool = None  # rebuilt for the next batch
            return [_inconclusive(f"{exc}; the prover pool is started again for the next "
                                  "batch", transient=True) for _ in tasks]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _decide_pair(item: tuple[ProofTask, int]) -> Verdict:
    return decide(*item)


def decide(task: ProofTask, timeout_ms: int = 2000) -> Verdict:
    """The verdict on one statement; never raises for a bad statement."""
    start = time.perf_counter()
    try:
        verdict = _decide(task, timeout_ms)
    except (MemoryError, RecursionError) as error:
        # Stopped by this process's memory or stack, not by the statement: a process with
        # more may decide it, so the verdict is this run's, never cached.
        verdict = _inconclusive(f"stopped at a resource limit: {_described(error)}",
                                transient=True)
    except Exception as error:  # noqa: BLE001 - one bad statement must not stop a batch
        verdict = _inconclusive(f"internal error: {_described(error)}")
    return Verdict(
        kind=verdict.kind,
        backend=BACKEND,
        certified=False,
        reason=verdict.reason,
        evidence=verdict.evidence,
        counterexample=verdict.counterexample,
        elapsed_s=time.perf_counter() - start,
        transient=verdict.transient,
    )


def _described(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _inconclusive(reason: str, *, transient: bool = False) -> Verdict:
    return Verdict(VerdictKind.INCONCLUSIVE, BACKEND, reason=reason, transient=transient)


_Z3_LIMITS = ("timeout", "canceled", "max. resource limit exceeded", "max. memory exceeded",
              "out of memory")
"""``reason_unknown`` of a z3 call stopped at a limit rather than by the statement (``out of
memory``: z3's allocator failed, e.g. under a worker's address-space limit)."""


def stopped_at_limit(reason_unknown: str) -> bool:
    """Whether z3's ``unknown`` with this reason comes from a limit (its time, its memory, the
    process's memory), so that the verdict is transient: a run with more of it may decide."""
    return reason_unknown in _Z3_LIMITS


def _decide(task: ProofTask, timeout_ms: int) -> Verdict:
    from afcheck.lean.elaborate import Unsupported, elaborate
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_theorem

    try:
        extracted = extract_statement(task.statement)
        theorem = parse_theorem(extracted.statement)
        header = "\n".join(filter(None, (task.header, extracted.header)))
        statement = elaborate(theorem, header, symbols=True)
    except (ExtractionError, ParseError) as error:
        return _inconclusive(f"cannot read the statement: {error}")
    except Unsupported as error:
        return _inconclusive(f"outside the SMT fragment: {error}")
    return _solve(statement, timeout_ms)


def _solve(statement: Any, timeout_ms: int) -> Verdict:
    import z3

    from afcheck.lean.elaborate import Unsupported
    from afcheck_smt.encode import Encoding, declare, formula

    enc = Encoding()
    env = {name: declare(enc, name, ty) for name, ty in statement.params}
    for name, domain, codomain in statement.functions:
        enc.vocabulary.function(name, domain, codomain)
    try:
        hyps = [formula(h, enc, env) for _, h in statement.hypotheses]
        conclusion = formula(statement.conclusion, enc, env)
    except Unsupported as error:
        return _inconclusive(f"outside the SMT fragment: {error}")
    side = list(enc.side) + enc.vocabulary.axioms
    result, payload = _check(side + enc.limits + hyps + [z3.Not(conclusion)], timeout_ms)
    if result == "unsat":
        unpinned = _unpinned(enc, hyps, timeout_ms)
        if unpinned is not None:
            return unpinned
        return Verdict(VerdictKind.PROVED, BACKEND, reason="hypotheses ∧ ¬conclusion is unsat")
    if result == "unknown":
        unknown = _inconclusive(f"z3 returned unknown ({payload}) on hypotheses ∧ ¬conclusion",
                                transient=stopped_at_limit(str(payload)))
        return _without_facts(statement, enc, hyps, conclusion, timeout_ms) or unknown
    if not statement.params and not statement.hypotheses and not statement.functions:
        again, detail = _check(side + [conclusion], timeout_ms)
        if again == "unsat":
            return Verdict(VerdictKind.REFUTED, BACKEND, reason="the statement is unsat")
        return _inconclusive(f"z3 could not prove the negation ({again} {detail or ''})".strip(),
                             transient=again == "unknown" and stopped_at_limit(str(detail)))
    return _refutation(statement, payload, enc)


def _unpinned(enc: Any, hyps: list[Any], timeout_ms: int) -> Verdict | None:
    """``None`` when the hypotheses keep every unrolled big operator within its unrolled
    terms (hypotheses ∧ some count beyond them is unsat); else the INCONCLUSIVE verdict: the
    proof covered only those counts."""
    import z3

    from afcheck.lean.elaborate import UNROLL_LIMIT

    if not enc.limits:
        return None
    side = list(enc.side) + enc.vocabulary.axioms
    result, payload = _check(side + hyps + [z3.Not(z3.And(*enc.limits))], timeout_ms)
    if result == "unsat":
        return None
    why = f"a bound of a big operator may exceed {UNROLL_LIMIT} under the hypotheses"
    if result == "unknown":
        return _inconclusive(f"{why} (z3 returned unknown: {payload}); the conclusion holds "
                             f"for every bound up to {UNROLL_LIMIT}",
                             transient=stopped_at_limit(str(payload)))
    return _inconclusive(f"{why}; the conclusion holds for every bound up to {UNROLL_LIMIT}")


def _without_facts(statement: Any, enc: Any, hyps: list[Any], conclusion: Any,
                   timeout_ms: int) -> Verdict | None:
    """A counterexample searched for without the quantified facts of functions known
    through them (:mod:`afcheck_smt.facts`), which keep z3 from answering: its model is
    only a candidate, which :func:`_refutation` keeps only if the exact evaluator confirms it
    (it recomputes ``Nat.gcd a b`` from the model's ``a`` and ``b``). ``None`` otherwise."""
    import z3

    if not enc.vocabulary.axioms:
        return None
    ground = [fact for fact in enc.side + enc.vocabulary.axioms + enc.limits
              if not z3.is_quantifier(fact)]
    result, payload = _check(ground + hyps + [z3.Not(conclusion)], timeout_ms)
    if result != "sat":
        return None
    verdict = _refutation(statement, payload, enc)
    return verdict if verdict.kind is VerdictKind.REFUTED else None


def _refutation(statement: Any, model: Any, enc: Any) -> Verdict:
    """REFUTED only when z3's model, read exactly — the parameters' values and each function
    parameter's table — satisfies the hypotheses and violates the conclusion under the exact
    evaluator. Every function of the model is a parameter of the statement, so the model is
    an instance of it."""
    from afcheck.lean.evaluate import NotExact, holds
    from afcheck_smt.symbols import function_table

    types = dict(statement.params)
    params = {name: var for name, var in enc.variables.items() if name in types}
    values = model_values(model, params, types)
    if values is None:
        return _inconclusive("z3's counterexample is irrational and cannot be checked exactly")
    tables = {}
    for name, domain, _ in statement.functions:
        table = function_table(model, enc.vocabulary.functions[name][0])
        if table is None:
            return _inconclusive(f"z3's interpretation of '{name}' cannot be read exactly")
        tables[name] = (table, domain)
    try:
        hyps_hold, conclusion_holds = holds(
            statement, values, {name: table for name, (table, _) in tables.items()})
    except NotExact as error:
        return _inconclusive(f"z3's counterexample cannot be checked exactly: {error}")
    if not hyps_hold or conclusion_holds:
        return _inconclusive("z3's counterexample fails the exact check; not trusted")
    shown = {name: render_value(values[name]) for name, _ in statement.params}
    for name, (table, domain) in tables.items():
        letters = ("x", "y", "z", "w")
        names = tuple(letters[i] if len(domain) <= 4 else f"x{i}" for i in range(len(domain)))
        shown[name] = table.lean(names)
    evidence = "counterexample: " + ", ".join(f"{k} = {v}" for k, v in shown.items())
    return Verdict(
        VerdictKind.REFUTED,
        BACKEND,
        reason="hypotheses hold and the conclusion fails at the counterexample",
        evidence=evidence,
        counterexample=shown,
    )


def _check(assertions: list[Any], timeout_ms: int) -> tuple[str, Any]:
    import z3

    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*assertions)
    result = solver.check()
    if result == z3.sat:
        return "sat", solver.model()
    if result == z3.unsat:
        return "unsat", None
    return "unknown", solver.reason_unknown()


def model_values(
    model: Any, variables: Mapping[str, Any], types: Mapping[str, str]
) -> dict[str, Fraction] | None:
    """Exact values of the parameters in a z3 model; ``None`` if one is irrational."""
    import z3

    values: dict[str, Fraction] = {}
    for name, var in variables.items():
        value = model.eval(var, model_completion=True)
        if z3.is_int_value(value):
            values[name] = Fraction(value.as_long())
        elif z3.is_rational_value(value):
            values[name] = Fraction(value.numerator_as_long(), value.denominator_as_long())
        else:
            return None
        if types[name] in ("ℕ", "ℤ") and values[name].denominator != 1:
            return None
    return values


def render_value(value: Fraction) -> str:
    """``3``, ``-1/2``: Lean-readable exact values."""
    from afcheck_smt.symbols import render_value as render

    return render(value)
