"""Built-in reporters: the versioned JSON result file (``--json FILE``) and JUnit XML
(``--junitxml FILE``). Each owns its option, the way pytest's junitxml plugin does, and hands
the run its reporter at configure time when the option is given."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import REPORTER, Register

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck.run import Run

_OPTIONS = {"json": "json", "junit": "junitxml"}
"""Reporter name → the option that asks for it."""


@hookimpl
def afcheck_register_reporters(register: Register) -> None:
    from afcheck_reporters.json_report import JsonReporter
    from afcheck_reporters.junit_report import JunitReporter

    register("json", lambda options: JsonReporter(),
             description="versioned JSON: config, plugins, per-item records, metrics (--json)")
    register("junit", lambda options: JunitReporter(options.get("annotations") == "true"),
             description="JUnit XML, one testsuite per dataset, metrics as properties "
             "(--junitxml)")


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--json", metavar="FILE", section="outputs",
                    help="write the versioned JSON result file")
    group.addoption("--junitxml", metavar="FILE", section="outputs",
                    help="write JUnit XML (one testsuite per dataset), valid for Jenkins' "
                    "xunit schema")
    group.addoption("--junit-annotations", action="store_true", section="outputs",
                    help="add file and line to each JUnit testcase for annotators (GitHub); "
                    "Jenkins' schema does not allow them")


@hookimpl
def afcheck_configure(run: Run) -> None:
    for name, option in _OPTIONS.items():
        destination = run.option(option)
        if destination:
            options = {"annotations": "true"} if run.option("junit_annotations") else {}
            run.add_reporter(run.plugins.create(REPORTER, name, options), str(destination))
