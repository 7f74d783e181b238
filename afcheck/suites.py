"""Suites: a folder with a ``suite.toml`` and data.

A ``suite.toml`` is recognised only when it has an ``[afcheck]`` table, because the pytest
plugin is loaded in every pytest run of a user's repository, where an unrelated
``suite.toml`` must be left alone::

    [afcheck]
    schema = 1
    name = "gsm8k"
    kind = "processbench"          # the suite kind (a registered loader)
    # method = "faithfulness"      # the evaluation method; by default the kind's own
    source = "Qwen/ProcessBench"   # a public data set …
    split = "gsm8k"
    # data = "steps.jsonl"         # … or a data file in the folder

    [afcheck.defaults]             # used unless the command line says otherwise
    perturber = "regex"
    formaliser = "literal"
    prover = "smt"
    seed = 0
    steps = "claims"
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from afcheck.errors import SuiteError
from afcheck.types import Location

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MANIFEST = "suite.toml"
SCHEMA = 1
_TOP_KEYS = {"schema", "name", "kind", "method", "data", "source", "split", "description",
             "defaults", "options"}
SETTINGS: Mapping[str, type] = {"limit": int}
"""Settings every suite may give in ``[afcheck.defaults]``, with their types, besides a
component per kind and its method's own settings (:func:`afcheck.method.settings_of`)."""


class Record(Protocol):
    """What the run reads of any item record a suite kind loads (a :class:`Step`, a pair of
    statements, a reasoning chain …); the rest belongs to the record's method."""

    @property
    def id(self) -> str: ...

    @property
    def dataset(self) -> str:
        """The group its metrics and JUnit test suite are reported under."""
        ...

    @property
    def source(self) -> Location | None: ...

    @property
    def case_name(self) -> str:
        """The test name inside its suite (``gsm8k-216/4``)."""
        ...


@dataclass(frozen=True)
class SuiteSpec:
    """A parsed ``suite.toml``, with the run's settings merged in."""

    name: str
    kind: str
    root: Path
    method: str | None = None
    """The evaluation method named in ``suite.toml``; ``None``: the suite kind's own."""
    data: str | None = None
    source: str | None = None
    split: str | None = None
    description: str = ""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    """Free settings for the suite kind (``[afcheck.options]``)."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """Effective settings: command line over ``defaults`` over the method's defaults."""

    @property
    def manifest(self) -> Path:
        return self.root / MANIFEST

    def setting(self, key: str) -> Any:
        return self.settings.get(key, self.defaults.get(key))

    def component_options(self, kind: str) -> dict[str, str]:
        """The suite's options for its own choice of ``kind``
        (``[afcheck.defaults] <kind>_opt = { path = "outputs.jsonl" }``)."""
        table = self.defaults.get(f"{kind}_opt", {})
        return {str(k): str(v) for k, v in dict(table).items()} if isinstance(table, dict) \
            else {}

    def with_settings(self, overrides: Mapping[str, Any],
                      method_defaults: Mapping[str, Any] | None = None) -> SuiteSpec:
        """The spec with its effective settings: ``overrides`` (the command line) over the
        suite's ``[afcheck.defaults]`` over ``method_defaults``."""
        merged = dict(method_defaults or {})
        merged.update(self.defaults)
        merged.update({k: v for k, v in overrides.items() if v is not None})
        return replace(self, settings=merged)

    def where(self, key: str) -> Location:
        """The line of ``key`` in the suite's ``suite.toml`` (for messages about its value)."""
        return Location(str(self.manifest), _line_of(self.manifest, key))

    def data_path(self) -> Path:
        if not self.data:
            raise SuiteError(self.manifest, "no 'data' file given; add data = \"steps.jsonl\"")
        path = self.root / self.data
        if path.exists() and not path.is_file():
            raise SuiteError(
                Location(str(self.manifest), _line_of(self.manifest, "data")),
                f"data file '{self.data}' in {self.root} is not a regular file (a folder, a "
                "FIFO or a device); give a file")
        if not path.is_file():
            raise SuiteError(
                Location(str(self.manifest), _line_of(self.manifest, "data")),
                f"data file '{self.data}' not found in {self.root}; create it or fix 'data'",
            )
        return path


def is_suite_dir(path: Path) -> bool:
    """True for a folder whose ``suite.toml`` has an ``[afcheck]`` table.

    Read as bytes: another tool's ``suite.toml``, in whatever encoding, is none of afcheck's
    business, and an afcheck one that is not UTF-8 is reported by :func:`load_spec`."""
    manifest = path / MANIFEST
    if manifest.exists() and not manifest.is_file():
        return True  # a folder or a FIFO named suite.toml: load_spec says what is wrong
    if not manifest.is_file():
        return False
    try:
        text = manifest.read_bytes()
    except OSError:
        return False
    return b"[afcheck" in text


def load_spec(root: Path, kinds: Collection[str] | None = None,
              settings: Mapping[str, type] | None = None) -> SuiteSpec:
    """Parse and validate ``root/suite.toml``; :class:`SuiteError` names file and line.

    ``kinds`` are the selectable kinds of the run (``[afcheck.defaults]`` may name a
    component of each, and its options as ``<kind>_opt``) and ``settings`` the suite's
    method's own settings with their types; ``None`` leaves the keys of ``[afcheck.defaults]``
    unchecked (:func:`check_defaults` checks them once the method is known)."""
    manifest = root / MANIFEST
    if manifest.exists() and not manifest.is_file():
        raise SuiteError(manifest, "not a regular file (a folder, a FIFO or a device); make "
                         "suite.toml a file")
    try:
        data = manifest.read_bytes()
        raw = tomllib.loads(data.decode("utf-8"))
    except RecursionError:
        raise SuiteError(manifest, "not readable TOML: nested too deeply; write a flatter "
                         "table") from None
    except OSError as exc:
        raise SuiteError(manifest, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SuiteError(Location(str(manifest), line),
                         f"not UTF-8 (byte 0x{data[exc.start]:02x}); save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(manifest, f"not valid TOML: {exc}") from None
    table = raw.get("afcheck")
    if not isinstance(table, dict):
        raise SuiteError(manifest, "no [afcheck] table; an afcheck suite starts with [afcheck]")
    _check_keys(manifest, table, _TOP_KEYS, "[afcheck]")
    schema = table.get("schema", SCHEMA)
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise SuiteError(Location(str(manifest), _line_of(manifest, "schema")),
                         f"'schema' must be the integer {SCHEMA} (schema = {SCHEMA}), not "
                         f"{_shown(schema)}")
    if schema != SCHEMA:
        raise SuiteError(
            Location(str(manifest), _line_of(manifest, "schema")),
            f"schema {schema} is not supported (this afcheck reads schema {SCHEMA}); "
            "upgrade afcheck",
        )
    for key in ("name", "kind"):
        if not isinstance(table.get(key), str) or not table[key]:
            raise SuiteError(manifest, f"[afcheck] needs a non-empty string '{key}'")
    method = table.get("method")
    if method is not None and (not isinstance(method, str) or not method):
        raise SuiteError(Location(str(manifest), _line_of(manifest, "method")),
                         "'method' must be the name of an evaluation method "
                         "(see `afcheck list methods`)")
    for key, what in (("data", "a file name (a string)"), ("source", "a string"),
                      ("split", "a string"), ("description", "a string")):
        if key in table and not isinstance(table[key], str):
            raise SuiteError(Location(str(manifest), _line_of(manifest, key)),
                             f"'{key}' must be {what}, not {_shown(table[key])}")
    if not table.get("data") and not table.get("source"):
        raise SuiteError(manifest, "[afcheck] needs 'data' (a file in the folder) or 'source'")
    for key in ("defaults", "options"):
        if not isinstance(table.get(key, {}), dict):
            raise SuiteError(Location(str(manifest), _line_of(manifest, key)),
                             f"'{key}' must be a table ([afcheck.{key}]), not "
                             f"{_shown(table[key])}")
    defaults = table.get("defaults", {})
    spec = SuiteSpec(
        name=table["name"],
        kind=table["kind"],
        root=root,
        method=method,
        data=table.get("data"),
        source=table.get("source"),
        split=table.get("split"),
        description=table.get("description", ""),
        defaults=defaults,
        options=table.get("options", {}),
    )
    if kinds is not None:
        check_defaults(spec, kinds, settings or {})
    else:
        _check_defaults(manifest, defaults, {**SETTINGS, **(settings or {})})
    return spec


def check_defaults(spec: SuiteSpec, kinds: Collection[str], settings: Mapping[str, type]
                   ) -> None:
    """The keys of ``[afcheck.defaults]``: a component name per kind (and its options as
    ``<kind>_opt``), ``limit``, and the method's ``settings``, each of its type."""
    allowed = {*kinds, *(f"{kind}_opt" for kind in kinds), *SETTINGS, *settings}
    _check_keys(spec.manifest, spec.defaults, allowed, "[afcheck.defaults]")
    _check_defaults(spec.manifest, spec.defaults,
                    {**{kind: str for kind in kinds}, **SETTINGS, **settings})


def _check_keys(manifest: Path, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise SuiteError(
                Location(str(manifest), _line_of(manifest, key)),
                f"unknown key '{key}' in {where}; allowed: {', '.join(sorted(allowed))}",
            )


def _check_defaults(manifest: Path, defaults: Mapping[str, Any],
                    types: Mapping[str, type]) -> None:
    """Settings have their command-line option's type (``types``): whole numbers (``limit``
    0 or more), strings (a component's name, a mode); a key of no known type is left to
    :func:`check_defaults`, which knows the method's."""
    for key, value in defaults.items():
        whole = isinstance(value, int) and not isinstance(value, bool)
        if key == "limit" and not (whole and value >= 0):
            wrong = "must be a whole number 0 or more"
        elif types.get(key) is int and not whole:
            wrong = "must be a whole number"
        elif key.endswith("_opt"):
            if isinstance(value, dict) and all(isinstance(v, (str, int, float))
                                               and not isinstance(v, bool)
                                               for v in value.values()):
                continue
            wrong = "must be a table of options (key = \"value\")"
        elif types.get(key) is str and not isinstance(value, str):
            wrong = "must be a string"
        else:
            continue
        raise SuiteError(Location(str(manifest), _line_of(manifest, key)),
                         f"'{key}' in [afcheck.defaults] {wrong}, not {_shown(value)}")


def _shown(value: object) -> str:
    """A TOML value in words: ``the string "1"``, ``the integer -1``, ``a list``."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return "the string " + json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    return "a table" if isinstance(value, dict) else f"a {type(value).__name__}"


def _line_of(manifest: Path, key: str) -> int:
    try:
        text = manifest.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip().startswith(f"{key} ") or line.strip().startswith(f"{key}="):
                return number
    except OSError:
        pass
    return 0


# -- data sources ------------------------------------------------------------------------------

DATA_DIR_ENV = "AFCHECK_DATA_DIR"


def find_in_data_dir(candidates: Sequence[str], data_dir: str | None = None) -> Path | None:
    """The first of ``candidates`` (paths relative to ``data_dir``, by default
    ``AFCHECK_DATA_DIR``) that exists."""
    base = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV)
    if not base:
        return None
    for rel in candidates:
        path = Path(base) / rel
        if path.is_file():
            return path
    return None
