"""Built-in afcheck plugin: nl2fol — the NL→FOL evaluation method: each sentence's candidate
formula parsed (syntax-error class), ranked against its gold formulas by tree edit distance and
tested for equivalence with z3 under a background theory, exactly and up to a signature
alignment. It reads and decides formulas with the FOL language of :mod:`afcheck_fol`, and asks
for them through that plugin's kind ``fol_formaliser``.

Registered here: the method and suite kind ``nl2fol`` and its report view, and the options
``--nl2fol-theory`` and ``--nl2fol-align-judge``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register, lazy

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck_nl2fol.method import Nl2FolMethod
    from afcheck_nl2fol.suite import Nl2FolSuite


def _method(options: Mapping[str, str]) -> Nl2FolMethod:
    from afcheck_fol import require

    require()
    from afcheck_nl2fol.method import Nl2FolMethod

    return Nl2FolMethod()


def _suite(options: Mapping[str, str]) -> Nl2FolSuite:
    from afcheck_fol import require

    require()
    from afcheck_nl2fol.suite import Nl2FolSuite

    return Nl2FolSuite()


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    register("nl2fol", _method,
             description="NL→FOL: parse (syntax-error class), nearest gold by tree edit "
             "distance, z3 equivalence under a background theory, exact and up to a "
             "signature alignment")


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    register("nl2fol", _suite,
             description="sentences with gold FOL formulas (jsonl written for afcheck, or "
             "FOLIO's premises and, in its validation split, conclusions)")


@hookimpl
def afcheck_register_views(register: Register) -> None:
    register("nl2fol", lazy("afcheck_nl2fol.view:Nl2FolView", takes_options=False),
             description="exact and aligned accuracy by difficulty, syntax errors by class "
             "and rule, TED of semantic errors; each item with its candidate, golds, "
             "counter-model and renaming")


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--nl2fol-theory", metavar="NAME", section="components",
                    help="nl2fol method: background theory of the equivalence check (none, "
                    "converse, shapes, analytic for Tarski's World; default: the suite's, "
                    "else the language's)")
    group.addoption("--nl2fol-align-judge", action="store_true", section="components",
                    help="nl2fol method: ask the run's model (--formaliser) to confirm each "
                    "renaming of the signature alignment; a renaming it does not confirm is "
                    "not used")
