"""The shared scanner: notation it must not read as separators or values."""

from __future__ import annotations

import pytest
from afcheck_arith.tokens import MAX_NESTING, Kind, ScanError, scan


def _kinds(text: str) -> list[tuple[Kind, str]]:
    return [(t.kind, t.text) for t in scan(text)]


def test_a_ratio_or_a_time_is_not_a_separator() -> None:
    assert (Kind.UNKNOWN, ":") in _kinds("3:4 = 6:8")
    assert (Kind.UNKNOWN, ":") in _kinds("at 10:30 the total is 5 + 3 = 8")
    # a label before a claim stays a separator
    assert (Kind.SEP, ":") in _kinds("Day 1: 5 + 3 = 8")


def test_an_exponent_group_in_prose_groups() -> None:
    kinds = _kinds("2^{10} = 1024")
    assert kinds[:5] == [
        (Kind.NUM, "2"),
        (Kind.OP, "^"),
        (Kind.LP, "("),
        (Kind.NUM, "10"),
        (Kind.RP, ")"),
    ]


def test_groups_nested_too_deep_are_refused_not_recursed_into() -> None:
    shallow = "$" + "\\frac{" * (MAX_NESTING - 1) + "1}{2}" + "}{2}" * (MAX_NESTING - 1) + "$"
    assert scan(shallow)
    deep = "$" + "\\sqrt{" * 3_000 + "4" + "}" * 3_000 + " = 2$"
    with pytest.raises(ScanError, match="nested more than"):
        scan(deep)


def test_a_text_read_again_gives_the_same_tokens_and_the_same_refusal() -> None:
    # A chain's earlier steps are scanned again as the context of every later step.
    text = "She pays $12 for 3 pens, so each costs 12 / 3 = 4 dollars."
    first, again = scan(text), scan(text)
    assert first == again
    assert [t.ref for t in again] == list(range(len(again)))
    refused = "$\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix} = v$"
    for _ in range(2):
        with pytest.raises(ScanError, match="pmatrix"):
            scan(refused)


def test_refs_are_positions_in_the_step_inside_groups_too() -> None:
    # Tokens of a group (\frac, \sqrt, \text) are scanned on their own and placed where the
    # group stands; a subscript replaces the name before it in place.
    text = "\\(\\frac{\\text{Distance}_{\\text{west}} + 3\\frac{1}{2}}{\\sqrt{4}} = 2\\) and 5."
    tokens = scan(text)
    assert [t.ref for t in tokens] == list(range(len(tokens)))
    assert "Distance_west" in [t.text for t in tokens]
    assert [t.text for t in tokens if t.kind is Kind.NUM] == ["3", "1", "2", "4", "2", "5"]
