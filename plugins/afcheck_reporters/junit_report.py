"""JUnit XML: one testsuite per dataset (per method and dataset when a run has several),
each method's typed metrics of that dataset (and its own properties of it) as testsuite
properties.

The file validates against the schema Jenkins' xunit plugin uses: ``<testcase>`` carries
``name``, ``classname`` and ``time`` only. GitHub's annotators read ``file`` and ``line`` on
each testcase, which that schema rejects, so they are written only on request
(``--junit-annotations``). Times have at most three decimals, as the schema's pattern asks.
Failure messages are one line (what CI pages show); the full evidence is the failure body.
Characters XML 1.0 cannot hold (NUL and the other C0 controls but tab, newline and carriage
return, lone surrogates, U+FFFE, U+FFFF), which model outputs and data may contain, are written
as ``\\xNN`` / ``\\uNNNN`` text, so the file always parses.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from afcheck.fileio import write_atomic
from afcheck.method import ItemResult
from afcheck.metrics import Count, Metric, Metrics, metric_value
from afcheck.redact import redact_text
from afcheck.summary import RunSummary
from afcheck.types import Status


class JunitReporter:
    name = "junit"

    def __init__(self, annotations: bool = False) -> None:
        self.annotations = annotations

    def report(self, summary: RunSummary, destination: str) -> None:
        write_atomic(destination, redact_text(xml(summary, annotations=self.annotations)))


def xml(summary: RunSummary, *, annotations: bool = False) -> str:
    several = len(summary.methods) > 1
    root = ET.Element("testsuites")
    total = 0.0
    measured = {name: s.metrics() for name, s in summary.methods.items()}
    for (method, group), items in sorted(summary.groups().items()):
        cases = [_case(item, summary.rootdir, annotations) for item in items]
        seconds = sum(sum(item.timings.values()) for item in items)
        total += seconds
        suite = ET.SubElement(root, "testsuite", {
            "name": f"{method}/{group}" if several else group,
            "tests": str(len(items)),
            "failures": str(sum(item.status is Status.FAILED for item in items)),
            "errors": "0",
            "skipped": str(sum(item.status in (Status.SKIPPED, Status.XFAILED)
                               for item in items)),
            "time": _time(seconds),
        })
        properties = ET.SubElement(suite, "properties")
        for name, value in group_properties(summary, method, group, measured).items():
            ET.SubElement(properties, "property", {"name": name, "value": value})
        suite.extend(cases)
    root.set("time", _time(total))
    ET.indent(root)
    return xml_safe('<?xml version="1.0" encoding="utf-8"?>\n'
                    + ET.tostring(root, encoding="unicode"))


def group_properties(summary: RunSummary, method: str, group: str,
                     measured: Mapping[str, Metrics]) -> dict[str, str]:
    """A testsuite's properties: its method's typed metrics of the group (a rate or a score
    with six decimals, a count whole; a figure not measured there left out), then the
    method's own properties of the group. A group of unreadable records alone has none."""
    own = summary.methods.get(method)
    metrics = measured.get(method)
    if own is None or metrics is None:
        return {}
    props = {name: text for name, metric in metrics.groups.get(group, {}).items()
             if (text := _value(metric)) is not None}
    props.update(own.properties(group))
    return props


def _value(metric: Metric) -> str | None:
    value = metric_value(metric)
    if value is None:
        return None
    return str(metric.value) if isinstance(metric, Count) else f"{value:.6f}"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold written as ``\\xNN`` / ``\\uNNNN``.

    Applied to the serialised document: ElementTree leaves such characters raw, and markup
    has none of them, so every one is inside a value.
    """
    return _NOT_XML.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _case(item: ItemResult[object], rootdir: str, annotations: bool) -> ET.Element:
    case = item.case
    test = ET.Element("testcase", {"name": case.name, "classname": case.suite,
                                   "time": _time(sum(item.timings.values()))})
    if annotations and case.source is not None:
        test.set("file", _relative(case.source.path, rootdir))
        if case.source.line:
            test.set("line", str(case.source.line))
    outcome = item.outcome
    if item.status is Status.FAILED:
        failure = ET.SubElement(test, "failure", {"type": f"{case.method} failure",
                                                  "message": outcome.message})
        failure.text = outcome.details
    elif item.status is Status.XFAILED:
        ET.SubElement(test, "skipped", {"type": "xfail", "message":
                                        f"expected failure (baseline): {outcome.message}"})
    elif item.status is Status.SKIPPED:
        ET.SubElement(test, "skipped", {"message": outcome.message})
    if outcome.notes:
        ET.SubElement(test, "system-out").text = "\n".join(outcome.notes)
    return test


def _time(seconds: float) -> str:
    return f"{seconds:.3f}"


def _relative(path: str, rootdir: str) -> str:
    if not rootdir or not os.path.isabs(path):
        return path
    relative = os.path.relpath(path, rootdir)
    return path if relative.startswith("..") else relative
