"""The formula tree's walks: children, subformulas in preorder, free variables, predicates and
constants."""

from __future__ import annotations

from afcheck_fol import formula as fo

x, y, z = fo.Var("x"), fo.Var("y"), fo.Var("z")
a, b = fo.Const("a"), fo.Const("b")
P_x, Q_xy, R = fo.Pred("P", (x,)), fo.Pred("Q", (x, y)), fo.Pred("R")
# ∀x (P(x) → ∃y (Q(x, y) ∧ ¬(y = a))) ⊕ (R ↔ P(b) ∨ ⊤)
BODY = fo.Implies(P_x, fo.Exists(y, fo.And((Q_xy, fo.Not(fo.Eq(y, a))))))
FORMULA = fo.Xor(fo.Forall(x, BODY), fo.Iff(R, fo.Or((fo.Pred("P", (b,)), fo.Truth(True)))))


def test_children_are_the_immediate_subformulas_left_to_right() -> None:
    assert fo.children(FORMULA) == (FORMULA.left, FORMULA.right)
    assert fo.children(fo.Forall(x, BODY)) == (BODY,)
    assert fo.children(fo.And((P_x, R, Q_xy))) == (P_x, R, Q_xy)
    assert fo.children(fo.Not(R)) == (R,)
    assert fo.children(P_x) == fo.children(fo.Eq(x, a)) == fo.children(fo.Truth(False)) == ()


def test_subformulas_come_in_preorder_with_repeats() -> None:
    nodes = list(fo.subformulas(fo.And((P_x, fo.Not(P_x)))))
    assert nodes == [fo.And((P_x, fo.Not(P_x))), P_x, fo.Not(P_x), P_x]
    walked = list(fo.subformulas(FORMULA))
    assert walked[:4] == [FORMULA, fo.Forall(x, BODY), BODY, P_x]
    assert walked[-4:] == [R, fo.Or((fo.Pred("P", (b,)), fo.Truth(True))),
                           fo.Pred("P", (b,)), fo.Truth(True)]
    assert len(walked) == 14


def test_terms_are_an_atoms_arguments() -> None:
    assert fo.terms(Q_xy) == (x, y)
    assert fo.terms(fo.Eq(y, a)) == (y, a)
    assert fo.terms(R) == fo.terms(fo.Not(P_x)) == ()


def test_free_variables_leave_out_the_bound_ones() -> None:
    assert fo.free_vars(FORMULA) == frozenset()
    assert fo.free_vars(BODY) == {"x"}
    assert fo.free_vars(fo.And((Q_xy, fo.Eq(z, a)))) == {"x", "y", "z"}
    # x is bound in the first conjunct only.
    assert fo.free_vars(fo.And((fo.Forall(x, P_x), P_x))) == {"x"}
    assert fo.free_vars(fo.Exists(x, fo.Forall(x, Q_xy))) == {"y"}


def test_predicates_keep_the_arity_of_their_first_use() -> None:
    assert fo.predicates(FORMULA) == {"P": 1, "Q": 2, "R": 0}
    assert fo.predicates(fo.Or((fo.Pred("P", (a, b)), P_x))) == {"P": 2}
    assert fo.predicates(fo.Eq(a, b)) == {}


def test_constants_are_collected_from_every_atom() -> None:
    assert fo.constants(FORMULA) == {"a", "b"}
    assert fo.constants(fo.Forall(x, P_x)) == frozenset()
