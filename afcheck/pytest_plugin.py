"""The bridge between pytest and afcheck: pytest hooks and collection nodes, nothing more.

Loaded in every pytest run (entry point ``pytest11``), so it imports nothing heavy and stays
inert in a session that names no afcheck option and collects no suite (a folder whose
``suite.toml`` has an ``[afcheck]`` table): it builds neither afcheck's plugins nor a run
there. Its options are all spelled ``--afcheck-*``, and are declared only where one is given
(or where the ``afcheck`` command hands its plugins over, :func:`hand_over`).

The run itself is an :class:`afcheck.run.Run` with its own plugin manager, made when the
command line names a suite or an afcheck option, or else when collection meets the first
suite folder. A suite becomes a :class:`SuiteDirectory` whose items are :class:`CaseItem`
(one per case the suite's method makes of a record). Collection only reads files. The first
item to run hands the run every selected item (after ``-k``, ``--lf``, deselection) for one
batched execution, and each item then reports its own status, which the run decides.

Only pytest's public API is used: hooks, ``pytest.Item``/``Directory``, ``pytest.TestReport``,
``pytest.CallInfo``, ``pytest.StashKey``, options read with ``config.getoption``.
"""

from __future__ import annotations

import bdb
import os
import sys
import time
import traceback
import weakref
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, cast

import pytest

from afcheck.errors import AfcheckError, MissingDependency, UsageError
from afcheck.method import BadRecord, Case, ItemResult, LazyText, Text
from afcheck.printable import printable
from afcheck.suites import is_suite_dir
from afcheck.types import Status

if TYPE_CHECKING:
    import pluggy

    from afcheck.options import OptionSpec
    from afcheck.plugins import Plugins
    from afcheck.registry import Kind
    from afcheck.run import Run
    from afcheck.runtime.progress import Progress

PREFIX = "--afcheck-"
"""The prefix of every option of afcheck's under plain pytest (``afcheck.options.PREFIX``,
kept here so that a session that gives none imports nothing of the options)."""

run_key = pytest.StashKey["Run"]()
_plugins_of: weakref.WeakKeyDictionary[object, Plugins] = weakref.WeakKeyDictionary()
"""Each pytest session's own afcheck plugins, made when its options are declared."""
_handed: list[Plugins] = []
"""The plugins the ``afcheck`` command already loaded (with its ``--plugin`` modules), for
the pytest session it starts: one plugin manager per call."""


def hand_over(plugins: Plugins) -> None:
    """Make ``plugins`` the next pytest session's afcheck plugins (the ``afcheck`` command)."""
    _handed[:] = [plugins]


def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser,
                                  args: list[str]) -> None:
    """Declare afcheck's options where the session is afcheck's: the ``afcheck`` command
    handed its plugins over, or the command line (with ``addopts``) gives an ``--afcheck-``
    option or names a suite. Then load the ``--afcheck-plugin`` modules, so that the options
    they add are known when pytest parses the command line. Any other session builds nothing."""
    handed = _handed.pop() if _handed else None
    if handed is None and not any(arg.startswith(PREFIX) for arg in args):
        try:
            if not _names_a_suite(args):
                return
        except OSError:
            return
    from afcheck.plugins import Plugins

    plugins = handed or Plugins()
    _plugins_of[early_config.pluginmanager] = plugins
    _declare(parser, plugins)
    for module in plugin_modules(args):
        try:
            plugins.register_module(module)
        except AfcheckError as exc:
            raise pytest.UsageError(str(exc)) from None


def _declare(parser: pytest.Parser, plugins: Plugins) -> None:
    """Declare every option of ``plugins``, and those of a kind or plugin registered later
    (a ``--afcheck-plugin`` module)."""

    group = parser.getgroup(
        "afcheck", "afcheck (the afcheck command also takes them without 'afcheck-')"
    )

    def add(spec: OptionSpec) -> None:
        group.addoption(spec.long, dest=spec.dest, **spec.kwargs)

    _each_option(plugins, add)


def _each_option(plugins: Plugins, add: Callable[[OptionSpec], None]) -> None:
    """Call ``add`` with each option of ``plugins``' kinds, the core's and its plugins', now
    and for each one a kind or plugin registered later brings along."""
    from afcheck import options as opts

    for spec in (*opts.component_options(plugins.kinds), *opts.CORE_OPTIONS):
        add(spec)

    def add_kind(kind: Kind[object]) -> None:
        for spec in (opts.kind_options(kind, plugins.kinds.model(kind.name))
                     if kind.selectable else ()):
            add(spec)

    plugins.kinds.on_add(add_kind)
    # Historic: a plugin registered later (--afcheck-plugin) adds its options too.
    plugins.pm.hook.afcheck_addoption.call_historic(kwargs={"group": opts.OptionGroup(add=add)})


def _defaults(plugins: Plugins) -> dict[str, object]:
    """Each option's value where it was not declared: the default argparse gives it."""
    found: dict[str, object] = {}

    def add(spec: OptionSpec) -> None:
        action = spec.kwargs.get("action")
        fallback = False if action == "store_true" else True if action == "store_false" else None
        found.setdefault(spec.dest, spec.kwargs.get("default", fallback))

    _each_option(plugins, add)
    return found


def plugin_modules(args: list[str]) -> list[str]:
    """The modules named by ``--afcheck-plugin X`` / ``--afcheck-plugin=X`` in ``args``."""
    flag = PREFIX + "plugin"
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


def _no_processes(config: pytest.Config) -> None:
    """Refuse ``-n`` for a run of suites: the option's value, read through pytest's option
    API (it is there only where a plugin declares it), or, in a worker process that collected
    a suite no command-line path named, the environment variable pytest-xdist documents for
    its workers."""
    if config.getoption("numprocesses", None) or os.environ.get("PYTEST_XDIST_WORKER"):
        raise pytest.UsageError(_NO_XDIST)


def pytest_configure(config: pytest.Config) -> None:
    try:
        names = config.pluginmanager in _plugins_of or _names_a_suite(config.args)
    except OSError:  # a path pytest reports itself
        names = False
    if names:
        _start(config)


def _start(config: pytest.Config, session: pytest.Session | None = None) -> Run:
    """Make this session's run (once): its plugins, options, terminal and configuration.
    ``session``: the session under way when a suite is met in collection."""
    run = config.stash.get(run_key, None)
    if run is not None:
        return run
    _no_processes(config)
    from afcheck.plugins import Plugins
    from afcheck.run import Run

    plugins = _plugins_of.get(config.pluginmanager)
    # Options declared at start-up (:func:`pytest_load_initial_conftests`) have their values
    # in pytest's; only a run started by a suite met in collection reads argparse's defaults.
    defaults: dict[str, object] = {}
    if plugins is None:
        plugins = _plugins_of[config.pluginmanager] = Plugins()
        defaults = _defaults(plugins)
    run = Run(plugins,
              lambda name: config.getoption("afcheck_" + name,
                                            default=defaults.get("afcheck_" + name)),
              progress=lambda: _progress(config), rootdir=str(config.rootpath))
    config.stash[run_key] = run
    from afcheck.metadata import RunStart

    run.start = RunStart.now(config.args)
    from afcheck import terminal

    watch = terminal.Terminal(config)
    config.pluginmanager.register(watch, "afcheck-terminal")
    try:
        run.configure()
    except AfcheckError as exc:
        if session is None:
            raise pytest.UsageError(str(exc)) from None
        run.usage_errors.append(str(exc))
    if session is not None:
        watch.pytest_sessionstart(session)  # what it does at a session's start, late
    return run


def _names_a_suite(args: Sequence[str]) -> bool:
    """Whether a command-line path is a suite folder or holds one directly."""
    for arg in args:
        if arg.startswith("-"):
            continue
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
        _start(parent.config, parent.session)
        return SuiteDirectory.from_parent(parent, path=path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A case item whose result the run already holds reports it here, and pytest's own
    protocol is not run for it.

    The run executes inside the first case item, which goes through pytest's protocol as any
    item does: warnings capture, faulthandler's timeout and the assertion plugin see all the
    work. Every later case item only reports a status decided already: it has no fixtures,
    no setup and no output, and pytest's setup, call and teardown hook chains (capture,
    logging, fixtures, thread and unraisable-exception checks) were most of the runner's own
    time at 25,000 items. Each keeps the reports the chain would have logged that anything
    reads (:attr:`_Plan.phases`), so ``-x``, ``--lf``, ``--junitxml`` and the terminal behave
    as usual; wrappers of this hook (pytest-timeout's, a conftest's) still see every item.

    pytest's protocol runs an item with a ``skip``, ``skipif`` or ``xfail`` mark
    (:func:`_collected`), an expected failure of the baseline, every item where a plugin
    other than pytest's own and afcheck's acts in a test's setup, call or teardown, where
    the session has ordinary tests, and under ``--full-protocol`` or the setup-only options.
    """
    if not isinstance(item, CaseItem):
        return None
    plan = item.session.stash.get(plan_key, None)
    return None if plan is None else _reported(item, plan) or None


def _reported(item: CaseItem, plan: _Plan) -> bool:
    """Report ``item`` if the run holds its result and nothing asks for pytest's protocol
    (:func:`pytest_runtest_protocol`); whether it did."""
    run = item.config.stash.get(run_key, None)
    if run is None or not run.executed or item in plan.marked:
        return False
    hooks = plan.hooks
    if hooks.generation != _registered[0]:
        hooks.read(item.config.hook)
    if not hooks.phases_own:
        return False
    report = None
    if hooks.report_own:
        report = _decided_report(item, run)
        if report is None:
            return False
    ihook = hooks.relays.get(id(item.parent))
    if ihook is None:
        ihook = hooks.relays[id(item.parent)] = item.ihook
    phases = plan.phases or not hooks.listeners_own
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    if phases:
        ihook.pytest_runtest_logreport(report=_passed(item, "setup"))
    if report is not None:
        ihook.pytest_runtest_logreport(report=report)
    else:
        _call_and_report(item, ihook)
    if phases:
        ihook.pytest_runtest_logreport(report=_passed(item, "teardown"))
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """pytest's own loop, except that a case item whose result the run holds is reported
    without calling ``pytest_runtest_protocol`` at all, where only pytest's own plugins and
    this bridge take part in that hook, in the reports and in their listeners: the
    protocol's own wrappers watch a test's code while it runs (warnings, faulthandler's
    timeout, the assertion rewriter's hooks), a decided item runs none, and at 25,000 items
    their calls were most of what the bridge costs per item. Any other session, and a loop
    that another plugin runs, is pytest's."""
    plan = session.stash.get(plan_key, None)
    config = session.config
    if (plan is None or config.getoption("collectonly", False)
            or (session.testsfailed
                and not config.getoption("continue_on_collection_errors", False))):
        return None
    hooks = plan.hooks
    items = session.items
    for index, item in enumerate(items):
        if hooks.generation != _registered[0]:
            hooks.read(config.hook)
        if not (hooks.loop_own and isinstance(item, CaseItem) and _reported(item, plan)):
            nextitem = items[index + 1] if index + 1 < len(items) else None
            config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)
    return True


@dataclass(frozen=True)
class _Plan:
    """What a session of case items alone may leave out of pytest's protocol, decided once
    collection is over."""

    marked: frozenset[pytest.Item]
    """The case items with a mark of :data:`_SETUP_MARKS`: pytest's protocol evaluates it."""
    phases: bool
    """Whether the passed setup and teardown reports are read whoever listens: under
    ``--durations`` (every report's duration), ``--junitxml`` (a test case's time and
    output) or the terminal's ``times`` style (it counts setup reports to find a file's end)."""
    hooks: _Hooks = field(default_factory=lambda: _Hooks(), compare=False)
    """Who implements the hooks a case item's report may leave out."""


class _Hooks:
    """Whether only pytest's own plugins and this bridge implement the hooks of a test's
    phases, of its report and of its reports' listeners, read again after a plugin is
    registered (:func:`pytest_plugin_registered`); and the hook relay of each suite's items
    (``Item.ihook``), looked up once per suite."""

    def __init__(self) -> None:
        self.generation = -1
        self.phases_own = self.report_own = self.listeners_own = self.loop_own = False
        self.relays: dict[int, pluggy.HookRelay] = {}

    def read(self, hook: pluggy.HookRelay) -> None:
        self.generation = _registered[0]
        self.phases_own = (_pytests_own(hook.pytest_runtest_setup)
                           and _pytests_own(hook.pytest_runtest_call)
                           and _pytests_own(hook.pytest_runtest_teardown))
        self.report_own = _pytests_own(hook.pytest_runtest_makereport)
        self.listeners_own = _pytests_own(hook.pytest_runtest_logreport)
        self.loop_own = (self.report_own and self.listeners_own
                         and _pytests_own(hook.pytest_runtest_protocol)
                         and _pytests_own(hook.pytest_runtestloop, wrappers=False))


_registered = [0]
"""How many plugins were registered in this process: a change means the hooks are read
again."""


def pytest_plugin_registered() -> None:
    _registered[0] += 1


plan_key = pytest.StashKey[_Plan]()


def _plan(session: pytest.Session, collected: _Collected) -> _Plan | None:
    """The plan of a session of case items alone, without ``--full-protocol``,
    ``--setup-only``, ``--setup-plan`` or ``--setup-show``; None for any other (an ordinary
    test's fixtures are set up and torn down by pytest's protocol around the items after it)."""
    config = session.config
    if (not collected.only_ours or config.getoption("afcheck_full_protocol", False)
            or any(config.getoption(name, False)
                   for name in ("setuponly", "setupplan", "setupshow"))):
        return None
    phases = (config.getoption("durations", None) is not None
              or bool(config.getoption("xmlpath", None))
              or config.getini("console_output_style") == "times")
    return _Plan(collected.marked, phases)


def _pytests_own(hook: pluggy.HookCaller, wrappers: bool = True) -> bool:
    """Whether every implementation of ``hook`` is pytest's own or this bridge's: a plugin
    of any other distribution, a conftest or a test's may act on a case item there, so it
    gets pytest's protocol. (What pytest's own implementations do for a case item, nothing,
    ``tests/test_pytest_plugin_reports.py`` holds against the installed pytest, and CI
    against the newest release.)"""
    return all(_is_own(impl.function) for impl in hook.get_hookimpls()
               if wrappers or not (impl.wrapper or impl.hookwrapper))


@cache
def _is_own(function: Callable[..., object]) -> bool:
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    module = getattr(function, "__module__", None)
    return module in (__name__, "afcheck.terminal") or os.path.realpath(
        code.co_filename) in _pytest_files()


@cache
def _pytest_files() -> frozenset[str]:
    """The Python files of the installed pytest distribution."""
    from importlib import metadata

    dist = metadata.distribution("pytest")
    return frozenset(os.path.realpath(str(dist.locate_file(path)))
                     for path in dist.files or () if path.suffix == ".py")


_SETUP_MARKS = frozenset({"skip", "skipif", "xfail"})
"""The marks pytest evaluates in an item's setup and call: an item that has one (its own or
its suite's) goes through pytest's protocol, which evaluates it."""


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


def _call_and_report(item: CaseItem, ihook: pluggy.HookRelay) -> None:
    """Run a case item's call through pytest's ``CallInfo`` and its report hook, and log it."""
    call = pytest.CallInfo.from_call(item.runtest, "call",
                                     reraise=(pytest.exit.Exception, KeyboardInterrupt))
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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
        item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A skipped case item's report points at its record's data line, not at the line of
    this module that raised the skip."""
    report: pytest.TestReport = yield
    if (isinstance(item, CaseItem) and call.when == "call" and report.skipped
            and isinstance(report.longrepr, tuple) and call.excinfo is not None
            and type(call.excinfo.value) is pytest.skip.Exception):
        path, line, _ = item.reportinfo()
        if line is not None:
            report.longrepr = (os.fspath(path), line + 1, report.longrepr[2])
    return report


def _decided_report(item: CaseItem, run: Run) -> pytest.TestReport | None:
    """The call report of a case item whose result ``run`` holds, made without calling
    :meth:`CaseItem.runtest`: the fields ``TestReport.from_item_and_call`` fills from the
    exception ``runtest`` would raise, without raising one. None where pytest makes it: a run
    not executed yet, an XFAILED item (pytest's skipping plugin turns its exception into the
    report), a skipped item without a line."""
    if not run.executed:
        return None
    start, precise = time.time(), time.perf_counter()
    try:
        result = run.item(item.case.case_id)
    except KeyError:  # not in the run: the hook reports the error ``runtest`` raises
        return None
    status = result.status
    longrepr: tuple[str, int, str] | str | None = None
    outcome: Literal["passed", "failed", "skipped"]
    if status is Status.PASSED:
        outcome = "passed"
    elif status is Status.FAILED:
        outcome, longrepr = "failed", item.failure_repr(result)
    elif status is Status.SKIPPED:
        path, line, _ = item.reportinfo()
        if line is None:
            return None
        # pytest's text of a skip (``ExceptionInfo.exconly``), at the record's data line.
        skip = pytest.skip.Exception(_message(result))
        text = "".join(traceback.format_exception_only(type(skip), skip)).rstrip()
        outcome, longrepr = "skipped", (os.fspath(path), line + 1, text)
    else:
        return None
    duration = time.perf_counter() - precise
    return pytest.TestReport(item.nodeid, item.location, dict.fromkeys(item.keywords, 1),
                             outcome, longrepr, "call", [], duration, start, time.time(),
                             user_properties=item.user_properties)


def _passed(item: pytest.Item, when: Literal["setup", "teardown"]) -> pytest.TestReport:
    return pytest.TestReport(item.nodeid, item.location, {}, "passed", None, when)


def pytest_collection_finish(session: pytest.Session) -> None:
    run = session.config.stash.get(run_key, None)
    if run is None:  # no suite collected, no afcheck option: not afcheck's session
        return
    if run.usage_errors:
        raise pytest.UsageError(run.usage_errors[0])
    collected = _collected(session.items)
    cases, unreadable = collected.cases, collected.unreadable
    if not cases and not unreadable:
        return
    config = session.config
    _no_processes(config)
    plan = _plan(session, collected)
    if plan is not None:
        session.stash[plan_key] = plan
    run.unreadable = len(unreadable)
    try:
        run.validate(cases, build=not config.getoption("collectonly", False),
                     unreadable=unreadable)
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
    run = terminalreporter.config.stash.get(run_key, None)
    if run is None or run.summary is None:
        return
    from afcheck.terminal import summary_lines

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

    @cached_property
    def relpaths(self) -> dict[Path | str, str]:
        """Each data file's path relative to the rootdir, as its items' locations show it."""
        return {}

    def collect(self) -> Iterator[pytest.Item]:
        run = self.config.stash[run_key]
        try:
            entries = list(run.collect(self.path, self.nodeid))
        except (UsageError, MissingDependency) as exc:
            # A plugin that is not there or cannot load is the command line's problem, not
            # this suite's: the run stops with one line and exit status 4.
            run.usage_errors.append(str(exc))
            return
        for entry in entries:
            if isinstance(entry, BadRecord):
                yield BadRecordItem.from_parent(self, name=entry.case.name, record=entry)
            else:
                yield CaseItem.from_parent(self, name=entry.name, case=entry)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: str | None = None
    ) -> str:
        if isinstance(excinfo.value, AfcheckError):
            return printable(str(excinfo.value))
        return cast(str, super().repr_failure(excinfo))


class CaseFailed(Exception):
    """Raised by a case item whose method judged it failed."""

    def __init__(self, item: ItemResult[object]) -> None:
        super().__init__(item.case.case_id)
        self.item = item


@dataclass(frozen=True)
class CrashLine:
    """Where an item failed and its one-line message: a long report's ``reprcrash``, which
    pytest prints under ``--tb=line`` and JUnit XML takes as the failure's message."""

    path: str
    lineno: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.message}"


class _LineWriter(Protocol):
    def line(self, s: str = "", **markup: bool) -> None: ...


class _CaseRepr:
    """Full details in the long report, one line (``reprcrash``) under ``--tb=line``.

    A long report is any object with ``toterminal`` to pytest (``TestReport.toterminal``);
    its base class is not public, so this one stands alone."""

    text = LazyText()
    """The details, made when first shown: a run's failures beyond the few the terminal
    shows never are."""

    def __init__(self, text: Text, crash: CrashLine) -> None:
        self.text = text
        self.reprcrash = crash

    def toterminal(self, tw: _LineWriter) -> None:
        for line in self.text.splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return self.text.strip()


def _long_report(report: _CaseRepr) -> str:
    """``report`` where pytest's types ask for a long report: a string or pytest's own
    (not public) class of them; pytest reads it by ``toterminal`` and ``str``."""
    return cast(str, report)


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
            # Reported at the record's data line (pytest_runtest_makereport).
            pytest.skip(message)
        if item.status is Status.XFAILED:
            pytest.xfail(f"failed in the baseline: {message}")
        raise CaseFailed(item)

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: str | None = None
    ) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return self.failure_repr(excinfo.value.item)
        if isinstance(excinfo.value, AfcheckError):
            return printable(f"afcheck: {excinfo.value}")
        return cast(str, super().repr_failure(excinfo))

    def failure_repr(self, item: ItemResult[object]) -> str:
        """The long report of this item failed with ``item``: its details, and its message
        as the crash line."""
        path, line, _ = self.reportinfo()
        crash = CrashLine(
            str(path), int(line or 0) + 1,
            printable(f"{self.case.name}: {item.outcome.message}", newlines=False))
        # Under --tb=line pytest prints the long form and the crash line: keep it one line.
        short = self.config.getoption("tbstyle", "auto") in ("line", "no")
        return _long_report(
            _CaseRepr("" if short else lambda: printable(item.outcome.details), crash))

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
        known = self.parent.relpaths if isinstance(self.parent, SuiteDirectory) else None
        if known is None:
            return super().location
        relative = known.get(path)
        if relative is None:
            relative = known[path] = super().location[0]
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
        self, excinfo: pytest.ExceptionInfo[BaseException], style: str | None = None
    ) -> str:
        if isinstance(excinfo.value, BadRecordError):
            location = self.error.location
            short = self.config.getoption("tbstyle", "auto") in ("line", "no")
            return _long_report(_CaseRepr(
                "" if short else printable(str(self.error)),
                CrashLine(str(location.path), location.line,
                          printable(self.error.message, newlines=False))))
        return cast(str, super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.error.location.path, max(self.error.location.line - 1, 0), self.name
