"""One run of afcheck: its plugins, options, components, runtime, results and summary.

A :class:`Run` is what the pytest bridge creates at configure time and hands the collected
and selected items. It owns everything a run shares across evaluation methods: turning suite
folders into cases (:meth:`Run.collect`), checking every chosen component before any work
(:meth:`Run.validate`), one batched execution per method (:meth:`Run.execute`), the status of
each item with the baseline applied (:meth:`Run.item`, the one place passed / failed / xfailed /
skipped is decided), and the end: metrics, gates, reporters, baseline (:meth:`Run.finish`).
Nothing here names a built-in plugin: methods, suite kinds, components and reporters all come
from the run's own :class:`~afcheck.plugins.Plugins`.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path

from afcheck import gates as gating
from afcheck.budget import Budget, as_json, budgets_of, resolve
from afcheck.components import Reporter, SuiteKind
from afcheck.decided import NOTHING_DECIDED_EXIT, judged, undecided_line
from afcheck.errors import LoadError, SuiteError, UnknownComponent, UsageError
from afcheck.metadata import RunStart
from afcheck.method import (
    AnyMethod,
    BadRecord,
    Case,
    Choice,
    ItemResult,
    Selection,
    settings_of,
)
from afcheck.options import parse_kv
from afcheck.plugins import Plugins
from afcheck.printable import name_problem, printable
from afcheck.redact import redact_options, redact_text
from afcheck.registry import EXECUTOR, METHOD, SUITE_KIND, Kind
from afcheck.runtime import Components, Runtime, StageTimes
from afcheck.runtime.cache import Cache
from afcheck.runtime.executor import DEFAULT as DEFAULT_EXECUTOR
from afcheck.runtime.executor import Executor, ExecutorStopped
from afcheck.runtime.progress import Progress
from afcheck.runtime.spool import Spool
from afcheck.suites import SETTINGS, SuiteSpec, check_defaults, load_spec
from afcheck.summary import Candidates, RunSummary
from afcheck.types import Location, Status

OptionReader = Callable[[str], object]


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
        self.expected_failures: frozenset[str] = frozenset()
        self._reporters: list[tuple[Reporter, str]] = []
        self._methods: dict[str, AnyMethod] = {}
        self._kinds: dict[str, SuiteKind] = {}
        self._choices: dict[tuple[str, str, str], Choice] = {}
        self._candidates: dict[str, Candidates] = {}
        self._suites: dict[str, dict[str, object]] = {}
        self._gates: list[gating.Gate] = []
        self._added_gates: list[gating.Gate] = []
        self._results: dict[str, ItemResult[object]] | None = None
        self._reported: dict[str, None] = {}
        """The items pytest reported, in the order it reported them."""
        self._bad: dict[str, ItemResult[object]] = {}
        self._times = StageTimes()
        self._spool: Spool | None = None
        self._cache: Cache | None = None
        self.start: RunStart | None = None
        """The command line, start time and paths, set by whoever starts the run."""
        self._budgets: dict[str, dict[str, Budget]] = {}
        self._manifests: dict[str, SuiteSpec] = {}
        """Each suite's spec by name, to point a message at its ``suite.toml``."""

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
        if name not in self._methods:
            self._methods[name] = self.plugins.create(METHOD, name)
        return self._methods[name]

    # -- collection ----------------------------------------------------------------------------

    def collect(self, root: Path, nodeid: str) -> Iterator[Case[object] | BadRecord]:
        """The cases of one suite folder, and a :class:`BadRecord` per record that cannot be
        read: a :class:`LoadError` of its suite kind, or a record whose test id another record
        of the suite already has (a later duplicate never shares the earlier one's result)."""
        spec = load_spec(root)
        other = self._manifests.get(spec.name)
        if other is not None and other.root != spec.root:
            # Step ids start with the suite's name: two suites of one name would share them.
            raise UsageError(f"{spec.where('name')}: the suite name {spec.name!r} is also "
                             f"{other.manifest}'s; give each suite of a run its own name")
        try:
            kind = self._suite_kind(spec.kind)
        except UnknownComponent as exc:
            raise UsageError(f"{spec.where('kind')}: {exc}") from None
        method_name = spec.method or kind.method
        try:
            method = self.method(method_name)
        except UnknownComponent as exc:
            raise UsageError(f"{spec.where('method')}: {exc}") from None
        self._manifests[spec.name] = spec
        settings = settings_of(method)
        check_defaults(spec, [k.name for k in self.plugins.kinds.selectable()], settings)
        spec = spec.with_settings(self._overrides(settings), method.defaults)
        self._suites.setdefault(spec.name, {
            "method": method_name,
            **{key: spec.setting(key) for key in (*method.kinds, *settings)},
        })

        def choose(kind: str, name: str, method: str = method_name,
                   suite: SuiteSpec = spec) -> Choice:
            return self._choose(kind, name, method, suite)

        selection = Selection(spec, choose, self._option, self._registered)
        limit = spec.setting("limit")
        limit = None if limit is None else int(limit)
        count = 0
        first: dict[str, Location | None] = {}
        """Each test name given so far, with where its record is."""

        def bad(error: LoadError) -> BadRecord:
            name = printable(error.name, newlines=False) or f"line-{error.location.line}"
            if name in first:
                name = f"{name}@line-{error.location.line}"
            suffix = 2
            while name in first:
                name, suffix = f"{name.rsplit('#', 1)[0]}#{suffix}", suffix + 1
            first[name] = error.location
            return BadRecord(Case(f"{nodeid}::{name}", name, method_name, spec.name, spec.name,
                                  error.location, error), error)

        for loaded in kind.load(spec):
            if isinstance(loaded, LoadError):
                yield bad(loaded)
                continue
            if limit is not None and count >= limit:
                break
            count += 1
            try:
                made = list(method.cases(loaded, selection))
            except TypeError as exc:
                # A method given a record of another kind refuses it (its cases() says what
                # it reads): the suite's choice of method is wrong, not the record.
                raise SuiteError(spec.where("method" if spec.method else "kind"),
                                 f"the method '{method_name}' cannot read records of the suite "
                                 f"kind '{spec.kind}' ({exc}); use the kind's own method "
                                 f"('{kind.method}') or a kind of '{method_name}'") from None
            unprintable = next((problem for name, _ in made
                                for problem in [name_problem(name)] if problem), None)
            if unprintable is not None:
                # Test names reach the terminal as pytest node ids (``-v``, ``--co``, JUnit):
                # an id with a control character or a lone surrogate is a bad record.
                yield bad(LoadError(loaded.source or Location(str(spec.manifest)),
                                    unprintable, made[0][0]))
                continue
            clash = next((name for name, _ in made if name in first), None)
            if clash is not None:
                earlier = first[clash]
                where = loaded.source or Location(str(spec.manifest))
                yield bad(LoadError(
                    where, f"duplicate id: '{clash}' is also the record at "
                    f"{earlier or 'an earlier line'}; give each record its own id",
                    clash))
                continue
            for name, case in made:
                first[name] = loaded.source
                yield Case(f"{nodeid}::{name}", name, method_name, spec.name, loaded.dataset,
                           loaded.source, case)

    def _suite_kind(self, name: str) -> SuiteKind:
        if name not in self._kinds:
            self._kinds[name] = self.plugins.create(SUITE_KIND, name)
        return self._kinds[name]

    def _registered(self, kind: str) -> list[str]:
        return self.plugins.registry(kind).names()

    def _overrides(self, settings: Mapping[str, type]) -> dict[str, object]:
        """The command line's settings (the core's and the method's); a kind that follows
        another (the FOL formalisers follow ``formaliser``) takes the other's choice when its
        own is not given, so that the model under test reaches every method of the run."""
        overrides: dict[str, object] = {key: self._option(key)
                                        for key in (*SETTINGS, *settings)}
        for kind in self.plugins.kinds.selectable():
            overrides[kind.name] = self._option((self._followed(kind) or kind).name)
        return overrides

    def _followed(self, kind: Kind[object]) -> Kind[object] | None:
        """The kind whose command-line choice ``kind`` takes now, if any."""
        if kind.follows is None or kind.follows not in self.plugins.kinds:
            return None
        if self._option(kind.name) is not None or self._option(kind.follows) is None:
            return None
        return self.plugins.kinds.get(kind.follows)

    def _choose(self, kind: str, name: str, method: str = "",
                suite: SuiteSpec | None = None) -> Choice:
        key = (kind, name, suite.name if suite is not None else "")
        if key not in self._choices:
            self._choices[key] = self._make_choice(self.plugins.kinds.get(kind), name, method,
                                                   suite)
        return self._choices[key]

    def _make_choice(self, kind: Kind[object], name: str, method: str,
                     suite: SuiteSpec | None) -> Choice:
        from afcheck.model import adopt

        followed = self._followed(kind)
        if followed is None and kind.follows is not None \
                and kind.follows in self.plugins.kinds and name == self._option(kind.follows):
            # The run's model asked by name while the kind has a choice of its own (a method
            # that asks the model to judge besides formalising).
            followed = self.plugins.kinds.get(kind.follows)
        if followed is not None and name == self._option(followed.name):
            chosen, options = adopt(kind, self.plugins.registry(kind),
                                    self.plugins.registry(followed), name,
                                    self._kind_options(followed.name), method or "run's")
            return Choice.of(chosen, options)
        options = self._kind_options(kind.name)
        if kind.many:
            options = self._addressed(kind, name, options)
        if suite is not None and self._option(kind.name) is None:
            # A suite's options for its own choice (``[afcheck.defaults] <kind>_opt``); a
            # ``path`` there is relative to the suite's folder.
            given = suite.component_options(kind.name)
            if "path" in given and not Path(given["path"]).is_absolute():
                given["path"] = str(suite.root / given["path"])
            offered = getattr(self._suite_kind(suite.kind), "component_options", None)
            if offered is not None:  # the suite kind's own defaults (SuiteKind's docstring)
                given = {**offered(suite, kind.name, name), **given}
            options = {**given, **options}
        return Choice.of(name, options)

    def _addressed(self, kind: Kind[object], name: str,
                   options: Mapping[str, str]) -> dict[str, str]:
        """The options of one component of a multi-component choice: ``NAME.key=value``
        addresses the component ``NAME`` (``--perturber regex,llm --perturber-opt
        llm.model=m``); a key without a component's name goes to each of them."""
        registered = set(self.plugins.registry(kind).names())
        mine: dict[str, str] = {}
        for key, value in options.items():
            owner, dot, rest = key.partition(".")
            if dot and owner in registered:
                if owner == name:
                    mine[rest] = value
            else:
                mine.setdefault(key, value)
        return mine

    def _kind_options(self, kind: str) -> dict[str, str]:
        values = self._option(f"{kind}_opt") or []
        return parse_kv(list(values) if isinstance(values, (list, tuple)) else [str(values)],
                        kind.replace("_", "-"))

    # -- before the work -----------------------------------------------------------------------

    def validate(self, cases: Sequence[Case[object]], *, build: bool = True,
                 unreadable: Sequence[BadRecord] = ()) -> None:
        """Check every chosen component and gate before any work, and read the baseline.

        Names are always checked; the components themselves are built too unless only
        collecting, so that a missing dependency or a bad option stops the run in one line
        before any test reports. The executor is only looked up here (and its options read):
        building it may connect to a cluster, which waits until the work starts.
        """
        self._executor_choice()
        checked: set[tuple[str, Choice]] = set()
        used: set[str] = set()
        writers = {kind.name for kind in self.plugins.kinds if kind.candidates}
        candidates: dict[str, Counter[tuple[str, Choice]]] = {}
        fixed: Counter[str] = Counter()
        for case, pairs, count in _alike(cases, self.method):
            wrote = False
            for kind_name, choice in pairs:
                used.add(kind_name)
                if kind_name in writers:
                    wrote = True
                    candidates.setdefault(case.method, Counter())[kind_name, choice] += count
                if (kind_name, choice) in checked:
                    continue
                checked.add((kind_name, choice))
                kind = self.plugins.kinds.get(kind_name)
                try:
                    self.plugins.registry(kind).get(choice.name)
                except UnknownComponent as exc:
                    spec = self._manifests.get(case.suite)
                    if (spec is None or self._option(kind.name) is not None
                            or self._followed(kind) is not None):
                        raise  # the command line's choice: its option names it
                    raise UsageError(f"{spec.where(kind.name)}: {exc}") from None
                if build:
                    self._check_protocol(kind, choice,
                                         self.components.get(kind, choice).component)
            if not wrote:
                fixed[case.method] += count
        self._candidates = {method: Candidates(self._labelled(candidates.get(method, Counter())),
                                               fixed[method],
                                               self._about(candidates.get(method, Counter())))
                            for method in dict.fromkeys(case.method for case in cases)}
        self._refuse_unused(used, {case.method for case in cases})
        self._budgets = self._read_budgets()
        self._gates = self._read_gates()
        # A suite whose records are all unreadable still has its method: a gate over that
        # method's metric is valid, and fails at the end (nothing was evaluated).
        methods = dict.fromkeys([*(case.method for case in cases),
                                 *(bad.case.method for bad in unreadable)])
        gating.check_metrics(self._gates, {name: self.method(name).gates for name in methods},
                             self.plugins.registry(METHOD).names())
        self._check_outputs()
        if build:
            self._open_cache()  # a damaged cache stops the run here, before any item reports
        baseline = self.option("baseline")
        if baseline and not self.option("update_baseline"):
            self.expected_failures = gating.load_baseline(Path(str(baseline)))

    def _check_outputs(self) -> None:
        """Every file the run will write, checked before any work (:mod:`afcheck.outputs`)."""
        from afcheck.outputs import Output, check

        outputs = [Output(f"{reporter.name} results", destination)
                   for reporter, destination in self._reporters]
        reads: list[Output] = []
        baseline = self.option("baseline")
        if baseline is not None:
            (outputs if self.option("update_baseline") else reads).append(
                Output("the baseline", str(baseline)))
        check(outputs, [spec.root for spec in self._manifests.values()], reads)

    def _labelled(self, counts: Counter[tuple[str, Choice]]) -> dict[str, int]:
        """Items per label; labelled once per choice, not per item (a run has thousands of
        items and few choices), and choices that read alike counted together."""
        labelled: Counter[str] = Counter()
        for (kind, choice), count in counts.items():
            labelled[self._label(kind, choice)] += count
        return dict(labelled)

    def _about(self, counts: Counter[tuple[str, Choice]]) -> dict[str, str]:
        """Per label, the writer's registered description and the fragment it formalises."""
        about: dict[str, str] = {}
        for kind, choice in counts:
            entry = self.plugins.registry(kind).get(choice.name)
            fragment = entry.details.get("fragment")
            text = entry.description + (f" (formalises: {fragment})" if fragment else "")
            if text:
                about.setdefault(self._label(kind, choice), text)
        return about

    def _label(self, kind: str, choice: Choice) -> str:
        """A choice as the summary shows it: its name and the model it asks, if any."""
        options = dict(choice.options)
        entry = self.plugins.registry(kind).get(choice.name)
        if entry.model is not None and entry.model.model and not options.get("model"):
            options["model"] = entry.model.model  # the preset's own model
        shown = [f"{key}={redact_text(options[key])}" for key in ("model", "base_url", "path")
                 if options.get(key)]
        name = f"{kind.replace('_', ' ')} {choice.name}"
        return f"{name} ({', '.join(shown)})" if shown else name

    def _check_protocol(self, kind: Kind[object], choice: Choice, component: object) -> None:
        if kind.protocol is not None and not isinstance(component, kind.protocol):
            entry = self.plugins.registry(kind).get(choice.name)
            raise UsageError(f"{kind.name} '{choice.name}' of plugin '{entry.plugin}' is not a "
                             f"{kind.protocol.__name__} (a {type(component).__name__}); fix "
                             "or uninstall the plugin")

    def _refuse_unused(self, used: set[str], methods: set[str]) -> None:
        """A component option given on the command line that no item of the run uses is the
        user's mistake (a model that would never be asked): one line, exit 4."""
        for kind in self.plugins.kinds.selectable():
            given = self._option(kind.name)
            options = self._option(f"{kind.name}_opt")
            if given is None and not options:
                continue
            followers = {k.name for k in self.plugins.kinds if k.follows == kind.name}
            if kind.name in used or used & followers:
                continue
            flag = f"--{kind.option} {given}" if given is not None else f"--{kind.option}-opt"
            would = self._methods_using({kind.name, *followers})
            partly = sorted(methods & set(would))
            note = (f"; {', '.join(partly)} uses one only for items whose suite gives no "
                    "fixed candidate" if partly else "")
            raise UsageError(
                f"{flag}: no item of this run uses a {kind.name.replace('_', ' ')} "
                f"({', '.join(sorted(methods))}{note}); the methods that would: "
                f"{', '.join(would) or 'none installed'}. Remove it or add such a suite")

    def _methods_using(self, kinds: set[str]) -> list[str]:
        found = []
        for entry in self.plugins.registry(METHOD).entries():
            try:
                method = self.method(entry.name)
            except Exception:  # noqa: BLE001 - a method that cannot load uses nothing here
                continue
            if kinds & set(method.kinds):
                found.append(entry.name)
        return found

    def _read_budgets(self) -> dict[str, dict[str, Budget]]:
        """The budgets of the run's methods with the user's ``--budget`` changes; a change
        that names no budgeted stage of the run is a usage error."""
        given = self.option("budget")
        return resolve({name: budgets_of(method) for name, method in self._methods.items()},
                       [str(text) for text in given] if isinstance(given, (list, tuple))
                       else [])

    def _read_gates(self) -> list[gating.Gate]:
        given = self.option("gate")
        gates = [gating.parse(str(text))
                 for text in (given if isinstance(given, (list, tuple)) else [])]
        return gates + self._added_gates

    # -- the work --------------------------------------------------------------------------------

    def execute(self, cases: Sequence[Case[object]]) -> None:
        """Decide every case: one batched :meth:`Method.run` per method."""
        runtime = self._runtime()
        by_method: dict[str, list[Case[object]]] = {}
        for case in cases:
            by_method.setdefault(case.method, []).append(case)
        observed = bool(self.plugins.pm.hook.afcheck_step_result.get_hookimpls())
        results: dict[str, ItemResult[object]] = {}
        try:
            for name, group in by_method.items():
                method = self.method(name)
                notify = self._notifier(name) if observed else None
                made = method.run(group, runtime, notify)
                for case, result in zip(group, made, strict=True):
                    outcome = judged(method, result)
                    status = outcome.status
                    if status is Status.FAILED and case.case_id in self.expected_failures:
                        status = Status.XFAILED
                    results[case.case_id] = ItemResult(case, result, outcome, status,
                                                       method.timings(result))
        except ExecutorStopped:
            # Executed, so the end of the run still writes its result files (with the items
            # pytest reported: the stop comes before the first); the cache keeps the rest.
            self._results = results
            raise
        finally:
            runtime.executor.close()
            where = runtime.executor.describe()
            if where:
                self.messages.append(where)
            self.messages.extend(self.components.summaries())
            self.messages.extend(runtime.notes)
            self.components.close()
            if runtime.cache is not None:
                self.cache_stats = (runtime.cache.hits, runtime.cache.misses)
                try:
                    runtime.cache.close()
                finally:
                    self.cache_kept = runtime.cache.stored
        self._results = results

    @property
    def executed(self) -> bool:
        return self._results is not None

    def item(self, case_id: str) -> ItemResult[object]:
        """The final result of one item; the item counts as reported from now on."""
        assert self._results is not None, "execute() first"
        self._reported[case_id] = None
        return self._results[case_id]

    def report_bad(self, record: BadRecord) -> None:
        """Count an unreadable record's failed item as reported, so that the summary and every
        result file hold it, as the terminal does."""
        self._bad[record.case.case_id] = record.result()
        self._reported[record.case.case_id] = None

    @property
    def reported(self) -> bool:
        """Whether any item was reported: the run has a summary to give."""
        return bool(self._reported)

    def _open_cache(self) -> None:
        from afcheck.runtime.cache import open_cache

        if self._cache is None and not self.option("no_cache"):
            directory = self.option("cache_dir") or os.environ.get("AFCHECK_CACHE_DIR")
            self._cache = open_cache(Path(str(directory)) if directory else None)

    def _executor_choice(self) -> tuple[str, dict[str, str]]:
        """The executor ``--executor NAME --executor-opt K=V`` names, checked against the
        registry (an unknown name lists those registered), and its options."""
        name = str(self.option("executor") or DEFAULT_EXECUTOR).strip() or DEFAULT_EXECUTOR
        self.plugins.registry(EXECUTOR).get(name)
        given = self.option("executor_opt")
        return name, parse_kv(list(given) if isinstance(given, (list, tuple)) else [],
                              "executor")

    def _runtime(self) -> Runtime:
        name, options = self._executor_choice()
        executor: Executor = self.plugins.create(EXECUTOR, name, options)
        self._open_cache()
        cache, self._cache = self._cache, None
        chunk_size = max(1, int(str(self.option("chunk_size", 256))))
        self._spool = Spool()
        return Runtime(self.components, cache=cache, chunk_size=chunk_size,
                       progress=self._progress(), times=self._times, spool=self._spool,
                       executor=executor, budgets=self._budgets)

    def _notifier(self, method: str) -> Callable[[object], None]:
        hook = self.plugins.pm.hook.afcheck_step_result

        def notify(result: object) -> None:
            try:
                hook(result=result, method=method)
            except Exception as exc:  # noqa: BLE001 - an observer must not sink the run
                warnings.warn(f"afcheck_step_result hook failed: {exc}", stacklevel=2)

        return notify

    # -- the end ---------------------------------------------------------------------------------

    def finish(self, exitstatus: int) -> int | None:
        """Summarise, write reports and baseline; return the exit status gates decide.

        Only the items pytest reported are summarised: after ``-x`` stops a run, the metrics,
        JSON and JUnit agree with what the terminal showed.
        """
        results = {**(self._results or {}), **self._bad}
        items = [results[case_id] for case_id in self._reported if case_id in results]
        by_method: dict[str, list[ItemResult[object]]] = {}
        for item in items:
            if item.case.case_id not in self._bad:
                by_method.setdefault(item.case.method, []).append(item)
        summaries = {name: self.method(name).summarise(group)
                     for name, group in by_method.items()}
        failures = gating.evaluate(self._gates, summaries)
        if self._gates and self.unreadable:
            # Metrics over the records that could be read are not the suite's metrics.
            failures += (f"{self.unreadable} record(s) of the suites could not be read (each "
                         "is a failed item above); fix or remove them",)
        self.summary = RunSummary(
            items=items, methods=summaries, config=self._config_record(),
            gate_failures=failures, gates_held=gating.held(self._gates, summaries),
            timings=dict(self._times.seconds),
            implementations={name: self.method(name) for name in by_method},
            unreadable=len(self._bad),
            rootdir=self.rootdir,
            candidates={name: self._candidates[name] for name in by_method
                        if name in self._candidates},
            metadata=self.start.record() if self.start is not None else {})
        status: int | None = None
        for reporter, destination in self._reporters:
            try:
                reporter.report(self.summary, destination)
            except OSError as exc:
                self.messages.append(f"could not write {reporter.name} results to "
                                     f"{destination}: {exc.strerror or exc}")
                status = 1
                continue
            except Exception as exc:  # noqa: BLE001 - a reporter's bug loses no other file
                self.messages.append(f"could not write {reporter.name} results to "
                                     f"{destination}: the reporter failed: "
                                     f"{type(exc).__name__}: {exc}")
                status = 1
                continue
            self.messages.append(f"wrote {reporter.name} results to {destination}")
        if not self._update_baseline(items):
            status = 1
        try:
            self.plugins.pm.hook.afcheck_run_summary(summary=self.summary)
        except Exception as exc:  # noqa: BLE001
            warnings.warn(f"afcheck_run_summary hook failed: {exc}", stacklevel=2)
        if self._gates and exitstatus in (0, 1):
            final: int | None = 1 if failures or status else 0
        else:
            final = status if status and exitstatus == 0 else None
        return self._decided(items, exitstatus if final is None else final, final)

    def _decided(self, items: Sequence[ItemResult[object]], status: int,
                 final: int | None) -> int | None:
        """A run that would exit 0 with nothing decided exits with its own status instead,
        after its own line."""
        line = undecided_line(items) if status == 0 else None
        if line is None:
            return final
        self.messages.append(line)
        return NOTHING_DECIDED_EXIT

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def _config_record(self) -> dict[str, object]:
        kinds = {kind for method in self._methods.values() for kind in method.kinds}
        return {
            "suites": self._suites,
            "methods": {name: method.version for name, method in self._methods.items()
                        if any(s.get("method") == name for s in self._suites.values())},
            "options": {kind.name: redact_options(self._kind_options(kind.name))
                        for kind in self.plugins.kinds.selectable() if kind.name in kinds},
            "components": self.components.versions(),
            "plugins": dict(self.plugins.origins),
            "gates": [gate.origin for gate in self._gates],
            "budgets": {method: {stage: as_json(budget) for stage, budget in stages.items()}
                        for method, stages in self._budgets.items() if stages},
        }

    def _update_baseline(self, items: Sequence[ItemResult[object]]) -> bool:
        """Write the baseline when asked; false when it could not be written."""
        baseline = self.option("baseline")
        if self.option("update_baseline"):
            if not baseline:
                self.messages.append("--update-baseline needs --baseline FILE; nothing written")
                return True
            try:
                count = gating.write_baseline(Path(str(baseline)), items)
            except OSError as exc:
                self.messages.append(f"could not write the baseline {baseline}: "
                                     f"{exc.strerror or exc}")
                return False
            self.messages.append(f"wrote baseline {baseline} ({count} failing cases)")
        return True


def _alike(cases: Sequence[Case[object]], method: Callable[[str], AnyMethod]
           ) -> list[tuple[Case[object], tuple[tuple[str, Choice], ...], int]]:
    """The first of each group of cases that make the same choices (the same objects: a
    method makes the cases of one suite from one template), in order, with its choices and
    the group's size. What :meth:`Run.validate` checks and counts is the same for every case
    of a group, and a run has thousands of cases in a few groups."""
    first: dict[tuple[object, ...], tuple[Case[object], tuple[tuple[str, Choice], ...]]] = {}
    counts: dict[tuple[object, ...], int] = {}
    for case in cases:
        pairs = tuple(method(case.method).choices(case.spec))
        key = (case.method, *map(id, chain.from_iterable(pairs)))
        count = counts.get(key)
        if count is None:
            # Kept, and so alive: no other object can take the ids the key is made of.
            first[key] = (case, pairs)
            counts[key] = 1
        else:
            counts[key] = count + 1
    return [(case, pairs, counts[key]) for key, (case, pairs) in first.items()]
