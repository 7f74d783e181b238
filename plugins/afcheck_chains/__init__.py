"""Built-in afcheck plugin: chains — multi-step ATP verification of reasoning chains (MATP).

A reasoning chain over premises is formalised into first-order logic and every step is
labelled by a theorem prover (True / False / Unknown / Error); the proof path and the chain's
class T1–T4 / F1–F2 follow the seed's Algorithms 1–3. See :mod:`afcheck_chains.method`.

Registered here: the command ``afcheck chains generate`` (the rebuilt classification set) and
the FOL provers ``eprover`` and ``z3-fol`` (through ``afcheck_register_fol_provers`` once the
core declares it; :func:`afcheck_chains.provers.make_fol_prover` meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from afcheck import hookimpl


@hookimpl
def afcheck_register_commands(register: Callable[..., None]) -> None:
    register("chains", _chains_command,
             description="chains method tools: generate the T1–T4 classification set")


def _chains_command(argv: list[str]) -> int:
    from afcheck_chains.classification import command

    return command(argv)


def _eprover(options: Mapping[str, str]) -> Any:
    from afcheck_chains.provers import make_eprover

    return make_eprover(options)


def _z3_fol(options: Mapping[str, str]) -> Any:
    from afcheck_chains.provers import make_z3_fol

    return make_z3_fol(options)


def afcheck_register_fol_provers(register: Callable[..., None]) -> None:
    """FOL provers (a component kind of the chains method); the core wires the hook."""
    register("eprover", _eprover,
             description="E prover, complete strategy (no SInE); SZS statuses; CPU/wall limits",
             details={"install": "pip install 'afcheck[fol]'",
                      "options": "cpu_limit_s (10), wall_limit_s, memory_mb (2048), jobs, binary"})
    register("z3-fol", _z3_fol,
             description="z3 over an uninterpreted sort; unsat of axioms ∧ ¬goal is Theorem",
             details={"install": "pip install 'afcheck[fol]'", "options": "timeout_ms (5000)"})
