"""Synthetic result files of any size, for the report's tests and benchmark.

The cases are real :class:`afcheck_faithfulness.records.CaseResult` records written by the
result file's own functions (:mod:`afcheck.result_file`), so the document has exactly the
shape ``afcheck --json`` writes; only the contents are made up (deterministically from
``seed``): ProcessBench-like chains of about eight steps over four datasets, a regex-style
numeric edit, Lean statements, model outputs of about a kilobyte, and outcomes drawn with
FaithformBench-like frequencies.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from afcheck.lean.printer import print_statement
from afcheck.types import Formalisation, FormalisationStatus, Verdict, VerdictKind
from afcheck_faithfulness.records import CaseResult, Edit, Perturbation, Step

DATASETS = ("gsm8k", "math", "olympiadbench", "omnimath")
_OUTCOMES = (
    # (z, z̄) or None for an AF failure on that side; weights roughly as FaithformBench Fig. 5
    (("proved", "refuted"), 45),
    (("proved", "proved"), 17),
    (("refuted", "refuted"), 5),
    (("refuted", "proved"), 1),
    (("proved", None), 12),
    ((None, None), 12),
    (("inconclusive", "refuted"), 8),
)


_WORDS = tuple(
    "let the step say we need show that total amount each remaining value equals sum product "
    "natural real number type cast hypothesis conclusion theorem lemma proof norm_num simp "
    "linarith ring field_simp omega decide rfl exact apply have show by sorry from using "
    "first second third then so hence therefore because since where which with and or not "
    "all some any every integer rational divide multiply add subtract square root power "
    "fraction decimal percent units cost price speed distance time rate apples books".split())


def results(n: int, seed: int = 0, formaliser: str = "synthetic") -> list[CaseResult]:
    """``n`` case results."""
    rng = random.Random(seed)
    choices = [pair for pair, _ in _OUTCOMES]
    weights = [w for _, w in _OUTCOMES]
    out: list[CaseResult] = []
    chain: list[str] = []
    problem = 0
    for _ in range(n):
        if not chain or rng.random() < 0.125:
            problem += 1
            chain = []
        dataset = DATASETS[problem % len(DATASETS)]
        a, b = rng.randint(2, 999), rng.randint(2, 999)
        text = (f"Step {len(chain) + 1}: the total is \\({a} + {b} = {a + b}\\), so the "
                f"remaining amount is {a + b} units.")
        wrong = a + b + rng.choice((-10, -1, 1, 2, 10))
        start = text.index(f"= {a + b}") + 2
        edit = Edit(start, start + len(str(a + b)), str(a + b), str(wrong))
        perturbed = text[:edit.start] + edit.new + text[edit.end:]
        node = str(len(chain) + 1)
        step = Step(id=f"syn/{dataset}-{problem}/{node}", suite="syn", dataset=dataset,
                    problem_id=f"{dataset}-{problem}", node_id=node, text=text,
                    context=tuple(chain))
        chain.append(text)
        z, z_bar = rng.choices(choices, weights)[0]
        original = _formalisation(step, "original", formaliser, z, f"{a} + {b} = {a + b}", rng)
        other = _formalisation(step, "perturbed", formaliser, z_bar, f"{a} + {b} = {wrong}", rng)
        out.append(CaseResult(
            case_id=f"suites/syn::{step.problem_id}/{node}", step=step,
            perturbation=Perturbation(step.id, "regex", perturbed, "number", edit),
            original=original, perturbed=other,
            z=_verdict(z, rng) if original.ok else None,
            z_bar=_verdict(z_bar, rng) if other.ok else None))
    return out


def document(n: int, seed: int = 0, formaliser: str = "synthetic") -> dict[str, Any]:
    """The JSON result document of :func:`results`, as ``afcheck --json`` writes it."""
    config = {"suites": {"syn": {"perturber": "regex", "formaliser": formaliser,
                                 "prover": "smt"}}}
    return result_document(results(n, seed, formaliser), config)


def result_document(cases: Sequence[CaseResult], config: Mapping[str, object]) -> dict[str, Any]:
    """The JSON result document of faithfulness case results, written the way a run writes
    it: through the run summary, the ``faithfulness`` method and the result file's document."""
    from afcheck.method import AnyMethod, Case, ItemResult, MethodSummary
    from afcheck.result_file import document as json_document
    from afcheck.summary import RunSummary
    from afcheck_faithfulness.method import Faithfulness
    from afcheck_faithfulness.metrics import summarise

    method = Faithfulness()
    items: list[ItemResult[object]] = [
        ItemResult(Case(r.case_id, r.step.case_name, method.name, r.step.suite, r.step.dataset,
                        r.step.source, None), r, method.outcome(r), r.status)
        for r in cases]
    # The run holds methods and summaries through these protocols too (registries are typed
    # by kind); the frozen summary's read-only ``method`` field is what mypy objects to.
    summaries = {method.name: cast(MethodSummary, summarise(list(cases)))}
    implementations = {method.name: cast(AnyMethod, method)}
    summary = RunSummary(items, summaries, config, implementations=implementations)
    return json_document(summary)


def _formalisation(step: Step, side: str, formaliser: str, verdict: str | None, claim: str,
                   rng: random.Random) -> Formalisation:
    key = f"{step.id}#{side}"
    if verdict is None:
        return Formalisation(key, formaliser, FormalisationStatus.AF_FAIL,
                             raw_output="I cannot formalise this. " * rng.randint(2, 40),
                             reason="no Lean code block in the output")
    statement = print_statement(f"step_{step.problem_id.replace('-', '_')}_{step.node_id}", (),
                                claim)
    # Varied words, so that the outputs compress about as much as real model text does.
    thinking = " ".join(rng.choice(_WORDS) + rng.choice(("", "", "", ",", ".", f" {a}"))
                        for a in rng.choices(range(1000), k=rng.randint(100, 260)))
    raw = f"{thinking}\n```lean\nimport Mathlib\n\n{statement}\n```"
    return Formalisation(key, formaliser, FormalisationStatus.OK, statement,
                         "import Mathlib", raw)


def _verdict(kind: str | None, rng: random.Random) -> Verdict | None:
    if kind is None:
        return None
    if kind == "refuted":
        return Verdict(VerdictKind.REFUTED, "smt", reason="the statement is unsat",
                       elapsed_s=rng.random() / 100)
    if kind == "proved":
        return Verdict(VerdictKind.PROVED, "smt", reason="hypotheses ∧ ¬conclusion is unsat",
                       elapsed_s=rng.random() / 100)
    return Verdict(VerdictKind.INCONCLUSIVE, "smt", reason="z3 returned unknown (timeout)")
