"""The first-order kinds, declared by the FOL plugin and used by the nl2fol and chains
methods (and any method that formalises into or proves first-order logic)."""

from __future__ import annotations

from afcheck.registry import Kind
from afcheck_fol.formaliser import FolFormaliser
from afcheck_fol.provers import FolProver

FOL_FORMALISER: Kind[FolFormaliser] = Kind(
    "fol_formaliser", "fol_formalisers", "afcheck_register_fol_formalisers", True,
    protocol=FolFormaliser, follows="formaliser", model_entry="llm", candidates=True,
    description="natural language → first-order logic (default: the model of --formaliser)")
FOL_PROVER: Kind[FolProver] = Kind(
    "fol_prover", "fol_provers", "afcheck_register_fol_provers", True, protocol=FolProver,
    description="decide TPTP problems (SZS statuses)")
