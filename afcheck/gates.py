"""CI gating: aggregate thresholds and a baseline of known failures.

Exit status of a run (``afcheck`` and ``pytest`` alike):

- without gates: pytest's own — 0 all passed or skipped, 1 some case failed, 2 interrupted,
  3 internal error, 4 usage error, 5 no case collected;
- with any of ``--max-uflb --max-fpr --max-fnr --max-affr --min-fi``: 0 when every gate
  holds, 1 when one does not (individual failures no longer decide); 2–5 as above.

``--baseline FILE`` turns cases that failed in the baseline into expected failures (xfail),
so only new failures fail the run; ``--update-baseline`` writes the current failures to FILE.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from afcheck.errors import UsageError
from afcheck.metrics import Metrics
from afcheck.types import CaseResult, Status

GATES: Mapping[str, tuple[str, str]] = {
    "max_uflb": ("UFLB", "max"),
    "max_fpr": ("FPR", "max"),
    "max_fnr": ("FNR", "max"),
    "max_affr": ("AFFR", "max"),
    "min_fi": ("FI", "min"),
}
BASELINE_VERSION = 1


def evaluate(metrics: Metrics, thresholds: Mapping[str, float | None]) -> tuple[str, ...]:
    """One line per gate that fails; empty when all hold."""
    failures = []
    for option, (metric, bound) in GATES.items():
        limit = thresholds.get(option)
        if limit is None:
            continue
        value = float(getattr(metrics, metric))
        broken = value > limit if bound == "max" else value < limit
        if broken:
            relation = ">" if bound == "max" else "<"
            failures.append(f"{metric} = {value:.4f} {relation} {limit:g} "
                            f"(--{option.replace('_', '-')})")
    return tuple(failures)


def any_gate(thresholds: Mapping[str, float | None]) -> bool:
    return any(thresholds.get(option) is not None for option in GATES)


def load_baseline(path: Path) -> frozenset[str]:
    """The case ids listed as failing in a baseline file; empty when the file is absent."""
    if not path.exists():
        return frozenset()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path}: not a baseline file ({exc}); write one with "
                         "--update-baseline") from None
    if not isinstance(data, dict) or not isinstance(data.get("failures"), list):
        raise UsageError(f"{path}: not a baseline file (needs a 'failures' list); write one "
                         "with --update-baseline")
    return frozenset(str(case) for case in data["failures"])


def write_baseline(path: Path, results: Iterable[CaseResult]) -> int:
    """Write the failing cases; returns how many."""
    from afcheck.fileio import write_atomic

    failing = sorted(r.case_id for r in results if r.status is Status.FAILED)
    payload = {"version": BASELINE_VERSION, "failures": failing}
    write_atomic(path, json.dumps(payload, indent=1) + "\n")
    return len(failing)
