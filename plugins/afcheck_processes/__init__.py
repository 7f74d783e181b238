"""Built-in afcheck plugin: processes — run a stage's chunks in worker processes on this
machine, one per CPU.

Registration only; the executor (:mod:`afcheck_processes.executor`) is imported when a run
selects it with ``--executor processes``.
"""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register, lazy

# What `afcheck list executors` shows; the meaning of each is in
# afcheck_processes.executor.OPTIONS.
_OPTIONS = "jobs (one per CPU), stages (all)"


@hookimpl
def afcheck_register_executors(register: Register) -> None:
    register("processes", lazy("afcheck_processes.executor:ProcessExecutor"),
             description="chunks in worker processes on this machine, one per CPU: components "
             "that compute in Python (a perturber, the literal formaliser, the smt prover) use "
             "every core",
             details={"options": _OPTIONS})
