"""The run's FOL formaliser and FOL prover as the chains pipeline asks them
(:func:`afcheck_chains.pipeline.run_chains`): whole chains, and batches of TPTP problems,
each answer kept in the run's one result cache (:meth:`afcheck.runtime.Runtime.cached`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from afcheck_fol.formaliser import deterministic, formalise_cached
from afcheck_fol.kinds import FOL_FORMALISER, FOL_PROVER
from afcheck_fol.provers import FolProver, ProverResult, Szs
from afcheck_fol.tptp import Problem

from afcheck.budget import Budget
from afcheck.components import Built
from afcheck.method import Choice
from afcheck.runtime import Runtime
from afcheck_chains.formalise import Formalised, read_chains, task
from afcheck_chains.records import ChainRecord


class RuntimeProver:
    """A FOL prover whose calls go through the run's result cache, keyed by TPTP text: a
    problem answered in an earlier stage or an earlier run is read back, marked ``cached``."""

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


class RuntimeFormaliser:
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
