"""CI gating: thresholds on a method's metrics, and a baseline of known failures.

Exit status of a run (``afcheck`` and ``pytest`` alike):

- without gates: pytest's own — 0 all passed or skipped, 1 some item failed, 2 interrupted,
  3 internal error, 4 usage error, 5 nothing collected;
- with gates (``--gate [METHOD.]METRIC<=X`` or ``>=X``, and the flags methods add, such as
  ``--max-uflb X``): 0 when every gate holds, 1 when one does not (individual failures no
  longer decide); 2–5 as above.

A gate never passes by accident: a threshold that is not a number in [0, 1] is a usage error,
and a gate over a method with no evaluated item, or over a metric no method of the run has,
fails with its reason.

``--baseline FILE`` turns items that failed in the baseline into expected failures (xfail),
so only new failures fail the run; ``--update-baseline`` writes the current failures to FILE.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from afcheck.errors import UsageError
from afcheck.jsonlines import read_json_document
from afcheck.method import ItemResult, MethodSummary
from afcheck.metrics import Metrics
from afcheck.types import Status

BASELINE_VERSION = 1

_GATE = re.compile(r"^\s*(?:(?P<method>[\w-]+)\.)?(?P<metric>[\w:-]+)\s*(?P<op><=|>=)\s*"
                   r"(?P<value>\S+)\s*$")


@dataclass(frozen=True)
class Gate:
    """``metric op threshold`` over one method's overall metrics."""

    metric: str
    op: str
    """``<=`` (the metric must not exceed the threshold) or ``>=``."""
    threshold: float
    origin: str
    """How it was asked for (``--max-uflb``, ``--gate UFLB<=0.3``), for messages."""
    method: str | None = None
    """``None``: whichever method of the run has the metric."""


def threshold(value: object, origin: str) -> float:
    """A gate's threshold: a finite number in [0, 1], else a usage error. ``origin`` is the
    flag (``--max-uflb``), or the whole gate as given when it already holds the value."""
    try:
        number = float(str(value))
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        where = origin if origin.endswith(str(value)) else f"{origin} {value}"
        raise UsageError(f"{where}: a gate's threshold must be a number from 0 to 1")
    return number


def parse(text: str) -> Gate:
    """``[METHOD.]METRIC<=X`` or ``>=X`` as given to ``--gate``; a metric of one part of a
    method is ``PART:METRIC`` (``sae:coverage``, a criterion's coverage)."""
    match = _GATE.match(text)
    if match is None:
        raise UsageError(f"--gate {text!r}: expected [METHOD.]METRIC<=X or METRIC>=X, "
                         "e.g. --gate UFLB<=0.35")
    origin = f"--gate {text.strip()}"
    return Gate(match["metric"], match["op"], threshold(match["value"], origin), origin,
                match["method"])


def check_metrics(gates: Iterable[Gate], metrics: Mapping[str, Mapping[str, str]],
                  methods: Collection[str] = ()) -> None:
    """Refuse, before any work, a gate over a metric no method of the run has (a misspelt
    ``uflb``) or over a method no plugin registered (a misspelt ``nl2fo.``, given
    ``methods``, the registered ones): ``metrics`` are the gate metrics of each method of
    the run. A gate naming a registered method with no item in the run is left to
    :func:`evaluate`, where it fails."""
    for gate in gates:
        if gate.method is not None and gate.method not in metrics:
            if methods and gate.method not in methods:
                from afcheck.suggest import nearest

                close = nearest(gate.method, methods)
                advice = f"did you mean '{close}'? " if close else ""
                raise UsageError(f"{gate.origin}: no method '{gate.method}'; {advice}"
                                 f"methods: {', '.join(sorted(methods))} "
                                 "(afcheck list methods)")
            continue  # a method with no item here: the gate fails at the end, never holds
        # ``sae:coverage``: a part's figure (a criterion's) of a metric the method gates;
        # which parts the run measures is known once it has run.
        metric = gate.metric.rpartition(":")[2]
        if gate.method is not None:
            known = metric in metrics[gate.method]
        else:
            known = any(metric in names for names in metrics.values())
        if known:
            continue
        if gate.method is None:
            missing = f"no method of this run has a metric '{gate.metric}'"
            near = [name for names in metrics.values() for name in names]
        else:
            missing = f"the method '{gate.method}' has no metric '{gate.metric}'"
            near = list(metrics[gate.method])
        from afcheck.suggest import hint

        advice = hint(gate.metric, near)
        has = "; ".join(f"{method}: {', '.join(names) or 'none'}"
                        for method, names in metrics.items())
        raise UsageError(f"{gate.origin}: {missing}; gates can bound "
                         f"{has or 'nothing in this run'}{advice}")


def judge(gates: Iterable[Gate], summaries: Mapping[str, MethodSummary]
          ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """One line per gate that fails, and one per gate that holds
    (``UFLB = 0.2100 ≤ 0.35 (--max-uflb 0.35)``, so that a log under "53 failed" says why the
    job is green). A gate reads the overall typed metrics of its method
    (:meth:`~afcheck.method.MethodSummary.metrics`), each method's computed once."""
    gates = list(gates)
    if not gates:
        return (), ()
    failures, holding = [], []
    measured = _measured(summaries)
    for gate in gates:
        found = _metrics_for(gate, measured)
        if found is None:
            where = f"the method '{gate.method}'" if gate.method else "any method"
            failures.append(f"{gate.metric}: not measured by {where} in this run (no item, "
                            f"or no such part) ({gate.origin})")
            continue
        summary, metrics = found
        if summary.evaluated == 0:
            failures.append(f"{gate.metric}: no evaluated item, nothing to hold the gate "
                            f"to ({gate.origin})")
            continue
        value = metrics.value(gate.metric)
        if value is None:
            failures.append(f"{gate.metric}: not measured in this run (no item it counts), "
                            f"nothing to hold the gate to ({gate.origin})")
            continue
        broken = value > gate.threshold if gate.op == "<=" else value < gate.threshold
        if broken or math.isnan(value):
            relation = ">" if gate.op == "<=" else "<"
            failures.append(f"{gate.metric} = {value:.4f} {relation} {gate.threshold:g} "
                            f"({gate.origin})")
        else:
            relation = "≤" if gate.op == "<=" else "≥"
            holding.append(f"{gate.metric} = {value:.4f} {relation} {gate.threshold:g} "
                           f"({gate.origin})")
    return tuple(failures), tuple(holding)


def evaluate(gates: Iterable[Gate], summaries: Mapping[str, MethodSummary]) -> tuple[str, ...]:
    """One line per gate that fails (:func:`judge`); empty when all hold."""
    return judge(gates, summaries)[0]


def held(gates: Iterable[Gate], summaries: Mapping[str, MethodSummary]) -> tuple[str, ...]:
    """One line per gate that holds (:func:`judge`)."""
    return judge(gates, summaries)[1]


Measured = Mapping[str, tuple[MethodSummary, Metrics]]


def _measured(summaries: Mapping[str, MethodSummary]) -> Measured:
    """Each method's summary with its typed metrics, computed once."""
    return {name: (summary, summary.metrics()) for name, summary in summaries.items()}


def _metrics_for(gate: Gate, measured: Measured) -> tuple[MethodSummary, Metrics] | None:
    """The summary and metrics of the gate's method, or of the first method of the run whose
    overall metrics name the gate's metric."""
    if gate.method is not None:
        found = measured.get(gate.method)
        return found if found is not None and gate.metric in found[1].overall else None
    for found in measured.values():
        if gate.metric in found[1].overall:
            return found
    return None


def load_baseline(path: Path) -> frozenset[str]:
    """The case ids listed as failing in a baseline file. A missing file is the user's
    mistake (a misspelt path would silently expect nothing): one line naming the fix."""
    if not path.exists():
        raise UsageError(f"--baseline {path}: no such file; write one with --baseline {path} "
                         "--update-baseline")
    try:
        document = read_json_document(path)
    except OSError as exc:
        raise UsageError(f"{path}: not a baseline file ({type(exc).__name__}); write one with "
                         "--update-baseline") from None
    if not document.ok:
        raise UsageError(f"{path}: not a baseline file ({document.location}: "
                         f"{document.problem}); write one with --update-baseline")
    data = document.value
    if not isinstance(data, dict) or not isinstance(data.get("failures"), list):
        raise UsageError(f"{path}: not a baseline file (needs a 'failures' list); write one "
                         "with --update-baseline")
    return frozenset(str(case) for case in data["failures"])


def write_baseline(path: Path, items: Iterable[ItemResult[object]]) -> int:
    """Write the failing items (expected failures included); returns how many."""
    from afcheck.fileio import write_atomic

    failing = sorted(item.case.case_id for item in items
                     if item.status in (Status.FAILED, Status.XFAILED))
    payload = {"version": BASELINE_VERSION, "failures": failing}
    write_atomic(path, json.dumps(payload, indent=1) + "\n")
    return len(failing)
