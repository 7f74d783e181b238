"""Criterion ``beq-plus``: the BEq+ tactic cascade in Lean (reference notes §6.3).

For each direction (reference ⇒ candidate, candidate ⇒ reference) the base statement is stated
with ``sorry`` under a fixed name and the target statement gets each proof of the cascade in
turn: ``intros`` then ``exact?``-free closers on ``apply base``, ``have := base …`` and
``convert base using k`` (k = 0..4). A proof counts only if Lean reports no error and no
``sorry`` at the target. Both directions proved: Eq; otherwise Inconclusive — a failed tactic
search refutes nothing. The commands run in a Lean session (the ``lean_session`` kind,
:mod:`afcheck.lean.session`; option ``session=NAME``, default ``repl``), built through the
registry with the criterion's other options: without Lean (``afcheck lean setup``) the factory
fails in one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck.errors import MissingDependency, UsageError
from afcheck.lean.session import Answer, LeanSession, NoAnswer
from afcheck.registry import Build
from afcheck_equivalence.records import Decision, Eq, Inconclusive, Obligation, Pair

__all__ = ["BeqPlus", "CASCADE", "make"]

_NAME = "criterion beq-plus"

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
    session: LeanSession
    """Where the cascade's commands are checked."""

    name = "beq-plus"
    version = "1"
    contained = True
    """Every Lean command runs in the session's REPLs, each under its own timeout and memory
    cap: a pair worker would only start one more session per worker."""

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
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
        replies = self.session.run(commands)
        done: dict[tuple[int, str], Obligation | None] = {}
        failed: dict[int, bool] = {}
        k = 0
        for i, direction, source in plans:
            found = None
            target_line = source.count("\n") + 1
            for _ in CASCADE:
                reply, command = replies[k], commands[k]
                k += 1
                if isinstance(reply, NoAnswer):
                    failed[i] = True
                elif found is None and _closed(reply, target_line):
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


def _closed(reply: Answer, target_line: int) -> bool:
    """No error, and no ``sorry`` reported at or after the target's line (the base theorem
    above it is stated with ``sorry`` on purpose)."""
    if reply.errors or reply.refusal:
        return False
    return not any("sorry" in m.data and m.line >= target_line for m in reply.messages)


def make(options: Mapping[str, str], build: Build) -> BeqPlus:
    """Options: ``session`` (the Lean session, default ``repl``) and the session's own (the
    Lean options); a run names its prover for every criterion, and this one proves in Lean
    itself, so ``prover`` and ``prover.K`` are not its."""
    own = {k: v for k, v in options.items()
           if k not in ("prover", "session") and not k.startswith("prover.")}
    try:
        session = build("lean_session", options.get("session", "repl"), own)
    except MissingDependency as error:
        raise MissingDependency(_NAME, error.missing, error.install) from None
    except UsageError as error:
        raise UsageError(f"{_NAME}: {error}") from None
    if not isinstance(session, LeanSession):
        raise UsageError(f"{_NAME}: the lean session '{options.get('session', 'repl')}' has no "
                         "run(commands) and close(): not a Lean session")
    return BeqPlus(session)
