"""Factories of the criteria: ``--criterion-opt``-style options → a criterion.

``prover`` names the prover obligations go to (default ``smt``); ``prover.K=V`` passes option
``K`` to it; ``cap`` bounds the alignments ``sae`` enumerates per pair.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from afcheck.components import Prover
from afcheck.errors import UsageError
from afcheck.registry import Build
from afcheck_equivalence.logical import Logical
from afcheck_equivalence.sae import Sae
from afcheck_equivalence.syntactic import Syntactic


def _check(options: Mapping[str, str], component: str, known: set[str]) -> None:
    unknown = {k for k in options if k not in known and not k.startswith("prover.")}
    if unknown:
        raise UsageError(f"criterion {component}: unknown option(s) {', '.join(sorted(unknown))};"
                         f" known: {', '.join(sorted(known)) or 'none'}, prover.K")


def make_prover(options: Mapping[str, str], build: Build) -> Prover:
    """The prover obligations go to: one of the run's components (built once, recorded in
    the run record and closed at its end)."""
    prover_options = {k.removeprefix("prover."): v for k, v in options.items()
                      if k.startswith("prover.")}
    return cast(Prover, build("prover", options.get("prover", "smt"), prover_options))


def make_sae(options: Mapping[str, str], build: Build) -> Sae:
    _check(options, "sae", {"prover", "cap"})
    raw = options.get("cap", "64")
    if not raw.isdigit() or int(raw) < 1:
        raise UsageError(f"criterion sae: cap={raw!r} must be a whole number ≥ 1")
    return Sae(make_prover(options, build), cap=int(raw))


def make_logical(options: Mapping[str, str], build: Build) -> Logical:
    _check(options, "logical", {"prover"})
    return Logical(make_prover(options, build))


def make_syntactic(options: Mapping[str, str]) -> Syntactic:
    _check(options, "syntactic", {"prover"})  # a run names a prover; this one needs none
    return Syntactic()


def make_beq_plus(options: Mapping[str, str], build: Build) -> object:
    from afcheck_equivalence.beq_plus import make

    return make(options, build)
