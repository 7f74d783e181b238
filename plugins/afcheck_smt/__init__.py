"""Built-in afcheck plugin: smt — decide the arithmetic fragment of Lean statements with z3."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from afcheck import hookimpl
from afcheck.errors import MissingDependency, UsageError


def _int_option(options: Mapping[str, str], key: str, default: int) -> int:
    raw = options.get(key, str(default))
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(f"--prover-opt {key}={raw}: expected a whole number") from None
    if value < 1:
        raise UsageError(f"--prover-opt {key}={raw}: must be at least 1")
    return value


def _make_prover(options: Mapping[str, str]) -> Any:
    try:
        import z3  # noqa: F401
    except ImportError:
        raise MissingDependency("smt", "z3-solver", "pip install 'afcheck[smt]'") from None
    from afcheck.runtime.workers import default_jobs
    from afcheck_smt.prover import SmtProver

    unknown = set(options) - {"timeout_ms", "jobs"}
    if unknown:
        raise UsageError(
            f"prover smt: unknown option(s) {', '.join(sorted(unknown))}; known: timeout_ms, jobs"
        )
    timeout_ms = _int_option(options, "timeout_ms", 2000)
    return SmtProver(
        timeout_ms=timeout_ms,
        jobs=_int_option(options, "jobs", default_jobs()),
        deadline_s=max(10.0, 5 * timeout_ms / 1000),
    )


@hookimpl
def afcheck_register_provers(register: Any) -> None:
    register(
        "smt",
        _make_prover,
        description="z3 with Lean's exact arithmetic semantics (ℕ ℤ ℚ ℝ); not kernel-certified",
        details={"backend": "z3", "options": "timeout_ms (2000), jobs (CPUs)"},
    )
