"""The bridge between pytest and afcheck: pytest hooks and collection nodes, nothing more.

Loaded in every pytest run (entry point ``pytest11``), so it imports nothing heavy and does
nothing unless a suite folder (a ``suite.toml`` with an ``[afcheck]`` table) is collected:
its options are all spelled ``--afcheck-*``.

The run itself is an :class:`afcheck.run.Run`, created in ``pytest_configure`` with its own
plugin manager. A suite becomes a :class:`SuiteDirectory` whose items are :class:`CaseItem`
(one per case the suite's method makes of a record). Collection only reads files. The first
item to run hands the run every selected item (after ``-k``, ``--lf``, deselection) for one
batched execution, and each item then reports its own status, which the run decides.
"""

from __future__ import annotations

import bdb
import os
import sys
import traceback
import types
import warnings
import weakref
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pluggy
import pytest
from _pytest import timing
from _pytest._code.code import ExceptionInfo, ReprFileLocation, TerminalRepr
from _pytest._io import TerminalWriter
from _pytest.pathlib import absolutepath
from _pytest.skipping import xfailed_key
from pytest import CallInfo

from afcheck import options as opts
from afcheck.errors import AfcheckError, MissingDependency, UsageError
from afcheck.method import BadRecord, Case, ItemResult, LazyText, Text
from afcheck.printable import printable
from afcheck.suites import is_suite_dir
from afcheck.types import Status

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle

    from afcheck.plugins import Plugins
    from afcheck.registry import Kind
    from afcheck.run import Run
    from afcheck.runtime.progress import Progress

run_key = pytest.StashKey["Run"]()
_plugins_of: weakref.WeakKeyDictionary[object, Plugins] = weakref.WeakKeyDictionary()
"""Each pytest session's own afcheck plugins, made when its options are declared."""
_handed: list[Plugins] = []
"""The plugins the ``afcheck`` command already loaded (with its ``--plugin`` modules), for
the pytest session it starts: one plugin manager per call."""


def hand_over(plugins: Plugins) -> None:
    """Make ``plugins`` the next pytest session's afcheck plugins (the ``afcheck`` command)."""
    _handed[:] = [plugins]


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    from afcheck.plugins import Plugins

    group = parser.getgroup(
        "afcheck", "afcheck (the afcheck command also takes them without 'afcheck-')"
    )

    def add(spec: opts.OptionSpec) -> None:
        group.addoption(spec.long, dest=spec.dest, **spec.kwargs)

    plugins = _handed.pop() if _handed else Plugins()
    _plugins_of[pluginmanager] = plugins
    for spec in (*opts.component_options(list(plugins.kinds)), *opts.CORE_OPTIONS):
        add(spec)
    # A kind a --afcheck-plugin module declares later brings its options along.
    def add_kind(kind: Kind[object]) -> None:
        for spec in opts.component_options([kind]):
            add(spec)

    plugins.kinds.on_add(add_kind)
    # Historic: a plugin registered later (--afcheck-plugin) adds its options too.
    plugins.pm.hook.afcheck_addoption.call_historic(kwargs={"group": opts.OptionGroup(add=add)})


def pytest_load_initial_conftests(early_config: pytest.Config, args: list[str]) -> None:
    """Load ``--afcheck-plugin`` modules before the command line is parsed, so that the
    options they add are known."""
    plugins = _plugins_of.get(early_config.pluginmanager)
    if plugins is None:
        return
    for module in plugin_modules(args):
        try:
            plugins.register_module(module)
        except AfcheckError as exc:
            raise pytest.UsageError(str(exc)) from None


def plugin_modules(args: list[str]) -> list[str]:
    """The modules named by ``--afcheck-plugin X`` / ``--afcheck-plugin=X`` in ``args``."""
    flag = opts.PREFIX + "plugin"
    found = []
    rest = iter(args)
    for arg in rest:
        if arg == flag:
            value = next(rest, None)
            if value is not None:
                found.append(value)
        elif arg.startswith(flag + "="):
            found.append(arg[len(flag) + 1:])
    return found


_NO_XDIST = ("afcheck runs every selected item in one batch and gates on all of them, which "
             "pytest-xdist's -n would split across processes: run afcheck suites without -n")


def pytest_configure(config: pytest.Config) -> None:
    from afcheck.plugins import Plugins
    from afcheck.run import Run

    if config.getoption("numprocesses", None) and _names_a_suite(config.args):
        raise pytest.UsageError(_NO_XDIST)
    plugins = _plugins_of.get(config.pluginmanager) or Plugins()
    run = Run(plugins, lambda name: config.getoption("afcheck_" + name, default=None),
              progress=lambda: _progress(config), rootdir=str(config.rootpath))
    config.stash[run_key] = run
    from afcheck.metadata import RunStart

    run.start = RunStart.now(config.args)
    from afcheck import terminal

    config.pluginmanager.register(terminal.Terminal(config), "afcheck-terminal")
    try:
        run.configure()
    except AfcheckError as exc:
        raise pytest.UsageError(str(exc)) from None


def _names_a_suite(args: list[str]) -> bool:
    """Whether a command-line path is a suite folder or holds one directly."""
    for arg in args:
        path = Path(arg.split("::", 1)[0])
        if not path.is_dir():
            continue
        if is_suite_dir(path) or any(is_suite_dir(child) for child in path.iterdir()
                                     if child.is_dir()):
            return True
    return False


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_suite_dir(path):
        return SuiteDirectory.from_parent(parent, path=path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """pytest's own loop, except that a case item whose result the run already holds reports it
    without the ``pytest_runtest_protocol`` hook chain.

    The whole run executes inside the first case item, which goes through the hook as any
    item does: warnings capture, faulthandler's timeout and the assertion plugin's hooks see
    all the work. Every later case item only reports a status decided already, with nothing
    for those wrappers to watch, and at 25,000 items they were a large part of the runner's
    own time; a warning raised while it reports (by a report hook, say) is still recorded
    under its node id. Any other plugin that takes part in the protocol or in a test's setup,
    call or teardown (:func:`_phases_known`), a session with ordinary tests in it,
    ``--full-protocol`` or the setup-only options put every item through the hook, and so
    does an item with a mark the skipping plugin evaluates (:func:`_collected`), alone; pytest's
    collection-error and ``--collect-only`` paths are left to pytest's loop.
    """
    config = session.config
    if ((session.testsfailed and not config.option.continue_on_collection_errors)
            or config.option.collectonly or not _shortcuts(session) or not _fast(config)):
        return None
    from _pytest.warnings import catch_warnings_for_item

    run = config.stash.get(run_key, None)
    phases, fast, direct = _phases_read(config), True, _direct(config)
    hooks: dict[Path, pluggy.HookRelay] = {}
    items = session.items
    marked = session.stash.get(marked_key, frozenset())
    # pytest's own filters (ini, -W, its defaults) for the whole loop; the inner record keeps
    # them and lets each item's warnings go out under its own node id.
    with (catch_warnings_for_item(config, config.hook, "runtest", None),
          warnings.catch_warnings(record=True) as caught):
        for index, item in enumerate(items):
            if (fast and isinstance(item, CaseItem) and run is not None and run.executed
                    and item not in marked):
                ihook = hooks.get(item.path)
                if ihook is None:
                    ihook = hooks[item.path] = item.ihook
                _report(item, ihook, phases, run if direct else None)
                if caught:
                    for message in caught:
                        ihook.pytest_warning_recorded.call_historic(kwargs={
                            "warning_message": message, "nodeid": item.nodeid,
                            "when": "runtest", "location": None})
                    caught.clear()
            else:
                nextitem = items[index + 1] if index + 1 < len(items) else None
                config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
                # The code that ran may have registered a plugin.
                phases, fast, direct = _phases_read(config), _fast(config), _direct(config)
            if session.shouldfail:
                raise session.Failed(session.shouldfail)
            if session.shouldstop:
                raise session.Interrupted(session.shouldstop)
    return True


def _fast(config: pytest.Config) -> bool:
    """Whether only known plugins take part in the per-item protocol and in the loop."""
    return (_only_known(config.hook.pytest_runtest_protocol, _PROTOCOL_PLUGINS)
            and _only_known(config.hook.pytest_runtestloop, _LOOP_PLUGINS, wrappers=False)
            and _phases_known(config))


def _phases_known(config: pytest.Config) -> bool:
    """Whether only known plugins implement a test's setup, call and teardown: the shorter
    protocol has none of the three, so a plugin or conftest that acts in one of them (skips
    an item in its setup, say) needs pytest's own."""
    hook = config.hook
    return all(_only_known(phase, _PHASE_PLUGINS) for phase in (
        hook.pytest_runtest_setup, hook.pytest_runtest_call, hook.pytest_runtest_teardown))


_PHASE_PLUGINS = frozenset({"_pytest.runner", "_pytest.skipping", "_pytest.threadexception",
                            "_pytest.unraisableexception", "_pytest.capture.CaptureManager",
                            "_pytest.logging.LoggingPlugin", "pytest_benchmark.plugin",
                            "_hypothesis_pytestplugin"})
"""The plugins whose setup, call and teardown hooks do nothing for a case item without
:data:`_SETUP_MARKS`: pytest's setup state (a case item has no fixtures and its suite no
setup), the skipping plugin (it reads those marks), the checks for exceptions raised in
other threads or unraisable ones and the capture and logging of a test's code (a decided
case item runs none), pytest-benchmark's check of its own ``benchmark`` mark and
hypothesis's wrapper of a test function's call (a case item is none)."""
_SETUP_MARKS = frozenset({"skip", "skipif", "xfail"})
"""The marks the skipping plugin evaluates in an item's setup and call: an item that has one
(its own or its suite's) goes through pytest's protocol, which evaluates it."""
marked_key = pytest.StashKey[frozenset[pytest.Item]]()


@dataclass(frozen=True)
class _Collected:
    """What the hooks after collection read of a session's items, sorted in one pass."""

    cases: tuple[Case[object], ...]
    """The cases of the case items, in order."""
    unreadable: tuple[BadRecord, ...]
    """The records of the unreadable-record items, in order."""
    only_ours: bool
    """Whether every item is a case item or an unreadable-record item."""
    marked: frozenset[pytest.Item]
    """The case items with a mark of :data:`_SETUP_MARKS`, their own or one of their
    parents'."""


def _collected(items: Sequence[pytest.Item]) -> _Collected:
    """Sort ``items`` once: a 25,000-item session made several passes over them otherwise.
    A parent's marks are read once (a suite's items share it)."""
    parents: dict[int, bool] = {}
    cases: list[Case[object]] = []
    unreadable: list[BadRecord] = []
    marked: list[pytest.Item] = []
    only_ours = True
    for item in items:
        if isinstance(item, CaseItem):
            cases.append(item.case)
            parent = item.parent
            inherited = parents.get(id(parent))
            if inherited is None:
                inherited = parents[id(parent)] = parent is not None and any(
                    mark.name in _SETUP_MARKS for mark in parent.iter_markers())
            if inherited or (item.own_markers
                             and any(mark.name in _SETUP_MARKS for mark in item.own_markers)):
                marked.append(item)
        elif isinstance(item, BadRecordItem):
            unreadable.append(item.record)
        else:
            only_ours = False
    return _Collected(tuple(cases), tuple(unreadable), only_ours, frozenset(marked))


_PROTOCOL_PLUGINS = frozenset({"_pytest.runner", "_pytest.faulthandler", "_pytest.unittest",
                               "_pytest.assertion", "_pytest.warnings", __name__})
"""The plugins whose part in ``pytest_runtest_protocol`` a case item with a known result can
skip: pytest's own loop runner, its wrappers that watch a test's code while it runs (none
runs), and this module."""
_LOOP_PLUGINS = frozenset({"_pytest.main", __name__})
"""The plugins that may run the loop itself (a wrapper around it, such as the terminal's,
sees the loop whole, however its items run)."""
_PHASE_READERS = frozenset({"_pytest.terminal.TerminalReporter",
                            "_pytest.terminal.TerminalProgressPlugin",
                            "_pytest.cacheprovider.LFPlugin", "_pytest.main.Session",
                            "_pytest.stepwise.StepwisePlugin", "_pytest.logging.LoggingPlugin"})
"""Readers of ``pytest_runtest_logreport`` that do nothing with a passed setup or teardown
report, except the terminal's ``times`` style and ``--durations`` (:func:`_phases_read`):
with only these listening, a case item's setup and teardown reports, which always pass, are
not made."""
_REPORT_PLUGINS = frozenset({"_pytest.runner", "_pytest.skipping", "_pytest.unittest",
                             "_pytest.tmpdir", "pytest_benchmark.plugin",
                             "_hypothesis_pytestplugin"})
"""The plugins whose ``pytest_runtest_makereport`` gives a case item with a decided result
the report :func:`_decided_report` makes directly: pytest's own report
(``TestReport.from_item_and_call``); the skipping plugin's wrapper, which changes a report
only for an ``xfail`` exception (an XFAILED item, which keeps the hook) or an xfail mark
evaluated in the item's setup (the stash entry :func:`_decided_report` checks); and
wrappers that act only for items a case item is not: unittest's ``TestCaseFunction``, a
test that takes pytest-benchmark's ``benchmark`` argument, a test hypothesis ran (the
section and statistics it adds), and the record the ``tmp_path`` fixture reads when it is
torn down (a case item requests no fixture)."""
shortcuts_key = pytest.StashKey[bool]()


def _plugin_name(plugin: object) -> str:
    if isinstance(plugin, types.ModuleType):
        return plugin.__name__
    kind = type(plugin)
    return f"{kind.__module__}.{kind.__qualname__}"


def _only_known(hook: pluggy.HookCaller, known: frozenset[str], wrappers: bool = True) -> bool:
    """Whether every implementation of ``hook`` (or every one but its wrappers) is one of
    ``known`` plugins."""
    return all(_plugin_name(impl.plugin) in known for impl in hook.get_hookimpls()
               if wrappers or not (impl.wrapper or impl.hookwrapper))


def _phases_read(config: pytest.Config) -> bool:
    """Whether anything may read a case item's setup and teardown reports: a listener other
    than pytest's terminal, caches and session, ``--durations`` (every report's duration) or
    the terminal's ``times`` style (it counts setup reports to find a file's end)."""
    return (config.getoption("durations", None) is not None
            or config.getini("console_output_style") == "times"
            or not _only_known(config.hook.pytest_runtest_logreport, _PHASE_READERS))


def _direct(config: pytest.Config) -> bool:
    """Whether a decided case item's call report may be made without the
    ``pytest_runtest_makereport`` hook: only the plugins of :data:`_REPORT_PLUGINS`
    implement it."""
    return _only_known(config.hook.pytest_runtest_makereport, _REPORT_PLUGINS)


def _shortcuts(session: pytest.Session) -> bool:
    """Whether case items may skip parts of pytest's protocol: a session of case items alone
    (an ordinary test's fixtures are set up and torn down by pytest's protocol around the
    items that follow it) without ``--full-protocol``, ``--setup-only``, ``--setup-plan`` or
    ``--setup-show``."""
    option = session.config.option
    return (session.stash.get(shortcuts_key, False)
            and not session.config.getoption("afcheck_full_protocol", False)
            and not (getattr(option, "setuponly", False) or getattr(option, "setupshow", False)))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A shorter protocol for case items, which have no fixtures, no setup and no output.

    pytest's own runs setup, call and teardown each through its hook chain (capture, logging,
    fixtures, thread and unraisable-exception checks): at 25,000 items that chain was most of
    the runner's own time. Case items keep every report the chain would have produced that
    anything reads — setup and teardown pass, the call report is the one
    ``pytest_runtest_makereport`` makes (made directly where only known plugins implement it,
    :func:`_decided_report`) — so ``-x``, ``--lf``, ``--junitxml``, xfail and the terminal
    behave as usual.
    """
    if (not isinstance(item, CaseItem) or not _shortcuts(item.session)
            or item in item.session.stash.get(marked_key, frozenset())
            or not _phases_known(item.config)):
        return None
    config = item.config
    _report(item, item.ihook, _phases_read(config),
            config.stash.get(run_key, None) if _direct(config) else None)
    return True


def _report(item: CaseItem, ihook: pluggy.HookRelay, phases: bool, run: Run | None) -> None:
    """Run a case item's call and log its reports (the shorter protocol's body); with the
    ``run`` whose results it may report without ``pytest_runtest_makereport``
    (:func:`_direct`), a decided item's call report is made directly."""
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    if phases:
        ihook.pytest_runtest_logreport(report=_passed(item, "setup"))
    report = None if run is None else _decided_report(item, run)
    if report is not None:
        ihook.pytest_runtest_logreport(report=report)
    else:
        _call_and_report(item, ihook)
    if phases:
        ihook.pytest_runtest_logreport(report=_passed(item, "teardown"))
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)


def _call_and_report(item: CaseItem, ihook: pluggy.HookRelay) -> None:
    """Run a case item's call through pytest's ``CallInfo`` and its report hook, and log it."""
    call = CallInfo.from_call(item.runtest, "call", reraise=(pytest.exit.Exception,
                                                              KeyboardInterrupt))
    report = ihook.pytest_runtest_makereport(item=item, call=call)
    ihook.pytest_runtest_logreport(report=report)
    if call.excinfo is not None:
        if report.failed and not call.excinfo.errisinstance((CaseFailed, bdb.BdbQuit)):
            ihook.pytest_exception_interact(node=item, call=call, report=report)
        # The report holds all it shows. The exception's traceback holds ``from_call``'s
        # frame, whose locals and caller (this frame) hold the exception again: at thousands
        # of failed items those reference cycles were nearly all the garbage the collector
        # found, in collections that each walk every young object.
        traceback.clear_frames(call.excinfo.tb)
    del call


def _decided_report(item: CaseItem, run: Run) -> pytest.TestReport | None:
    """The call report ``pytest_runtest_makereport`` gives a case item whose result ``run``
    holds, made without calling :meth:`CaseItem.runtest` and the hook: the same fields
    ``TestReport.from_item_and_call`` fills from the exception ``runtest`` raises, without
    raising one (``tests/test_pytest_plugin_reports.py`` holds the two equal). None where
    the hook must make it: a run not executed yet, an XFAILED item (the skipping plugin turns
    its exception into the report), an xfail mark evaluated for the item, a skipped item
    without a line."""
    if not run.executed or item.stash.get(xfailed_key, None):
        return None
    start, precise = timing.time(), timing.perf_counter()
    try:
        result = run.item(item.case.case_id)
    except KeyError:  # not in the run: the hook reports the error ``runtest`` raises
        return None
    status = result.status
    longrepr: tuple[str, int, str] | TerminalRepr | None = None
    outcome: Literal["passed", "failed", "skipped"]
    if status is Status.PASSED:
        outcome = "passed"
    elif status is Status.FAILED:
        outcome, longrepr = "failed", item.failure_repr(result)
    elif status is Status.SKIPPED:
        path, line, _ = item.reportinfo()
        if line is None:
            return None
        # pytest's text of a skip raised at the item's location (``ExceptionInfo.exconly``).
        skip = pytest.skip.Exception(_message(result), _use_item_location=True)
        text = "".join(traceback.format_exception_only(type(skip), skip)).rstrip()
        outcome, longrepr = "skipped", (os.fspath(path), line + 1, text)
    else:
        return None
    duration = timing.perf_counter() - precise
    stop = timing.time()
    return pytest.TestReport(
        item.nodeid, item.location, _keywords(item), outcome, longrepr, "call",
        [(f"Captured {key} {when}", content) for when, key, content in item._report_sections],
        duration, start, stop, user_properties=item.user_properties)


def _keywords(item: CaseItem) -> dict[str, Literal[1]]:
    """A report's keywords, ``{x: 1 for x in item.keywords}`` as pytest makes them: the
    item's own (its name, its marks), then its suite's and the suite's parents' (the same for
    every item of the suite, read once per suite)."""
    own = getattr(item.keywords, "_markers", None)  # pytest's NodeKeywords: the item's own
    parent = item.parent
    if not isinstance(own, dict) or not isinstance(parent, SuiteDirectory):
        return dict.fromkeys(item.keywords, 1)
    keywords: dict[str, Literal[1]] = dict.fromkeys(own, 1)
    # Those of the suite the item has too keep their place, as in NodeKeywords' iteration.
    keywords.update(parent.item_keywords)
    return keywords


def _passed(item: pytest.Item, when: Literal["setup", "teardown"]) -> pytest.TestReport:
    return pytest.TestReport(item.nodeid, item.location, {}, "passed", None, when)


def pytest_collection_finish(session: pytest.Session) -> None:
    collected = _collected(session.items)
    session.stash[shortcuts_key] = collected.only_ours
    session.stash[marked_key] = collected.marked
    run = session.config.stash.get(run_key, None)
    if run is not None and run.usage_errors:
        raise pytest.UsageError(run.usage_errors[0])
    cases, unreadable = collected.cases, collected.unreadable
    if not cases and not unreadable:
        return
    if run is not None:
        run.unreadable = len(unreadable)
    config = session.config
    if hasattr(config, "workerinput"):
        raise pytest.UsageError(_NO_XDIST)
    try:
        config.stash[run_key].validate(
            cases, build=not config.getoption("collectonly", False), unreadable=unreadable)
    except AfcheckError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = session.config.stash.get(run_key, None)
    if run is None or not (run.executed or run.reported):
        return
    new_status = run.finish(int(exitstatus))
    if new_status is not None:
        session.exitstatus = new_status


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(run_key, None)
    if run is not None:
        run.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from afcheck.terminal import summary_lines

    run = terminalreporter.config.stash.get(run_key, None)
    if run is None or run.summary is None:
        return
    terminalreporter.section("afcheck")
    for line in summary_lines(run, terminalreporter.config.args):
        terminalreporter.write_line(line)


def _progress(config: pytest.Config) -> Progress:
    """Progress past pytest's capturing: a line redrawn in place on a terminal, a full line
    every few seconds in a log (CI); off when quiet."""
    from afcheck.runtime.progress import Progress, log_interval

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    quiet = config.getoption("verbose", 0) < 0
    if reporter is None or quiet:
        return Progress(enabled=False)

    def write(text: str) -> None:
        with _uncaptured(config):
            reporter.write(text, flush=True)

    return Progress(enabled=True, write=write,
                    interval=None if reporter.isatty() else log_interval())


# -- collection ----------------------------------------------------------------------------


class SuiteDirectory(pytest.Directory):
    """A suite folder: its items are the cases its method makes of each record."""

    def collect(self) -> Iterator[pytest.Item]:
        run = self.config.stash[run_key]
        try:
            entries = list(run.collect(self.path, self.nodeid))
        except (UsageError, MissingDependency) as exc:
            # A plugin that is not there or cannot load is the command line's problem, not
            # this suite's: the run stops with one line and exit status 4.
            run.usage_errors.append(str(exc))
            return
        self.relpaths: dict[Path | str, str] = {}
        for entry in entries:
            if isinstance(entry, BadRecord):
                yield BadRecordItem.from_parent(self, name=entry.case.name, record=entry)
            else:
                yield CaseItem.from_parent(self, name=entry.name, case=entry)

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, AfcheckError):
            return printable(str(excinfo.value))
        return super().repr_failure(excinfo)

    @cached_property
    def item_keywords(self) -> dict[str, Literal[1]]:
        """The keywords each of its items' reports has from this folder and its parents,
        read when the first item is reported (a mark added to the folder later is not in
        them)."""
        return dict.fromkeys(self.keywords, 1)


class CaseFailed(Exception):
    """Raised by a case item whose method judged it failed."""

    def __init__(self, item: ItemResult[object]) -> None:
        super().__init__(item.case.case_id)
        self.item = item


class _CaseRepr(TerminalRepr):
    """Full details in the long report, one line (``reprcrash``) under ``--tb=line``."""

    text = LazyText()
    """The details, made when first shown: a run's failures beyond the few the terminal
    shows never are."""

    def __init__(self, text: Text, crash: ReprFileLocation) -> None:
        self.text = text
        self.reprcrash = crash

    def toterminal(self, tw: TerminalWriter) -> None:
        for line in self.text.splitlines():
            tw.line(line)


class CaseItem(pytest.Item):
    """One test case. Holds only its :class:`~afcheck.method.Case`."""

    def __init__(self, *, case: Case[object], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.case = case

    # pytest's Node hashes by node id in Python code, and its fixture reordering puts every
    # item in dicts about seventeen times at collection. A node has no ``__eq__`` (equal means
    # the same object), so the identity hash, in C, is consistent with equality and cheaper.
    __hash__ = object.__hash__

    def runtest(self) -> None:
        run = self.config.stash[run_key]
        if not run.executed:
            _execute(run, self.session)
        item = run.item(self.case.case_id)
        if item.status is Status.PASSED:
            return
        message = _message(item)
        if item.status is Status.SKIPPED:
            # Reported at the record's data line, not at this module.
            raise pytest.skip.Exception(message, _use_item_location=True)
        if item.status is Status.XFAILED:
            pytest.xfail(f"failed in the baseline: {message}")
        raise CaseFailed(item)

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, CaseFailed):
            return self.failure_repr(excinfo.value.item)
        if isinstance(excinfo.value, AfcheckError):
            return printable(f"afcheck: {excinfo.value}")
        return super().repr_failure(excinfo)

    def failure_repr(self, item: ItemResult[object]) -> _CaseRepr:
        """The long report of this item failed with ``item``: its details, and its message
        as the crash line."""
        path, line, _ = self.reportinfo()
        crash = ReprFileLocation(
            str(path), int(line or 0) + 1,
            printable(f"{self.case.name}: {item.outcome.message}", newlines=False))
        # Under --tb=line pytest prints the long form and the crash line: keep it one line.
        short = self.config.getoption("tbstyle", "auto") in ("line", "no")
        return _CaseRepr("" if short else lambda: printable(item.outcome.details), crash)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        source = self.case.source
        if source is not None:
            return source.path, max(source.line - 1, 0), self.case.name
        return self.path, None, self.case.name

    @cached_property
    def location(self) -> tuple[str, int | None, str]:
        """pytest's own location (its path relative to the rootdir, the 0-based line, the
        name), with the relative path worked out once per data file of the suite rather than
        once per item: the items of a suite share a handful of files."""
        path, line, name = self.reportinfo()
        known = getattr(self.parent, "relpaths", None)
        # pytest's own location goes through this private session method; a pytest without
        # it gets its own location back, uncached.
        relpath = getattr(self.session, "_node_location_to_relpath", None)
        if known is None or relpath is None:
            return super().location
        relative = known.get(path)
        if relative is None:
            relative = known[path] = relpath(absolutepath(path))
        return (relative, line, name)


def _message(item: ItemResult[object]) -> str:
    """The one-line message a skipped or expected failure shows."""
    # Messages quote model outputs and data: shown with escapes, never acted on.
    return printable(item.outcome.message, newlines=False)


def _execute(run: Run, session: pytest.Session) -> None:
    from afcheck.runtime import ComponentError
    from afcheck.runtime.executor import ExecutorStopped

    cases = [item.case for item in session.items if isinstance(item, CaseItem)]
    try:
        run.execute(cases)
    except ComponentError as exc:
        # A plugin bug: its traceback, once, for the report; then stop every item.
        _print_traceback(session, exc.__cause__ or exc)
        pytest.exit(f"afcheck: {exc}", returncode=pytest.ExitCode.INTERNAL_ERROR)
    except ExecutorStopped as exc:
        # A lost cluster or SIGTERM is no failure of a case: exit 2, as an interruption.
        pytest.exit(f"afcheck: {exc}", returncode=pytest.ExitCode.INTERRUPTED)
    except AfcheckError as exc:
        pytest.exit(f"afcheck: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
    except Exception as exc:
        # A bug of the run's own: stop here, or every later item would run the batch again.
        _print_traceback(session, exc)
        pytest.exit(f"afcheck: internal error: {type(exc).__name__}: {exc}",
                    returncode=pytest.ExitCode.INTERNAL_ERROR)


def _print_traceback(session: pytest.Session, exc: BaseException) -> None:
    """``exc``'s traceback on stderr past pytest's capturing, which ``pytest.exit`` would
    otherwise drop with the item's output."""
    with _uncaptured(session.config):
        traceback.print_exception(exc, file=sys.stderr)


def _uncaptured(config: pytest.Config) -> AbstractContextManager[None]:
    """A context in which output goes past pytest's capturing (none to pass without it)."""
    capture = config.pluginmanager.get_plugin("capturemanager")
    return nullcontext() if capture is None else capture.global_and_fixture_disabled()


class BadRecordError(AfcheckError):
    pass


class BadRecordItem(pytest.Item):
    """A record of a suite that could not be read: fails with one line, the rest still run."""

    def __init__(self, *, record: BadRecord, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.record = record
        self.error = record.error

    def runtest(self) -> None:
        self.config.stash[run_key].report_bad(self.record)
        raise BadRecordError(str(self.error))

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, BadRecordError):
            location = self.error.location
            short = self.config.getoption("tbstyle", "auto") in ("line", "no")
            return _CaseRepr("" if short else printable(str(self.error)),
                             ReprFileLocation(location.path, location.line,
                                              printable(self.error.message, newlines=False)))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.error.location.path, max(self.error.location.line - 1, 0), self.name
