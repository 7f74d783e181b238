"""The hooks of the equivalence method's kinds (see :mod:`afcheck_equivalence.kinds`), declared by
its plugin as :func:`afcheck.hookspecs.afcheck_addkinds` lets any plugin declare its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck.hookspecs import hookspec

if TYPE_CHECKING:
    from afcheck.registry import Register


@hookspec
def afcheck_register_criteria(register: Register) -> None:
    """Register equivalence criteria: components that judge whether two Lean statements agree.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the factory
        returns a :class:`afcheck_equivalence.kinds.EquivalenceCriterion` whose
        ``decide(pairs)`` receives every :class:`afcheck_equivalence.records.Pair` of a run in
        one batch and answers one :class:`afcheck_equivalence.records.Decision` (Eq, Noneq or
        Inconclusive) per pair.

    Called the first time any criterion is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_criteria(register):
            register("syntactic", lambda options: Syntactic())
    """
