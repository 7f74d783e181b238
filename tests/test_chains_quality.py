"""Translation quality against gold FOL (FOL-BLEU, logical equivalence) and statement identity."""

from __future__ import annotations

import math

import pytest
from afcheck_chains.quality import bleu, canonical, compare, fol_tokens, restates
from afcheck_chains.records import ChainRecord, GoldFol, Label
from afcheck_chains.verify import FormalChain
from afcheck_fol.language import FOLIO
from afcheck_fol.syntax import parse

from afcheck.types import Location


def f(text: str):  # type: ignore[no-untyped-def]
    return parse(text, FOLIO)


def test_fol_tokens_split_symbols_names_and_punctuation_one_way() -> None:
    assert fol_tokens(f("∀x (Jompus(x) → ¬Shy(x))")) == [
        "∀", "x", "(", "Jompus", "(", "x", ")", "→", "¬", "Shy", "(", "x", ")", ")"]
    # Spacing and redundant parentheses do not count: both print one way.
    assert fol_tokens(f("∀x ((Jompus(x))→¬Shy(x))")) == fol_tokens(
        f("∀x (Jompus(x) → ¬Shy(x))"))


def test_bleu_is_papineni_bleu_with_the_order_capped_by_the_shorter_length() -> None:
    same = list("abcdef")
    assert bleu(same, same) == 1.0
    # 1-gram 4/4, 2-gram 2/3, 3-gram 1/2, 4-gram 0/1 -> 0 without smoothing.
    assert bleu(list("abxd"), list("abcd")) == 0.0
    # Two tokens: order 2; precisions 1/2 and 0/1 -> 0. One token, matched: order 1.
    assert bleu(["P"], ["P", "Q"]) == pytest.approx(math.exp(1 - 2))
    # 1-gram 3/3, 2-gram 2/2, 3-gram 1/1, reference of 4: brevity penalty e^(1 - 4/3).
    assert bleu(list("abc"), list("abcd")) == pytest.approx(math.exp(1 - 4 / 3))
    assert bleu([], list("ab")) == 0.0


def test_canonical_forms_ignore_bound_variable_names_and_double_negation() -> None:
    assert canonical(f("∀x (P(x) → Q(x))")) == canonical(f("∀y (P(y) → Q(y))"))
    assert canonical(f("¬¬P(max)")) == canonical(f("P(max)"))
    assert canonical(f("∀x (P(x) → Q(x))")) != canonical(f("∀x (Q(x) → P(x))"))


def test_a_step_restates_the_conclusion_or_its_negation_alone_or_as_a_conjunct() -> None:
    conclusion = f("Sour(max)")
    assert restates(f("¬Sour(max)"), conclusion)
    assert restates(f("Sour(max)"), conclusion)
    assert restates(f("(∀x (Tumpus(x) → ¬Sour(x))) ∧ ¬Sour(max)"), conclusion)
    assert not restates(f("Tumpus(max)"), conclusion)


def test_compare_scores_each_sentence_with_gold_fol() -> None:
    record = ChainRecord(
        "q", "d", ("Jompuses are yumpuses.", "Max is a jompus."), "Max is a yumpus.",
        Label.TRUE, ("Max is a yumpus.",), Label.TRUE, Location("q.jsonl", 1),
        gold_fol=GoldFol(("∀x (Jompus(x) → Yumpus(x))", "IsJompus(max)"), "Yumpus(max)",
                         ("Yumpus(max)",)))
    chain = FormalChain((f("∀y (Jompus(y) → Yumpus(y))"), f("Jompus(max)")),
                        f("Yumpus(max)"), (f("Yumpus(max)"),))
    scored = {q.role: q for q in compare(record, chain)}
    assert set(scored) == {"premise 1", "premise 2", "step 1", "conclusion"}
    # Equivalent though the bound variable differs: LE says so, FB sees the letter.
    assert scored["premise 1"].equivalent is True and scored["premise 1"].bleu < 1
    # A renamed predicate: neither equivalent nor textually equal.
    assert scored["premise 2"].equivalent is False and scored["premise 2"].bleu < 1
    assert scored["conclusion"].equivalent is True and scored["conclusion"].bleu == 1.0


def test_compare_skips_what_has_no_gold_or_does_not_line_up() -> None:
    record = ChainRecord("q", "d", ("A.", "B."), "C.", Label.TRUE, (), Label.TRUE,
                         Location("q.jsonl", 1),
                         gold_fol=GoldFol(("P(a)", "Q(a) ∧"), None, ()))
    # Three premise formulas for two gold ones: premises do not line up.
    chain = FormalChain((f("P(a)"), f("Q(a)"), f("R(a)")), f("S(a)"), ())
    assert compare(record, chain) == ()
    two = FormalChain((f("P(a)"), f("Q(a)")), f("S(a)"), ())
    # The second gold formula does not parse: only the first is compared.
    assert [q.role for q in compare(record, two)] == ["premise 1"]
