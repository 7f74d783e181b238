"""JUnit XML: one testsuite per dataset (per method and dataset when a run has several
methods), each method's metrics of that dataset as testsuite properties.

Failure messages are one line (what CI pages show); the full evidence is the failure body.
"""

from __future__ import annotations

from junit_xml import TestCase, TestSuite, to_xml_report_string

from afcheck.fileio import write_atomic
from afcheck.method import ItemResult
from afcheck.summary import RunSummary
from afcheck.types import Status


class JunitReporter:
    name = "junit"

    def report(self, summary: RunSummary, destination: str) -> None:
        write_atomic(destination, xml(summary))


def xml(summary: RunSummary) -> str:
    several = len(summary.methods) > 1
    suites = [
        TestSuite(
            name=f"{method}/{group}" if several else group,
            test_cases=[_case(item) for item in items],
            properties=summary.methods[method].properties(group),
        )
        for (method, group), items in sorted(summary.groups().items())
    ]
    return to_xml_report_string(suites, prettyprint=True, encoding="utf-8")


def _case(item: ItemResult[object]) -> TestCase:
    case = item.case
    elapsed = sum(item.timings.values())
    test = TestCase(
        name=case.name,
        classname=case.suite,
        file=case.source.path if case.source else None,
        line=case.source.line if case.source else None,
        elapsed_sec=elapsed,
    )
    outcome = item.outcome
    if item.status is Status.FAILED:
        test.add_failure_info(message=outcome.message, output=outcome.details,
                              failure_type=f"{case.method} failure")
    elif item.status is Status.XFAILED:
        test.add_skipped_info(message=f"expected failure (baseline): {outcome.message}")
    elif item.status is Status.SKIPPED:
        test.add_skipped_info(message=outcome.message)
    return test
