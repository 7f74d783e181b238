"""Data embedded in the report page as inert JSON, and a table that stores each string once.

The step browser reads its records from ``<script type="application/json">`` elements: the
browser does not run them, ``JSON.parse`` reads them when needed. :func:`script_json` makes
the text safe inside such an element (no ``</script>``, no ``<!--``), whatever the strings
hold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from afcheck.redact import redact_text


def script_json(data: object) -> str:
    """``data`` as JSON that cannot end or comment out its ``<script>`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` … inside strings (the only place JSON
    can hold them), which ``JSON.parse`` reads back unchanged.
    """
    # Redacted before `&` is escaped, so that a secret query parameter is still seen as one.
    text = redact_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


@dataclass
class Strings:
    """Strings stored once and referred to by index (contexts repeat along a chain: a step's
    context is every step before it)."""

    items: list[str] = field(default_factory=list)
    _index: dict[str, int] = field(default_factory=dict)

    def ref(self, text: str) -> int:
        index = self._index.get(text)
        if index is None:
            index = self._index[text] = len(self.items)
            self.items.append(text)
        return index
