"""Errors that reach the user as one line, never as a traceback."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from afcheck.types import Location


class AfcheckError(Exception):
    """Base class: ``str(error)`` is the whole message the user sees."""


class UsageError(AfcheckError):
    """Bad command line or configuration."""


class SuiteError(AfcheckError):
    """A suite that cannot be read at all (missing data, bad ``suite.toml``)."""

    def __init__(self, location: Location | Path | str, message: str) -> None:
        super().__init__(f"{location}: {message}")
        self.location = location


_PLURAL = {"criterion": "criteria"}


class UnknownComponent(UsageError):
    """A plugin name given on the command line that nothing registered."""

    def __init__(self, kind: str, name: str, known: list[str], why: str = "") -> None:
        from afcheck.suggest import nearest

        close = nearest(name, known)
        hint = f" Did you mean '{close}'?" if close else ""
        listing = ", ".join(sorted(known)) or "none"
        super().__init__(
            f"unknown {kind} '{name}'.{hint} Known {_PLURAL.get(kind, kind + 's')}: {listing} "
            "(see `afcheck list`)."
            + (f" {why}" if why else "")
        )


class MissingDependency(AfcheckError):
    """A selected plugin needs a package that is not installed."""

    def __init__(self, plugin: str, missing: str, install: str) -> None:
        from afcheck.install import fit

        # An extra's hint fits how afcheck was installed (a checkout has no index to ask).
        install = fit(install)
        super().__init__(f"{plugin} needs {missing}, which is not installed: run `{install}`")
        self.plugin = plugin
        self.missing = missing
        self.install = install


@dataclass(frozen=True)
class LoadError:
    """A bad record in a suite's data: reported as one failing item, loading goes on."""

    location: Location
    message: str
    name: str = ""
    """Name of the test item that reports it (the record's id when it has one)."""

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"
