"""The wall clock of one statement across the Lean commands a prover runs for it.

A prover tries several candidates per statement (a tactic portfolio on both sides, pass@k
samples), one Lean command each. With a stage's ``seconds`` budget
(``statement_s``), the statement may spend that much in its commands together: each command
is given what is left as its timeout, and once nothing useful is left the statement is given
up, INCONCLUSIVE and transient (a limit, not the statement's answer). Only the commands'
own time counts: not the wait for a free REPL, nor a fresh REPL's header import, nor other
statements' commands, so on a local REPL pool a statement's outcome does not depend on the
batch it is in. A kimina-lean-server request carries one timeout for all its snippets: a batch
there is given the least of its statements' remaining times, and each snippet is charged the
whole request's time.
"""

from __future__ import annotations

SLICE_S = 0.05
"""Less than this left is no time for Lean to elaborate anything: the statement is over."""


class Deadlines:
    """Time spent by each statement of a batch (by index) against ``seconds`` (``None``:
    unbounded, each command gets ``per_command``, the pool's ``timeout_s``)."""

    def __init__(self, seconds: float | None, per_command: float, count: int) -> None:
        self.seconds = seconds
        self.per_command = per_command
        self._spent = [0.0] * count
        self._commands = [0] * count

    def timeout(self, statement: int) -> float:
        """The limit of the statement's next command."""
        if self.seconds is None:
            return self.per_command
        return max(SLICE_S, min(self.per_command, self.seconds - self._spent[statement]))

    def charge(self, statement: int, seconds: float) -> None:
        """Count one command of the statement that took ``seconds``."""
        self._spent[statement] += seconds
        self._commands[statement] += 1

    def over(self, statement: int) -> bool:
        """Whether the statement has spent its budget."""
        return self.seconds is not None and self.seconds - self._spent[statement] < SLICE_S

    def reason(self, statement: int) -> str:
        """Why an over-budget statement was given up."""
        assert self.seconds is not None
        return (f"time limit: no decision within {self.seconds:g} s of Lean commands "
                f"({self._commands[statement]} command(s) run)")
