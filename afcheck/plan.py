"""The plan of a run: its frozen cases and the chosen, checked components of each method.

:func:`plan` is the first of a run's three steps (plan → :func:`afcheck.execution.execute` →
:func:`afcheck.finish.finish`). Given the collected cases, it checks every component they
choose before any work (registered? built? implementing its kind's protocol?), refuses a
component option no item uses, reads the budgets, the gates and the baseline, checks every
file the run will write, and says per method where its candidates come from. What it returns
is a :class:`Plan`: everything the execution and the end of the run read, and nothing they
could change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from afcheck import gates as gating
from afcheck.budget import Budget, budgets_of, resolve
from afcheck.chooser import Chooser, OptionReader
from afcheck.components import Reporter
from afcheck.errors import UnknownComponent, UsageError
from afcheck.method import AnyMethod, BadRecord, Case, Choice
from afcheck.options import parse_kv
from afcheck.plugins import Plugins
from afcheck.redact import redact_text
from afcheck.registry import EXECUTOR, METHOD, Kind
from afcheck.runtime import Components
from afcheck.runtime.executor import DEFAULT as DEFAULT_EXECUTOR
from afcheck.suites import SuiteSpec
from afcheck.summary import Candidates

Chosen = tuple[tuple[str, Choice], ...]
"""``(kind, choice)`` pairs: the components a case (or a method's cases) chose."""


@dataclass(frozen=True)
class ExecutorChoice:
    """The executor ``--executor NAME --executor-opt K=V`` names, and its options."""

    name: str
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    """What a run will do: its cases, and what every method of theirs will use."""

    cases: tuple[Case[object], ...]
    unreadable: tuple[BadRecord, ...] = ()
    """The records that could not be read: failed items of their own."""
    methods: Mapping[str, AnyMethod] = field(default_factory=dict)
    """The methods of the run's suites, by name."""
    components: Mapping[str, Chosen] = field(default_factory=dict)
    """Per method, every component its cases chose, checked, in the order first chosen."""
    candidates: Mapping[str, Candidates] = field(default_factory=dict)
    """Per method, which component (and model) writes the candidates it scores."""
    budgets: Mapping[str, Mapping[str, Budget]] = field(default_factory=dict)
    """Per method and stage, its budget with the user's ``--budget`` changes."""
    gates: tuple[gating.Gate, ...] = ()
    expected_failures: frozenset[str] = frozenset()
    """The case ids the baseline lists as failing (their failures are XFAILED)."""
    executor: ExecutorChoice = ExecutorChoice(DEFAULT_EXECUTOR)
    suites: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    """Per suite, its method and the settings it runs with (the run record's ``suites``)."""


def plan(cases: Sequence[Case[object]], *, plugins: Plugins, option: OptionReader,
         chooser: Chooser, methods: Mapping[str, AnyMethod],
         method: Callable[[str], AnyMethod], specs: Mapping[str, SuiteSpec],
         suites: Mapping[str, Mapping[str, object]] | None = None,
         components: Components | None = None,
         reporters: Sequence[tuple[Reporter, str]] = (),
         added_gates: Sequence[gating.Gate] = (),
         unreadable: Sequence[BadRecord] = ()) -> Plan:
    """Check every chosen component and gate before any work, and read the baseline.

    ``methods`` are the methods of the collected suites (``method`` makes any other, for a
    message that names the methods that would use an option), ``specs`` the suites by name.
    Names are always checked; the components themselves are built, through ``components``,
    when it is given (not when only collecting), so that a missing dependency or a bad option
    stops the run in one line before any test reports. The executor is only looked up here
    (and its options read): building it may connect to a cluster, which waits until the work
    starts.
    """
    executor = executor_choice(plugins, option)
    checked: set[tuple[str, Choice]] = set()
    used: set[str] = set()
    writers = set(plugins.kinds.models)
    written: dict[str, Counter[tuple[str, Choice]]] = {}
    fixed: Counter[str] = Counter()
    chosen: dict[str, dict[tuple[str, Choice], None]] = {}
    for case, pairs, count in alike(cases, method):
        wrote = False
        mine = chosen.setdefault(case.method, {})
        for kind_name, choice in pairs:
            used.add(kind_name)
            mine[kind_name, choice] = None
            if kind_name in writers:
                wrote = True
                written.setdefault(case.method, Counter())[kind_name, choice] += count
            if (kind_name, choice) in checked:
                continue
            checked.add((kind_name, choice))
            kind = plugins.kinds.get(kind_name)
            try:
                plugins.registry(kind).get(choice.name)
            except UnknownComponent as exc:
                spec = specs.get(case.suite)
                if spec is None or chooser.given(kind):
                    raise  # the command line's choice: its option names it
                raise UsageError(f"{spec.where(kind.name)}: {exc}") from None
            if components is not None:
                _check_protocol(plugins, kind, choice, components.get(kind, choice).component)
        if not wrote:
            fixed[case.method] += count
    ordered = list(dict.fromkeys(case.method for case in cases))
    candidates = {name: Candidates(_labelled(plugins, written.get(name, Counter())),
                                   fixed[name], _about(plugins, written.get(name, Counter())))
                  for name in ordered}
    _refuse_unused(plugins, option, chooser, method, used, set(ordered))
    budgets = _read_budgets(option, methods)
    gates = (*_read_gates(option), *added_gates)
    # A suite whose records are all unreadable still has its method: a gate over that
    # method's metric is valid, and fails at the end (nothing was evaluated).
    named = dict.fromkeys([*ordered, *(bad.case.method for bad in unreadable)])
    gating.check_metrics(gates, {name: method(name).gates for name in named},
                         plugins.registry(METHOD).names())
    _check_outputs(option, reporters, specs)
    baseline = option("baseline")
    expected: frozenset[str] = frozenset()
    if baseline and not option("update_baseline"):
        expected = gating.load_baseline(Path(str(baseline)))
    return Plan(cases=tuple(cases), unreadable=tuple(unreadable), methods=dict(methods),
                components={name: tuple(pairs) for name, pairs in chosen.items()},
                candidates=candidates, budgets=budgets, gates=gates,
                expected_failures=expected, executor=executor, suites=dict(suites or {}))


def executor_choice(plugins: Plugins, option: OptionReader) -> ExecutorChoice:
    """The executor ``--executor NAME --executor-opt K=V`` names, checked against the
    registry (an unknown name lists those registered), and its options."""
    name = str(option("executor") or DEFAULT_EXECUTOR).strip() or DEFAULT_EXECUTOR
    plugins.registry(EXECUTOR).get(name)
    given = option("executor_opt")
    return ExecutorChoice(name, parse_kv(list(given) if isinstance(given, (list, tuple))
                                         else [], "executor"))


def alike(cases: Sequence[Case[object]], method: Callable[[str], AnyMethod]
          ) -> list[tuple[Case[object], Chosen, int]]:
    """The first of each group of cases that make the same choices (the same objects: a
    method makes the cases of one suite from one template), in order, with its choices and
    the group's size. What :func:`plan` checks and counts is the same for every case of a
    group, and a run has thousands of cases in a few groups."""
    first: dict[tuple[object, ...], tuple[Case[object], Chosen]] = {}
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


def label(plugins: Plugins, kind: str, choice: Choice) -> str:
    """A choice as the summary shows it: its name and the model it asks, if any."""
    options = dict(choice.options)
    entry = plugins.registry(kind).get(choice.name)
    if entry.model is not None and entry.model.model and not options.get("model"):
        options["model"] = entry.model.model  # the preset's own model
    shown = [f"{key}={redact_text(options[key])}" for key in ("model", "base_url", "path")
             if options.get(key)]
    name = f"{kind.replace('_', ' ')} {choice.name}"
    return f"{name} ({', '.join(shown)})" if shown else name


def _labelled(plugins: Plugins, counts: Counter[tuple[str, Choice]]) -> dict[str, int]:
    """Items per label; labelled once per choice, not per item (a run has thousands of
    items and few choices), and choices that read alike counted together."""
    labelled: Counter[str] = Counter()
    for (kind, choice), count in counts.items():
        labelled[label(plugins, kind, choice)] += count
    return dict(labelled)


def _about(plugins: Plugins, counts: Counter[tuple[str, Choice]]) -> dict[str, str]:
    """Per label, the writer's registered description and the fragment it formalises."""
    about: dict[str, str] = {}
    for kind, choice in counts:
        entry = plugins.registry(kind).get(choice.name)
        fragment = entry.details.get("fragment")
        text = entry.description + (f" (formalises: {fragment})" if fragment else "")
        if text:
            about.setdefault(label(plugins, kind, choice), text)
    return about


def _check_protocol(plugins: Plugins, kind: Kind[object], choice: Choice,
                    component: object) -> None:
    if kind.protocol is not None and not isinstance(component, kind.protocol):
        entry = plugins.registry(kind).get(choice.name)
        raise UsageError(f"{kind.name} '{choice.name}' of plugin '{entry.plugin}' is not a "
                         f"{kind.protocol.__name__} (a {type(component).__name__}); fix "
                         "or uninstall the plugin")


def _refuse_unused(plugins: Plugins, option: OptionReader, chooser: Chooser,
                   method: Callable[[str], AnyMethod], used: set[str],
                   methods: set[str]) -> None:
    """A component option given on the command line that no item of the run uses is the
    user's mistake (a model that would never be asked): one line, exit 4."""
    for kind in plugins.kinds.selectable():
        given = option(kind.name)
        options = option(f"{kind.name}_opt")
        if given is None and not options:
            continue
        followers = chooser.followers(kind)
        if kind.name in used or used & followers:
            continue
        flag = f"--{kind.option} {given}" if given is not None else f"--{kind.option}-opt"
        would = _methods_using(plugins, method, {kind.name, *followers})
        partly = sorted(methods & set(would))
        note = (f"; {', '.join(partly)} uses one only for items whose suite gives no "
                "fixed candidate" if partly else "")
        raise UsageError(
            f"{flag}: no item of this run uses a {kind.name.replace('_', ' ')} "
            f"({', '.join(sorted(methods))}{note}); the methods that would: "
            f"{', '.join(would) or 'none installed'}. Remove it or add such a suite")


def _methods_using(plugins: Plugins, method: Callable[[str], AnyMethod],
                   kinds: set[str]) -> list[str]:
    found = []
    for entry in plugins.registry(METHOD).entries():
        try:
            made = method(entry.name)
        except Exception:  # noqa: BLE001 - a method that cannot load uses nothing here
            continue
        if kinds & set(made.kinds):
            found.append(entry.name)
    return found


def _listed(option: OptionReader, name: str) -> list[str]:
    given = option(name)
    return [str(text) for text in given] if isinstance(given, (list, tuple)) else []


def _read_budgets(option: OptionReader, methods: Mapping[str, AnyMethod]
                  ) -> dict[str, dict[str, Budget]]:
    """The budgets of the run's methods with the user's ``--budget`` changes; a change
    that names no budgeted stage of the run is a usage error."""
    return resolve({name: budgets_of(made) for name, made in methods.items()},
                   _listed(option, "budget"))


def _read_gates(option: OptionReader) -> list[gating.Gate]:
    return [gating.parse(text) for text in _listed(option, "gate")]


def _check_outputs(option: OptionReader, reporters: Sequence[tuple[Reporter, str]],
                   specs: Mapping[str, SuiteSpec]) -> None:
    """Every file the run will write, checked before any work (:mod:`afcheck.outputs`)."""
    from afcheck.outputs import Output, check

    outputs = [Output(f"{reporter.name} results", destination)
               for reporter, destination in reporters]
    reads: list[Output] = []
    baseline = option("baseline")
    if baseline is not None:
        (outputs if option("update_baseline") else reads).append(
            Output("the baseline", str(baseline)))
    check(outputs, [spec.root for spec in specs.values()], reads)
