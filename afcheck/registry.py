"""Named, lazily built components registered by plugins.

Each ``afcheck_register_<kind>`` hook is called once with a :class:`Register` callback that
writes into the :class:`Registry` of that kind. Factories run only when a component is selected,
so heavy imports (vllm, lean-interact, z3) happen only then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from afcheck.errors import UnknownComponent, UsageError

KINDS = (
    "formaliser",
    "prover",
    "checker",
    "perturber",
    "criterion",
    "suite_kind",
    "reporter",
    "command",
)
"""Every kind of thing a plugin can register, in the order ``afcheck list`` shows them."""


@dataclass(frozen=True)
class Entry:
    """One registered component."""

    kind: str
    name: str
    factory: Callable[..., Any]
    plugin: str
    """The plugin (entry-point name, or module name) that registered it."""
    description: str = ""
    details: Mapping[str, str] = field(default_factory=dict)


class Register(Protocol):
    def __call__(
        self,
        name: str,
        factory: Callable[..., Any],
        *,
        description: str = "",
        details: Mapping[str, str] | None = None,
    ) -> None: ...


class Registry:
    """The components of one kind, by name."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry] = {}

    def add(self, entry: Entry) -> None:
        previous = self._entries.get(entry.name)
        if previous is not None and previous.plugin != entry.plugin:
            raise UsageError(
                f"{self.kind} '{entry.name}' is registered twice, by plugins "
                f"'{previous.plugin}' and '{entry.plugin}'; uninstall or disable one of them."
            )
        self._entries[entry.name] = entry

    def get(self, name: str) -> Entry:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownComponent(self.kind, name, list(self._entries)) from None

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> list[Entry]:
        return [self._entries[n] for n in self.names()]

    def __contains__(self, name: object) -> bool:
        return name in self._entries
