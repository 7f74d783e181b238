"""The afcheck section at the end of a run's terminal output.

Each method's tables, then what the run measured (who wrote the candidates and what that
component can formalise), the gates, the cache, the files written and, for a run without
gates, the next commands to try: a first run reads as a story, not as bare failure counts.
"""

from __future__ import annotations

import shlex
import textwrap
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from afcheck.method import next_steps_of
from afcheck.printable import printable
from afcheck.redact import redact_text

if TYPE_CHECKING:
    from afcheck.method import ItemResult
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
            lines += [wrapped for line in source.described()
                      for wrapped in textwrap.wrap(line, 96, initial_indent="  ",
                                                   subsequent_indent="    ",
                                                   break_on_hyphens=False)]
    lines += [f"gate held: {line}" for line in summary.gates_held]
    lines += [f"GATE FAILED: {failure}" for failure in summary.gate_failures]
    if run.cache_stats is not None:
        hits, misses = run.cache_stats
        lines.append(f"result cache: {hits} results reused, {misses} computed")
    lines += run.messages
    if not summary.config.get("gates"):
        lines += next_steps(run, paths)
    # Credentials are masked where every line reaches the terminal: redact_terminal.
    return [printable(line) for line in lines]


def next_steps(run: Run, paths: Sequence[str]) -> list[str]:
    """The next commands each method of the run suggests for its own items, each with the
    run's paths that hold that method's suites (another method's suites would not run as
    printed: the oracle of one is no oracle of another)."""
    from afcheck.catalogue import by_name

    assert run.summary is not None
    steps: dict[str, str] = {}
    several = len(run.summary.methods) > 1
    for name in run.summary.methods:
        items = [item for item in run.summary.items if item.case.method == name]
        mine = _paths_of(items, paths, run.summary.rootdir)
        where = shlex.join(by_name(mine, run.plugins)) or "SUITE"
        for label, command in next_steps_of(run.method(name), items).items():
            steps.setdefault(f"{name} {label}" if several else label,
                             command.replace("{paths}", where))
    if not steps:
        return []
    width = max(len(label) for label in steps) + 1
    return ["next steps:", *(f"  {label + ':':<{width}} {command}"
                             for label, command in steps.items())]


def _paths_of(items: Sequence[ItemResult[object]], paths: Sequence[str],
              rootdir: str) -> list[str]:
    """The command-line ``paths`` that hold a suite of ``items`` (test ids are relative to
    ``rootdir``); all of them when none can be told (a run of one method)."""
    folders = {(Path(rootdir) / item.case.case_id.split("::", 1)[0]).resolve()
               for item in items}
    mine = []
    for path in paths:
        given = Path(path.split("::", 1)[0]).resolve()
        if any(folder == given or folder.is_relative_to(given) for folder in folders):
            mine.append(path)
    return mine or list(paths)


INTERRUPTED_EXIT = int(pytest.ExitCode.INTERRUPTED)
"""The exit status of a run stopped by Ctrl-C (SIGINT): pytest's "interrupted", 2."""

_INTERRUPTED = "afcheck: interrupted ("


class Terminal:
    """The pytest plugin (one per session, registered by the bridge) that owns what afcheck
    prints outside its section: the capped failure summary and the line of an early stop."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.stopped: str | None = None
        """Why the run stopped early (afcheck's own line), once pytest reported the stop."""
        self.reported = False
        """Whether that line is printed already."""
        self.session: pytest.Session | None = None
        self.afcheck_run: bool | None = None
        """Whether the session runs afcheck items, once collected (until then, unknown: what
        is printed before is redacted all the same)."""
        self.suites_seen = False
        """Whether a suite folder was collected (a stop during collection has no items)."""

    def runs_suites(self) -> bool:
        """Whether this pytest session runs afcheck items; any other (a project's own tests,
        under the pytest plugin every pytest run loads) keeps pytest's output."""
        from afcheck.pytest_plugin import CaseItem

        items = getattr(self.session, "items", None) or []
        return any(isinstance(item, CaseItem) for item in items)

    def names_suites(self) -> bool:
        """Whether the command line names a suite (a stop before collection is an afcheck
        run's stop too)."""
        from afcheck.pytest_plugin import _names_a_suite

        try:
            return _names_a_suite(list(self.config.args))
        except OSError:
            return False

    def pytest_collectstart(self, collector: pytest.Collector) -> None:
        """A stop while suites are being collected is an afcheck run's stop too."""
        from afcheck.pytest_plugin import SuiteDirectory

        if isinstance(collector, SuiteDirectory):
            self.suites_seen = True

    @pytest.hookimpl(trylast=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session
        redact_terminal(self.config, lambda: self.afcheck_run is not False)  # the reporter exists
        cap_failures(self.config, self.runs_suites)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.afcheck_run = self.runs_suites()

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """A result file that could not be written is counted in the final line too
        (``66 passed, 2 skipped, 1 result file not written``), so that the last line of a
        run whose exit status is 1 for it never reads as if all were well."""
        from afcheck.pytest_plugin import run_key

        run = self.config.stash.get(run_key, None)
        if run is None:
            return
        unwritten = [Unwritten(m) for m in run.messages if m.startswith("could not write ")]
        if unwritten:
            noun = "result file" if len(unwritten) == 1 else "result files"
            terminalreporter.stats.setdefault(f"{noun} not written", []).extend(unwritten)

    @pytest.hookimpl(trylast=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """A stop afcheck asked for (``pytest.exit("afcheck: …")``) or Ctrl-C: afcheck's own
        line instead of pytest's ``! _pytest.outcomes.Exit: … !`` or ``<string>:9:
        KeyboardInterrupt``. Other stops (``-x``'s "stopping after 1 failures") keep
        pytest's line."""
        from afcheck.runtime.interrupt import Terminated, signal_name

        stop = excinfo.value
        if isinstance(stop, pytest.exit.Exception) and str(stop.msg).startswith("afcheck: "):
            self.stopped = str(stop.msg)
        elif ((type(stop) is KeyboardInterrupt or isinstance(stop, Terminated))
              and (self.runs_suites() or self.suites_seen or self.names_suites())):
            # Ctrl-C, or SIGTERM through afcheck.runtime.interrupt: the same line.
            self.stopped = f"afcheck: interrupted ({signal_name(stop)})"
        else:
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            # Where the terminal reporter prints the stop's traceback line, at the end of the
            # session (after the afcheck section, so that the files are written). pytest has
            # no public way to replace that line: this is the one private name the bridge
            # sets, and a pytest without it prints its own line, then afcheck's at
            # unconfigure (``pytest_unconfigure``).
            reporter._report_keyboardinterrupt = self._report

    def pytest_unconfigure(self) -> None:
        self._report()

    def _report(self) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if self.stopped is None or reporter is None or self.reported:
            return
        self.reported = True
        from afcheck.runtime.interrupt import say

        line = self.stopped + (_interrupted(self.config)
                               if self.stopped.startswith(_INTERRUPTED) else "")
        reporter.write_line(printable(line))
        say()


class Unwritten:
    """One result file that could not be written, as an entry of the terminal reporter's
    stats (which other plugins walk as reports: hence an object, not a bare string)."""

    count_towards_summary = True
    nodeid = ""
    when = "afcheck"

    def __init__(self, message: str) -> None:
        self.message = message


def _interrupted(config: pytest.Config) -> str:
    """What a run stopped by Ctrl-C leaves behind."""
    from afcheck.pytest_plugin import run_key

    run = config.stash.get(run_key, None)
    if run is None:
        return f"; exit status {INTERRUPTED_EXIT}"
    if run.summary is not None:
        written = [m for m in run.messages if m.startswith("wrote ")]
        where = f"; {', '.join(written)}" if written else ""
        return (f" after {len(run.summary.items)} finished items{where}; exit status "
                f"{INTERRUPTED_EXIT}")
    cached = ""
    if run.cache_kept:
        # What the cache committed, not what was asked of it: a stage keeps its results per
        # chunk, and a stopped chunk, or a result never kept (a timeout), is not there.
        cached = (f"; {run.cache_kept} results of this run are kept in the result cache, and "
                  "the same command goes on from there")
    elif run.cache_kept == 0:
        cached = ("; no result of this run was kept in the result cache yet (a stage keeps "
                  "its results per chunk: --chunk-size N), so the same command starts over")
    return (f" before any item finished, so no result file is written{cached}; exit status "
            f"{INTERRUPTED_EXIT}")


def redact_terminal(config: pytest.Config, applies: Callable[[], bool] = lambda: True) -> None:
    """Pass everything pytest's terminal writer writes from now on (afcheck's section, the
    progress line, failure messages, stop lines) through :func:`afcheck.redact.redact_text`:
    the terminal's boundary, so that no line, whichever field it shows, prints a
    credential. ``applies`` says whether the session is an afcheck run (a project's own
    tests keep pytest's output as it is)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    writer = config.get_terminal_writer()
    if writer in _redacted:
        return
    write = writer.write

    def redacted(msg: str, *, flush: bool = False, **markup: bool) -> None:
        write(redact_text(msg) if applies() else msg, flush=flush, **markup)

    writer.write = redacted  # type: ignore[method-assign]
    _redacted.add(writer)


_redacted: weakref.WeakSet[object] = weakref.WeakSet()
"""The terminal writers whose output :func:`redact_terminal` redacts already."""


def cap_failures(config: pytest.Config, applies: Callable[[], bool] = lambda: True) -> None:
    """Print at most ``--failure-lines N`` failed items in pytest's failure summary (default:
    all on a terminal, :data:`LOG_FAILURE_LINES` in a log), then one line with how many more
    and where the full list is. The counts of the final line stay whole. ``applies`` is
    asked at the end whether the session was an afcheck run."""
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
        if len(failed) <= limit or not applies():
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
