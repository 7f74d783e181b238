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
