"""Criterion ``logical``: whole-statement equivalence ``T ↔ T'`` by the prover.

The BEq+-like baseline the seed contrasts SAE with: each statement is closed into one
proposition (``∀ x, H → C``) and ``(∀ x, H → C) ↔ (∀ y, H' → C')`` is one obligation. Any two
provable statements are equivalent in this sense — ``1 + 1 = 2 ↔ FLT`` — which is why it
accepts unrelated pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from afcheck.components import Prover
from afcheck.lean import ast as A
from afcheck.lean.printer import print_theorem
from afcheck.types import VerdictKind
from afcheck_equivalence.discharge import discharge
from afcheck_equivalence.normal import NotNormalisable, normalise
from afcheck_equivalence.read import PairRead, ReadError, read_pair, shared_header
from afcheck_equivalence.records import Decision, Eq, Inconclusive, Noneq, Obligation, Pair

__all__ = ["Logical"]


class Logical:
    name = "logical"
    version = "1"

    def __init__(self, prover: Prover) -> None:
        self.prover = prover

    @property
    def contained(self) -> bool:
        """Decided in the run's process when the prover is ``contained``: its long steps
        run in processes it bounds itself (a Lean REPL pool); see
        :mod:`afcheck_equivalence.limit`."""
        return bool(getattr(self.prover, "contained", False))

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        reads = [read_pair(p.reference, p.candidate, p.header) for p in pairs]
        planned: list[tuple[str, str] | Decision] = [self._plan(both) for both in reads]
        verdicts = discharge(self.prover, [p for p in planned if isinstance(p, tuple)])
        out: list[Decision] = []
        for item in planned:
            if not isinstance(item, tuple):
                out.append(item)
                continue
            obligation = Obligation("statement", item[0], verdicts[item])
            verdict = verdicts[item]
            if verdict.kind is VerdictKind.PROVED:
                out.append(Eq(self.name, "T ↔ T' proved", (), (obligation,)))
            elif verdict.kind is VerdictKind.REFUTED:
                out.append(Noneq(self.name, f"T ↔ T' refuted: {verdict.reason}", "statement",
                                 obligation, (), (obligation,)))
            else:
                out.append(Inconclusive(self.name, f"T ↔ T' undecided: {verdict.reason}",
                                        "statement", (), (obligation,),
                                        transient=verdict.transient))
        return [replace(d, read=both.read) for d, both in zip(out, reads, strict=True)]

    def _plan(self, both: PairRead) -> tuple[str, str] | Decision:
        try:
            ref, cand = both.sides()
            header = shared_header(ref, cand)
            left, right = normalise(ref.theorem, header), normalise(cand.theorem, header)
        except (ReadError, NotNormalisable) as error:
            return Inconclusive(self.name, str(error))
        body = A.BinOp("↔", left.closed(), right.closed())
        return print_theorem(A.Theorem("theorem", "logical_equivalence", (), body)), header
