"""A Lean session: Lean commands checked in a pinned project, the interface of the
``lean_session`` kind.

The plugin that runs Lean declares the kind and registers its sessions (``afcheck_lean``: the
``repl`` session, a pool of lean-interact REPLs); a component that checks Lean commands
itself (the ``beq-plus`` criterion) builds one through the registry, as a factory builds the
components its own is made of (``build("lean_session", name, options)``), and reads the
answers through these protocols, so it imports no plugin. The answers are structural: any
record with these read-only members is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


class Message(Protocol):
    """One message Lean reported for a command; positions count lines of the command from 1."""

    @property
    def severity(self) -> str:
        """``error``, ``warning`` or ``info``."""
        ...

    @property
    def line(self) -> int: ...

    @property
    def data(self) -> str: ...


class Answer(Protocol):
    """Lean's answer to one command."""

    @property
    def messages(self) -> tuple[Message, ...]: ...

    @property
    def errors(self) -> tuple[Message, ...]:
        """The messages of severity ``error``."""
        ...

    @property
    def refusal(self) -> str:
        """Why the session refused the command itself (an unknown environment, an exception
        in Lean), or ``""``."""
        ...


@runtime_checkable
class NoAnswer(Protocol):
    """A command that got no answer: it ran past its timeout, its REPL crashed or was out of
    memory, the header did not elaborate. Says nothing about the command itself."""

    @property
    def kind(self) -> str: ...

    @property
    def reason(self) -> str: ...


@runtime_checkable
class LeanSession(Protocol):
    """Checks Lean commands, each in the project's base environment (its header imported)."""

    def run(self, commands: Sequence[str]) -> Sequence[Answer | NoAnswer]:
        """One answer per command, in order; never raises for one command."""
        ...

    def close(self) -> None:
        """Stop what the session started (REPL processes)."""
        ...
