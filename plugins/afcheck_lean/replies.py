"""Reading the Lean REPL's JSON answers.

An answer is ``{"env": n, "messages": [...], "sorries": [...]}`` (empty lists omitted) or,
when the REPL itself refuses the request, ``{"message": "..."}``. Positions are 1-based
lines and 0-based columns of the command text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")
_AXIOMS = re.compile(
    r"^'(?P<name>.+)' (?:depends on axioms: \[(?P<axs>[^\]]*)\]|does not depend on any axioms)$"
)


@dataclass(frozen=True)
class Message:
    severity: str
    line: int
    column: int
    data: str

    def one_line(self, line_offset: int = 0) -> str:
        """``line:col: first line of the message``, lines counted from ``line_offset + 1``."""
        first = self.data.strip().splitlines()[0] if self.data.strip() else "(empty message)"
        return f"{self.line - line_offset}:{self.column}: {first}"


@dataclass(frozen=True)
class Reply:
    """One answer of the REPL to a command."""

    env: int | None
    messages: tuple[Message, ...] = ()
    sorries: int = 0
    refusal: str = ""
    """The REPL's ``{"message": …}`` answer (unknown environment, Lean exception)."""

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.severity == "error")

    @property
    def uses_sorry(self) -> bool:
        return self.sorries > 0 or any(
            m.severity == "warning" and _SORRY_WARNING.search(m.data) for m in self.messages
        )

    def infos_at(self, line: int) -> list[Message]:
        """The info messages that start on ``line``."""
        return [m for m in self.messages if m.severity == "info" and m.line == line]

    def axioms_at(self, line: int) -> list[frozenset[str]]:
        """The axiom sets reported by ``#print axioms`` messages that start on ``line``."""
        found = []
        for m in self.messages:
            match = _AXIOMS.match(m.data.strip())
            if m.severity == "info" and m.line == line and match is not None:
                listed = match.group("axs") or ""
                found.append(frozenset(a.strip() for a in listed.split(",") if a.strip()))
        return found


def parse_reply(data: Mapping[str, Any]) -> Reply:
    """A :class:`Reply` from the REPL's decoded JSON."""
    if "env" not in data and "message" in data:
        return Reply(env=None, refusal=str(data["message"]).strip() or "REPL error")
    messages = tuple(_message(m) for m in data.get("messages") or ())
    env = data.get("env")
    return Reply(
        env=env if isinstance(env, int) else None,
        messages=messages,
        sorries=len(data.get("sorries") or ()),
    )


def _message(data: Mapping[str, Any]) -> Message:
    pos = data.get("pos") or {}
    return Message(
        severity=str(data.get("severity", "error")),
        line=int(pos.get("line", 0)),
        column=int(pos.get("column", 0)),
        data=str(data.get("data", "")),
    )
