"""The component kinds of the chains method: it declares none of its own.

A chain is formalised by the run's ``fol_formaliser`` and its problems are decided by the
run's ``fol_prover``, kinds the FOL language plugin declares (:mod:`afcheck_fol.kinds`). This
plugin registers one component of them, the FOL formaliser ``rules``
(:func:`afcheck_chains.formalise.make_rules`).
"""

from __future__ import annotations
