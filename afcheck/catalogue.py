"""Named suites: ``afcheck examples`` runs the folder a plugin registered as ``examples``,
and ``afcheck list suites`` shows each with its method, size and where its data comes from.

A name is read only where a path would be and no path of that name exists: a folder on disk
wins over a named suite, as a command wins over a folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.plugins import Plugins
from afcheck.registry import SUITE, SUITE_KIND
from afcheck.suites import load_spec

_FLAGS = frozenset({"-q", "-v", "-x", "-s", "-l", "-qq", "-vv", "-vvv", "--lf", "--ff", "--co",
                    "--nf", "--sw", "--last-failed", "--failed-first", "--new-first",
                    "--collect-only", "--exitfirst", "--verbose", "--quiet", "--stepwise"})
"""pytest options that take no value: a name after one of these is still a path's place."""


@dataclass(frozen=True)
class NamedSuite:
    """One row of ``afcheck list suites``."""

    name: str
    method: str
    size: str
    """``68 records`` for data in the suite's folder, ``external`` for data read elsewhere."""
    data: str
    """Where the records come from: a file of the folder, or the external source."""
    folder: Path
    plugin: str


def resolve(args: Sequence[str], plugins: Plugins, flags: frozenset[str]) -> list[str]:
    """``args`` with each suite name in a path's place replaced by the suite's folder.

    ``flags`` are the afcheck options that take no value: after any other option, an
    argument is that option's value and is left alone."""
    out = list(args)
    registry = None
    for index in places(args, flags):
        arg = args[index]
        name = arg.split("::", 1)[0]
        if name and not Path(name).exists():
            registry = registry or plugins.registry(SUITE)
            if name in registry.names():
                folder = plugins.create(SUITE, name)
                out[index] = str(folder) + arg[len(name):]
    return out


def places(args: Sequence[str], flags: frozenset[str]) -> list[int]:
    """The indices of ``args`` in a path's place: not an option, and not the value of an
    option that takes one (``flags``, as in :func:`resolve`, take none)."""
    found = []
    previous = ""
    for index, arg in enumerate(args):
        if not arg.startswith("-") and (
                not previous.startswith("-") or "=" in previous or previous in flags
                or previous in _FLAGS):
            found.append(index)
        previous = arg
    return found


def by_name(paths: Sequence[str], plugins: Plugins) -> list[str]:
    """``paths`` with each folder of a named suite written as its name, where the name would
    run it (no path of that name here): how a command to suggest reads best."""
    folders = {str(Path(plugins.create(SUITE, name)).resolve()): name
               for name in plugins.registry(SUITE).names()}
    out = []
    for path in paths:
        folder, sep, rest = path.partition("::")
        name = folders.get(str(Path(folder).resolve())) if Path(folder).is_absolute() else None
        out.append(name + sep + rest if name and not Path(name).exists() else path)
    return out


def named_suites(plugins: Plugins) -> list[NamedSuite]:
    """Every registered suite, in registration order; one that cannot be read says why."""
    rows = []
    for entry in plugins.registry(SUITE).entries():
        folder = Path(plugins.create(SUITE, entry.name))
        try:
            spec = load_spec(folder)
        except AfcheckError as exc:
            rows.append(NamedSuite(entry.name, "?", "?", f"unreadable: {exc}", folder,
                                   entry.plugin))
            continue
        method = spec.method or _method_of(plugins, spec.kind)
        data_file = folder / spec.data if spec.data else None
        if data_file is not None and data_file.is_file():
            size, data = f"{_records(data_file)} records", f"{spec.data} (in the suite folder)"
        else:
            size = "external"
            source = " ".join(part for part in (spec.source, spec.split) if part)
            data = f"{source or spec.kind}, read under $AFCHECK_DATA_DIR"
        rows.append(NamedSuite(entry.name, method, size, data, folder, entry.plugin))
    return rows


def _method_of(plugins: Plugins, kind: str) -> str:
    try:
        return plugins.create(SUITE_KIND, kind).method
    except AfcheckError:
        return f"? (suite kind '{kind}' is not installed)"


def _records(path: Path) -> int:
    """How many records a data file holds: lines of a JSON Lines file, items of a JSON
    array, read as the suites read them (:func:`afcheck.jsonlines.read_json_array`: a damaged
    record counts, as it is a failing item of the suite, and a deep one cannot stop the
    listing); each blank line of JSON Lines is no record."""
    if path.suffix == ".json":
        from afcheck.jsonlines import read_json_array

        try:
            elements = list(read_json_array(path))
        except OSError:
            return 0
        if any(element.fatal for element in elements):
            return 1  # one JSON document that is not an array: one record at most
        return len(elements)
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())
