"""The versioned JSON result file, for any evaluation method.

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

import itertools
import json
from typing import Any

import afcheck
from afcheck import json_text
from afcheck.fileio import atomic_bytes_writer
from afcheck.method import JsonObject, MethodSummary
from afcheck.redact import redact_text
from afcheck.summary import RunSummary

VERSION = 1


class JsonReporter:
    name = "json"

    def report(self, summary: RunSummary, destination: str) -> None:
        # The steps are streamed a few hundred records at a time: a run's document can be
        # tens of MB. Each piece is joined and encoded to UTF-8 at once, lone surrogates
        # escaped as it is encoded, which costs less than a text file's encoding of each
        # record and a search of each for surrogates.
        with atomic_bytes_writer(destination) as handle:
            head = _dumps(header(summary))
            # Every piece passes through the one redaction on its way out: no field, however
            # new, carries a credential into the file.
            handle.write(json_text.utf8(redact_text(head[:-1].rstrip() + ',\n "steps": [')))
            texts = summary.record_texts(utf8_safe=False)
            first = True
            while piece := list(itertools.islice(texts, _PIECE)):
                handle.write(json_text.utf8(redact_text(("\n  " if first else ",\n  ")
                                                        + ",\n  ".join(piece))))
                first = False
            handle.write(b"\n ]\n}\n")


_PIECE = 512
"""Records encoded and written at once: a few hundred KB."""


def _dumps(value: Any) -> str:
    """Indented JSON text with non-ASCII characters as they are, except lone surrogates
    (:func:`afcheck.json_text.utf8_safe`); the steps' records are written by
    :meth:`RunSummary.record_texts` the same way."""
    return json_text.utf8_safe(json.dumps(value, indent=1, ensure_ascii=False))


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
