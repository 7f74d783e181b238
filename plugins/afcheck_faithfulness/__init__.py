"""Built-in afcheck plugin: the ``faithfulness`` method (FaithformBench, seed 000), its report
view and its options: ``--keep-ineffective`` and the gate flags ``--max-uflb --max-fpr
--max-fnr --max-affr --min-fi``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register, lazy

if TYPE_CHECKING:
    from afcheck.options import OptionGroup
    from afcheck.registry import Kinds
    from afcheck.run import Run


@hookimpl
def afcheck_addkinds(kinds: Kinds) -> None:
    from afcheck_faithfulness import hookspecs
    from afcheck_faithfulness.kinds import DETECTOR, PERTURBER

    kinds.add(PERTURBER, hookspecs)
    kinds.add(DETECTOR, hookspecs)


@hookimpl
def afcheck_register_methods(register: Register) -> None:
    from afcheck_faithfulness.method import Faithfulness

    register("faithfulness", lambda options: Faithfulness(),
             description="perturb each step, formalise both versions, prove or refute both "
             "(FNR FPR AFFR UFLB TPR FI)")


@hookimpl
def afcheck_register_views(register: Register) -> None:
    register("faithfulness", lazy("afcheck_faithfulness.view:FaithfulnessView",
                                  takes_options=False),
             description="UFLB and contingency charts, metrics by dataset; each case with "
             "both texts, statements and verdicts; compare by failure event")


@hookimpl
def afcheck_addoption(group: OptionGroup) -> None:
    group.addoption("--steps", metavar="MODE", section="steps and perturbation",
                    help="how suites split chains into steps (ProcessBench: paragraph, "
                    "claims, dag)")
    group.addoption("--seed", type=int, metavar="N", section="steps and perturbation",
                    help="seed of the perturbers (default: the suite's, else 0)")
    group.addoption("--keep-ineffective", action="store_true", section="steps and perturbation",
                    help="keep perturbations known to be ineffective in FPR")
    group.addoption("--detectors", metavar="all|none|NAME[,NAME…]", section="components",
                    help="semantic-drift detectors run on every checked statement; warnings "
                    "never change a verdict (default: all)")
    for flag, metric in _GATE_FLAGS.items():
        relation = ">" if flag.startswith("max") else "<"
        group.addoption(f"--{flag}", metavar="X", section="gates and baseline",
                        help=f"gate: fail the run when {metric} {relation} X")


_GATE_FLAGS = {"max-uflb": "UFLB", "max-fpr": "FPR", "max-fnr": "FNR", "max-affr": "AFFR",
               "min-fi": "FI"}
"""The method's own gate flags, each a shorthand for ``--gate faithfulness.METRIC<=X``."""


@hookimpl
def afcheck_configure(run: Run) -> None:
    for flag, metric in _GATE_FLAGS.items():
        value = run.option(flag)
        if value is not None:
            run.add_gate(metric, "<=" if flag.startswith("max") else ">=", value, f"--{flag}",
                         method="faithfulness")
