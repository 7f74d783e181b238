"""The C-API builders make the very terms z3's Python operators make.

In one z3 context equal terms are one term (z3 shares them), so a builder's result is the
operator's when it is the same AST, with the same id.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from afcheck_fol import formula as fo
from afcheck_fol import z3_build as build
from afcheck_fol.grid import Board
from afcheck_fol.language import TARSKI
from afcheck_fol.z3_encode import Encoder
from afcheck_nl2fol.suite import load_jsonl


def same(built: z3.ExprRef, made: z3.ExprRef) -> bool:
    return bool(built.eq(made)) and built.get_id() == made.get_id() and type(built) is type(made)


def test_each_builder_is_its_operator() -> None:
    ctx = z3.Context()
    p, q, r = (z3.Bool(name, ctx) for name in "pqr")
    a, b = z3.Int("a", ctx), z3.Int("b", ctx)
    obj = z3.DeclareSort("Obj", ctx)
    x, y = z3.Const("x", obj), z3.Const("y", obj)
    pred = z3.Function("P", obj, obj, z3.BoolSort(ctx))
    col = z3.Function("col", obj, z3.IntSort(ctx))
    assert same(build.conj([p, q, r], ctx), z3.And(p, q, r))
    assert same(build.conj([p], ctx), z3.And([p]))
    assert same(build.disj([p, q], ctx), z3.Or(p, q))
    assert same(build.neg(p), z3.Not(p))
    assert same(build.implies(p, q), z3.Implies(p, q))
    assert same(build.xor(p, q), z3.Xor(p, q))
    assert same(build.equal(p, q), p == q)
    assert same(build.equal(x, y), x == y)
    assert same(build.equal(a, b), a == b)
    assert same(build.less(a, b), a < b)
    assert same(build.greater(a, b), a > b)
    assert same(build.at_least(a, b), a >= b)
    assert same(build.differ(a, b), a != b)
    assert same(build.minus(a, b), a - b)
    assert same(build.negative(a), -a)
    assert same(build.apply_bool(pred, [x, y]), pred(x, y))
    assert same(build.apply_int(col, [x]), col(x))


def _reference(encoder: Encoder, node: fo.Formula, env: dict[str, z3.ExprRef]) -> z3.BoolRef:
    """The encoding written with z3's operators (grid atoms as the board defines them)."""
    if isinstance(node, fo.Pred):
        return encoder.atom(node.name, [encoder.term(t, env) for t in node.args])
    if isinstance(node, fo.Eq):
        return encoder.term(node.left, env) == encoder.term(node.right, env)
    if isinstance(node, fo.Truth):
        return z3.BoolVal(node.value, encoder.ctx)
    if isinstance(node, fo.Not):
        return z3.Not(_reference(encoder, node.body, env))
    if isinstance(node, (fo.And, fo.Or)):
        if not node.items:
            return z3.BoolVal(isinstance(node, fo.And), encoder.ctx)
        parts = [_reference(encoder, item, env) for item in node.items]
        return z3.And(parts) if isinstance(node, fo.And) else z3.Or(parts)
    if isinstance(node, fo.Xor):
        return z3.Xor(_reference(encoder, node.left, env), _reference(encoder, node.right, env))
    if isinstance(node, fo.Implies):
        return z3.Implies(_reference(encoder, node.left, env),
                          _reference(encoder, node.right, env))
    if isinstance(node, fo.Iff):
        return _reference(encoder, node.left, env) == _reference(encoder, node.right, env)
    assert encoder.elements is not None
    expanded = [_reference(encoder, node.body, {**env, node.var.name: e})
                for e in encoder.elements]
    return z3.And(expanded) if isinstance(node, fo.Forall) else z3.Or(expanded)


def _formulas() -> list[fo.Formula]:
    folder = Path(__file__).resolve().parent.parent / "suites" / "tarski"
    return [formula for item in load_jsonl(folder / "sentences.jsonl", TARSKI).items
            for formula in item.formulas]


@pytest.mark.parametrize("domain", [1, 3])
def test_the_encoder_builds_the_operators_terms_for_every_tarski_gold(domain: int) -> None:
    ctx = z3.Context()
    encoder = Encoder(domain=domain, interpretation=Board, ctx=ctx)
    formulas = _formulas()
    assert len(formulas) > 150
    for formula in formulas:
        assert same(encoder.formula(formula), _reference(encoder, formula, {})), formula


def test_the_boards_definitions_are_the_operators_terms() -> None:
    """Each predicate's meaning, and the ground axioms, as z3's operators build them from
    the board's attributes (an int on the right, as the definitions were first written)."""
    ctx = z3.Context()
    obj = z3.DeclareSort("Obj", ctx)
    board = Board(obj, ctx)
    a, b, c = (z3.Const(name, obj) for name in "abc")
    col, row, size, shape = board.col, board.row, board.size, board.shape
    dx1, dy1 = col(a) - col(b), row(a) - row(b)
    dx2, dy2 = col(c) - col(a), row(c) - row(a)

    def same_direction(d1: z3.ArithRef, d2: z3.ArithRef) -> z3.BoolRef:
        return z3.Or(z3.And(d1 > 0, d2 > 0), z3.And(d1 < 0, d2 < 0))

    between = z3.Or(
        z3.And(dy1 == 0, dy2 == 0, same_direction(dx1, dx2)),
        z3.And(dx1 == 0, dx2 == 0, same_direction(dy1, dy2)),
        z3.And(z3.Or(dx1 == dy1, dx1 == -dy1), z3.Or(dx2 == dy2, dx2 == -dy2),
               same_direction(dx1, dx2), same_direction(dy1, dy2)))
    adjoins = z3.Or(z3.And(col(a) == col(b), z3.Or(row(a) - row(b) == 1, row(b) - row(a) == 1)),
                    z3.And(row(a) == row(b), z3.Or(col(a) - col(b) == 1, col(b) - col(a) == 1)))
    assert same(board.atom("Between", [a, b, c]), between)
    assert same(board.atom("Adjoins", [a, b]), adjoins)
    assert same(board.atom("Larger", [a, b]), size(a) > size(b))
    assert same(board.atom("FrontOf", [a, b]), row(a) > row(b))
    assert same(board.atom("Cube", [a]), shape(a) == 1)
    assert same(board.atom("Medium", [a]), size(a) == 1)
    ground = board.ground_axioms([a, b])
    expected = [f(e) for e in (a, b) for f in (
        lambda e: col(e) >= 0, lambda e: col(e) < 8, lambda e: row(e) >= 0,
        lambda e: row(e) < 8, lambda e: shape(e) >= 0, lambda e: shape(e) < 3,
        lambda e: size(e) >= 0, lambda e: size(e) < 3)]
    expected.append(z3.Or(a == b, col(a) != col(b), row(a) != row(b)))
    assert len(ground) == len(expected)
    assert all(same(got, want) for got, want in zip(ground, expected, strict=True))
