"""JUnit XML: one testsuite per dataset, the metrics as testsuite properties.

Failure messages are one line (what CI pages show); the full evidence is the failure body.
"""

from __future__ import annotations

from junit_xml import TestCase, TestSuite, to_xml_report_string

from afcheck.fileio import write_atomic
from afcheck.metrics import Metrics, RunSummary
from afcheck.render import details, one_line
from afcheck.types import CaseResult, Status


class JunitReporter:
    name = "junit"

    def report(self, summary: RunSummary, destination: str) -> None:
        write_atomic(destination, xml(summary))


def xml(summary: RunSummary) -> str:
    groups: dict[str, list[CaseResult]] = {}
    for result in summary.results:
        groups.setdefault(result.step.dataset, []).append(result)
    suites = [
        TestSuite(
            name=dataset,
            test_cases=[_case(r, summary.status_of(r)) for r in results],
            properties=_properties(summary.by_dataset[dataset]),
        )
        for dataset, results in sorted(groups.items())
    ]
    return to_xml_report_string(suites, prettyprint=True, encoding="utf-8")


def _case(result: CaseResult, status: Status) -> TestCase:
    step = result.step
    case = TestCase(
        name=step.case_name,
        classname=step.suite,
        file=step.source.path if step.source else None,
        line=step.source.line if step.source else None,
        elapsed_sec=sum(result.timings.values()) if result.timings else None,
    )
    if status is Status.FAILED:
        case.add_failure_info(message=one_line(result), output=details(result),
                              failure_type="unfaithful")
    elif status is Status.XFAILED:
        case.add_skipped_info(message=f"expected failure (baseline): {one_line(result)}")
    elif status is Status.SKIPPED:
        case.add_skipped_info(message=one_line(result))
    return case


def _properties(metrics: Metrics) -> dict[str, str]:
    props = {name: f"{getattr(metrics, name):.6f}"
             for name in ("FNR", "FPR", "AFFR", "UFLB", "TPR", "FI")}
    props["N"] = str(metrics.N)
    props.update({f"contingency.{k}": str(v) for k, v in metrics.contingency.items()})
    return props
