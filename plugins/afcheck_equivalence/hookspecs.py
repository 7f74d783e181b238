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
        ``decide(pairs)`` receives :class:`afcheck_equivalence.records.Pair` records in
        batches (a chunk of a run's uncached pairs in process; up to 8 at a time in the pair
        limit's worker processes, which build the criterion from this registration, see
        :mod:`afcheck_equivalence.limit`) and answers one
        :class:`afcheck_equivalence.records.Decision` (Eq, Noneq or Inconclusive) per pair.

    Called the first time any criterion is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_criteria(register):
            register("syntactic", lambda options: Syntactic())
    """
