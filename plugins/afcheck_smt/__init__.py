"""Built-in afcheck plugin: smt — decide the arithmetic fragment of Lean statements with z3."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from afcheck import hookimpl
from afcheck.errors import MissingDependency, UsageError
from afcheck.option_values import seconds, whole

if TYPE_CHECKING:
    from afcheck.budget import Budget


def _make_prover(options: Mapping[str, str]) -> Any:
    try:
        import z3  # noqa: F401
    except ImportError:
        raise MissingDependency("smt", "z3-solver", "pip install 'afcheck[smt]'") from None
    from afcheck.runtime.workers import default_jobs
    from afcheck_smt.prover import SmtProver

    unknown = set(options) - {"timeout_ms", "jobs", "deadline_s", "isolate"}
    if unknown:
        raise UsageError(
            f"prover smt: unknown option(s) {', '.join(sorted(unknown))}; known: timeout_ms, "
            "jobs, deadline_s, isolate"
        )
    timeout_ms = whole(options, "timeout_ms", 2000, where="--prover-opt")
    isolate = options.get("isolate", "false").strip().lower()
    if isolate not in {"true", "false"}:
        raise UsageError(f"--prover-opt isolate={options['isolate']}: expected true or false")
    return SmtProver(
        timeout_ms=timeout_ms,
        jobs=whole(options, "jobs", default_jobs(), where="--prover-opt"),
        deadline_s=seconds(options, "deadline_s", max(10.0, 5 * timeout_ms / 1000),
                           where="--prover-opt"),
        isolate=isolate == "true",
    )


def budget_options(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    """The options that carry a stage's budget (:class:`afcheck.registry.BudgetOptions`):
    ``seconds`` is the deadline of one statement (a pool worker past it is killed) and,
    unless the user gave ``timeout_ms``, split over the two z3 calls a statement may need, so
    that a statement decided in this process keeps to it too. The deadline holds only in the
    pool (small batches are decided in this process), so a user's ``timeout_ms`` whose two
    calls could outlast ``seconds`` contradicts the budget: :class:`ValueError`.
    ``memory_mb`` is refused: small batches are decided in this process, where one
    statement's memory cannot be bounded."""
    if budget.memory_mb is not None:
        raise ValueError("the prover 'smt' decides small batches in this process, where "
                         "memory cannot be bounded; leave memory_mb unset (its pool workers "
                         "have 4,096 MiB each)")
    if budget.seconds is None:
        return {}
    out = {"deadline_s": f"{budget.seconds:g}"}
    most = max(1, math.floor(budget.seconds * 1000 / 2))
    given = options.get("timeout_ms")
    if given is None:
        out["timeout_ms"] = str(most)
    elif given.strip().isdigit() and int(given) > most:
        # A malformed value is left to the factory, which names the option.
        raise ValueError(f"--prover-opt timeout_ms={given} lets a statement's two z3 calls "
                         f"take {2 * int(given) / 1000:g} s, more than its {budget.seconds:g} s "
                         f"(a small batch is decided in this process, where only z3's "
                         f"timeout holds); give timeout_ms={most} or less, or leave it out")
    return out


@hookimpl
def afcheck_register_provers(register: Any) -> None:
    register(
        "smt",
        _make_prover,
        description="z3 with Lean's exact arithmetic semantics (ℕ ℤ ℚ ℝ); not kernel-certified",
        details={"backend": "z3",
                 "options": "timeout_ms (2000), jobs (CPUs), deadline_s (5 × timeout, ≥ 10), "
                            "isolate (false; true: every batch in the pool)"},
        budget=budget_options,
        # A statement past deadline_s has its worker killed: transient, never cached; how
        # many workers run and whether a batch runs in the pool change no verdict.
        volatile=("deadline_s", "jobs", "isolate"),
    )
