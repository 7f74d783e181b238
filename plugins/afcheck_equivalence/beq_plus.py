"""Criterion ``beq-plus``: the BEq+ tactic cascade in Lean (reference notes §6.3).

For each direction (reference ⇒ candidate, candidate ⇒ reference) the base statement is stated
with ``sorry`` under a fixed name and the target statement gets each proof of the cascade in
turn: ``intros`` then ``exact?``-free closers on ``apply base``, ``have := base …`` and
``convert base using k`` (k = 0..4). A proof counts only if Lean reports no error and no
``sorry`` at the target. Both directions proved: Eq; otherwise Inconclusive — a failed tactic
search refutes nothing. Needs Lean (``afcheck lean setup``): without it the factory fails in
one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from afcheck_equivalence.records import Decision, Eq, Inconclusive, Obligation, Pair

if TYPE_CHECKING:
    from afcheck_lean.replies import Reply

__all__ = ["BeqPlus", "CASCADE", "make"]

_SORRY = " := by sorry"

_PROVE_ALL = "first | tauto | simp_all_arith | noncomm_ring | (norm_num; done) | linarith"
CASCADE: tuple[str, ...] = (
    f"intros\n  apply afcheck_base <;> ({_PROVE_ALL})",
    "intros\n  exact afcheck_base ..",
    *(f"intros\n  convert afcheck_base using {k} <;> ({_PROVE_ALL})" for k in range(5)),
    f"intros\n  have := afcheck_base\n  ({_PROVE_ALL})",
)
"""Proof bodies tried on the target, with the base theorem in scope as ``afcheck_base``."""


def _rename(statement: str, name: str) -> str:
    from afcheck.lean.extract import extract_statement
    from afcheck.lean.parser import parse_theorem
    from afcheck.lean.printer import print_theorem

    theorem = parse_theorem(extract_statement(statement).statement)
    from dataclasses import replace

    return print_theorem(replace(theorem, keyword="theorem", name=name))


@dataclass
class BeqPlus:
    pool: object
    """An :class:`afcheck_lean.pool.ReplPool`."""

    name = "beq-plus"
    version = "1"
    contained = True
    """Every Lean command runs in the pool's REPLs, each under its own timeout and memory cap:
    a pair worker would only start one more REPL pool per worker."""

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        from afcheck_lean.pool import Failure

        plans: list[tuple[int, str, str]] = []
        out: list[Decision | None] = [None] * len(pairs)
        for i, pair in enumerate(pairs):
            try:
                ref_base = _rename(pair.reference, "afcheck_base")
                cand_base = _rename(pair.candidate, "afcheck_base")
                ref_target = _rename(pair.reference, "afcheck_target")
                cand_target = _rename(pair.candidate, "afcheck_target")
            except Exception as error:  # noqa: BLE001 - one bad pair must not stop a batch
                out[i] = Inconclusive(self.name, f"cannot read the statement: {error}")
                continue
            for direction, base, target in (("reference ⇒ candidate", ref_base, cand_target),
                                            ("candidate ⇒ reference", cand_base, ref_target)):
                plans.append((i, direction, f"{base}\n\n{target}"))
        commands: list[str] = []
        for _, _, source in plans:
            commands.extend(source.removesuffix(_SORRY) + f" := by\n  {body}" for body in CASCADE)
        replies = self.pool.run(commands)  # type: ignore[attr-defined]
        done: dict[tuple[int, str], Obligation | None] = {}
        failed: dict[int, bool] = {}
        k = 0
        for i, direction, source in plans:
            found = None
            target_line = source.count("\n") + 1
            for _ in CASCADE:
                reply, command = replies[k], commands[k]
                k += 1
                if isinstance(reply, Failure):
                    failed[i] = True
                if found is None and not isinstance(reply, Failure) and _closed(reply,
                                                                                target_line):
                    found = Obligation(direction, command)
            done[(i, direction)] = found
        for i in range(len(pairs)):
            if out[i] is not None:
                continue
            proofs = [done.get((i, d)) for d in ("reference ⇒ candidate",
                                                 "candidate ⇒ reference")]
            if all(p is not None for p in proofs):
                out[i] = Eq(self.name, "both directions closed by the cascade", (),
                            tuple(p for p in proofs if p is not None))
            else:
                missing = [d for d, p in zip(("reference ⇒ candidate", "candidate ⇒ reference"),
                                             proofs, strict=True) if p is None]
                # A command that got no answer (a timeout, a crashed REPL) says nothing about
                # the pair: the decision is this run's only.
                out[i] = Inconclusive(self.name, f"no cascade proof of {', '.join(missing)}",
                                      transient=failed.get(i, False))
        return [d for d in out if d is not None]


def _closed(reply: Reply, target_line: int) -> bool:
    """No error, and no ``sorry`` reported at or after the target's line (the base theorem
    above it is stated with ``sorry`` on purpose)."""
    if reply.errors or reply.refusal:
        return False
    return not any("sorry" in m.data and m.line >= target_line for m in reply.messages)


def make(options: Mapping[str, str]) -> BeqPlus:
    from afcheck_lean.pool import ReplPool
    from afcheck_lean.session import lean_interact_starter, require_lean
    from afcheck_lean.settings import parse_settings

    # A run names its prover for every criterion; this one proves in Lean itself.
    own = {k: v for k, v in options.items() if k != "prover" and not k.startswith("prover.")}
    settings = parse_settings(own, "criterion beq-plus", set())
    require_lean(settings, "criterion beq-plus")
    return BeqPlus(ReplPool(lean_interact_starter(settings), settings))
