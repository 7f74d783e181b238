"""Suites of kind ``chains``: which records a ``suite.toml`` names, loaded at collection.

::

    [afcheck]
    schema = 1
    name = "prontoqa-classification"
    kind = "chains"
    source = "prontoqa"            # proofwriter | prontoqa | folio | responses
    # data = "chains.jsonl"        # a file in the suite folder instead of the released one

    [afcheck.options]
    build = "classification"       # rebuild the T1–T4 set from the PrOntoQA chains
    per_type = 50
    seed = 0

Released sets are read from ``AFCHECK_DATA_DIR`` under their released names; ``responses``
reads recorded model responses (one chain per line) from ``data``. Nothing is downloaded and
no model is called here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from afcheck.errors import LoadError, SuiteError
from afcheck.suites import Record, SuiteSpec
from afcheck_chains import classification
from afcheck_chains.loaders import (
    Loaded,
    find_data,
    load_folio,
    load_logic_llm,
    load_responses,
)

SOURCES = ("proofwriter", "prontoqa", "folio", "responses")
BUILDS = ("classification",)


class ChainsSuite:
    """The suite kind ``chains``: a suite's records read by :func:`load`."""

    name = "chains"
    method = "chains"

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        return load(spec.root, spec.source, spec.data, spec.options)


def _int_option(manifest: Path, options: Mapping[str, object], key: str, default: int) -> int:
    value = options.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SuiteError(manifest, f"[afcheck.options] {key} must be a whole number >= 0")
    return value


def load(root: Path, source: str | None, data: str | None,
         options: Mapping[str, object]) -> Iterator[Loaded]:
    """The suite's records (and one :class:`LoadError` per bad record)."""
    manifest = root / "suite.toml"
    if source not in SOURCES:
        raise SuiteError(manifest, f"source {source!r} is not one of {', '.join(SOURCES)}")
    if data:
        path = root / data
        if path.exists() and not path.is_file():
            raise SuiteError(manifest, f"data file '{data}' in {root} is not a regular file "
                             "(a folder, a FIFO or a device); give a file")
        if not path.is_file():
            raise SuiteError(manifest, f"data file '{data}' not found in {root}")
    elif source == "responses":
        raise SuiteError(manifest, "source = \"responses\" needs data = \"FILE.jsonl\"")
    else:
        path = find_data(source, manifest)
    build = options.get("build")
    if build is not None and build not in BUILDS:
        raise SuiteError(manifest, f"[afcheck.options] build = {build!r}; known: classification")
    if build == "classification":
        if source != "prontoqa":
            raise SuiteError(manifest, "build = \"classification\" needs source = \"prontoqa\"")
        yield from classification.generate(
            path,
            seed=_int_option(manifest, options, "seed", classification.DEFAULT_SEED),
            per_type=_int_option(manifest, options, "per_type", classification.DEFAULT_PER_TYPE),
        )
        return
    if source in ("proofwriter", "prontoqa"):
        yield from load_logic_llm(path, source)
    elif source == "folio":
        yield from load_folio(path)
    else:
        yield from load_responses(path)
