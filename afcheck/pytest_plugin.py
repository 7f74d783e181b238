"""The bridge between pytest and afcheck.

Loaded in every pytest run (entry point ``pytest11``), so it imports nothing heavy and does
nothing unless a suite folder (a ``suite.toml`` with an ``[afcheck]`` table) is collected:
its options are all spelled ``--afcheck-*``.

A suite becomes a :class:`SuiteDirectory` whose items are :class:`StepItem` (one per step ×
perturber). Collection only reads files. The first item to run starts the batched pipeline
over every selected item (after ``-k``, ``--lf``, deselection), and each item then reports
its own result: faithful → passed; a failure event → failed; otherwise skipped with the reason.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import traceback
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from _pytest._code.code import ExceptionInfo, ReprFileLocation, TerminalRepr
from _pytest._io import TerminalWriter
from pytest import CallInfo

from afcheck import options as opts
from afcheck.errors import AfcheckError, LoadError
from afcheck.pipeline import CaseSpec, Choice
from afcheck.suites import SuiteSpec, is_suite_dir, load_spec
from afcheck.types import CaseResult, Status

state_key = pytest.StashKey["RunState"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(
        "afcheck", "afcheck (the afcheck command also takes them without 'afcheck-')"
    )
    for spec in opts.CORE_OPTIONS:
        group.addoption(spec.long, dest=spec.dest, **spec.kwargs)

    def add(spec: opts.OptionSpec) -> None:
        group.addoption(spec.long, dest=spec.dest, **spec.kwargs)

    from afcheck.plugins import get_plugins

    get_plugins().pm.hook.afcheck_addoption.call_historic(
        kwargs={"group": opts.OptionGroup(add=add)}
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[state_key] = RunState(config)


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_suite_dir(path):
        return SuiteDirectory.from_parent(parent, path=path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A shorter protocol for step items, which have no fixtures, no setup and no output.

    pytest's own runs setup, call and teardown each through its hook chain (capture, logging,
    fixtures, thread and unraisable-exception checks): at 25,000 items that chain was most of
    the runner's own time. Step items keep every report the chain would have produced —
    setup and teardown pass, the call report goes through ``pytest_runtest_makereport`` —
    so ``-x``, ``--lf``, ``--junitxml``, xfail and the terminal behave as usual.
    """
    if not isinstance(item, StepItem) or item.config.getoption("afcheck_full_protocol", False):
        return None
    ihook = item.ihook
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    ihook.pytest_runtest_logreport(report=_passed(item, "setup"))
    call = CallInfo.from_call(item.runtest, "call", reraise=(pytest.exit.Exception,
                                                              KeyboardInterrupt))
    report = ihook.pytest_runtest_makereport(item=item, call=call)
    ihook.pytest_runtest_logreport(report=report)
    if call.excinfo is not None and report.failed and not call.excinfo.errisinstance(CaseFailed):
        ihook.pytest_exception_interact(node=item, call=call, report=report)
    ihook.pytest_runtest_logreport(report=_passed(item, "teardown"))
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def _passed(item: pytest.Item, when: Literal["setup", "teardown"]) -> pytest.TestReport:
    return pytest.TestReport(item.nodeid, item.location, {}, "passed", None, when)


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash[state_key]
    if any(isinstance(item, StepItem) for item in session.items):
        state.validate(session)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(state_key, None)
    if state is None or state.results is None:
        return
    new_status = state.finish(int(exitstatus))
    if new_status is not None:
        session.exitstatus = new_status


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(state_key, None)
    if state is not None and state.spool is not None:
        state.spool.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    state = terminalreporter.config.stash.get(state_key, None)
    if state is None or state.summary is None:
        return
    from afcheck.terminal import summary_lines

    terminalreporter.section("afcheck")
    for line in summary_lines(state.summary):
        terminalreporter.write_line(line)
    if state.cache_stats is not None:
        hits, misses = state.cache_stats
        terminalreporter.write_line(f"result cache: {hits} results reused, {misses} computed")
    for line in state.messages:
        terminalreporter.write_line(line)


# -- collection ----------------------------------------------------------------------------


class SuiteDirectory(pytest.Directory):
    """A suite folder: its items are the suite's steps × the chosen perturbers."""

    def collect(self) -> Iterator[pytest.Item]:
        state = self.config.stash[state_key]
        spec = load_spec(self.path).with_settings(state.overrides())
        loader = state.plugins.create("suite_kind", spec.kind)
        perturbers = [p.strip() for p in str(spec.setting("perturber")).split(",") if p.strip()]
        limit = spec.setting("limit")
        count = 0
        for loaded in loader.load(spec):
            if isinstance(loaded, LoadError):
                name = loaded.name or f"line-{loaded.location.line}"
                yield BadRecordItem.from_parent(self, name=name, error=loaded)
                continue
            if limit is not None and count >= int(limit):
                break
            count += 1
            for perturber in perturbers:
                name = loaded.case_name + (f"[{perturber}]" if len(perturbers) > 1 else "")
                case = state.case(f"{self.nodeid}::{name}", loaded, spec, perturber)
                yield StepItem.from_parent(self, name=name, case=case)

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, AfcheckError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseFailed(Exception):
    """Raised by a step item whose case has a failure event."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.case_id)
        self.result = result


class _CaseRepr(TerminalRepr):
    """Full details in the long report, one line (``reprcrash``) under ``--tb=line``."""

    def __init__(self, text: str, crash: ReprFileLocation) -> None:
        self.text = text
        self.reprcrash = crash

    def toterminal(self, tw: TerminalWriter) -> None:
        for line in self.text.splitlines():
            tw.line(line)


class StepItem(pytest.Item):
    """One step × one perturbation. Holds only its :class:`CaseSpec`."""

    def __init__(self, *, case: CaseSpec, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        state = self.config.stash[state_key]
        result = state.result_for(self)
        status = result.status
        from afcheck.render import one_line

        if status is Status.PASSED:
            return
        if status is Status.SKIPPED:
            # Reported at the step's data line, not at this module.
            raise pytest.skip.Exception(one_line(result), _use_item_location=True)
        if self.case.case_id in state.expected_failures:
            pytest.xfail(f"failed in the baseline: {one_line(result)}")
        raise CaseFailed(result)

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, CaseFailed):
            from afcheck.render import details, one_line

            result = excinfo.value.result
            path, line, _ = self.reportinfo()
            crash = ReprFileLocation(str(path), int(line or 0) + 1,
                                     f"{result.step.case_name}: {one_line(result)}")
            # Under --tb=line pytest prints the long form and the crash line: keep it one line.
            short = self.config.getoption("tbstyle", "auto") in ("line", "no")
            return _CaseRepr("" if short else details(result), crash)
        if isinstance(excinfo.value, AfcheckError):
            return f"afcheck: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        source = self.case.step.source
        if source is not None:
            return source.path, max(source.line - 1, 0), self.case.step.case_name
        return self.path, None, self.case.step.case_name


class BadRecordError(AfcheckError):
    pass


class BadRecordItem(pytest.Item):
    """A record of a suite that could not be read: fails with one line, the rest still run."""

    def __init__(self, *, error: LoadError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise BadRecordError(str(self.error))

    def repr_failure(
        self, excinfo: ExceptionInfo[BaseException], style: Any = None
    ) -> str | TerminalRepr:
        if isinstance(excinfo.value, BadRecordError):
            location = self.error.location
            short = self.config.getoption("tbstyle", "auto") in ("line", "no")
            return _CaseRepr("" if short else str(self.error),
                             ReprFileLocation(location.path, location.line, self.error.message))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.error.location.path, max(self.error.location.line - 1, 0), self.name


# -- the run ---------------------------------------------------------------------------------


class RunState:
    """Per-session state: options, the batch results, the summary."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.results: dict[str, CaseResult] | None = None
        self.summary: Any = None
        self.messages: list[str] = []
        self.expected_failures: frozenset[str] = frozenset()
        self.times: Any = None
        self.suites: dict[str, dict[str, Any]] = {}
        self.cache_stats: tuple[int, int] | None = None
        self.components: Any = None
        self.spool: Any = None
        self._choices: dict[tuple[str, str], Choice] = {}
        self._plugins: Any = None

    @property
    def plugins(self) -> Any:
        if self._plugins is None:
            from afcheck.plugins import get_plugins

            self._plugins = get_plugins()
            for module in opts.get(self.config, "plugin", []):
                self._plugins.register_module(module)
        return self._plugins

    def option(self, name: str, default: Any = None) -> Any:
        return opts.get(self.config, name, default)

    def overrides(self) -> dict[str, Any]:
        return {key: self.option(key)
                for key in ("perturber", "formaliser", "prover", "checker", "seed", "steps",
                            "limit")}

    def case(self, case_id: str, step: Any, spec: SuiteSpec, perturber: str) -> CaseSpec:
        self.suites.setdefault(spec.name, {
            key: spec.setting(key)
            for key in ("perturber", "formaliser", "checker", "prover", "seed", "steps")
        })
        return CaseSpec(
            case_id=case_id,
            step=step,
            perturber=self._choice("perturber", perturber),
            formaliser=self._choice("formaliser", spec.setting("formaliser")),
            checker=self._choice("checker", spec.setting("checker")),
            prover=self._choice("prover", spec.setting("prover")),
            seed=int(spec.setting("seed") or 0),
            keep_ineffective=bool(self.option("keep_ineffective", False)),
        )

    def _choice(self, kind: str, name: str) -> Choice:
        key = (kind, str(name))
        if key not in self._choices:
            options = opts.parse_kv(self.option(f"{kind}_opt", []), kind)
            self._choices[key] = Choice.of(str(name), options)
        return self._choices[key]

    def validate(self, session: pytest.Session) -> None:
        """Check every chosen component before any work, and read the baseline.

        Names are always checked; the components themselves are built too unless only
        collecting, so that a missing dependency or a bad option stops the run in one line
        before any test reports.
        """
        from afcheck import pipeline
        from afcheck.gates import load_baseline

        build = not self.config.getoption("collectonly", False)
        self.components = pipeline.Components(self.plugins)
        try:
            for item in session.items:
                if isinstance(item, StepItem):
                    case = item.case
                    for kind in ("perturber", "formaliser", "checker", "prover"):
                        choice = getattr(case, kind)
                        self.plugins.registry(kind).get(choice.name)
                        if build:
                            self.components.get(kind, choice)
            baseline = self.option("baseline")
            if baseline and not self.option("update_baseline"):
                self.expected_failures = load_baseline(Path(baseline))
        except AfcheckError as exc:
            raise pytest.UsageError(str(exc)) from None

    def result_for(self, item: StepItem) -> CaseResult:
        if self.results is None:
            self._run(item.session)
        assert self.results is not None
        return self.results[item.case.case_id]

    def _run(self, session: pytest.Session) -> None:
        from afcheck import pipeline

        cases = [i.case for i in session.items if isinstance(i, StepItem)]
        self.plugins.pm.hook.afcheck_configure.call_historic(kwargs={"config": self.config})
        components = self.components or pipeline.Components(self.plugins)
        runtime = self._runtime()
        self.times = runtime.times
        try:
            self.results = pipeline.run(cases, components, self._notify, runtime)
        except pipeline.ComponentError as exc:
            # A plugin bug: its traceback, once, for the report; then stop every item.
            traceback.print_exception(exc.__cause__ or exc, file=sys.stderr)
            pytest.exit(f"afcheck: {exc}", returncode=pytest.ExitCode.INTERNAL_ERROR)
        except AfcheckError as exc:
            pytest.exit(f"afcheck: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
        finally:
            components.close()
            if runtime.cache is not None:
                self.cache_stats = (runtime.cache.hits, runtime.cache.misses)
                runtime.cache.close()
        self.versions = components.versions()

    def _runtime(self) -> Any:
        import os

        from afcheck import pipeline
        from afcheck.cache import open_cache
        cache = None
        if not self.option("no_cache"):
            directory = self.option("cache_dir") or os.environ.get("AFCHECK_CACHE_DIR")
            cache = open_cache(Path(directory) if directory else None)
        from afcheck.spool import Spool

        chunk_size = max(1, int(self.option("chunk_size", 256)))
        self.spool = Spool()
        return pipeline.Runtime(cache=cache, chunk_size=chunk_size, progress=self._progress(),
                                spool=self.spool)

    def _progress(self) -> Any:
        """A progress line on the terminal, past pytest's capturing; off when quiet or when
        the output is not a terminal."""
        from afcheck.progress import Progress

        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        capture = self.config.pluginmanager.get_plugin("capturemanager")
        quiet = self.config.getoption("verbose", 0) < 0
        if reporter is None or quiet or not reporter.isatty():
            return Progress(enabled=False)

        def write(text: str) -> None:
            if capture is None:
                reporter.write(text, flush=True)
                return
            with capture.global_and_fixture_disabled():
                reporter.write(text, flush=True)

        return Progress(enabled=True, write=write)

    def _notify(self, result: CaseResult) -> None:
        try:
            self.plugins.pm.hook.afcheck_step_result(result=result)
        except Exception as exc:  # noqa: BLE001 - an observer must not sink the run
            warnings.warn(f"afcheck_step_result hook failed: {exc}", stacklevel=2)

    def finish(self, exitstatus: int) -> int | None:
        """Summarise, write reports and baseline; return the exit status gates decide."""
        from afcheck import gates
        from afcheck.metrics import summarise

        assert self.results is not None
        results = list(self.results.values())
        thresholds = {name: self.option(name) for name in gates.GATES}
        summary = summarise(results, self._config_record(), (),
                            dict(self.times.seconds) if self.times else {},
                            self.expected_failures,
                            self.spool.get if self.spool is not None else None)
        gate_failures = gates.evaluate(summary.overall, thresholds)
        self.summary = dataclasses.replace(summary, gate_failures=gate_failures)
        self._write_reports()
        self._update_baseline(results)
        try:
            self.plugins.pm.hook.afcheck_run_summary(summary=self.summary)
        except Exception as exc:  # noqa: BLE001
            warnings.warn(f"afcheck_run_summary hook failed: {exc}", stacklevel=2)
        if gates.any_gate(thresholds) and exitstatus in (0, 1):
            return 1 if gate_failures else 0
        return None

    def _config_record(self) -> dict[str, Any]:
        return {
            "suites": self.suites,
            "options": {kind: _redact(opts.parse_kv(self.option(f"{kind}_opt", []), kind))
                        for kind in ("formaliser", "prover", "checker", "perturber")},
            "keep_ineffective": bool(self.option("keep_ineffective", False)),
            "components": getattr(self, "versions", {}),
            "plugins": dict(self.plugins.origins),
        }

    def _write_reports(self) -> None:
        for reporter, option in (("json", "json"), ("junit", "junitxml")):
            destination = self.option(option)
            if destination:
                self.plugins.create("reporter", reporter).report(self.summary, destination)
                self.messages.append(f"wrote {reporter} results to {destination}")

    def _update_baseline(self, results: list[CaseResult]) -> None:
        from afcheck.gates import write_baseline

        baseline = self.option("baseline")
        if self.option("update_baseline"):
            if not baseline:
                self.messages.append("--update-baseline needs --baseline FILE; nothing written")
                return
            count = write_baseline(Path(baseline), results)
            self.messages.append(f"wrote baseline {baseline} ({count} failing cases)")


_SECRET = re.compile(r"(?:^|_)(?:api_?key|key|secret|password|token)$", re.IGNORECASE)


def _redact(options: dict[str, str]) -> dict[str, str]:
    """Hide option values that are secrets (``api_key=…``); ``api_key_env`` names a variable
    and ``max_tokens`` is a number, so both stay."""
    return {k: ("***" if _SECRET.search(k) else v) for k, v in options.items()}
