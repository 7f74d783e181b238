"""The candidates a formaliser writes for the pairs that have none, from their informal text,
through the run's cache (``formalise``): a request that got no answer (a backend error, the
``formalise`` budget) leaves its pair without a candidate, says why, and is never cached."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from afcheck.components import Formaliser
from afcheck.method import Choice
from afcheck.registry import FORMALISER
from afcheck.runtime import Runtime
from afcheck_equivalence.suite import Item

__all__ = ["NOTHING", "Written", "formalise_missing", "write_candidates"]


def formalise_missing(items: Sequence[Item], formaliser: Formaliser) -> dict[str, str | None]:
    """Candidates for the items that have none, written by ``formaliser`` from the informal
    text in one batch; ``None`` where it produced no statement."""
    return {item_id: w.statement for item_id, w in _written_by(items, formaliser).items()}


def _written_by(items: Sequence[Item], formaliser: Formaliser) -> dict[str, Written]:
    """What ``formaliser`` wrote for each item that has no candidate, in one batch."""
    from afcheck.types import FormaliseRequest

    todo = [item for item in items if item.candidate is None]
    requests = [FormaliseRequest(f"{item.id}#candidate", item.informal,
                                 metadata={"header": item.header}) for item in todo]
    answers = formaliser.formalise(requests) if requests else []
    out: dict[str, Written] = {}
    for item, answer in zip(todo, answers, strict=True):
        if not answer.ok or answer.statement is None:
            out[item.id] = Written(None, answer.reason, answer.transient)
            continue
        out[item.id] = Written("\n".join(filter(None, (answer.header, answer.statement))))
    return out


def write_candidates(runtime: Runtime, choice: Choice,
                     items: list[Item]) -> dict[str, Written]:
    """What the formaliser ``choice`` wrote for each of ``items``, through the run's cache."""
    built = runtime.component(FORMALISER, choice)
    formaliser: Formaliser = built.component

    def call(chunk: list[Item]) -> list[Written]:
        answers = _written_by(chunk, formaliser)
        return [answers.get(item.id, NOTHING) for item in chunk]

    def load_one(data: Mapping[str, Any]) -> Written:
        statement, reason = data.get("statement"), data.get("reason")
        return Written(statement if isinstance(statement, str) else None,
                       reason if isinstance(reason, str) else "")

    made = runtime.cached("formalise", built, items,  # type: ignore[arg-type]
                          key=lambda i: (i.informal, i.header), call=call,
                          dump=lambda w: {"statement": w.statement, "reason": w.reason},
                          load=load_one, keep=lambda w: not w.transient,
                          # An item the formaliser crashed on has no candidate, and says why.
                          failed=lambda item, reason: Written(None, reason, transient=True))
    return {i.id: w for i, w in zip(items, made.results, strict=True)}


@dataclass(frozen=True)
class Written:
    """A formaliser's candidate, or ``None`` when it wrote none (the cache holds records)."""

    statement: str | None
    reason: str = ""
    """Why there is no statement, as the formaliser said."""
    transient: bool = False
    """A request that got no answer (a backend error, the ``formalise`` budget): asked again
    next run, never cached."""

    def why(self) -> str:
        """The pair's reason when there is no candidate."""
        said = f": {self.reason}" if self.reason else ""
        return f"the formaliser wrote no candidate statement{said}"


NOTHING = Written(None)
