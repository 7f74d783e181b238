"""The suite kind ``recorded``: outputs a model wrote, evaluated without the model.

A recorded-output suite is one JSON Lines file of what a model produced for a data set,
each line naming the ``model`` that wrote it and the ``source`` (data set) it answered::

    [afcheck]
    schema = 1
    name = "my-model-prontoqa"
    kind = "recorded"
    method = "chains"              # or "nl2fol"; default chains
    data = "outputs.jsonl"

    # source = "prontoqa"          # the data set, for lines that name none

    [afcheck.options]
    # model = "Llama-2-70b-chat"   # for lines that name none
    # language = "folio"           # nl2fol: the language of the gold formulas

    [afcheck.defaults]             # the recorded translations answer as the formaliser
    fol_formaliser = "replay"      # reads ``data``: the file is named once

A line is the record of the method's own recorded format plus ``model``, ``source`` and,
optionally, ``translation`` (the model's FOL answer, as text, read by the ``replay`` FOL
formaliser exactly as a live model's answer is read):

- ``chains``: a recorded response as :func:`afcheck_chains.loaders.load_responses` reads it
  (``premises``, ``conclusion``, ``label``, ``response`` or ``steps``, ``answer``,
  ``finish_reason``, gold ``premises_fol`` / ``conclusion_fol`` / ``steps_fol``); the
  translation is the seed's answer layout (``formula ::: (i) sentence`` lines under
  ``Premises`` and ``Conclusions``);
- ``nl2fol``: a sentence as :func:`afcheck_nl2fol.suite.load_jsonl` reads it (``sentence``,
  ``gold``, ``difficulty``); the translation is the model's answer to that sentence.

Without ``translation`` (or with another ``--fol-formaliser``) the responses are still
evaluated, translated by the formaliser chosen. Each item's dataset is ``source/model``,
so a file with several models reports each apart. Outputs are keyed by (model, id): a line's
``id`` names it (its line, ``line12``, where it has none), and where lines of several models
share an id each is named ``MODEL/ID`` (:func:`afcheck_fol.formalisers.recorded_names`, by
which the ``replay`` formaliser finds its translation too), so no model is judged on another
model's answer. A line without a model or a source
(neither on the line nor in ``suite.toml``: ``source``, ``[afcheck.options] model``) is one
failing item naming its line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import read_json_lines
from afcheck.suites import Record, SuiteSpec
from afcheck.types import Location

METHODS = ("chains", "nl2fol")


class RecordedSuite:
    """The suite kind ``recorded`` (module docstring)."""

    name = "recorded"
    method = "chains"

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        method = spec.method or self.method
        if method not in METHODS:
            raise SuiteError(spec.manifest, f"kind recorded reads outputs for the methods "
                             f"{', '.join(METHODS)}, not {method!r}; set method = \"chains\" "
                             "or \"nl2fol\"")
        path = spec.data_path()
        defaults = {"source": spec.options.get("source", spec.source),
                    "model": spec.options.get("model")}
        origins = dict(_origins(path, defaults))
        if method == "chains":
            return _chains(path, origins)
        return _nl2fol(path, origins, spec)

    def component_options(self, spec: SuiteSpec, kind: str, name: str) -> dict[str, str]:
        """The ``replay`` FOL formaliser of a suite reads the suite's own ``data``."""
        if kind == "fol_formaliser" and name == "replay" and spec.data:
            return {"path": str(spec.root / spec.data)}
        return {}


Origin = tuple[str, str, str] | LoadError  # noqa: UP007 - a runtime alias on 3.10
"""(source, model, name) of a line, or why the line has none."""


def _origins(path: Path, defaults: Mapping[str, object]) -> Iterator[tuple[int, Origin]]:
    """Each line's source and model (the line's own, else the suite's ``defaults``) and the
    name its record goes by (:func:`~afcheck_fol.formalisers.recorded_names`)."""
    from afcheck_fol.formalisers import recorded_names

    try:
        lines = list(read_json_lines(path))
    except OSError as exc:
        raise SuiteError(path, f"cannot read the recorded outputs: {exc}") from None
    # the method's reader reports a line that is not an object
    records = [(line.location, line.value) for line in lines
               if line.ok and isinstance(line.value, dict)]
    for (location, value), name in zip(records, recorded_names(records), strict=True):
        found = {key: value.get(key, defaults[key]) for key in ("source", "model")}
        missing = [key for key, text in found.items()
                   if not isinstance(text, str) or not text.strip()]
        if missing:
            yield location.line, LoadError(
                location, f"no {' and no '.join(missing)} for this recorded output; "
                "add it to the line or to [afcheck.options]", name=name)
            continue
        yield location.line, (str(found["source"]).strip(), str(found["model"]).strip(), name)


def _chains(path: Path, origins: Mapping[int, Origin]) -> Iterator[Record | LoadError]:
    from afcheck_chains.loaders import load_responses
    from afcheck_chains.records import ChainRecord

    for loaded in load_responses(path):
        if not isinstance(loaded, ChainRecord):
            yield loaded
            continue
        origin = origins.get(loaded.location.line)
        if isinstance(origin, LoadError) or origin is None:
            yield origin or LoadError(loaded.location, "no source and model", loaded.id)
            continue
        source, model, name = origin
        yield replace(loaded, id=name, dataset=f"{source}/{model}",
                      metadata={**loaded.metadata, "source": source, "model": model})


def _nl2fol(path: Path, origins: Mapping[int, Origin],
            spec: SuiteSpec) -> Iterator[Record | LoadError]:
    from afcheck_fol.language import language_named
    from afcheck_nl2fol.suite import load_jsonl

    name = str(spec.options.get("language", "folio"))
    try:
        language = language_named(name)
    except KeyError as exc:
        raise SuiteError(spec.manifest, str(exc.args[0])) from None
    def name_of(location: Location) -> str | None:
        origin = origins.get(location.line)
        return origin[2] if isinstance(origin, tuple) else None

    loaded = load_jsonl(path, language, name_of)
    for item in loaded.items:
        origin = origins.get(item.location.line)
        if isinstance(origin, LoadError) or origin is None:
            yield origin or LoadError(item.location, "no source and model", item.id)
            continue
        source, model, _ = origin
        yield replace(item, dataset=f"{source}/{model}")
    yield from loaded.errors

