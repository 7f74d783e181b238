"""Text from data and models made inert in Markdown: what every Markdown writer (the run's
summary, ``afcheck compare --markdown``) puts on a page, so that nothing in a step or a
model's output becomes a link, an image or markup there."""

from __future__ import annotations

import html
import re

from afcheck.printable import printable
from afcheck.redact import redact_text

_MARKDOWN = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def md(text: str) -> str:
    """``text`` as inert Markdown: one line, controls shown as escapes, HTML escaped, and
    every character Markdown gives a meaning backslash-escaped; redacted before it is
    escaped (an escaped ``api\\_key=`` is no longer seen as a secret's name)."""
    return _MARKDOWN.sub(r"\\\1", html.escape(printable(redact_text(text), newlines=False),
                                              quote=False))
