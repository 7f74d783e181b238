"""The Markdown summary of a run, for a CI page (``--summary-md FILE``, and GitHub's
``$GITHUB_STEP_SUMMARY`` when it is set) or a pull request comment.

Per method: the counts, the metrics a gate may bound, the gates (held and failed), the first
failed items with their one-line reasons, and the method's full tables folded away; at the end
a link to the HTML report (``--report-url URL``, else the CI run's page, whose artifacts hold
it). Text from data and models is escaped: nothing in a step or a model's output can become a
link, an image or markup on the page.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping

from afcheck.fileio import atomic_writer
from afcheck.markdown import md
from afcheck.printable import printable
from afcheck.redact import redact_text
from afcheck.summary import RunSummary
from afcheck.types import Status

TOP_FAILURES = 10
"""Failed items listed per method; the rest are counted, and are in the JSON and JUnit."""


def _short(text: str, limit: int = 200) -> str:
    text = redact_text(text)  # before it is cut, so that no secret is cut out of its shape
    return text if len(text) <= limit else text[:limit - 1] + "…"


def report_url(given: str | None, env: Mapping[str, str] | None = None) -> str | None:
    """Where the HTML report is: ``given``, else the CI run's page (GitHub Actions, GitLab CI),
    whose artifacts hold it; ``None`` outside CI."""
    if given:
        return given
    env = os.environ if env is None else env
    if env.get("GITHUB_RUN_ID") and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL", "https://github.com")
        return f"{server}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
    if env.get("CI_JOB_URL"):
        return f"{env['CI_JOB_URL']}/artifacts/browse"
    return None


def render(summary: RunSummary, url: str | None = None) -> str:
    """The whole Markdown text of one run."""
    out: list[str] = []
    for name, method in summary.methods.items():
        items = [item for item in summary.items if item.case.method == name]
        counts = Counter(item.status for item in items)
        shown = ", ".join(f"{counts[status]} {status.value}" for status in Status
                          if counts[status])
        out += [f"### afcheck: {md(name)}", "", f"{len(items)} items: {shown or 'none'}", ""]
        gates = summary.implementations[name].gates
        metrics = method.metrics()
        values = [(metric, metrics.value(metric)) for metric in gates]
        values = [(metric, value) for metric, value in values if value is not None]
        if values:
            out += ["| " + " | ".join(md(metric) for metric, _ in values) + " |",
                    "|" + "---:|" * len(values),
                    "| " + " | ".join(f"{value:.3f}" for _, value in values) + " |", ""]
        failed = [item for item in items if item.status is Status.FAILED]
        if failed:
            out += [f"**Failed items** (the first {min(len(failed), TOP_FAILURES)} of "
                    f"{len(failed)}; every one is in the JSON and JUnit results):", "",
                    "| item | why |", "|---|---|"]
            out += [f"| {md(item.case.case_id)} | {md(_short(item.outcome.message))} |"
                    for item in failed[:TOP_FAILURES]]
            out.append("")
        out += ["<details><summary>all tables</summary>", "", "```text",
                *(line.replace("```", "'''") for line in
                  (printable(line) for line in method.lines())),
                "```", "</details>", ""]
    if summary.gates_held or summary.gate_failures:
        out += ["### Gates", ""]
        out += [f"- ✅ held: {md(line)}" for line in summary.gates_held]
        out += [f"- ❌ **failed**: {md(line)}" for line in summary.gate_failures]
        out.append("")
    if url:
        out += [f"[The HTML report]({url.replace(')', '%29').replace(' ', '%20')}) "
                "(an artifact of this run)", ""]
    return "\n".join(out)


class MarkdownReporter:
    """Writes :func:`render` to a file; ``append`` adds to it (GitHub's step summary file
    collects every step's)."""

    name = "markdown"

    def __init__(self, url: str | None = None, append: bool = False) -> None:
        self.url = url
        self.append = append

    def report(self, summary: RunSummary, destination: str) -> None:
        text = redact_text(render(summary, self.url)) + "\n"
        if self.append:
            with open(destination, "a", encoding="utf-8") as handle:
                handle.write(text)
            return
        with atomic_writer(destination) as handle:
            handle.write(text)
