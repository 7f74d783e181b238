"""The afcheck section at the end of a run's terminal output.

Each method's tables, then what the run measured (who wrote the candidates and what that
component can formalise), the gates, the cache, the files written and, for a run without
gates, the next commands to try: a first run reads as a story, not as bare failure counts.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pytest

from afcheck.method import next_steps_of
from afcheck.printable import printable

if TYPE_CHECKING:
    from afcheck.run import Run

LOG_FAILURE_LINES = 20
"""Failed items a log (no terminal) shows by default: a CI log of a math run would otherwise
hold thousands of failure lines before the metrics."""


def summary_lines(run: Run, paths: Sequence[str]) -> list[str]:
    """The afcheck section of a finished run; ``paths`` are the run's command-line paths,
    quoted into the next steps. Text from data is shown with escapes, never acted on."""
    summary = run.summary
    if summary is None:
        return []
    lines: list[str] = []
    for index, (name, method) in enumerate(summary.methods.items()):
        if index:
            lines.append("")
        lines += method.lines()
        source = summary.candidates.get(name)
        if source is not None:
            lines.append(f"{name} {source.line()}")
            lines += [f"  {line}" for line in source.described()]
    lines += [f"gate held: {line}" for line in summary.gates_held]
    lines += [f"GATE FAILED: {failure}" for failure in summary.gate_failures]
    if run.cache_stats is not None:
        hits, misses = run.cache_stats
        lines.append(f"result cache: {hits} results reused, {misses} computed")
    lines += run.messages
    if not summary.config.get("gates"):
        lines += next_steps(run, paths)
    return [printable(line) for line in lines]


def next_steps(run: Run, paths: Sequence[str]) -> list[str]:
    """The next commands each method of the run suggests, with the run's paths."""
    assert run.summary is not None
    where = shlex.join(paths) or "SUITE"
    steps: dict[str, str] = {}
    for name in run.summary.methods:
        for label, command in next_steps_of(run.method(name)).items():
            steps.setdefault(label, command.replace("{paths}", where))
    if not steps:
        return []
    width = max(len(label) for label in steps) + 1
    return ["next steps:", *(f"  {label + ':':<{width}} {command}"
                             for label, command in steps.items())]


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """The pytest hook (this module is registered as a pytest plugin by the bridge): the
    terminal reporter exists by now."""
    cap_failures(session.config)


def cap_failures(config: pytest.Config) -> None:
    """Print at most ``--failure-lines N`` failed items in pytest's failure summary (default:
    all on a terminal, :data:`LOG_FAILURE_LINES` in a log), then one line with how many more
    and where the full list is. The counts of the final line stay whole."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    given = config.getoption("afcheck_failure_lines", None)
    limit = given if given is not None else None if reporter.isatty() else LOG_FAILURE_LINES
    if limit is None:
        return
    limit = max(int(limit), 0)
    summary_failures = reporter.summary_failures
    getreports = reporter.getreports

    def capped() -> None:
        failed = getreports("failed")
        if len(failed) <= limit:
            summary_failures()
            return

        def first(name: str = "") -> list[pytest.TestReport]:
            reports = getreports(name)
            return reports[:limit] if name == "failed" else reports

        reporter.getreports = first
        try:
            if limit:
                summary_failures()
            else:
                reporter.write_sep("=", "FAILURES")
        finally:
            reporter.getreports = getreports
        reporter.write_line(f"... and {len(failed) - limit} more failed items not shown "
                            f"({_full_list(config)})")

    reporter.summary_failures = capped


def _full_list(config: pytest.Config) -> str:
    """Where a user finds every failed item of the run."""
    files = [f"{flag} {value}" for flag, value in (
        ("--json", config.getoption("afcheck_json", None)),
        ("--junitxml", config.getoption("xmlpath", None))) if value]
    if files:
        return "every one is in " + " and ".join(files)
    return "--json FILE writes every one; --failure-lines N shows more"
