"""Built-in afcheck plugin: recorded — suites of model outputs recorded elsewhere.

Registers the suite kind ``recorded`` (:mod:`afcheck_recorded.suite`): responses and
translations a model wrote, each with the model's name and the data set it answered, read
into the records of the ``chains`` or ``nl2fol`` method, so that outputs a user already has
are evaluated without a server. The translations are answered by the ``replay`` FOL
formaliser, which reads the same file.
"""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register, lazy


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    register("recorded", lazy("afcheck_recorded.suite:RecordedSuite", takes_options=False),
             description="recorded model outputs (responses, FOL translations) with their "
             "model and source, for the chains or nl2fol method")
