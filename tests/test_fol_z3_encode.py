"""The one z3 encoding of FOL formulas: arity policies, free variables, bounded domains and an
interpretation of some predicates."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from afcheck_fol import formula as fo
from afcheck_fol.z3_encode import Encoder

z3 = pytest.importorskip("z3")

x, y = fo.Var("x"), fo.Var("y")
a, b = fo.Const("a"), fo.Const("b")


def _valid(encoder: Encoder, formula: fo.Formula) -> bool:
    solver = z3.Solver(ctx=encoder.ctx)
    solver.add(z3.Not(encoder.formula(formula)))
    return bool(solver.check() == z3.unsat)


@pytest.mark.parametrize("formula", [
    fo.Forall(x, fo.Or((fo.Pred("P", (x,)), fo.Not(fo.Pred("P", (x,)))))),
    fo.Iff(fo.Not(fo.Forall(x, fo.Pred("P", (x,)))), fo.Exists(y, fo.Not(fo.Pred("P", (y,))))),
    fo.Implies(fo.Forall(x, fo.Pred("P", (x,))), fo.Pred("P", (a,))),
    fo.Xor(fo.Pred("Q"), fo.Not(fo.Pred("Q"))),
    fo.Implies(fo.And((fo.Eq(a, b), fo.Pred("P", (a,)))), fo.Pred("P", (b,))),
    fo.And(()),
    fo.Not(fo.Or(())),
    fo.Truth(True),
    # The inner x shadows the outer one.
    fo.Iff(fo.Forall(x, fo.Exists(x, fo.Pred("P", (x,)))), fo.Exists(y, fo.Pred("P", (y,)))),
])
def test_valid_formulas_are_valid(formula: fo.Formula) -> None:
    assert _valid(Encoder(), formula)
    assert _valid(Encoder(strict_arity=True), formula)


def test_an_invalid_formula_has_a_counter_model() -> None:
    formula = fo.Implies(fo.Exists(x, fo.Pred("P", (x,))), fo.Forall(x, fo.Pred("P", (x,))))
    assert not _valid(Encoder(), formula)


def test_two_arities_are_two_predicates_unless_strict() -> None:
    # P(a) and P(a, a) are unrelated: neither follows from the other.
    formula = fo.Implies(fo.Pred("P", (a,)), fo.Pred("P", (a, a)))
    lenient = Encoder()
    assert not _valid(lenient, formula)
    assert set(lenient.predicates) == {("P", 1), ("P", 2)}
    strict = Encoder(strict_arity=True)
    with pytest.raises(ValueError, match="predicate P used with 1 and 2 arguments"):
        strict.formula(formula)


def test_strict_arity_holds_across_formulas_of_one_encoder() -> None:
    strict = Encoder(strict_arity=True)
    strict.formula(fo.Pred("P", (a,)))
    with pytest.raises(ValueError, match="predicate P used with 1 and 0 arguments"):
        strict.formula(fo.Pred("P"))


@pytest.mark.parametrize("strict", [False, True])
def test_a_free_variable_is_refused(strict: bool) -> None:
    with pytest.raises(ValueError, match="free variable x"):
        Encoder(strict_arity=strict).formula(fo.And((fo.Pred("P", (a,)), fo.Pred("P", (x,)))))


def test_a_variable_bound_by_the_environment_is_not_free() -> None:
    encoder = Encoder()
    c = z3.Const("c", encoder.sort)
    solver = z3.Solver(ctx=encoder.ctx)
    solver.add(z3.Not(encoder.formula(fo.Eq(x, x), {"x": c})))
    assert solver.check() == z3.unsat


def test_a_bounded_domain_expands_quantifiers() -> None:
    encoder = Encoder(domain=2)
    assert encoder.elements is not None and len(encoder.elements) == 2
    encoded = encoder.formula(fo.Forall(x, fo.Pred("P", (x,))))
    # No quantifier is left: one conjunct per element.
    assert not z3.is_quantifier(encoded)
    assert z3.is_and(encoded) and encoded.num_args() == 2
    # ∀x∃y (x ≠ y) holds in a world of two distinct elements.
    distinct = fo.Forall(x, fo.Exists(y, fo.Not(fo.Eq(x, y))))
    solver = z3.Solver(ctx=encoder.ctx)
    solver.add(encoder.formula(distinct))
    assert solver.check() == z3.sat
    one = Encoder(domain=1)
    solver = z3.Solver(ctx=one.ctx)
    solver.add(one.formula(distinct))
    assert solver.check() == z3.unsat


class _Parity:
    """Even(x) means x's number is even; everything else is left open."""

    def __init__(self, sort: z3.SortRef, ctx: z3.Context) -> None:
        self.number = z3.Function("number", sort, z3.IntSort(ctx))

    def atom(self, name: str, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
        if name == "Even":
            return self.number(args[0]) % 2 == 0
        raise KeyError(name)


def test_an_interpretation_gives_its_predicates_their_meaning() -> None:
    encoder = Encoder(interpretation=_Parity)
    assert isinstance(encoder.interpretation, _Parity)
    # Even(a) ∨ ¬Even(a) is valid anyway; the next one only under the interpretation:
    # a and b with the same number agree on Even.
    same = encoder.interpretation.number(encoder.term(a, {})) == encoder.interpretation.number(
        encoder.term(b, {}))
    solver = z3.Solver(ctx=encoder.ctx)
    solver.add(same, z3.Not(encoder.formula(fo.Iff(fo.Pred("Even", (a,)), fo.Pred("Even", (b,))))))
    assert solver.check() == z3.unsat
    # Other predicates stay uninterpreted.
    assert not _valid(encoder, fo.Iff(fo.Pred("Odd", (a,)), fo.Pred("Odd", (b,))))
    assert set(encoder.predicates) == {("Odd", 1)}


def test_encoders_do_not_share_symbols() -> None:
    first, second = Encoder(), Encoder()
    first.formula(fo.Pred("P", (a,)))
    assert first.ctx is not second.ctx
    assert second.constants == {} and second.predicates == {}


def test_encoders_given_one_context_build_in_it_and_keep_their_own_arities() -> None:
    ctx = z3.Context()
    first = Encoder(strict_arity=True, ctx=ctx)
    second = Encoder(strict_arity=True, ctx=ctx)
    assert first.ctx is ctx and second.ctx is ctx
    one = first.formula(fo.Pred("P", (a,)))
    # Strictness holds within one encoder's problem: another problem may use P/2.
    two = second.formula(fo.Pred("P", (a, a)))
    solver = z3.Solver(ctx=ctx)
    solver.add(one, z3.Not(two))
    assert solver.check() == z3.sat
    # Equal names and signatures are the same z3 symbols in one context.
    again = Encoder(ctx=ctx).formula(fo.Pred("P", (a,)))
    assert again.eq(one)
