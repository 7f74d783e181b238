"""One run of afcheck: the stateful object the pytest bridge holds from configuration to the
exit status.

A run is three steps, each in the module named after it: :func:`afcheck.plan.plan` (the
collected cases frozen with their chosen, checked components),
:func:`afcheck.execution.execute` (one batched execution per method) and
:func:`afcheck.finish.finish` (the summary, its gates and files). Collection is
:class:`afcheck.collect.Collector`'s (it makes the methods) and the choice of components
:class:`afcheck.chooser.Chooser`'s. A :class:`Run` holds what the bridge hands it between
pytest's hooks (the cases, the items reported) and what plugins add at configure time
(reporters, gates), and delegates the rest. Nothing here names a built-in plugin: methods,
suite kinds, components and reporters all come from the run's own
:class:`~afcheck.plugins.Plugins`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from afcheck import gates as gating
from afcheck.chooser import Chooser, OptionReader
from afcheck.collect import Collector
from afcheck.components import Reporter
from afcheck.execution import Notify, Results, close_runtime, execute, open_runtime
from afcheck.finish import config_record, exit_status, finish, update_baseline, write_reports
from afcheck.metadata import RunStart
from afcheck.method import AnyMethod, BadRecord, Case, ItemResult
from afcheck.plan import Plan, executor_choice, plan
from afcheck.plugins import Plugins
from afcheck.redact import redact_options
from afcheck.runtime import Components, StageTimes
from afcheck.runtime.cache import Cache
from afcheck.runtime.progress import Progress
from afcheck.runtime.spool import Spool
from afcheck.summary import RunSummary

__all__ = ["OptionReader", "Run"]


class Run:
    """A run's state, from configuration to the summary."""

    def __init__(self, plugins: Plugins, option: OptionReader,
                 progress: Callable[[], Progress] | None = None, rootdir: str = "") -> None:
        self.plugins = plugins
        self.rootdir = rootdir
        self._option = option
        self._progress = progress or (lambda: Progress(enabled=False))
        self.components = Components(plugins)
        self.messages: list[str] = []
        """Lines for the end of the terminal summary (files written, …)."""
        self.unreadable = 0
        """How many selected records could not be read (each fails as its own item)."""
        self.usage_errors: list[str] = []
        """Problems of the command line met while collecting (an unknown suite kind, a
        missing dependency): the run stops with the first before any work."""
        self.summary: RunSummary | None = None
        self.cache_stats: tuple[int, int] | None = None
        self.cache_kept: int | None = None
        """Results of this run the result cache committed (None: no cache was used)."""
        self.start: RunStart | None = None
        """The command line, start time and paths, set by whoever starts the run."""
        self._chooser = Chooser(plugins, option)
        self._collector = Collector(plugins, option, self._chooser)
        self._reporters: list[tuple[Reporter, str]] = []
        self._added_gates: list[gating.Gate] = []
        self._plan: Plan | None = None
        self._results: Results | None = None
        self._reported: dict[str, None] = {}
        """The items pytest reported, in the order it reported them."""
        self._bad: dict[str, ItemResult[object]] = {}
        self._times = StageTimes()
        self._spool: Spool | None = None
        self._cache: Cache | None = None

    # -- configuration ---------------------------------------------------------------------

    def configure(self) -> None:
        """Let plugins see the run (``afcheck_configure``): reporters register here."""
        self.plugins.pm.hook.afcheck_configure.call_historic(kwargs={"run": self})

    def option(self, name: str, default: object = None) -> object:
        """A command-line option by name (``json``, ``keep-ineffective``), or ``default``."""
        value = self._option(name.replace("-", "_"))
        return default if value is None else value

    def add_reporter(self, reporter: Reporter, destination: str) -> None:
        """Ask for ``reporter``'s output at ``destination`` at the end of the run."""
        self._reporters.append((reporter, destination))

    def add_gate(self, metric: str, op: str, threshold: object, origin: str,
                 method: str | None = None) -> None:
        """Hold the run to ``metric op threshold`` (``op`` is ``<=`` or ``>=``): how a plugin
        turns its own gate flags (``--max-uflb X``) into gates. A threshold that is not a
        number from 0 to 1 is a usage error."""
        self._added_gates.append(
            gating.Gate(metric, op, gating.threshold(threshold, origin), origin, method))

    def method(self, name: str) -> AnyMethod:
        """The run's method called ``name``, made once."""
        return self._collector.method(name)

    @property
    def expected_failures(self) -> frozenset[str]:
        """The case ids the baseline lists as failing (read by :meth:`validate`)."""
        return self._plan.expected_failures if self._plan is not None else frozenset()

    # -- the steps -------------------------------------------------------------------------

    def collect(self, root: Path, nodeid: str) -> Iterator[Case[object] | BadRecord]:
        """The cases of one suite folder, and a :class:`BadRecord` per unreadable record
        (:meth:`afcheck.collect.Collector.collect`)."""
        return self._collector.collect(root, nodeid)

    def validate(self, cases: Sequence[Case[object]], *, build: bool = True,
                 unreadable: Sequence[BadRecord] = ()) -> None:
        """Plan the run (:func:`afcheck.plan.plan`): every chosen component and gate checked
        before any work, the baseline read. The components are built, and the result cache
        opened, unless only collecting (``build=False``)."""
        self._plan = plan(
            cases, plugins=self.plugins, option=self._option, chooser=self._chooser,
            methods=self._collector.methods, method=self._collector.method,
            specs=self._collector.specs,
            suites=self._collector.settings, components=self.components if build else None,
            reporters=self._reporters, added_gates=self._added_gates, unreadable=unreadable)
        if build:
            self._open_cache()  # a damaged cache stops the run here, before any item reports

    def execute(self, cases: Sequence[Case[object]]) -> None:
        """Decide every case: one batched :meth:`Method.run` per method
        (:func:`afcheck.execution.execute`)."""
        planned = self._plan if self._plan is not None else self._unchecked(cases)
        self._open_cache()
        cache, self._cache = self._cache, None
        runtime = open_runtime(planned, self.plugins, self.components, cache=cache,
                               chunk_size=max(1, int(str(self.option("chunk_size", 256)))),
                               progress=self._progress(), times=self._times)
        self._spool = runtime.spool
        try:
            results = execute(planned, runtime, cases, self._observer())
        finally:
            end = close_runtime(runtime, self.components)
            self.messages.extend(end.messages)
            if end.cache_stats is not None:
                self.cache_stats, self.cache_kept = end.cache_stats, end.cache_kept
        if end.error is not None:
            raise end.error
        self._results = results
        if results.stopped is not None:
            raise results.stopped

    @property
    def executed(self) -> bool:
        return self._results is not None

    def item(self, case_id: str) -> ItemResult[object]:
        """The final result of one item; the item counts as reported from now on."""
        assert self._results is not None, "execute() first"
        self._reported[case_id] = None
        return self._results.items[case_id]

    def report_bad(self, record: BadRecord) -> None:
        """Count an unreadable record's failed item as reported, so that the summary and every
        result file hold it, as the terminal does."""
        self._bad[record.case.case_id] = record.result()
        self._reported[record.case.case_id] = None

    @property
    def reported(self) -> bool:
        """Whether any item was reported: the run has a summary to give."""
        return bool(self._reported)

    def finish(self, exitstatus: int) -> int | None:
        """Summarise (:func:`afcheck.finish.finish`), write reports and baseline; return the
        exit status gates decide (``None``: pytest's stands)."""
        planned = self._plan if self._plan is not None else self._unchecked(())
        self.summary = finish(
            planned, self._results or Results(), list(self._reported), bad=self._bad,
            unreadable=self.unreadable, config=self._config(planned),
            timings=self._times.seconds, rootdir=self.rootdir,
            metadata=self.start.record() if self.start is not None else {})
        reports = write_reports(self.summary, self._reporters)
        baseline = update_baseline(self.option("baseline"),
                                   bool(self.option("update_baseline")), self.summary.items)
        self.messages += [*reports.messages, *baseline.messages]
        try:
            self.plugins.pm.hook.afcheck_run_summary(summary=self.summary)
        except Exception as exc:  # noqa: BLE001
            warnings.warn(f"afcheck_run_summary hook failed: {exc}", stacklevel=2)
        status, line = exit_status(self.summary, bool(planned.gates), exitstatus,
                                   reports.ok and baseline.ok)
        if line is not None:
            self.messages.append(line)
        return status

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    # -- what the steps are given ----------------------------------------------------------

    def _unchecked(self, cases: Sequence[Case[object]]) -> Plan:
        """The plan of cases that were never validated: their methods, nothing checked."""
        return Plan(cases=tuple(cases), methods=self._collector.methods,
                    executor=executor_choice(self.plugins, self._option),
                    suites=self._collector.settings)

    def _open_cache(self) -> None:
        from afcheck.runtime.cache import open_cache

        if self._cache is None and not self.option("no_cache"):
            directory = self.option("cache_dir") or os.environ.get("AFCHECK_CACHE_DIR")
            self._cache = open_cache(Path(str(directory)) if directory else None)

    def _observer(self) -> Callable[[str], Notify | None] | None:
        """The ``afcheck_step_result`` observers of each method's results, if any."""
        hook = self.plugins.pm.hook.afcheck_step_result
        if not hook.get_hookimpls():
            return None

        def observe(method: str) -> Notify:
            def notify(result: object) -> None:
                try:
                    hook(result=result, method=method)
                except Exception as exc:  # noqa: BLE001 - an observer must not sink the run
                    warnings.warn(f"afcheck_step_result hook failed: {exc}", stacklevel=2)

            return notify

        return observe

    def _config(self, planned: Plan) -> dict[str, object]:
        kinds = {kind for method in self._collector.methods.values() for kind in method.kinds}
        return config_record(
            planned,
            options={kind.name: redact_options(self._chooser.kind_options(kind.name))
                     for kind in self.plugins.kinds.selectable() if kind.name in kinds},
            components=self.components.versions(), plugins=self.plugins.origins)
