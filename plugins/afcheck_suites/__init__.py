"""Built-in suite kinds: ``jsonl`` (steps written for afcheck), ``processbench`` (the public
ProcessBench chains) and ``faithformbench`` (the released FaithformBench rows); and the
``afcheck dag`` command, which writes the DAG split that ``--steps dag`` reads."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_suite_kinds(register: Register) -> None:
    from afcheck_suites import faithformbench, jsonl, processbench

    register("jsonl", lambda options: jsonl.JsonlSuite(),
             description="one step per line, written for afcheck (suites/examples)")
    register("processbench", lambda options: processbench.ProcessBenchSuite(),
             description="ProcessBench error-free chains (Qwen/ProcessBench), by split",
             details={"source": processbench.HUB_REPO})
    register("faithformbench", lambda options: faithformbench.FaithformBenchSuite(),
             description="released FaithformBench rows (step_content, is_perturbed, …)")


@hookimpl
def afcheck_register_suites(register: Register) -> None:
    from afcheck_suites.builtin import suites

    for name, path in suites().items():
        register(name, lambda options, path=path: path, description="shipped with afcheck")


@hookimpl
def afcheck_register_commands(register: Register) -> None:
    register("dag", _configure_dag,
             description="split ProcessBench chains into DAGs with an LLM, for --steps dag")


def _configure_dag(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    from afcheck_suites.dag import DESCRIPTION, configure

    parser.description = DESCRIPTION
    return configure(parser)
