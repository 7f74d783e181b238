"""The hooks of the faithfulness method's kinds (see :mod:`afcheck_faithfulness.kinds`), declared by
its plugin as :func:`afcheck.hookspecs.afcheck_addkinds` lets any plugin declare its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck.hookspecs import hookspec

if TYPE_CHECKING:
    from afcheck.registry import Register


@hookspec
def afcheck_register_perturbers(register: Register) -> None:
    """Register perturbers: components that make an invalid counterpart of each step.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the factory
        returns a :class:`afcheck_faithfulness.kinds.Perturber` whose ``perturb(steps, seed)``
        returns one :class:`afcheck_faithfulness.records.Perturbation` per step (``text=None``
        when unperturbable). Same steps and seed must give the same perturbations, whatever
        their order.

    Called the first time any perturber is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_perturbers(register):
            register("regex", lambda options: RegexPerturber(), description="App. C rules")
    """


@hookspec
def afcheck_register_detectors(register: Register) -> None:
    """Register semantic-drift detectors: checks that warn about a statement that may not say
    what its step says. A warning never changes a verdict.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the factory
        returns a :class:`afcheck_faithfulness.kinds.Detector` whose ``detect(tasks)`` receives
        every checked formalisation of a run in one batch. A run uses every registered detector
        unless ``--detectors`` names some (or ``none``).

    Called the first time any detector is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_detectors(register):
            register("numeral_fidelity", lambda options: NumeralFidelity())
    """
