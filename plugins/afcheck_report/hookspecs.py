"""The hook the report plugin declares (``afcheck_addkinds``), documented where it is declared,
as :mod:`afcheck.hookspecs` documents the core's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck.hookspecs import hookspec

if TYPE_CHECKING:
    from afcheck.registry import Register


@hookspec
def afcheck_register_views(register: Register) -> None:
    """Register report views: what an evaluation method shows in ``afcheck report`` and how
    ``afcheck compare`` pairs and names its items (:class:`afcheck_report.view.MethodView`).

    :param register: ``register(name, factory, *, description="", details=None)``. ``name``
        is the method's name (the ``method`` of its items' records); ``factory(options)``
        returns the view. Use :func:`afcheck.registry.lazy` so that registering imports
        nothing: ``afcheck`` loads every plugin on every command.

    A method without a registered view gets the generic one; a method's plugin registers its
    view whether or not the report plugin is loaded (without it the hook is let be, with a
    warning). Called the first time a view is looked up (``afcheck report``, ``afcheck
    compare``). Not firstresult. Example::

        @hookimpl
        def afcheck_register_views(register):
            register("verdicts", lazy("afcheck_toy.view:VerdictsView", takes_options=False),
                     description="accuracy by group; each claim with its verdict")
    """
