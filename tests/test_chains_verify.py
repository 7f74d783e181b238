"""Algorithms 1–3: step labels, the proof path, batching (each distinct problem of a call
asked once)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from afcheck_chains.controlled import translate
from afcheck_chains.records import Label
from afcheck_chains.verify import (
    FormalChain,
    Query,
    combine,
    decide,
    verify_chains,
)
from afcheck_fol.formula import Pred, Var
from afcheck_fol.provers import FolProver, ProverResult, Szs, make_fol_prover
from afcheck_fol.tptp import Problem, SymbolMap

PREMISES = tuple(translate(s) for s in (
    "Jompuses are yumpuses.", "Each yumpus is a dumpus.", "Dumpuses are not sour.",
    "Numpuses are sour.", "Max is a jompus.",
))


def _r(status: Szs) -> ProverResult:
    return ProverResult(status, "test", 0.0)


@pytest.mark.parametrize(("pos", "neg", "label"), [
    (Szs.THEOREM, Szs.COUNTER_SATISFIABLE, Label.TRUE),
    (Szs.COUNTER_SATISFIABLE, Szs.THEOREM, Label.FALSE),
    (Szs.COUNTER_SATISFIABLE, Szs.COUNTER_SATISFIABLE, Label.UNKNOWN),
    (Szs.THEOREM, Szs.THEOREM, Label.ERROR),
    (Szs.CONTRADICTORY_AXIOMS, Szs.CONTRADICTORY_AXIOMS, Label.ERROR),
    (Szs.COUNTER_SATISFIABLE, Szs.GAVE_UP, Label.LIMIT),
    (Szs.RESOURCE_OUT, Szs.COUNTER_SATISFIABLE, Label.LIMIT),
    (Szs.THEOREM, Szs.TIMEOUT, Label.TRUE),
    (Szs.INPUT_ERROR, Szs.THEOREM, Label.INVALID),
])
def test_algorithm_1_reads_both_queries(pos: Szs, neg: Szs, label: Label) -> None:
    assert combine(_r(pos), _r(neg)) is label


@pytest.fixture(params=["z3-fol", "eprover"])
def prover(request: pytest.FixtureRequest) -> FolProver:
    from afcheck_fol.provers import find_eprover

    if request.param == "eprover" and find_eprover() is None:
        pytest.skip("E is not installed")
    return make_fol_prover(request.param)


def test_statements_get_true_false_unknown_and_error(prover: FolProver) -> None:
    queries = [Query(PREMISES, translate(s), SymbolMap()) for s in
               ("Max is a dumpus.", "Max is sour.", "Max is a wumpus.")]
    inconsistent = PREMISES + (translate("Max is sour."),)
    queries.append(Query(inconsistent, translate("Max is a numpus."), SymbolMap()))
    free = Query(PREMISES, Pred("Sour", (Var("y"),)), SymbolMap())
    labels = [v.label for v in decide([*queries, free], prover)]
    assert labels == [Label.TRUE, Label.FALSE, Label.UNKNOWN, Label.ERROR, Label.INVALID]


def test_proof_path_keeps_new_facts_and_skips_restatements(prover: FolProver) -> None:
    steps = tuple(translate(s) for s in (
        "Max is a jompus.", "Jompuses are yumpuses.", "Max is a yumpus.",
        "Max is a jompus.",                 # restated: adds nothing
        "Max is sour.",                     # False: never on the path
        "Each yumpus is a dumpus.", "Max is a dumpus.", "Dumpuses are not sour.",
        "Max is not sour.",
    ))
    chain = FormalChain(PREMISES, translate("Max is sour."), steps)
    [verdict] = verify_chains([chain], [Label.FALSE], prover)
    assert verdict.conclusion.label is Label.FALSE
    assert verdict.step_labels[4] is Label.FALSE
    # 0 and 1 are new; 2 follows from them; 3 is a restatement; 5 new; 6 follows; 7 new;
    # 8 follows from the path.
    assert verdict.path == (0, 1, 5, 7)
    assert verdict.path_conclusion is not None
    assert verdict.path_conclusion.label is Label.FALSE


def test_path_without_the_key_rule_cannot_decide_the_conclusion(prover: FolProver) -> None:
    steps = tuple(translate(s) for s in ("Max is a jompus.", "Jompuses are yumpuses.",
                                         "Max is a yumpus.", "Numpuses are sour."))
    chain = FormalChain(PREMISES, translate("Max is sour."), steps)
    [verdict] = verify_chains([chain], [Label.FALSE], prover)
    assert verdict.step_labels == (Label.TRUE,) * 4
    assert verdict.path_conclusion is not None
    assert verdict.path_conclusion.label is Label.UNKNOWN


class CountingProver:
    """A real prover that counts calls and problems, to check batching and the cache."""

    name = "counting"

    def __init__(self) -> None:
        self.inner = make_fol_prover("z3-fol")
        self.version = self.inner.version
        self.fingerprint = self.inner.fingerprint
        self.calls: list[int] = []

    def prove(self, problems: Sequence[Problem]) -> list[ProverResult]:
        self.calls.append(len(problems))
        return self.inner.prove(problems)


def test_one_call_per_stage_and_identical_problems_asked_once() -> None:
    prover = CountingProver()
    steps = tuple(translate(s) for s in ("Max is a yumpus.", "Max is a yumpus.",
                                         "Max is a dumpus."))
    chains = [FormalChain(PREMISES, translate("Max is sour."), steps)] * 3
    verdicts = verify_chains(chains, [Label.FALSE] * 3, prover)
    # conclusions, steps, three path rounds, the path's conclusion.
    assert len(prover.calls) == 6
    # Each distinct problem once: 2 for the conclusion and 2 for the two distinct steps.
    assert prover.calls[:2] == [2, 4]
    # A repeated problem gets the one answer asked for it.
    assert verdicts[0].steps[0].positive is verdicts[2].steps[1].positive


def test_a_call_with_no_problem_asks_the_prover_nothing() -> None:
    prover = CountingProver()
    assert decide([], prover) == []
    assert prover.calls == []


def test_a_step_stating_the_conclusion_is_not_asked_again() -> None:
    """The last step of a gold chain is its conclusion: P ⊢ C and the path's conclusion are
    decided once each, by the queries that already asked them."""
    prover = CountingProver()
    steps = tuple(translate(s) for s in (
        "Max is a jompus.", "Jompuses are yumpuses.", "Max is a yumpus.",
        "Each yumpus is a dumpus.", "Max is a dumpus.", "Dumpuses are not sour.",
        "Max is not sour."))
    chain = FormalChain(PREMISES, translate("Max is not sour."), steps)
    [verdict] = verify_chains([chain], [Label.TRUE], prover)
    # P ⊢ C; the six other steps; seven path rounds; no call for the path's conclusion.
    assert prover.calls[:2] == [2, 12] and len(prover.calls) == 2 + 7
    assert verdict.step_labels == (Label.TRUE,) * 7
    assert verdict.steps[6].label is verdict.conclusion.label
    assert verdict.path == (0, 1, 3, 5)
    assert verdict.path_conclusion is not None
    assert verdict.path_conclusion.label is Label.TRUE
    # Given again, the answers cost no more prover time.
    assert verdict.steps[6].fresh_seconds == 0 and verdict.path_conclusion.fresh_seconds == 0
    assert verdict.steps[6].seconds == verdict.conclusion.seconds
