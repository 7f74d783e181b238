"""The ``chains`` evaluation method on the run API (:mod:`afcheck.method`).

Component kinds: ``fol_formaliser`` (NL → FOL of a whole chain: ``--fol-formaliser
rules|reference|replay|llm``, else the model of ``--formaliser``, else the suite's, else
``rules``) and ``fol_prover`` (``--fol-prover eprover|z3-fol``, default ``eprover``).

Every case of a run is decided in one batch (:func:`afcheck_chains.method.run_chains`): one
formaliser call per attempt, one prover call per stage, each problem answered once per run
and kept in the run's result cache by its TPTP text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from afcheck_fol.formaliser import FORMALISER_LIMITS, deterministic, formalise_cached
from afcheck_fol.kinds import FOL_FORMALISER, FOL_PROVER
from afcheck_fol.provers import FolProver, ProverResult, Szs
from afcheck_fol.tptp import Problem

from afcheck.budget import Budget
from afcheck.components import Built
from afcheck.errors import LoadError
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.runtime import Runtime
from afcheck.suites import Record, SuiteSpec
from afcheck_chains import outcome as outcomes
from afcheck_chains.formalise import TRANSLATE_BUDGET, Formalised, read_chains, task
from afcheck_chains.method import ChainResult, run_chains
from afcheck_chains.records import ChainRecord
from afcheck_chains.summary import GATES, ChainsSummary, summarise
from afcheck_chains.verify import ProofCache

MAX_ATTEMPTS = 3
"""NL→FOL attempts per chain (the seed's limit) for formalisers that sample."""

PROVER_LIMITS = ("the prover's own limits (eprover: 10 s CPU, 25 s wall, 2,048 MiB a problem; "
                 "z3-fol: 5 s a check)")
"""What bounds a prover call when ``chains.prove`` sets no bound."""


@dataclass(frozen=True)
class ChainCase:
    record: ChainRecord
    formaliser: Choice
    prover: Choice


class _RuntimeProver:
    """A FOL prover whose calls go through the run's result cache, keyed by TPTP text."""

    def __init__(self, runtime: Runtime, choice: Choice) -> None:
        self.runtime = runtime
        built = runtime.component(FOL_PROVER, choice)
        # The runtime's cache takes a component of any type; this one is a FOL prover.
        self.built = cast("Built[object]", built)
        self.inner = cast(FolProver, built.component)
        self.name = self.inner.name
        self.version = self.inner.version
        self.fingerprint = self.built.fingerprint

    def prove(self, problems: Sequence[Problem]) -> list[ProverResult]:
        name = self.name  # the crash record names the prover, not this object (shipped)
        batch = self.runtime.cached(
            "fol-proof", self.built, list(problems),
            key=lambda p: (p.text,),
            # The prover's own method, not a closure over this object and its runtime: an
            # executor that sends the call to another process sends the prover's recipe.
            call=self.inner.prove,
            load=lambda d: ProverResult(Szs(str(d["status"])), str(d["prover"]),
                                        float(str(d["seconds"])), str(d["detail"]), cached=True),
            dump=lambda r: {"status": r.status.value, "prover": r.prover,
                            "seconds": r.seconds, "detail": r.detail},
            # A limit depends on the machine's load: ask again next run.
            keep=lambda r: not r.status.limit,
            # A problem the prover crashed on has no decision (never kept), and says why.
            failed=lambda problem, reason: ProverResult(Szs.UNKNOWN, name, 0.0, reason),
        )
        return batch.results


class _RuntimeFormaliser:
    """The run's FOL formaliser asked for whole chains, one task per chain, through the run's
    result cache (:func:`afcheck_fol.formaliser.formalise_cached`)."""

    def __init__(self, runtime: Runtime, choice: Choice, budget: Budget) -> None:
        self.runtime = runtime
        self.choice = choice
        self.budget = budget
        self.deterministic = deterministic(
            runtime.component(FOL_FORMALISER, choice).component)

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        answers = formalise_cached(self.runtime, self.choice, [task(r) for r in records],
                                   attempt)
        return read_chains(records, answers, self.budget)


class ChainsMethod(MethodBase[ChainCase, ChainResult]):
    """MATP: label each step with a prover, build the proof path, classify the chain."""

    name = "chains"
    version = "1"
    kinds = ("fol_formaliser", "fol_prover")
    defaults: Mapping[str, object] = {"fol_formaliser": "rules", "fol_prover": "eprover"}
    gates: Mapping[str, str] = GATES
    next_steps: Mapping[str, str] = {
        "model run": "afcheck {paths} --formaliser frontier "
                     "--formaliser-opt model=NAME,base_url=http://127.0.0.1:8000/v1",
        "gate in CI": "afcheck {paths} --gate 'chains.execution_accuracy>=0.9' "
                      "--json results.json --junitxml results.xml",
    }
    """What to try after a first run: a model's own formalisation of the chains (behind an
    OpenAI-compatible server; FOLIO's training split needs one), a gate."""
    budgets: Mapping[str, Budget] = {"prove": Budget(otherwise=PROVER_LIMITS),
                                     "translate": TRANSLATE_BUDGET,
                                     "formalise": Budget(otherwise=FORMALISER_LIMITS)}
    """``formalise``: one FOL formaliser request for one chain (each attempt its own), its
    ``seconds`` carried to the formaliser like ``prove``'s to the prover (an LLM over HTTP: the
    whole request, retries included); a request stopped there is that attempt's backend
    error, never cached, and leaves the chain undecided when it was the last attempt.
    ``translate``: the size of one formula of the formaliser's answer, checked before it is
    parsed; over it the item is undecided with the reason. ``prove``: one prover call on one
    problem (a step, the conclusion under the premises or under the proof path). Its
    ``seconds`` and ``memory_mb`` reach the prover as the options that bound it
    (:meth:`afcheck.runtime.Runtime.budgeted`); unset, the prover's own limits hold. A problem
    stopped at a limit labels its step ``Limit`` with the reason and leaves its chain
    undecided; such a result is never cached."""

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, ChainCase]]:
        if not isinstance(record, ChainRecord):
            raise TypeError(f"the chains method reads chains, got {type(record).__name__}")
        yield record.case_name, ChainCase(record, selection.choice("fol_formaliser"),
                                          selection.choice("fol_prover"))

    def choices(self, case: ChainCase) -> Iterable[tuple[str, Choice]]:
        return (("fol_formaliser", case.formaliser), ("fol_prover", case.prover))

    def run(self, cases: Sequence[Case[ChainCase]], runtime: Runtime,
            notify: Callable[[ChainResult], None] | None) -> list[ChainResult]:
        groups: dict[tuple[Choice, Choice], list[int]] = {}
        for index, case in enumerate(cases):
            groups.setdefault((case.spec.formaliser, case.spec.prover), []).append(index)
        # The budget reaches each prover before anything is built: a budget the prover
        # cannot hold is refused before a model is loaded.
        provers = {prover: runtime.budgeted(FOL_PROVER, prover, self.name, "prove")
                   for _, prover in groups}
        formalisers = {formaliser: runtime.budgeted(FOL_FORMALISER, formaliser, self.name,
                                                    "formalise")
                       for formaliser, _ in groups}
        out: dict[int, ChainResult] = {}
        for (formaliser_choice, prover_choice), indices in groups.items():
            formaliser = _RuntimeFormaliser(runtime, formalisers[formaliser_choice],
                                            runtime.budget(self.name, "translate"))
            prover = _RuntimeProver(runtime, provers[prover_choice])
            results = run_chains([cases[i].spec.record for i in indices], formaliser, prover,
                                 cache=ProofCache(), max_attempts=MAX_ATTEMPTS)
            for index, result in zip(indices, results, strict=True):
                out[index] = result
                if notify is not None:
                    notify(result)
        return [out[i] for i in range(len(cases))]

    def outcome(self, result: ChainResult) -> ItemOutcome:
        return outcomes.outcome(result)

    def timings(self, result: ChainResult) -> Mapping[str, float]:
        if result.verdict is None:
            return {}
        return {"fol-proof": result.verdict.fresh_seconds}

    def to_json(self, result: ChainResult) -> JsonObject:
        return outcomes.to_json(result)

    def summarise(self, items: Sequence[ItemResult[ChainResult]]) -> ChainsSummary:
        return summarise([item.result for item in items])


class ChainsSuite:
    """The suite kind ``chains`` (see :mod:`afcheck_chains.suite`)."""

    name = "chains"
    method = "chains"

    def load(self, spec: SuiteSpec) -> Iterable[Record | LoadError]:
        from afcheck_chains.suite import load

        return load(spec.root, spec.source, spec.data, spec.options)
