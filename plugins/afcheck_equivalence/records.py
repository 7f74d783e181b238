"""The equivalence method's records and their codec.

A :class:`Pair` is a reference and a candidate Lean statement; a criterion answers one
:class:`Decision` per pair: Eq, Noneq or Inconclusive.

- :class:`Eq` carries its certificate: the alignment and every obligation that was proved.
- :class:`Noneq` names the component that failed (``prefix``, ``premises``, ``conclusion`` or
  ``statement``) and the kind of its evidence (:data:`EVIDENCE`): ``refuted``, a failed
  obligation with the prover's verdict and its counterexample when the prover gave one, or
  ``structural``, a difference the criterion's own definition rules out (it has no
  obligation). A reader must never take one for the other.
- :class:`Inconclusive` says why, with the obligations that were tried.

``flags`` mark what a reader must know (``vacuous-reference``, ``vacuous-candidate``,
``alignments-capped``).

``transient`` marks a decision that rests on a limit, not on the pair: a prover verdict that
was ``transient`` (a timeout, a killed worker, a solver out of memory) or the pair limit
stopping the pair. It is this run's answer only: the result cache never keeps it.

A :class:`Result` is one item's pair with its criterion's decision: the one record of a
pair that the run, the result cache, the result file, observers, the metrics and the report
view all use.

The codec: each decision's ``to_json`` writes it whole (alignment, obligations) and
:func:`decision_from_json` reads it back (the result cache keeps decisions). :func:`to_json`
writes a result as a result file's record of the pair (the item's fields and its decision's);
:func:`from_json` reads that record back into a :class:`Result`, so that the report and
``afcheck compare`` count a file with the run's own code
(:func:`afcheck_equivalence.metrics.summarise`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from afcheck.types import Verdict, VerdictKind
from afcheck_equivalence.suite import GOLD, Item

__all__ = ["EVIDENCE", "Decision", "DecisionKind", "Eq", "Inconclusive", "Noneq",
           "Obligation", "Pair", "Result", "Settled", "decision_from_json", "from_json",
           "to_json"]


EVIDENCE = ("refuted", "structural")
"""What a :class:`Noneq` rests on: a refuted obligation (a counter-model where the two
statements differ), or a structural difference that the criterion's definition itself says
changes the meaning (``syntactic``: different normal forms; ``sae``: different closed
computations in a closed statement)."""


class DecisionKind(str, enum.Enum):
    EQ = "Eq"
    NONEQ = "Noneq"
    INCONCLUSIVE = "Inconclusive"


@dataclass(frozen=True)
class Pair:
    """A reference and a candidate Lean statement, read under the same header."""

    key: str
    reference: str
    candidate: str
    header: str = ""


@dataclass(frozen=True)
class Obligation:
    """A Lean statement whose proof (or refutation) a criterion needs, and what became of it."""

    role: str
    """``premises``, ``conclusion``, ``leaf 2 left``, ``vacuity reference``, ``statement`` …"""
    statement: str
    verdict: Verdict | None = None

    @property
    def proved(self) -> bool:
        return self.verdict is not None and self.verdict.kind is VerdictKind.PROVED

    @property
    def refuted(self) -> bool:
        return self.verdict is not None and self.verdict.kind is VerdictKind.REFUTED

    def to_json(self) -> dict[str, Any]:
        verdict = self.verdict
        record: dict[str, Any] = {"role": self.role, "statement": self.statement}
        if verdict is None:
            record["verdict"] = None
            return record
        record["verdict"] = verdict.kind.value
        record["backend"] = verdict.backend
        record["certified"] = verdict.certified
        record["reason"] = verdict.reason
        if verdict.evidence:
            record["evidence"] = verdict.evidence
        if verdict.counterexample:
            record["counterexample"] = dict(verdict.counterexample)
        if verdict.transient:
            record["transient"] = True
        if verdict.judged_by:
            record["judged_by"] = verdict.judged_by
        if verdict.unjudged is not None:
            record["unjudged"] = verdict.unjudged.value
        return record


Alignment = tuple[tuple[str, str], ...]
"""``(candidate binder, reference binder)`` pairs, in reference order."""


@dataclass(frozen=True)
class Eq:
    criterion: str
    reason: str
    alignment: Alignment = ()
    certificate: tuple[Obligation, ...] = ()
    flags: tuple[str, ...] = ()
    read: tuple[bool, bool] | None = None
    """Whether the front end read the reference and the candidate; ``None`` when the
    criterion does not use it (or the pair limit stopped the pair)."""
    transient: bool = False
    """Rests on a limit (a transient verdict, a stopped pair): never cached."""

    kind = DecisionKind.EQ

    def to_json(self) -> dict[str, Any]:
        return _json(self, self.certificate, None, None)


@dataclass(frozen=True)
class Noneq:
    criterion: str
    reason: str
    component: str
    """``prefix``, ``premises``, ``conclusion`` or ``statement``."""
    failed: Obligation | None = None
    alignment: Alignment = ()
    obligations: tuple[Obligation, ...] = ()
    flags: tuple[str, ...] = ()
    read: tuple[bool, bool] | None = None
    """Whether the front end read the reference and the candidate; ``None`` when the
    criterion does not use it (or the pair limit stopped the pair)."""
    transient: bool = False
    """Rests on a limit (a transient verdict, a stopped pair): never cached."""
    evidence: str = "refuted"
    """``refuted`` or ``structural`` (:data:`EVIDENCE`)."""

    kind = DecisionKind.NONEQ

    @property
    def counterexample(self) -> Mapping[str, str] | None:
        if self.failed is None or self.failed.verdict is None:
            return None
        return self.failed.verdict.counterexample

    def to_json(self) -> dict[str, Any]:
        return _json(self, self.obligations, self.component, self.failed)


@dataclass(frozen=True)
class Inconclusive:
    criterion: str
    reason: str
    component: str = ""
    alignment: Alignment = ()
    obligations: tuple[Obligation, ...] = ()
    flags: tuple[str, ...] = ()
    read: tuple[bool, bool] | None = None
    """Whether the front end read the reference and the candidate; ``None`` when the
    criterion does not use it (or the pair limit stopped the pair)."""
    transient: bool = False
    """Rests on a limit (a transient verdict, a stopped pair): never cached."""

    kind = DecisionKind.INCONCLUSIVE

    def to_json(self) -> dict[str, Any]:
        return _json(self, self.obligations, self.component or None, None)


Decision = Eq | Noneq | Inconclusive
Settled = Eq | Noneq


def _json(decision: Decision, obligations: tuple[Obligation, ...], component: str | None,
          failed: Obligation | None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "decision": decision.kind.value,
        "criterion": decision.criterion,
        "reason": decision.reason,
        "component": component,
        "alignment": [{"candidate": c, "reference": r} for c, r in decision.alignment],
        "obligations": [o.to_json() for o in obligations],
        "flags": list(decision.flags),
    }
    if decision.read is not None:
        record["read"] = list(decision.read)
    if decision.transient:
        record["transient"] = True
    if isinstance(decision, Noneq):
        record["evidence"] = decision.evidence
    if failed is not None:
        record["failed_obligation"] = failed.to_json()
        if failed.verdict is not None and failed.verdict.counterexample:
            record["counterexample"] = dict(failed.verdict.counterexample)
    return record


def _obligation_from_json(data: Mapping[str, Any]) -> Obligation:
    verdict = None
    if data.get("verdict") is not None:
        counterexample = data.get("counterexample")
        verdict = Verdict(VerdictKind(data["verdict"]), str(data.get("backend", "")),
                          bool(data.get("certified", False)), str(data.get("reason", "")),
                          str(data.get("evidence", "")),
                          dict(counterexample) if counterexample else None,
                          transient=bool(data.get("transient", False)),
                          judged_by=str(data.get("judged_by", "")),
                          unjudged=VerdictKind(data["unjudged"]) if data.get("unjudged")
                          else None)
    return Obligation(str(data["role"]), str(data["statement"]), verdict)


def decision_from_json(data: Mapping[str, Any]) -> Decision:
    """The decision :meth:`to_json` wrote (for the result cache)."""
    alignment = tuple((str(a["candidate"]), str(a["reference"])) for a in data["alignment"])
    obligations = tuple(_obligation_from_json(o) for o in data["obligations"])
    flags = tuple(str(f) for f in data.get("flags", ()))
    criterion, reason = str(data["criterion"]), str(data["reason"])
    sides = data.get("read")
    read = (bool(sides[0]), bool(sides[1])) if isinstance(sides, list) and len(sides) == 2 \
        else None
    transient = bool(data.get("transient", False))
    kind = DecisionKind(data["decision"])
    if kind is DecisionKind.EQ:
        return Eq(criterion, reason, alignment, obligations, flags, read, transient)
    component = str(data.get("component") or "")
    if kind is DecisionKind.NONEQ:
        failed = data.get("failed_obligation")
        return Noneq(criterion, reason, component,
                     _obligation_from_json(failed) if failed else None, alignment, obligations,
                     flags, read, transient,
                     str(data.get("evidence") or ("refuted" if failed else "structural")))
    return Inconclusive(criterion, reason, component, alignment, obligations, flags, read,
                        transient)


# -- the result of one item ------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One item's pair and its criterion's decision."""

    item: Item
    candidate: str | None
    """The candidate decided: the item's own, or the one the formaliser wrote (``None``: it
    wrote none)."""
    decision: Decision


def to_json(result: Result) -> dict[str, Any]:
    """The result file's record of the pair: the item's id, group, gold label, reference and
    the candidate decided, with its decision's fields (:meth:`Eq.to_json` …)."""
    return {"id": result.item.id, "group": result.item.group, "gold": result.item.gold,
            "reference": result.item.reference, "candidate": result.candidate,
            **result.decision.to_json()}


def from_json(data: Mapping[str, Any]) -> Result:
    """The result :func:`to_json` wrote, from a result file's record of a pair (the keys the
    run adds to it, ``case_id``, ``method`` and ``status``, are not read). The record holds
    the pair as it was decided: the candidate read back is the item's, and the item's header,
    informal text and source, which the record does not hold, are read back empty. A gold
    label other than :data:`~afcheck_equivalence.suite.GOLD`'s reads as none."""
    gold = data.get("gold")
    candidate = data.get("candidate")
    written = candidate if isinstance(candidate, str) else None
    item = Item(str(data["id"]), str(data["reference"]), candidate=written,
                gold=gold if isinstance(gold, str) and gold in GOLD else None,
                group=str(data.get("group") or ""))
    return Result(item, written, decision_from_json(data))
