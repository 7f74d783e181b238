"""Every hook a plugin can implement, declared once and documented where it is declared.

A plugin is a module (or object) with functions decorated by :data:`afcheck.hookimpl`,
listed in the entry-point group ``afcheck`` of its distribution::

    [project.entry-points.afcheck]
    myprover = "afcheck_myprover"

Implementations may accept any subset of a hook's arguments (pluggy's opt-in arguments), so
adding an argument here never breaks a plugin. The built-in plugins in ``plugins/`` use exactly
this mechanism.

Registration hooks receive a ``register`` callback::

    register(name, factory, *, description="", details=None)

``factory(options)`` builds the component from the ``--<kind>-opt k=v`` options (a
``dict[str, str]``) when the component is selected; it is the place to import heavy
dependencies, so that listing plugins and collecting tests stay cheap. A factory whose
dependency is missing raises :class:`afcheck.errors.MissingDependency`; the runner turns it
into one line naming the install command. ``details`` are short strings shown by
``afcheck list`` (a preset's backend and model id, say).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from afcheck.metrics import RunSummary
    from afcheck.options import OptionGroup
    from afcheck.registry import Register
    from afcheck.types import CaseResult

hookspec = pluggy.HookspecMarker("afcheck")


# -------------------------------------------------------------------------------------------
# Registration hooks: one per kind of thing a plugin can add. Plain hooks (every
# implementation is called); none returns a value.
# -------------------------------------------------------------------------------------------


@hookspec
def afcheck_register_formalisers(register: Register) -> None:
    """Register formalisers: components that turn natural-language steps into Lean.

    :param register: ``register(name, factory, *, description="", details=None)``.
        ``factory(options)`` returns an object with a ``name`` and
        ``formalise(requests: Sequence[FormaliseRequest]) -> list[Formalisation]``,
        called once per run with every request (see :class:`afcheck.components.Formaliser`).

    Called the first time any formaliser is looked up (``afcheck list``, a run).
    Not firstresult. Example::

        @hookimpl
        def afcheck_register_formalisers(register):
            register("echo", lambda options: Echo(), description="writes the step as a comment")
    """


@hookspec
def afcheck_register_provers(register: Register) -> None:
    """Register provers: components that decide formal statements (⊤ / ⊥ / ∅).

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.Prover` whose ``prove(tasks)`` receives every statement of
        the run in one batch and returns one :class:`afcheck.types.Verdict` per task.

    Called the first time any prover is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_provers(register):
            register("smt", make_smt_prover, description="z3 over the arithmetic fragment")
    """


@hookspec
def afcheck_register_checkers(register: Register) -> None:
    """Register checkers: components that type-check extracted statements.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.Checker` whose ``check(formalisations)`` returns the same
        records, with those that do not type-check turned into TC-Fail.

    Called the first time any checker is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_checkers(register):
            register("lean", make_lean_checker, description="`by sorry` in a Lean REPL")
    """


@hookspec
def afcheck_register_perturbers(register: Register) -> None:
    """Register perturbers: components that make an invalid counterpart of each step.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.Perturber` whose ``perturb(steps, seed)`` returns one
        :class:`afcheck.types.Perturbation` per step (``text=None`` when unperturbable).
        Same steps and seed must give the same perturbations, whatever their order.

    Called the first time any perturber is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_perturbers(register):
            register("regex", lambda options: RegexPerturber(), description="App. C rules")
    """


@hookspec
def afcheck_register_criteria(register: Register) -> None:
    """Register equivalence criteria: components that judge whether two Lean statements agree.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.EquivalenceCriterion`.

    Called the first time any criterion is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_criteria(register):
            register("syntactic", lambda options: Syntactic())
    """


@hookspec
def afcheck_register_suite_kinds(register: Register) -> None:
    """Register suite kinds: loaders named by the ``kind`` key of a ``suite.toml``.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.SuiteKind` whose ``load(spec)`` yields
        :class:`afcheck.types.Step` records and, for bad input, :class:`afcheck.errors.LoadError`
        records (one per bad line; loading goes on).

    Called the first time a suite is collected. Not firstresult. Example::

        @hookimpl
        def afcheck_register_suite_kinds(register):
            register("csv", lambda options: CsvSuite())
    """


@hookspec
def afcheck_register_reporters(register: Register) -> None:
    """Register reporters: components that write the results of a run somewhere.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.Reporter` whose ``report(summary, destination)`` is called
        once at the end of a run when the reporter's option is given.

    Called at the end of a run. Not firstresult. Example::

        @hookimpl
        def afcheck_register_reporters(register):
            register("csv", lambda options: CsvReporter())
    """


@hookspec
def afcheck_register_commands(register: Register) -> None:
    """Register subcommands of the ``afcheck`` command line (``afcheck lean setup`` …).

    :param register: as for :func:`afcheck_register_formalisers`; the factory is called as
        ``factory(argv: list[str]) -> int`` with the arguments after the command name, and
        returns the exit status.

    Called when ``afcheck`` is run with a first argument that is not a path. Not firstresult.
    Example::

        @hookimpl
        def afcheck_register_commands(register):
            register("lean", lean_command, description="set up and inspect Lean")
    """


# -------------------------------------------------------------------------------------------
# Configuration hooks
# -------------------------------------------------------------------------------------------


@hookspec(historic=True)
def afcheck_addoption(group: OptionGroup) -> None:
    """Add command-line options for a plugin.

    :param group: ``group.addoption("--allow-native-decide", action="store_true", help=…)``
        takes argparse arguments. The option is ``--allow-native-decide`` for the ``afcheck``
        command and ``--afcheck-allow-native-decide`` under plain ``pytest``; read it with
        ``afcheck.options.get(config, "allow_native_decide")``.

    Called once when the command line is built. Historic: plugins registered later still see
    it. Not firstresult.
    """


@hookspec(historic=True)
def afcheck_configure(config: object) -> None:
    """Called once a run's settings are final, before any step is processed.

    :param config: the run's ``pytest.Config``.

    Historic. Not firstresult.
    """


# -------------------------------------------------------------------------------------------
# Event hooks: observers. They receive frozen records and must not change them.
# -------------------------------------------------------------------------------------------


@hookspec
def afcheck_step_result(result: CaseResult) -> None:
    """Called once per test case, as soon as its result is known.

    :param result: the case's :class:`afcheck.types.CaseResult`: both inputs, both
        formalisations, both verdicts and the derived outcome and failure events.

    Results arrive in batch order, before the pytest items report. Not firstresult.
    Example::

        @hookimpl
        def afcheck_step_result(result):
            if result.silent_correction:
                print("sycophantic:", result.case_id)
    """


@hookspec
def afcheck_run_summary(summary: RunSummary) -> None:
    """Called once at the end of a run with the metrics.

    :param summary: the :class:`afcheck.metrics.RunSummary`: metrics overall and per dataset,
        contingency counts, and the gate decision.

    Not firstresult.
    """
