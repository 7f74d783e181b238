"""Expression trees read from tokens."""

from __future__ import annotations

import pytest
from afcheck_arith.expr import Atom, Bin, Num, Paren, ParseError, parse
from afcheck_arith.tokens import Kind


def _atoms(*items: tuple[Kind, str]) -> list[Atom]:
    return [Atom(kind, text) for kind, text in items]


def test_a_bare_percentage_in_a_sum_is_refused() -> None:
    # ``100 + 10%`` adds ten per cent of something, not 0.1
    atoms = _atoms((Kind.NUM, "100"), (Kind.OP, "+"), (Kind.NUM, "10"), (Kind.PCT, "%"))
    with pytest.raises(ParseError, match="percentage in a sum"):
        parse(atoms)


def test_a_percentage_as_a_factor_is_read() -> None:
    atoms = _atoms((Kind.NUM, "50"), (Kind.PCT, "%"), (Kind.OP, "*"), (Kind.NUM, "20"))
    assert parse(atoms) == Bin("*", Paren(Bin("/", Num("50"), Num("100"))), Num("20"))


@pytest.mark.parametrize(
    "atoms",
    [
        [Atom(Kind.LP, "(")] * 5_000 + [Atom(Kind.NUM, "1")] + [Atom(Kind.RP, ")")] * 5_000,
        [Atom(Kind.OP, "-")] * 5_000 + [Atom(Kind.NUM, "1")],
        [Atom(Kind.FUNC, "sqrt")] * 5_000 + [Atom(Kind.NUM, "4")],
    ],
    ids=["brackets", "signs", "roots"],
)
def test_nesting_beyond_the_limit_is_a_parse_error(atoms: list[Atom]) -> None:
    with pytest.raises(ParseError, match="nested more than"):
        parse(atoms)
