"""Built-in afcheck plugin: lean (checkers ``lean`` and ``kimina``, provers ``lean-tactics``
and ``deepseek``, the ``judge`` kind and its judges, the ``lean_session`` kind and its
``repl`` session, the ``afcheck lean setup|doctor|audit`` command)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Kinds, Register, lazy

if TYPE_CHECKING:
    from afcheck.budget import Budget
    from afcheck.options import OptionGroup
    from afcheck.run import Run


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    from afcheck_lean import hookspecs
    from afcheck_lean.kinds import JUDGE, LEAN_SESSION

    kinds.add(JUDGE, hookspecs)
    kinds.add(LEAN_SESSION, hookspecs)


@hookimpl
def afcheck_register_lean_sessions(register: Register) -> None:
    register("repl", lazy("afcheck_lean.factories:make_session"),
             description="a pool of lean-interact REPLs in the pinned project",
             details={"backend": "lean-interact"})


@hookimpl
def afcheck_register_judges(register: Register) -> None:
    from afcheck_lean.judges import make

    for name, description, details in (
        ("comparator", "the Lean FRO's Comparator: both modules built in landrun, exported "
         "with lean4export, replayed (nanoda too where present), statement and axioms compared",
         {"needs": "comparator, lean4export, landrun built with the project's Lean"}),
        ("safeverify", "SafeVerify: Environment.replay of the compiled solution against the "
         "compiled challenge, standard axioms only", {"needs": "safe_verify built with the "
                                                       "project's Lean"}),
        ("lean4checker", "lean4checker's replay of the compiled solution, then afcheck's "
         "comparison", {"needs": "lean4checker and afcheck_judge built with the project's "
                        "Lean"}),
        ("afcheck", "afcheck's own judge (AfcheckJudge.lean): replay, statement, axioms",
         {"needs": "afcheck lean setup (built with the project's Lean)"}),
    ):
        register(name, make(name), description=description, details=details)


@hookimpl
def afcheck_register_checkers(register: Register) -> None:
    register("lean", lazy("afcheck_lean.factories:make_checker"),
             description="type-check statements with `by sorry` in Lean",
             details={"backend": "lean-interact (url=: a kimina-lean-server)"},
             budget=_budget)
    register("kimina", lazy("afcheck_lean.factories:make_kimina_checker"),
             description="the lean checker on a kimina-lean-server (url=http://HOST:PORT)",
             details={"backend": "kimina-lean-server",
                      "options": "url, kimina_key_env, batch_size, retries, http_timeout_s, "
                      "timeout_s, workers, header, statement_s"},
             budget=_budget)


def _budget(budget: Budget, options: Mapping[str, str]) -> Mapping[str, str]:
    from afcheck_lean.factories import budget_options

    return budget_options(budget, options)


_VOLATILE = ("statement_s",)
""":data:`afcheck_lean.factories.VOLATILE`, named here so that registering imports no Lean
client (``tests/test_lean_backend_plugin.py`` checks they agree)."""


@hookimpl
def afcheck_register_provers(register: Register) -> None:
    register("lean-tactics", lazy("afcheck_lean.factories:make_tactics"),
             description="fixed tactic portfolio on the statement and its negation, kernel-checked",
             details={"backend": "lean-interact"}, budget=_budget, volatile=_VOLATILE)
    register("deepseek", lazy("afcheck_lean.factories:make_deepseek"),
             description="DeepSeek-Prover-V2 pass@k, every candidate kernel-checked",
             details={"backend": "lean-interact", "model": "deepseek-ai/DeepSeek-Prover-V2-7B"},
             budget=_budget, volatile=_VOLATILE)


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("lean", _lean_command,
             description="set up and inspect the Lean backend; audit proofs without Lean")


def _lean_command(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_lean.commands import configure

    return configure(parser)


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--lean-sandbox", choices=("auto", "on", "off"), section="components",
                    help="isolate every Lean process with bubblewrap: auto (where it works, "
                    "else one warning), on (fail without it), off (limits, cleared "
                    "environment and timeouts only); default auto")
    group.addoption("--trust", choices=("judge", "repl"), section="components",
                    help="which Lean verdicts count: judge (default: only those a judge "
                    "certified) or repl (also what a Lean REPL accepted unjudged)")


@hookimpl
def afcheck_configure(run: Run) -> None:
    from afcheck_lean.judge import set_default_trust
    from afcheck_lean.sandbox import set_default_mode

    set_default_mode(str(run.option("lean_sandbox", "auto")))
    set_default_trust(str(run.option("trust", "judge")))
