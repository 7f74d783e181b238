"""Splitting ProcessBench paragraphs into claims, declaratives and context."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from afcheck_suites.claims import CLAIM, CONTEXT, DECLARATIVE, split_claims
from hypothesis import given
from hypothesis import strategies as st

PARAGRAPH = (
    "Let's denote the length of the red rope as \\(R\\) and the blue rope as \\(B\\). "
    "First, the red rope is four times the blue rope: \\(R = 4B\\). "
    "Substituting into the third equation: \\[R + B + Y = 37\\] \\[4B + B + (B + 7) = 37\\] "
    "Divide by 6: \\[B = 5\\] Therefore, the red rope is 20 cm, e.g. 2.5 times 8."
)


def test_units_and_kinds() -> None:
    claims = split_claims(PARAGRAPH)
    assert [(c.kind, c.text) for c in claims] == [
        (DECLARATIVE, "Let's denote the length of the red rope as \\(R\\) and the blue rope as "
                      "\\(B\\)."),
        (CLAIM, "First, the red rope is four times the blue rope: \\(R = 4B\\)."),
        (CLAIM, "Substituting into the third equation: \\[R + B + Y = 37\\]"),
        (CLAIM, "\\[4B + B + (B + 7) = 37\\]"),
        (CLAIM, "Divide by 6: \\[B = 5\\]"),
        (CONTEXT, "Therefore, the red rope is 20 cm, e.g. 2.5 times 8."),
    ]
    assert [c.index for c in claims] == list(range(len(claims)))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Let \\(x\\) be the number of apples.", DECLARATIVE),
        ("Let x = 5.", DECLARATIVE),
        ("Suppose \\(y = 2x\\).", DECLARATIVE),
        ("So the total is \\(3 + 4 = 7\\).", CLAIM),
        ("- Total books = 2 + 1 = 3", CLAIM),
        ("Since \\(3 \\le 4\\), we stop.", CLAIM),
        ("Therefore, the answer is \\(\\boxed{6}\\).", CONTEXT),
        ("Let's break it down step by step.", CONTEXT),
        ("Then a -> b is an arrow.", CONTEXT),
    ],
)
def test_classification(text: str, kind: str) -> None:
    assert [c.kind for c in split_claims(text)] == [kind]


def test_display_after_colon_line_joins_its_lead_in() -> None:
    text = "The number of arrangements is:\n\\[ 3! = 6 \\]\nWithin each couple, swap."
    claims = split_claims(text)
    assert claims[0].text == "The number of arrangements is:\n\\[ 3! = 6 \\]"
    assert claims[0].kind == CLAIM and claims[1].kind == CONTEXT


def test_sentence_dots_inside_math_and_numbers_do_not_split() -> None:
    claims = split_claims("We get \\(x = 2.5. \\) and 3.5 more. Next step.")
    assert [c.text for c in claims] == ["We get \\(x = 2.5. \\) and 3.5 more.", "Next step."]


_pieces = st.lists(
    st.sampled_from(
        ["Let \\(x\\) be 3.", "So \\(3 + 4 = 7\\).", "\\[ 6B = 30 \\]", "Divide by 6:", "\n",
         "- Total = 2 + 1 = 3", "e.g. this.", "It costs $5.", "$x = 2$ holds.", "1. First,", " ",
         "Mr. Smith has 2.5 kg!", "\\(a\\)", "Why?", "$$ y = 1 $$"]
    ),
    max_size=12,
)


@given(_pieces)
def test_split_is_lossless_and_stable(pieces: list[str]) -> None:
    text = " ".join(pieces)
    claims = split_claims(text)
    assert re.sub(r"\s", "", "".join(c.text for c in claims)) == re.sub(r"\s", "", text)
    assert all(c.text == c.text.strip() and c.text for c in claims)
    assert split_claims(text) == claims


def _error_free(data_dir: Path, name: str) -> list[dict[str, Any]]:
    chains = json.loads((data_dir / "processbench" / f"{name}.json").read_text())
    return [c for c in chains if c["label"] == -1]


@pytest.mark.realdata
def test_gsm8k_claim_counts(data_dir: Path) -> None:
    chains = _error_free(data_dir, "gsm8k")
    assert len(chains) == 193
    kinds = [c.kind for chain in chains for step in chain["steps"] for c in split_claims(step)]
    # Measured: 854 claims, 45 declaratives, 1,350 context units.
    assert kinds.count(CLAIM) >= 800
    assert 20 <= kinds.count(DECLARATIVE) <= 100
    again = [c.kind for chain in chains for step in chain["steps"] for c in split_claims(step)]
    assert again == kinds


# -- the shortcuts agree with the plain regexes ---------------------------------------------

def _relation(text: str) -> bool:
    """The relation rule as one regex, searched from the start."""
    from afcheck_suites import claims

    either = re.compile(f"{claims._SIGN_RELATION.pattern}|{claims._COMMAND_RELATION.pattern}")
    return either.search(text) is not None


_TRICKY = st.lists(st.sampled_from(
    ["=", "<", ">", "!", ":", "-", "\\", "(", ")", "[", "]", "{", "}", "$", " ", "\n", ".",
     "≤", "≠", "leq", "ge", "approx", "text", "br", "Let", "LET", "let's", "denote", "DENOTES",
     "Represents", "stand", "s for", "defined as", "be the", "number", "Be The Ages", "x",
     "ſ", "K", "İ", "é", "\t", "\x1c", "\u00a0", "?", "!"]), max_size=30).map("".join)


@given(_TRICKY)
def test_the_relation_search_from_its_first_possible_start_finds_what_the_regex_finds(
        text: str) -> None:
    from afcheck_suites import claims

    assert claims._has_relation(text) == _relation(text)


@given(_TRICKY)
def test_the_declaration_words_rule_out_only_texts_the_regex_does_not_match(text: str) -> None:
    from afcheck_suites import claims

    assert claims._declared_anywhere(text) == (
        claims._DECLARATIVE_ANYWHERE.search(text) is not None)
    assert claims._without_text_commands(text) == claims._TEXT_COMMAND.sub(" ", text)


@pytest.mark.parametrize("text", [
    "x DENOTES y", "it Represents x", "n stands for", "STAND FOR n", "n is defined as",
    "DEFINE AS", "and let \\(x", "and LET $x", "LET'S CALL it", "m be the Ages",
    "n be the numbers",
    # IGNORECASE folds these to the ASCII letters of a phrase; str.lower does not.
    "n ſtands for", "it repreſents", "n is defİned as"])
def test_each_declaration_phrase_is_found_whatever_its_case(text: str) -> None:
    from afcheck_suites import claims

    assert claims._DECLARATIVE_ANYWHERE.search(text) is not None
    assert claims._declared_anywhere(text)


@pytest.mark.parametrize(("text", "relation"), [
    ("a != b", True), ("a ≠ b", True), ("a =: b", True), ("a => b", False), ("a <- b", True),
    ("a <=> b", False), ("\\(a \\le b\\)", True), ("\\(a \\left( b\\)", False),
    ("x \\text{a => b} y", False), ("a <br> b", False)])
def test_a_relation_is_found_where_the_regex_finds_one(text: str, relation: bool) -> None:
    from afcheck_suites import claims

    plain = claims._without_text_commands(text)
    assert plain == claims._TEXT_COMMAND.sub(" ", text)
    assert claims._has_relation(plain) is relation
    assert _relation(plain) is relation


def _split_stepping_on_every_backslash(text: str, monkeypatch: pytest.MonkeyPatch
                                       ) -> list[tuple[str, str, int]]:
    from afcheck_suites import claims

    with monkeypatch.context() as patched:
        patched.setattr(claims, "_NOTABLE", re.compile(r"[\\$\n.?!]"))
        return [(c.text, c.kind, c.index) for c in split_claims(text)]


@given(_pieces, _TRICKY)
def test_skipping_backslashes_that_open_no_math_changes_no_unit(pieces: list[str],
                                                                 noise: str) -> None:
    text = " ".join(pieces) + noise
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert [(c.text, c.kind, c.index) for c in split_claims(text)] == \
            _split_stepping_on_every_backslash(text, monkeypatch)


@pytest.mark.realdata
def test_the_shortcuts_agree_with_the_plain_regexes_on_processbench(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from afcheck_suites import claims

    paragraphs = [step for name in ("gsm8k", "math") for chain in _error_free(data_dir, name)
                  for step in chain["steps"]]
    for paragraph in paragraphs:
        assert [(c.text, c.kind, c.index) for c in split_claims(paragraph)] == \
            _split_stepping_on_every_backslash(paragraph, monkeypatch)
        for claim in split_claims(paragraph):
            plain = claims._TEXT_COMMAND.sub(" ", claim.text)
            assert claims._has_relation(plain) == _relation(plain)
            assert claims._declared_anywhere(claim.text) == (
                claims._DECLARATIVE_ANYWHERE.search(claim.text) is not None)
