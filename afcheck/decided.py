"""A run that decided nothing: its own line and its own exit status.

A skipped item is undecided: a budget it went over, a model server that answered nothing
usable, a statement the model never wrote. A run whose every item is skipped measured
nothing, whatever the cause, and a CI job gated on its exit status must not pass: it ends
with :data:`NOTHING_DECIDED_EXIT` and one line that says how many items were skipped and the
commonest reasons, so that the cause is seen without reading every item.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from afcheck.method import AnyMethod, ItemOutcome, ItemResult
from afcheck.printable import one_line
from afcheck.types import Status

NOTHING_DECIDED_EXIT = 6
"""The exit status of a run with items none of which was decided (passed or failed)."""

REASONS = 3
"""The commonest skip reasons the line names."""
REASON_WIDTH = 160
"""How much of each reason the line shows."""
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def undecided_line(items: Sequence[ItemResult[object]]) -> str | None:
    """The line of a run whose items (at least one) were all skipped; ``None`` when one was
    decided or there is none."""
    if not items or any(item.status is not Status.SKIPPED for item in items):
        return None
    reasons: Counter[str] = Counter()
    example: dict[str, str] = {}
    for item in items:
        # Reasons that differ only in their numbers (sizes, lines, seconds) count as one,
        # shown as the first of them.
        text = one_line(item.outcome.message, REASON_WIDTH) or "no reason given"
        shape = _NUMBER.sub("N", text)
        reasons[shape] += 1
        example.setdefault(shape, text)
    shown = "; ".join(f"{count}× {example[shape]}" if count > 1 else example[shape]
                      for shape, count in reasons.most_common(REASONS))
    more = len(reasons) - REASONS
    if more > 0:
        shown += f"; {more} other reason{'s' if more > 1 else ''}"
    return (f"NOTHING DECIDED: all {len(items)} items were skipped ({shown}); no metric "
            f"measures anything, so the run fails with exit status {NOTHING_DECIDED_EXIT}")


def judged(method: AnyMethod, result: object) -> ItemOutcome:
    """``method``'s outcome of ``result``; a method that cannot judge it (a result it did not
    expect, a cached record edited by hand) fails that item with the reason, and the other
    items are judged as usual."""
    try:
        return method.outcome(result)
    except Exception as exc:  # noqa: BLE001 - this item's failure, not the run's
        text = " ".join(str(exc).split())[:300]
        return ItemOutcome(Status.FAILED, f"the {method.name} method could not judge this "
                           f"item: {type(exc).__name__}" + (f": {text}" if text else ""))
