"""The first-order kinds, declared by the FOL plugin and used by the nl2fol and chains
methods (and any method that formalises into or proves first-order logic)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from afcheck.model import ModelAdapter
from afcheck.registry import Kind
from afcheck_fol.formaliser import FolFormaliser

if TYPE_CHECKING:
    from afcheck_fol.provers import ProverResult
    from afcheck_fol.tptp import Problem


@runtime_checkable
class FolProver(Protocol):
    """Decides first-order problems (TPTP text) and answers SZS statuses: the interface of
    the ``fol_prover`` kind, used by the chains method (and any method that proves FOL)."""

    name: str
    version: str
    fingerprint: str
    """Name, version and the settings that change answers: the proof cache's key part."""

    def prove(self, problems: Sequence[Problem]) -> list[ProverResult]:
        """One result per problem, in order; every problem of a run arrives in one call."""
        ...

FOL_FORMALISER: Kind[FolFormaliser] = Kind(
    "fol_formaliser", "fol_formalisers", "afcheck_register_fol_formalisers", True,
    protocol=FolFormaliser, description="natural language → first-order logic")
FOL_FORMALISER_MODEL = ModelAdapter(follows="formaliser", entry="llm")
"""The FOL formalisers write the candidates nl2fol and chains score, and take the model of
``--formaliser`` (a model preset becomes ``llm`` with its id) when ``--fol-formaliser`` is
not given."""
FOL_PROVER: Kind[FolProver] = Kind(
    "fol_prover", "fol_provers", "afcheck_register_fol_provers", True, protocol=FolProver,
    description="decide TPTP problems (SZS statuses)")
