"""The JSON result file's document, for any evaluation method: what ``--json`` writes and
``afcheck report`` and ``afcheck compare`` read.

Top-level keys: ``schema`` (``"afcheck-results"``), ``version``, ``afcheck_version``,
``config``, ``methods`` (each method's sections: ``metrics``, its typed metrics
(:meth:`afcheck.metrics.Metrics.to_json`: ``overall`` and ``groups``, each figure an object
whose ``type`` says whether it is a rate, a count or a score), and its own sections, such as
``perturbations``), ``gates``, ``timings`` and ``steps`` (one record per item, with its
``method`` and final ``status``). A run of one method also has that method's sections at the
top level (``metrics.overall.<name>``, ``metrics.groups.<group>.<name>`` …), so a file reads
the same whether or not other methods could have been in it.
"""

from __future__ import annotations

import afcheck
from afcheck.method import JsonObject, MethodSummary
from afcheck.summary import RunSummary

VERSION = 1


def document(summary: RunSummary) -> JsonObject:
    """The whole result document in memory (what :class:`JsonReporter` writes)."""
    return {**header(summary), "steps": [summary.record(item) for item in summary.items]}


def header(summary: RunSummary) -> JsonObject:
    methods = {name: sections(s) for name, s in summary.methods.items()}
    for name, source in summary.candidates.items():
        if name in methods:
            methods[name]["candidates"] = source.to_json()
    head: JsonObject = {
        "schema": "afcheck-results",
        "version": VERSION,
        "afcheck_version": afcheck.__version__,
        "run": dict(summary.metadata),
        "config": dict(summary.config),
        "methods": methods,
    }
    if len(methods) == 1:
        head.update(next(iter(methods.values())))
    head["gates"] = {"failures": list(summary.gate_failures), "held": list(summary.gates_held)}
    head["timings"] = dict(summary.timings)
    return head


def sections(summary: MethodSummary) -> JsonObject:
    """A method's entry under ``methods``: its typed ``metrics``, then its own sections (a
    section of its own named ``metrics`` gives way to the typed one)."""
    own = {key: value for key, value in summary.sections().items() if key != "metrics"}
    return {"metrics": summary.metrics().to_json(), **own}
