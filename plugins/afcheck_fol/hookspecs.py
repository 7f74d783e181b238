"""The hooks of the FOL kinds (see :mod:`afcheck_fol.kinds`), declared by
its plugin as :func:`afcheck.hookspecs.afcheck_addkinds` lets any plugin declare its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck.hookspecs import hookspec

if TYPE_CHECKING:
    from afcheck.registry import Register


@hookspec
def afcheck_register_fol_formalisers(register: Register) -> None:
    """Register FOL formalisers: components that translate sentences into first-order logic.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the factory
        returns a :class:`afcheck_fol.formaliser.FolFormaliser` whose ``formalise(tasks, attempt)``
        receives every :class:`afcheck_fol.formaliser.FolTask` of a run in one batch and answers one
        :class:`afcheck_fol.formaliser.FolAnswer` per task. A task carries the sentences, the
        method's prompt for a model and how to read the model's answer, and any reference formulas
        of the data; a formaliser uses what it needs. Chosen with ``--fol-formaliser NAME``, else
        the run's ``--formaliser`` (a model given there is asked with the method's own prompt), else
        the suite's or method's.

    Called the first time any FOL formaliser is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_fol_formalisers(register):
            register("upper", lambda options: Upper(), description="P(x) for every sentence")
    """


@hookspec
def afcheck_register_fol_provers(register: Register) -> None:
    """Register first-order provers: components that decide TPTP problems (SZS statuses).

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the factory
        returns a :class:`afcheck_fol.provers.FolProver` whose ``prove(problems)`` receives every
        TPTP problem of a run in one batch; chosen with ``--fol-prover NAME``.

    Called the first time any FOL prover is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_fol_provers(register):
            register("eprover", make_eprover, description="E prover, SZS statuses")
    """
