"""The ``chains`` evaluation method on the run API (:mod:`afcheck.method`).

Component kinds: ``fol_formaliser`` (NL → FOL of a whole chain: ``--fol-formaliser
rules|reference|replay|llm``, else the model of ``--formaliser``, else the suite's, else
``rules``) and ``fol_prover`` (``--fol-prover eprover|z3-fol``, default ``eprover``).

Every case of a run is decided in one batch (:func:`afcheck_chains.pipeline.run_chains`): one
formaliser call per attempt, one prover call per stage, each distinct problem of a stage asked
once, and every answer kept in the run's result cache by its TPTP text
(:mod:`afcheck_chains.backends`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from afcheck_fol.formaliser import FORMALISER_LIMITS
from afcheck_fol.kinds import FOL_FORMALISER, FOL_PROVER

from afcheck.budget import Budget
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.runtime import Runtime
from afcheck.suites import Record
from afcheck_chains import outcome as outcomes
from afcheck_chains import records
from afcheck_chains.backends import RuntimeFormaliser, RuntimeProver
from afcheck_chains.formalise import TRANSLATE_BUDGET
from afcheck_chains.metrics import GATES, ChainsSummary, summarise
from afcheck_chains.pipeline import run_chains
from afcheck_chains.records import ChainCase, ChainRecord, ChainResult

MAX_ATTEMPTS = 3
"""NL→FOL attempts per chain (the seed's limit) for formalisers that sample."""

PROVER_LIMITS = ("the prover's own limits (eprover: 10 s CPU, 25 s wall, 2,048 MiB a problem; "
                 "z3-fol: 5 s a check)")
"""What bounds a prover call when ``chains.prove`` sets no bound."""


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
            formaliser = RuntimeFormaliser(runtime, formalisers[formaliser_choice],
                                           runtime.budget(self.name, "translate"))
            prover = RuntimeProver(runtime, provers[prover_choice])
            results = run_chains([cases[i].spec.record for i in indices], formaliser, prover,
                                 max_attempts=MAX_ATTEMPTS)
            for index, result in zip(indices, results, strict=True):
                out[index] = result
                if notify is not None:
                    notify(result)
        return [out[i] for i in range(len(cases))]

    def outcome(self, result: ChainResult) -> ItemOutcome:
        return outcomes.outcome(result)

    def timings(self, result: ChainResult) -> Mapping[str, float]:
        if not result.verified:
            return {}
        return {"fol-proof": result.fresh_seconds}

    def to_json(self, result: ChainResult) -> JsonObject:
        return records.to_json(result)

    def from_json(self, data: JsonObject) -> ChainResult:
        """The inverse of :meth:`to_json` (:func:`afcheck_chains.records.from_json`)."""
        return records.from_json(data)

    def summarise(self, items: Sequence[ItemResult[ChainResult]]) -> ChainsSummary:
        return summarise([item.result for item in items])
