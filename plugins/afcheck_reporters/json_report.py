"""The JSON reporter: the versioned result file (:mod:`afcheck.result_file`) written to a
path, streamed."""

from __future__ import annotations

import itertools
import json
from typing import Any

from afcheck import json_text
from afcheck.fileio import atomic_bytes_writer
from afcheck.redact import redact_text
from afcheck.result_file import VERSION, document, header, sections
from afcheck.summary import RunSummary

__all__ = ["VERSION", "JsonReporter", "document", "header", "sections"]


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
