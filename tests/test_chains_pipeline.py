"""The chains pipeline end to end on small items: classes, retries, outcomes, metrics."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from afcheck_chains.formalise import FolChains, RuleFormaliser, read_chain, task
from afcheck_chains.llm import prompt_text
from afcheck_chains.metrics import macro_f1, metrics, summarise
from afcheck_chains.outcome import outcome
from afcheck_chains.pipeline import run_chains
from afcheck_chains.records import ChainRecord, GoldFol, Label, to_json
from afcheck_fol.formaliser import read_answer
from afcheck_fol.formalisers import PresetFormaliser, ReferenceFormaliser
from afcheck_fol.presets import GENERIC
from afcheck_fol.provers import make_fol_prover

from afcheck.llm import Completion, Prompt, Sampling
from afcheck.types import Location

PREMISES = ("Jompuses are yumpuses.", "Yumpuses are not sour.", "Numpuses are sour.",
            "Max is a jompus.")
T, F, U = Label.TRUE, Label.FALSE, Label.UNKNOWN


def chain(rid: str, steps: Sequence[str], answer: Label | None = F, label: Label = F,
          conclusion: str = "Max is sour.", **extra: object) -> ChainRecord:
    return ChainRecord(id=rid, dataset="demo", premises=PREMISES, conclusion=conclusion,
                       label=label, steps=tuple(steps), answer=answer,
                       location=Location("demo.jsonl", 1), **extra)  # type: ignore[arg-type]


GOOD = ("Max is a jompus.", "Jompuses are yumpuses.", "Max is a yumpus.",
        "Yumpuses are not sour.", "Max is not sour.")


@pytest.fixture(scope="module")
def prover():  # type: ignore[no-untyped-def]
    return make_fol_prover("z3-fol")


def test_classes_outcomes_and_metrics(prover) -> None:  # type: ignore[no-untyped-def]
    items = [
        chain("t1", GOOD, gold_step_labels=(T,) * 5),
        chain("t2", (*GOOD[:2], "Max is a wumpus.", *GOOD[2:]),
              gold_step_labels=(T, T, U, T, T, T)),
        chain("t3", ("Max is a jompus.", "Numpuses are sour.")),
        chain("t4", ("Max is sour.",), expected_class="T4"),
        chain("f1", GOOD, answer=T),
        chain("f2", ("Max is sour.",), answer=T),
        chain("only", (), answer=None),
    ]
    results = run_chains(items, FolChains(RuleFormaliser()), prover)
    assert [r.chain_class for r in results] == ["T1", "T2", "T3", "T4", "F1", "F2", None]
    assert results[-1].analysis == "label_only"
    statuses = [outcome(r).status.value for r in results]
    assert statuses == ["passed", "failed", "failed", "passed", "failed", "failed", "passed"]
    message = outcome(results[1]).message
    assert message.startswith("expected T1, got class T2") and "[T T U T T T]" in message
    assert "*path*" in outcome(results[0]).details
    record = to_json(results[1])
    assert record["class"] == "T2" and record["steps"][2]["label"] == "Unknown"  # type: ignore[index]
    assert record["steps"][2]["gold"] == "Unknown"  # type: ignore[index]
    assert "z3" in str(record["prover"])
    json.dumps(record)
    summary = metrics(results)
    assert summary.classes["T1"].count == 1 and summary.classes["T1"].total == 6
    assert summary.step_macro_f1 == 1.0 and summary.step_pairs == 11
    assert summary.execution_rate.value == 1.0 and summary.execution_accuracy.value == 1.0
    assert summary.expected["T4"].count == 1
    assert summary.analysis_failure.count == 0
    assert 0 < summary.classes["T1"].interval.low < summary.classes["T1"].interval.high < 1


def test_untranslatable_or_mismatched_items_are_analysis_failures(prover) -> None:  # type: ignore[no-untyped-def]
    items = [chain("odd", ("Max might be sour.",)),
             chain("wrong-gold", GOOD, label=T)]
    odd, wrong = run_chains(items, FolChains(RuleFormaliser()), prover)
    assert odd.analysis == "analysis_failure" and "Max might be sour." in odd.reason
    assert wrong.analysis == "analysis_failure"
    assert "labels the conclusion False, the gold label is True" in wrong.reason
    assert wrong.attempts == 1  # a deterministic formaliser is asked once
    assert outcome(odd).status.value == "failed"
    summary = metrics([odd, wrong])
    assert summary.analysis_failure.value == 1.0
    assert summary.execution_rate.count == 1 and summary.execution_accuracy.count == 0
    # Nothing executed: no accuracy is printed, rather than 0% in [0, 100].
    (line,) = summarise([odd]).lines()
    assert "EA: no chain was executed" in line and "EA 0.0%" not in line
    assert summarise([]).lines() == ["chains: N=0: nothing was evaluated"]


def test_reference_fol_is_read_in_folio_syntax(prover) -> None:  # type: ignore[no-untyped-def]
    fol = GoldFol(premises=("∀x (Jompus(x) → Yumpus(x))", "∀x (Yumpus(x) → ¬Sour(x))",
                            "∀x (Numpus(x) → Sour(x))", "Jompus(max)"),
                  conclusion="Sour(max)", steps=("Yumpus(max)", "¬Sour(max)"))
    good = chain("ref", ("Max is a yumpus.", "Max is not sour."), gold_fol=fol)
    folio = chain("folio", (), answer=None, gold_fol=GoldFol(premises=fol.premises))
    broken = chain("broken", ("Max is a yumpus.", "Max is not sour."),
                   gold_fol=GoldFol(fol.premises, "Sour(max", fol.steps))
    r_good, r_folio, r_broken = run_chains([good, folio, broken],
                                            FolChains(ReferenceFormaliser()), prover)
    assert r_good.chain_class == "T1"
    assert r_folio.analysis == "analysis_failure" and "no reference FOL for the conclusion" in (
        r_folio.reason)
    assert r_broken.analysis == "analysis_failure" and "conclusion" in r_broken.reason


ENDLESS = ("∀x ¬Lt(x, x)", "∀x ∀y ∀z ((Lt(x, y) ∧ Lt(y, z)) → Lt(x, z))", "∀x ∃y Lt(x, y)")
"""A strict order without a largest element: only infinite models, which z3 cannot build."""


@pytest.mark.heavy
def test_prover_limits_leave_items_undecided_not_unknown() -> None:
    prover = make_fol_prover("z3-fol", {"timeout_ms": "300"})
    step_limit = chain("step", ("Ann is quiet.",), answer=T, label=T,
                       conclusion="Nothing is below itself.",
                       gold_fol=GoldFol(ENDLESS, "∀x ¬Lt(x, x)", ("Quiet(ann)",)))
    conclusion_limit = chain("conclusion", (), answer=None, label=U, conclusion="Ann is quiet.",
                             gold_fol=GoldFol(ENDLESS, "Quiet(ann)", ()))
    first, second = run_chains([step_limit, conclusion_limit],
                               FolChains(ReferenceFormaliser()), prover)
    assert first.analysis == "undecided" and first.step_labels == (Label.LIMIT,)
    assert first.reason.startswith("no decision for step(s) 1 (Limit")
    assert second.analysis == "undecided" and "prover limit" in second.reason
    assert [outcome(r).status.value for r in (first, second)] == ["skipped", "skipped"]
    summary = metrics([first, second])
    assert summary.undecided.count == 2 and summary.analysis_failure.count == 0


# -- the LLM formaliser: the seed's prompt, its output format and the retries ----------------


def _answer(premises: Sequence[str], conclusions: Sequence[str]) -> str:
    lines = ["Premises:"] + [f"{f} ::: ({i}) s" for i, f in enumerate(premises, 1)]
    lines += ["Conclusions:"] + [f"{f} ::: ({i}) s" for i, f in enumerate(conclusions, 1)]
    return "\n".join(lines)


FOL_PREMISES = ["∀x (Jompus(x) → Yumpus(x))", "∀x (Yumpus(x) → ¬Sour(x))",
                "∀x (Numpus(x) → Sour(x))", "Jompus(max)"]
RIGHT = _answer(FOL_PREMISES, ["Yumpus(max)", "Sour(max)"])
WRONG = _answer(FOL_PREMISES[:2] + ["∀x (Numpus(x) → Sour(x))", "Numpus(max)"],
                ["Yumpus(max)", "Sour(max)"])   # Max a numpus: the conclusion reads True
UNPARSABLE = _answer(FOL_PREMISES[:3] + ["Jompus(max"], ["Yumpus(max)", "Sour(max)"])


class ScriptedClient:
    """Speaks :class:`afcheck.llm.LLMClient`; answers each prompt from a script per item."""

    backend = "http"
    model = "scripted"

    def __init__(self, script: dict[str, list[str]]) -> None:
        self.script = script
        self.calls: list[list[Prompt]] = []

    def generate(self, prompts: Sequence[Prompt], sampling: Sampling) -> list[list[Completion]]:
        self.calls.append(list(prompts))
        out = []
        for prompt in prompts:
            text = prompt.messages[-1].content
            rid = "a" if "(1) Max is a yumpus." in text else "b"
            answers = self.script[rid]
            out.append([Completion(answers.pop(0) if answers else "", "stop")])
        return out


def test_regenerates_up_to_three_times_then_gives_up(prover) -> None:  # type: ignore[no-untyped-def]
    a = chain("a", ("Max is a yumpus.",))
    b = chain("b", ("Max is a jompus.",))
    client = ScriptedClient({"a": [UNPARSABLE, WRONG, RIGHT], "b": [WRONG, WRONG, WRONG]})
    formaliser = FolChains(PresetFormaliser(GENERIC, client, Sampling(max_tokens=512)))
    ra, rb = run_chains([a, b], formaliser, prover)
    assert [len(c) for c in client.calls] == [2, 2, 2]  # one batched call per attempt
    assert ra.attempts == 3 and ra.chain_class == "T3"  # one True step, no path to ¬C
    assert not ra.first_executed
    assert rb.analysis == "analysis_failure" and rb.attempts == 3
    assert "labels the conclusion True, the gold label is False" in rb.reason
    assert rb.first_executed and not rb.first_matched
    seeds = {p.seed for call in client.calls for p in call}
    assert len(seeds) == 6  # every attempt of every item has its own seed
    assert len(rb.raw_outputs) == 3


def test_prompt_lists_steps_then_conclusion_and_output_needs_every_line() -> None:
    record = chain("a", ("Max is a yumpus.",))
    text = prompt_text(record)
    assert "Premises:\n(1) Jompuses are yumpuses." in text
    assert text.endswith("Conclusions:\n(1) Max is a yumpus.\n(2) Max is sour.")
    short = _answer(FOL_PREMISES, ["Yumpus(max)"])
    assert "no formula for conclusions [2]" in read_answer(task(record), short).error

    def read(text: str) -> object:
        return read_chain(record, read_answer(task(record), text)).chain

    assert read("<think>x</think>\n" + RIGHT) is not None


def test_macro_f1_counts_misses_of_each_gold_class() -> None:
    assert macro_f1([(T, T), (F, F), (U, U)]) == 1.0
    assert macro_f1([(T, T), (F, Label.LIMIT)]) == pytest.approx((1.0 + 0.0) / 2)
    assert macro_f1([]) is None


def test_a_cut_off_response_is_its_own_outcome_not_a_translation_failure(prover) -> None:  # type: ignore[no-untyped-def]
    """A response that stopped mid-sentence at the generation limit would fail translation;
    it is reported as cut off instead, and is not formalised at all."""
    items = [chain("cut", ("Max is a jompus.", "Jompuses are yum"), answer=None,
                   cut_off="finish_reason 'length'"),
             chain("ok", GOOD)]
    cut, ok = run_chains(items, FolChains(RuleFormaliser()), prover)
    assert cut.analysis == "cut_off" and not cut.verified and cut.translation is None
    assert not cut.first_executed
    assert "generation limit (finish_reason 'length')" in cut.reason
    assert outcome(cut).status.value == "skipped"
    assert ok.chain_class == "T1"
    summary = metrics([cut, ok])
    assert summary.cut_off.count == 1 and summary.analysis_failure.count == 0
    assert summary.execution_rate is not None and summary.execution_rate.count == 1


def test_a_chain_without_an_answer_says_so_and_keeps_its_step_labels(prover) -> None:  # type: ignore[no-untyped-def]
    [result] = run_chains([chain("silent", GOOD, answer=None, gold_step_labels=(T,) * 5)],
                          FolChains(RuleFormaliser()), prover)
    assert result.analysis == "no_answer" and result.chain_class is None
    assert outcome(result).status.value == "skipped"
    assert outcome(result).message.startswith("no answer found in the response")
    assert result.step_labels == (T,) * 5
    assert metrics([result]).no_answer.count == 1
    assert "ends mid-sentence" not in result.reason
    [cut] = run_chains([chain("cut?", GOOD, answer=None,
                              raw_steps=("Max is a jompus. Jompuses are yumpuses. Max is a",))],
                       FolChains(RuleFormaliser()), prover)
    assert cut.analysis == "no_answer" and "ends mid-sentence" in cut.reason
    assert "record its finish_reason" in cut.reason


def test_repeated_statements_are_dropped_in_fol_before_labelling(prover) -> None:  # type: ignore[no-untyped-def]
    """Two wordings of one rule are one statement in FOL: the second goes before labelling,
    with its gold label, and the record says which step it repeated."""
    steps = ("Max is a jompus.", "Jompuses are yumpuses.", "Every jompus is a yumpus.",
             "Max is a yumpus.", "Yumpuses are not sour.", "Max is not sour.")
    [result] = run_chains([chain("rep", steps, gold_step_labels=(T, T, U, T, T, T))],
                          FolChains(RuleFormaliser()), prover)
    assert result.repeated == ((3, 2, "Every jompus is a yumpus."),)
    assert tuple(s.text for s in result.steps) == GOOD
    assert tuple(s.gold for s in result.steps) == (T,) * 5
    assert result.chain_class == "T1" and result.step_labels == (T,) * 5
    assert "dropped step 3 (its FOL repeats step 2)" in outcome(result).details
    record = to_json(result)
    assert record["repeated_steps"] == [{"step": 3, "repeats": 2,
                                         "text": "Every jompus is a yumpus."}]
    assert len(record["steps"]) == 5  # type: ignore[arg-type]


def test_path_dependence_finds_paths_valid_only_by_restating_the_conclusion(prover) -> None:  # type: ignore[no-untyped-def]
    """A T2 chain whose only path step is the conclusion itself (Algorithm 3 accepts it)
    against a T1 chain whose path proves the conclusion from its own facts."""
    items = [chain("echo", ("Max is a wumpus.", "Max is not sour.")),
             chain("t1", GOOD)]
    echo, good = run_chains(items, FolChains(RuleFormaliser()), prover)
    assert echo.chain_class == "T2" and echo.valid_path
    assert echo.restating == (1,)
    assert echo.restatement_only is True
    assert "valid only by restating the conclusion" in outcome(echo).details
    assert good.chain_class == "T1" and good.restatement_only is False
    summary = metrics([echo, good])
    assert (summary.t2_restatement.count, summary.t2_restatement.total) == (1, 1)
    assert (summary.valid_restatement.count, summary.valid_restatement.total) == (1, 2)
    assert to_json(echo)["restatement_only"] is True


def test_fol_bleu_and_logical_equivalence_where_the_data_gives_gold_fol(prover) -> None:  # type: ignore[no-untyped-def]
    gold = GoldFol(("∀x (Jompus(x) → Yumpus(x))", "∀x (Yumpus(x) → ¬Sour(x))",
                    "∀x (Numpus(x) → Sour(x))", "IsJompus(max)"), "Sour(max)",
                   tuple(None for _ in GOOD))
    [result] = run_chains([chain("g", GOOD, gold_fol=gold)], FolChains(RuleFormaliser()),
                          prover)
    assert [q.role for q in result.quality] == [
        "premise 1", "premise 2", "premise 3", "premise 4", "conclusion"]
    assert [q.equivalent for q in result.quality] == [True, True, True, False, True]
    summary = metrics([result])
    assert summary.logical_equivalence is not None
    assert (summary.logical_equivalence.count, summary.logical_equivalence.total) == (4, 5)
    assert summary.fol_bleu is not None and 0.6 < summary.fol_bleu < 1
    assert to_json(result)["fol_quality"][3] == {  # type: ignore[index]
        "role": "premise 4", "bleu": result.quality[3].bleu, "equivalent": False}
