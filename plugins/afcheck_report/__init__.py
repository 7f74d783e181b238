"""Built-in afcheck plugin: report — look at results rather than read them.

``afcheck report RUN.json… --html OUT.html`` writes one self-contained HTML page (each
method's section: charts as inline SVG, metric tables with intervals; a step browser) for one
run or several side by side; ``afcheck compare BASE.json NEW.json`` pairs two runs' items and
says what changed, with a CI exit status.

The plugin declares the ``view`` kind (:mod:`afcheck_report.kinds`, registration hook in
:mod:`afcheck_report.hookspecs`): each method registers its own view, and the report imports
no method. A method without a view gets the generic one.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register

if TYPE_CHECKING:
    from afcheck.registry import Kinds


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    from afcheck_report import hookspecs
    from afcheck_report.kinds import VIEW

    kinds.add(VIEW, hookspecs)


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("report", _configure_report,
             description="write an HTML report (charts, tables, step browser) of result files")
    register("compare", _configure_compare,
             description="compare two result files case by case (CI exit status)")


def _configure_report(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_report.report import configure

    return configure(parser)


def _configure_compare(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_report.compare import configure

    return configure(parser)
