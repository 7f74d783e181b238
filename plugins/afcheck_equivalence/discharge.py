"""How a criterion's obligations reach a prover (the interface a criterion implements is
:class:`afcheck_equivalence.kinds.EquivalenceCriterion`).

A criterion receives a batch of pairs in one call (a chunk of the run's, or a few at a time in
the pair limit's workers: :mod:`afcheck_equivalence.limit`) and sends all its proof obligations
to its prover in one :meth:`~afcheck.components.Prover.prove` call (obligations are Lean theorem
statements, so any prover decides them: ``smt`` on a CPU, the Lean provers where Lean runs).
"""

from __future__ import annotations

from collections.abc import Sequence

from afcheck.components import Prover
from afcheck.types import ProofTask, Verdict

__all__ = ["discharge"]


def discharge(prover: Prover, statements: Sequence[tuple[str, str]]) -> dict[tuple[str, str],
                                                                          Verdict]:
    """Verdicts of ``(statement, header)`` obligations, each distinct one sent once, all in one
    batch."""
    unique = list(dict.fromkeys(statements))
    tasks = [ProofTask(f"obligation-{i}", text, header)
             for i, (text, header) in enumerate(unique)]
    verdicts = prover.prove(tasks) if tasks else []
    return dict(zip(unique, verdicts, strict=True))
