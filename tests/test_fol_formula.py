"""The formula tree's walks: children, subformulas in preorder, free variables, predicates and
constants."""

from __future__ import annotations

from afcheck_fol.formula import (
    And,
    Const,
    Eq,
    Exists,
    Forall,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Truth,
    Var,
    Xor,
    children,
    constants,
    free_vars,
    predicates,
    subformulas,
    terms,
)

x, y, z = Var("x"), Var("y"), Var("z")
a, b = Const("a"), Const("b")
P_x, Q_xy, R = Pred("P", (x,)), Pred("Q", (x, y)), Pred("R")
# ∀x (P(x) → ∃y (Q(x, y) ∧ ¬(y = a))) ⊕ (R ↔ P(b) ∨ ⊤)
BODY = Implies(P_x, Exists(y, And((Q_xy, Not(Eq(y, a))))))
FORMULA = Xor(Forall(x, BODY), Iff(R, Or((Pred("P", (b,)), Truth(True)))))


def test_children_are_the_immediate_subformulas_left_to_right() -> None:
    assert children(FORMULA) == (FORMULA.left, FORMULA.right)
    assert children(Forall(x, BODY)) == (BODY,)
    assert children(And((P_x, R, Q_xy))) == (P_x, R, Q_xy)
    assert children(Not(R)) == (R,)
    assert children(P_x) == children(Eq(x, a)) == children(Truth(False)) == ()


def test_subformulas_come_in_preorder_with_repeats() -> None:
    nodes = list(subformulas(And((P_x, Not(P_x)))))
    assert nodes == [And((P_x, Not(P_x))), P_x, Not(P_x), P_x]
    walked = list(subformulas(FORMULA))
    assert walked[:4] == [FORMULA, Forall(x, BODY), BODY, P_x]
    assert walked[-4:] == [R, Or((Pred("P", (b,)), Truth(True))), Pred("P", (b,)), Truth(True)]
    assert len(walked) == 14


def test_terms_are_an_atoms_arguments() -> None:
    assert terms(Q_xy) == (x, y)
    assert terms(Eq(y, a)) == (y, a)
    assert terms(R) == terms(Not(P_x)) == ()


def test_free_variables_leave_out_the_bound_ones() -> None:
    assert free_vars(FORMULA) == frozenset()
    assert free_vars(BODY) == {"x"}
    assert free_vars(And((Q_xy, Eq(z, a)))) == {"x", "y", "z"}
    # x is bound in the first conjunct only.
    assert free_vars(And((Forall(x, P_x), P_x))) == {"x"}
    assert free_vars(Exists(x, Forall(x, Q_xy))) == {"y"}


def test_predicates_keep_the_arity_of_their_first_use() -> None:
    assert predicates(FORMULA) == {"P": 1, "Q": 2, "R": 0}
    assert predicates(Or((Pred("P", (a, b)), P_x))) == {"P": 2}
    assert predicates(Eq(a, b)) == {}


def test_constants_are_collected_from_every_atom() -> None:
    assert constants(FORMULA) == {"a", "b"}
    assert constants(Forall(x, P_x)) == frozenset()
