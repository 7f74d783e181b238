"""The hooks of the Lean plugin's kinds (:data:`afcheck_lean.kinds.JUDGE`,
:data:`afcheck_lean.kinds.LEAN_SESSION`), declared by its plugin as
:func:`afcheck.hookspecs.afcheck_addkinds` lets any plugin declare its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck.hookspecs import hookspec

if TYPE_CHECKING:
    from afcheck.registry import Register


@hookspec
def afcheck_register_judges(register: Register) -> None:
    """Register judges: components that certify Lean proofs from compiled artefacts.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the
        factory receives the Lean options (``project``, ``lake``, ``sandbox`` …) and returns
        a :class:`afcheck_lean.judge.Judge`, or raises :class:`afcheck.errors.UsageError`
        with one line saying why it cannot serve here (not built, built for another Lean).
        ``judge(cases)`` receives (:class:`afcheck_lean.judge.Challenge`,
        :class:`afcheck_lean.judge.Solution`) pairs and answers one
        :class:`afcheck_lean.judge.Judgement` per pair. A judge never reads what the
        candidate printed: its answer comes from a process that loads the compiled modules
        without running their code (see :mod:`afcheck_lean.judge`).

    The Lean provers take one with ``--prover-opt judge=NAME`` (default ``auto``: the first
    built-in judge that serves the project's Lean). Called the first time any judge is
    looked up. Not firstresult. Example::

        @hookimpl
        def afcheck_register_judges(register):
            register("mine", lambda options: MyJudge(options))
    """


@hookspec
def afcheck_register_lean_sessions(register: Register) -> None:
    """Register Lean sessions: components that check Lean commands in the pinned project.

    :param register: as for :func:`afcheck.hookspecs.afcheck_register_formalisers`; the
        factory receives the Lean options (``project``, ``lake``, ``timeout_s``, ``workers``
        …, see :mod:`afcheck_lean.settings`) and returns a
        :class:`afcheck.lean.session.LeanSession`, or raises
        :class:`afcheck.errors.MissingDependency` in one line naming ``afcheck lean setup``
        when Lean is not there. ``run(commands)`` answers one
        :class:`~afcheck.lean.session.Answer` (Lean's messages) or
        :class:`~afcheck.lean.session.NoAnswer` (a timeout, a crash) per command.

    A component that checks Lean itself builds one with the ``build`` its factory is given:
    ``build("lean_session", "repl", options)`` (the ``beq-plus`` criterion, whose
    ``session=NAME`` option chooses it; default ``repl``, lean-interact REPLs). Inside a run
    a session is one of the run's components: built once, recorded in the run record and
    closed at its end. Called the first time any session is looked up. Not firstresult.
    Example::

        @hookimpl
        def afcheck_register_lean_sessions(register):
            register("remote", lambda options: MySession(options))
    """
