"""Built-in reporters: the versioned JSON result file and JUnit XML."""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_reporters(register: Register) -> None:
    from afcheck_reporters.json_report import JsonReporter
    from afcheck_reporters.junit_report import JunitReporter

    register("json", lambda options: JsonReporter(),
             description="versioned JSON: config, plugins, per-step records, metrics (--json)")
    register("junit", lambda options: JunitReporter(),
             description="JUnit XML, one testsuite per dataset, metrics as properties "
             "(--junitxml)")
