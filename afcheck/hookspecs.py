"""Every hook a plugin can implement, declared once and documented where it is declared.

A plugin is a module (or object) with functions decorated by :data:`afcheck.hookimpl`,
listed in the entry-point group ``afcheck`` of its distribution::

    [project.entry-points.afcheck]
    myprover = "afcheck_myprover"

Implementations may accept any subset of a hook's arguments (pluggy's opt-in arguments), so
adding an argument here never breaks a plugin. The built-in plugins in ``plugins/`` use exactly
this mechanism.

Registration hooks receive a ``register`` callback::

    register(name, factory, *, description="", details=None, model=None)

``factory(options)`` builds the component from the ``--<kind>-opt k=v`` options (a
``dict[str, str]``) when the component is selected; it is the place to import heavy
dependencies, so that listing plugins and collecting tests stay cheap. A factory whose
dependency is missing raises :class:`afcheck.errors.MissingDependency`; the runner turns it
into one line naming the install command. ``details`` are short strings shown by
``afcheck list`` (a preset's backend and model id, say). ``model``, an
:class:`afcheck.model.ModelRef`, marks a component that is a model (an LLM preset), which
every method that formalises can then ask with its own prompt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck.registry import Kinds, Register
    from afcheck.run import Run
    from afcheck.summary import RunSummary

hookspec = pluggy.HookspecMarker("afcheck")


# -------------------------------------------------------------------------------------------
# Kinds: what a plugin can add to the host, the way pytest_addhooks lets xdist add hooks.
# -------------------------------------------------------------------------------------------


@hookspec(historic=True)
def afcheck_addkinds(kinds: Kinds) -> None:
    """Declare component kinds of the plugin's own, with their registration hooks.

    :param kinds: the plugin manager's :class:`afcheck.registry.Kinds`;
        ``kinds.add(kind, hookspecs)`` declares a :class:`afcheck.registry.Kind` and adds the
        hookspec of its registration hook (``hookspecs`` is a module or class holding an
        ``@hookspec`` function named ``kind.hook``, documented there, as this module documents
        the core's). A kind whose components write the candidates a method scores (a
        formaliser into another language) is declared with ``model=``, a
        :class:`afcheck.model.ModelAdapter`: which kind's option names the model under test
        (``follows="formaliser"``) and which of its components asks a model (``entry``), so
        that ``--formaliser NAME`` reaches its methods too and the run says who wrote their
        candidates.

    The core declares the kinds every method shares: ``formaliser``, ``prover``, ``checker``
    (the Lean statement front end), ``method``, ``suite_kind`` and ``reporter``. A method
    declares the component kinds only its family uses (the faithfulness method's
    perturbers and detectors, the equivalence criteria, the FOL formalisers and provers), and
    a backend plugin the kinds its components are made of (the Lean provers' judges).
    A declared kind gets everything a core kind has: ``afcheck list KIND``, the options
    ``--<kind>`` and ``--<kind>-opt`` when it is selectable, suite defaults, validation
    before any work, fingerprints and recipes for remote workers.

    Historic: called for every plugin as it is registered, before any registry is built.
    Not firstresult. Example::

        from afcheck.model import ModelAdapter
        from afcheck.registry import Kind
        from my_method import hookspecs

        GRADER = Kind("grader", "graders", "afcheck_register_graders", selectable=True,
                      protocol=Grader, description="grades a candidate")

        @hookimpl
        def afcheck_addkinds(kinds):
            kinds.add(GRADER, hookspecs)
            # a formaliser kind of its own that takes the run's model as ``llm``:
            kinds.add(SQL_FORMALISER, hookspecs,
                      model=ModelAdapter(follows="formaliser", entry="llm"))
    """


# -------------------------------------------------------------------------------------------
# Registration hooks of the core's kinds: one per kind of thing a plugin can add. Plain
# hooks (every implementation is called); none returns a value.
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
def afcheck_register_methods(register: Register) -> None:
    """Register evaluation methods: ways of testing a formaliser (see :mod:`afcheck.method`).

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.method.Method`: the item records its suite kinds load, the component
        kinds it needs and their defaults, its batched stages, the outcome of one item, its
        metrics and the gates they accept. A suite names its method with ``method = …`` in
        ``suite.toml``, or its suite kind implies one.

    Called the first time any method is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_methods(register):
            register("faithfulness", lambda options: Faithfulness(),
                     description="perturb, formalise both, prove or refute both")
    """


@hookspec
def afcheck_register_suite_kinds(register: Register) -> None:
    """Register suite kinds: loaders named by the ``kind`` key of a ``suite.toml``.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.SuiteKind` whose ``load(spec)`` yields the item records of
        its method (``afcheck_faithfulness.records.Step`` for ``faithfulness``) and, for bad
        input, :class:`afcheck.errors.LoadError` records (one per bad line; loading goes on).

    Called the first time a suite is collected. Not firstresult. Example::

        @hookimpl
        def afcheck_register_suite_kinds(register):
            register("csv", lambda options: CsvSuite())
    """


@hookspec
def afcheck_register_suites(register: Register) -> None:
    """Register named suites: ``afcheck NAME`` runs the suite folder ``NAME`` names, and
    ``afcheck list suites`` lists them with their method, size and data.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns the
        :class:`pathlib.Path` of the suite's folder (the one with its ``suite.toml``).

    Called when a command-line argument is neither an existing path nor a command, and by
    ``afcheck list``. A path on disk wins over a suite of the same name. Not firstresult.
    Example::

        @hookimpl
        def afcheck_register_suites(register):
            folder = Path(__file__).parent / "suites" / "mine"
            register("mine", lambda options: folder, description="my suite")
    """


@hookspec
def afcheck_register_reporters(register: Register) -> None:
    """Register reporters: components that write the results of a run somewhere.

    :param register: as for :func:`afcheck_register_formalisers`; the factory returns a
        :class:`afcheck.components.Reporter` whose ``report(summary, destination)`` writes a
        whole run. A reporter owns its option, the way pytest's junitxml plugin does: the
        plugin adds it in :func:`afcheck_addoption` and, in :func:`afcheck_configure`, hands
        the run the reporter when the option is given.

    Called when a reporter is looked up (``afcheck list``, a run that selects one). Not
    firstresult. Example::

        @hookimpl
        def afcheck_register_reporters(register):
            register("csv", lambda options: CsvReporter(), description="one row per item")

        @hookimpl
        def afcheck_addoption(group):
            group.addoption("--csv", metavar="FILE", help="write one CSV row per item")

        @hookimpl
        def afcheck_configure(run):
            if run.option("csv"):
                run.add_reporter(run.plugins.create(REPORTER, "csv"), run.option("csv"))
    """


@hookspec
def afcheck_register_executors(register: Register) -> None:
    """Register executors: where a run's batched stages run (``--executor NAME``).

    :param register: as for :func:`afcheck_register_formalisers`; ``factory(options)``
        receives the ``--executor-opt k=v`` options and returns an
        :class:`afcheck.runtime.executor.Executor`. Its ``run(stage, chunks, call)`` yields
        one :class:`~afcheck.runtime.executor.Done` per chunk as each finishes, in any order;
        the runtime caches every chunk the moment it comes back, so cache, resume and
        progress work the same wherever the chunks run. An executor that runs chunks in
        another process never ships a live component: it sends the stage's
        :class:`~afcheck.runtime.executor.Recipe` and builds a copy there with
        ``stage.rebuild()``. The factory is called once per run, when the work starts (it may
        connect to a cluster); the name is checked before any work. Put the options an
        executor takes in ``details``: ``afcheck list executors`` shows them.

    The core registers ``local`` (each chunk in this process). Called the first time any
    executor is looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_executors(register):
            register("ray", lazy("afcheck_ray.executor:RayExecutor"),
                     description="chunks on the actors of a Ray cluster",
                     details={"options": "address, cpus, gpus, actors, stages, timeout_s"})
    """


@hookspec
def afcheck_register_commands(register: Register) -> None:
    """Register subcommands of the ``afcheck`` command line (``afcheck lean setup`` …).

    :param register: ``register(name, configure, *, description="")``.
        ``configure(parser)`` receives the subcommand's own ``argparse.ArgumentParser`` (its
        prog and help are set), adds the arguments (and sub-subcommands), and returns the
        handler, called as ``handler(args: argparse.Namespace) -> int`` with the parsed
        arguments; it returns the exit status. :func:`afcheck.options.add_component_options`
        adds the ``--<kind>`` / ``--<kind>-opt k=v[,k=v]`` pair a run takes.

    Called when ``afcheck`` is run with a first argument that names a command (a command wins
    over a folder of the same name; ``afcheck ./lean`` runs the folder). Not firstresult.
    Example::

        @hookimpl
        def afcheck_register_commands(register):
            def configure(parser):
                parser.add_argument("action", choices=["setup", "doctor"])
                return lambda args: setup() if args.action == "setup" else doctor()
            register("lean", configure, description="set up and inspect Lean")
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
def afcheck_configure(run: Run) -> None:
    """Called once per run, when its options are parsed and before any suite is collected.

    :param run: the :class:`afcheck.run.Run`: ``run.option(name)`` reads an option,
        ``run.plugins`` builds components, ``run.add_reporter(reporter, destination)`` asks for
        a reporter's output at the end of the run.

    Historic. Not firstresult.
    """


# -------------------------------------------------------------------------------------------
# Event hooks: observers. They receive frozen records and must not change them.
# -------------------------------------------------------------------------------------------


@hookspec
def afcheck_step_result(result: object, method: str) -> None:
    """Called once per test case, as soon as its result is known.

    :param result: the method's result record. For ``faithfulness`` it is an
        ``afcheck_faithfulness.records.CaseResult``: both inputs, both formalisations with
        their raw outputs, both verdicts and the derived outcome and failure events.
    :param method: the name of the evaluation method that produced it.

    Results arrive in batch order, before the pytest items report. Not firstresult.
    Example::

        @hookimpl
        def afcheck_step_result(result, method):
            if method == "faithfulness" and result.silent_correction:
                print("sycophantic:", result.case_id)
    """


@hookspec
def afcheck_run_summary(summary: RunSummary) -> None:
    """Called once at the end of a run with its results and metrics.

    :param summary: the :class:`afcheck.summary.RunSummary`: every item with its status,
        each method's metrics, the gate decision, the run's configuration and timings.

    Not firstresult.
    """
