"""A tiny afcheck plugin used by the runner's tests: a formaliser and a prover for ground
arithmetic claims such as ``2 + 3 = 5``, decided exactly with fractions.

- formaliser ``arith``: the step's claim becomes ``theorem t : <claim> := by sorry``; a step
  containing ``NOAF`` is AF-Fail, one containing ``NOTC`` becomes TC-Fail through the
  ``arith`` checker.
- prover ``arith``: evaluates the claim (``=``, ``<``, ``≤`` and ``+ - * /``); a claim with
  ``?`` is INCONCLUSIVE.
- perturber ``bump``: adds 1 to the last number.

A step containing ``WARN`` makes the formaliser issue a ``UserWarning`` naming the step.
"""

from __future__ import annotations

import ast
import re
import time
import warnings
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from afcheck_faithfulness.records import Edit, Perturbation, Step

from afcheck import hookimpl
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    ProofTask,
    Verdict,
    VerdictKind,
)

CALLS: list[tuple[str, int]] = []
"""(stage, batch size) of every call, so tests can check batching."""


class ArithFormaliser:
    """Options: ``delay`` (seconds per request, to make runs killable mid-way) and ``log``
    (a file that gets one line per request formalised, across processes)."""

    name = "arith"
    version = "1"

    def __init__(self, delay: float = 0.0, log: str = "") -> None:
        self.delay = delay
        self.log = log

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        CALLS.append(("formalise", len(requests)))
        if self.delay:
            time.sleep(self.delay * len(requests))
        if self.log:
            with open(self.log, "a", encoding="utf-8") as handle:
                handle.writelines(f"{r.key}\n" for r in requests)
        out = []
        for r in requests:
            if "WARN" in r.text:
                warnings.warn(f"arith: a warning while formalising {r.key}", UserWarning,
                              stacklevel=1)
            if "NOAF" in r.text:
                out.append(Formalisation(r.key, self.name, FormalisationStatus.AF_FAIL,
                                         reason="no claim found"))
                continue
            claim = r.text.split(":")[-1].strip().rstrip(".")
            statement = f"theorem t : {claim} := by sorry"
            out.append(Formalisation(r.key, self.name, FormalisationStatus.OK,
                                     statement=statement, raw_output=statement))
        return out


class ArithChecker:
    name = "arith"
    version = "1"

    def check(self, formalisations: Sequence[Formalisation]) -> list[Formalisation]:
        CALLS.append(("check", len(formalisations)))
        return [replace(f, status=FormalisationStatus.TC_FAIL, reason="type mismatch")
                if f.ok and "NOTC" in (f.statement or "") else f for f in formalisations]


class ArithProver:
    name = "arith"
    version = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        CALLS.append(("prove", len(tasks)))
        return [self._one(t) for t in tasks]

    def _one(self, task: ProofTask) -> Verdict:
        claim = task.statement.split(" : ", 1)[1].rsplit(":=", 1)[0].strip()
        if "?" in claim:
            return Verdict(VerdictKind.INCONCLUSIVE, self.name, reason="unknown symbol '?'")
        try:
            truth = _decide(claim)
        except (ValueError, SyntaxError, ZeroDivisionError) as exc:
            return Verdict(VerdictKind.INCONCLUSIVE, self.name, reason=str(exc))
        kind = VerdictKind.PROVED if truth else VerdictKind.REFUTED
        return Verdict(kind, self.name, evidence="evaluated exactly")


def _decide(claim: str) -> bool:
    text = claim.replace("≤", "<=").replace("≥", ">=").replace("≠", "!=").replace("=", "==")
    text = text.replace("<==", "<=").replace(">==", ">=").replace("!==", "!=")
    tree = ast.parse(text, mode="eval").body
    if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
        raise ValueError("not a comparison")
    left, right = _value(tree.left), _value(tree.comparators[0])
    op = type(tree.ops[0])
    return {ast.Eq: left == right, ast.NotEq: left != right, ast.Lt: left < right,
            ast.LtE: left <= right, ast.Gt: left > right, ast.GtE: left >= right}[op]


def _value(node: ast.expr) -> Fraction:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return Fraction(node.value)
    if isinstance(node, ast.BinOp):
        a, b = _value(node.left), _value(node.right)
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.Div: lambda: a / b}
        if type(node.op) in ops:
            return ops[type(node.op)]()
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand)
    raise ValueError("unsupported expression")


class BumpPerturber:
    name = "bump"
    version = "1"

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        CALLS.append(("perturb", len(steps)))
        out = []
        for step in steps:
            numbers = list(re.finditer(r"\d+", step.text))
            if not numbers:
                out.append(Perturbation(step.id, self.name, None, "none", reason="no number"))
                continue
            m = numbers[-1]
            new = str(int(m.group()) + 1)
            out.append(Perturbation(step.id, self.name,
                                    step.text[: m.start()] + new + step.text[m.end():],
                                    "number", Edit(m.start(), m.end(), m.group(), new)))
        return out


@hookimpl
def afcheck_register_formalisers(register):  # type: ignore[no-untyped-def]
    register("arith", lambda options: ArithFormaliser(float(options.get("delay", 0)),
                                                      options.get("log", "")),
             description="test formaliser")


@hookimpl
def afcheck_register_checkers(register):  # type: ignore[no-untyped-def]
    register("arith", lambda options: ArithChecker(), description="test checker")


@hookimpl
def afcheck_register_provers(register):  # type: ignore[no-untyped-def]
    register("arith", lambda options: ArithProver(), description="test prover")


@hookimpl
def afcheck_register_perturbers(register):  # type: ignore[no-untyped-def]
    register("bump", lambda options: BumpPerturber(), description="test perturber")


class BrokenProver:
    """Raises on every batch, as a buggy plugin would."""

    name = "broken"
    version = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        CALLS.append(("prove", len(tasks)))
        raise KeyError("oops")


@hookimpl(specname="afcheck_register_provers")
def _register_broken(register):  # type: ignore[no-untyped-def]
    register("broken", lambda options: BrokenProver(), description="test prover that raises")


class NoneProver:
    """Returns None for the first task of each batch, breaking the prover contract."""

    name = "none"
    version = "1"

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict | None]:
        CALLS.append(("prove", len(tasks)))
        return [None, *ArithProver().prove(tasks[1:])]


@hookimpl(specname="afcheck_register_provers")
def _register_none(register):  # type: ignore[no-untyped-def]
    register("none", lambda options: NoneProver(), description="test prover that gives None")
