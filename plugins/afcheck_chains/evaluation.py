"""The ``chains`` evaluation method on the run API (:mod:`afcheck.method`).

Component kinds: ``fol_prover`` (``--fol-prover eprover|z3-fol``, default ``eprover``). The
chain formaliser (NL → FOL of a whole chain) is chosen with the method's own options
``--chain-formaliser rules|reference|llm`` and ``--chain-formaliser-opt K=V``, else the
suite's ``[afcheck.options] formaliser``, else ``rules``.

Every case of a run is decided in one batch (:func:`afcheck_chains.method.run_chains`): one
formaliser call per attempt, one prover call per stage, each problem answered once per run
and kept in the run's result cache by its TPTP text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from afcheck.components import Built, describe
from afcheck.errors import LoadError
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, Selection
from afcheck.options import parse_kv
from afcheck.registry import FOL_PROVER
from afcheck.runtime import Runtime
from afcheck.suites import Record, SuiteSpec
from afcheck_chains import outcome as outcomes
from afcheck_chains.formalise import ChainFormaliser, Formalised, make_chain_formaliser
from afcheck_chains.llm import LlmChainFormaliser, ModelAnswer, prompt_text
from afcheck_chains.method import ChainResult, run_chains
from afcheck_chains.provers import FolProver, ProverResult, Szs
from afcheck_chains.records import ChainRecord
from afcheck_chains.summary import GATES, ChainsSummary, summarise
from afcheck_chains.tptp import Problem
from afcheck_chains.verify import ProofCache

MAX_ATTEMPTS = 3
"""NL→FOL attempts per chain (the seed's limit) for formalisers that sample."""


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
        batch = self.runtime.cached(
            "fol-proof", self.built, list(problems),
            key=lambda p: (p.text,),
            call=lambda chunk: self.inner.prove(chunk),
            load=lambda d: ProverResult(Szs(str(d["status"])), str(d["prover"]),
                                        float(str(d["seconds"])), str(d["detail"]), cached=True),
            dump=lambda r: {"status": r.status.value, "prover": r.prover,
                            "seconds": r.seconds, "detail": r.detail},
            # A limit depends on the machine's load: ask again next run.
            keep=lambda r: not r.status.limit,
        )
        return batch.results


class _CachedLlmFormaliser:
    """The ``llm`` formaliser with its answers kept in the run's result cache.

    The cache key is the prompt, the record id and the attempt (the sampling seed derives
    from both), so a rerun asks the model only for what it has not answered yet.
    """

    deterministic = False

    def __init__(self, inner: LlmChainFormaliser, runtime: Runtime, choice: Choice) -> None:
        self.inner = inner
        self.runtime = runtime
        self.built = cast("Built[object]", describe(inner, choice.name, dict(choice.options)))
        self.name, self.version, self.fingerprint = inner.name, inner.version, inner.fingerprint

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        batch = self.runtime.cached(
            "chain-formalise", self.built, list(records),
            key=lambda r: (r.id, prompt_text(r), attempt),
            call=lambda chunk: self.inner.answers(chunk, attempt),
            load=lambda d: ModelAnswer(str(d["text"]), str(d["error"])),
            dump=lambda a: {"text": a.text, "error": a.error},
            keep=lambda a: not a.error,
        )
        return [self.inner.read(r, a) for r, a in zip(records, batch.results, strict=True)]


class ChainsMethod:
    """MATP: label each step with a prover, build the proof path, classify the chain."""

    name = "chains"
    version = "1"
    kinds = ("fol_prover",)
    defaults: Mapping[str, object] = {"fol_prover": "eprover"}
    gates: Mapping[str, str] = GATES

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, ChainCase]]:
        if not isinstance(record, ChainRecord):
            raise TypeError(f"the chains method reads chains, got {type(record).__name__}")
        name = selection.option("chain_formaliser") or selection.suite.options.get(
            "formaliser") or "rules"
        raw = selection.option("chain_formaliser_opt") or []
        options = parse_kv(list(raw) if isinstance(raw, (list, tuple)) else [str(raw)],
                           "chain-formaliser")
        yield record.case_name, ChainCase(record, Choice.of(str(name), options),
                                          selection.choice("fol_prover"))

    def choices(self, case: ChainCase) -> Iterable[tuple[str, Choice]]:
        return (("fol_prover", case.prover),)

    def run(self, cases: Sequence[Case[ChainCase]], runtime: Runtime,
            notify: Callable[[ChainResult], None] | None) -> list[ChainResult]:
        groups: dict[tuple[Choice, Choice], list[int]] = {}
        for index, case in enumerate(cases):
            groups.setdefault((case.spec.formaliser, case.spec.prover), []).append(index)
        out: dict[int, ChainResult] = {}
        for (formaliser_choice, prover_choice), indices in groups.items():
            formaliser: ChainFormaliser = make_chain_formaliser(
                formaliser_choice.name, dict(formaliser_choice.options))
            if isinstance(formaliser, LlmChainFormaliser):
                formaliser = _CachedLlmFormaliser(formaliser, runtime, formaliser_choice)
            prover = _RuntimeProver(runtime, prover_choice)
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
