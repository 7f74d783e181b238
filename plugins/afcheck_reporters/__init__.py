"""Built-in reporters: the versioned JSON result file (``--json FILE``), JUnit XML
(``--junitxml FILE``) and the Markdown summary (``--summary-md FILE``, and GitHub's
``$GITHUB_STEP_SUMMARY`` when it is set). Each owns its option, the way pytest's junitxml
plugin does, and hands the run its reporter at configure time when the option is given."""

from __future__ import annotations

import os
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
    from afcheck_reporters.markdown_report import MarkdownReporter

    register("json", lambda options: JsonReporter(),
             description="versioned JSON: config, plugins, per-item records, metrics (--json)")
    register("junit", lambda options: JunitReporter(options.get("annotations") == "true"),
             description="JUnit XML, one testsuite per dataset, metrics as properties "
             "(--junitxml)")
    register("markdown", lambda options: MarkdownReporter(options.get("url") or None,
                                                          options.get("append") == "true"),
             description="Markdown summary for a CI page or a pull request comment: metrics, "
             "gates, failed items, the report's link (--summary-md, $GITHUB_STEP_SUMMARY)")


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
    group.addoption("--summary-md", metavar="FILE", section="outputs",
                    help="write a Markdown summary (metrics, gates, failed items, the HTML "
                    "report's link); also appended to $GITHUB_STEP_SUMMARY when it is set")
    group.addoption("--report-url", metavar="URL", section="outputs",
                    help="the HTML report's address for the Markdown summary (default: the CI "
                    "run's page on GitHub Actions or GitLab CI, whose artifacts hold it)")


@hookimpl
def afcheck_configure(run: Run) -> None:
    for name, option in _OPTIONS.items():
        destination = run.option(option)
        if destination is not None:  # an empty one is refused before any work
            options = {"annotations": "true"} if run.option("junit_annotations") else {}
            run.add_reporter(run.plugins.create(REPORTER, name, options), str(destination))
    from afcheck_reporters.markdown_report import report_url

    url = report_url(str(run.option("report_url") or "")) or ""
    markdown = run.option("summary_md")
    if markdown is not None:
        run.add_reporter(run.plugins.create(REPORTER, "markdown", {"url": url}), str(markdown))
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary and step_summary != markdown:
        run.add_reporter(run.plugins.create(REPORTER, "markdown",
                                            {"url": url, "append": "true"}), step_summary)
