"""The FOL → TPTP printer: exact text, reversibility, refusal of free variables."""

from __future__ import annotations

import pytest
from afcheck_fol import formula as fo
from afcheck_fol.tptp import SymbolMap, TptpError, formula_to_tptp, parse_fof, problem
from hypothesis import given
from hypothesis import strategies as st

x, y = fo.Var("x"), fo.Var("y")


def test_prints_names_in_tptp_case_and_xor_as_its_connective() -> None:
    formula = fo.Forall(x, fo.Implies(fo.Pred("Drinks", (x,)),
                                fo.Xor(fo.Pred("Jokes", (x,)),
                                       fo.Not(fo.Pred("Unaware", (fo.Const("rina"),))))))
    assert formula_to_tptp(formula, SymbolMap()) == (
        "![X]: (drinks(X) => (jokes(X) <~> ~ unaware(rina)))"
    )


def test_clashing_names_get_distinct_words_and_map_back() -> None:
    symbols = SymbolMap()
    text = formula_to_tptp(fo.And((fo.Pred("Cold", (fo.Const("cold"),)), fo.Pred("cold", ()))),
                           symbols)
    assert text == "(cold(cold_2) & cold_3)"
    assert symbols.reverse["cold_2"] == ("const", "cold")
    assert symbols.reverse["cold_3"] == ("pred", "cold")


def test_same_map_prints_the_same_text_every_time() -> None:
    symbols = SymbolMap()
    formula = fo.Exists(y, fo.And((fo.Pred("Big", (y,)), fo.Eq(y, fo.Const("bob")))))
    first = formula_to_tptp(formula, symbols)
    assert formula_to_tptp(formula, symbols) == first == "?[Y]: (big(Y) & (Y = bob))"


def test_problem_has_one_conjecture_named_conclusion() -> None:
    text = problem([fo.Pred("P", (fo.Const("a"),))], fo.Pred("Q", (fo.Const("a"),)),
                   SymbolMap()).text
    assert text == "fof(premise_1, axiom, p(a)).\nfof(conclusion, conjecture, q(a)).\n"
    assert text.count("conjecture") == 1


def test_an_axiom_printed_again_reads_as_a_fresh_map_prints_it() -> None:
    # problem() keeps each axiom's text by identity in the map; a map that grew in between
    # must still print the same problem as a fresh map given the same history.
    cold = fo.Forall(x, fo.Implies(fo.Pred("Cold", (x,)), fo.Pred("Blue", (x,))))
    goal = fo.Pred("Blue", (fo.Const("bob"),))
    kept, fresh = SymbolMap(), SymbolMap()
    first = problem([cold], goal, kept).text
    assert problem([cold], fo.Not(goal), kept).text == problem([cold], fo.Not(goal), fresh).text
    assert problem([fo.Pred("Cold", (fo.Const("cold"),)), cold], None, kept).text == \
        "fof(premise_1, axiom, cold(cold_2)).\nfof(premise_2, axiom, ![X]: (cold(X) => blue(X))).\n"
    assert problem([cold], goal, kept).text == first
    loose = fo.Pred("Cold", (y,))
    with pytest.raises(TptpError, match="premise_1: free variable"):
        problem([loose], None, kept)
    with pytest.raises(TptpError, match="premise_1: free variable"):
        problem([loose], None, kept)


def test_free_variables_are_refused_with_the_formula_name() -> None:
    with pytest.raises(TptpError, match=r"premise_2: free variable\(s\) x"):
        problem([fo.Truth(True), fo.Pred("P", (x,))], None, SymbolMap())
    with pytest.raises(TptpError, match="conclusion: free variable"):
        problem([], fo.Forall(y, fo.Pred("R", (x, y))), SymbolMap())


# -- reversibility ---------------------------------------------------------------------------

_terms = st.sampled_from([fo.Var("x"), fo.Var("y"), fo.Const("max"), fo.Const("bald_eagle")])
_atoms = st.one_of(
    st.builds(lambda n, a: fo.Pred(n, tuple(a)), st.sampled_from(["Cold", "Needs", "jompus"]),
              st.lists(_terms, min_size=0, max_size=2)),
    st.builds(fo.Eq, _terms, _terms),
    st.builds(fo.Truth, st.booleans()),
)


def _compound(inner: st.SearchStrategy[fo.Formula]) -> st.SearchStrategy[fo.Formula]:
    many = st.lists(inner, min_size=2, max_size=3).map(tuple)
    return st.one_of(
        st.builds(fo.Not, inner), st.builds(fo.And, many), st.builds(fo.Or, many),
        st.builds(fo.Xor, inner, inner), st.builds(fo.Implies, inner, inner),
        st.builds(fo.Iff, inner, inner),
        st.builds(fo.Forall, st.sampled_from([x, y]), inner),
        st.builds(fo.Exists, st.sampled_from([x, y]), inner),
    )


formulas = st.recursive(_atoms, _compound, max_leaves=8)


@given(formulas)
def test_printed_formulas_read_back_to_the_same_tree(formula: fo.Formula) -> None:
    symbols = SymbolMap()
    text = f"fof(f, axiom, {formula_to_tptp(formula, symbols)})."
    [annotated] = parse_fof(text, symbols)
    assert annotated.formula == formula
    assert (annotated.name, annotated.role) == ("f", "axiom")
