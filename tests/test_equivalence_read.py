"""Reading a statement with what precedes it: ``variable`` lines and definitions."""

from __future__ import annotations

import pytest
from afcheck_equivalence.read import ReadError, read_statement, shared_header

from afcheck.lean import print_theorem


def test_variables_the_statement_uses_become_its_leading_binders() -> None:
    read = read_statement("variable {G : Type*} [Group G] {H : Type*} (n : ℕ)\n"
                          "theorem t (x : G) : x * 1 = x := by sorry")
    # G is used; [Group G] is an instance on included variables only; H and n are unused.
    assert print_theorem(read.theorem) == (
        "theorem t {G : Type*} [Group G] (x : G) : x * 1 = x := by sorry")
    assert "variable" not in read.header


def test_a_variable_shadowed_by_the_statements_own_binder_is_not_included() -> None:
    read = read_statement("variable (x : ℕ)\ntheorem t (x : ℤ) : x = x := by sorry")
    assert [b.name for b in read.theorem.binders] == ["x"]


def test_definitions_go_into_the_header_and_must_agree() -> None:
    one = read_statement("def f (n : ℕ) : ℕ :=\n  n + 1\ntheorem a : f 2 = 3 := by sorry")
    assert one.definitions == (("f", "def f (n : ℕ) : ℕ := n + 1"),)
    assert one.header.splitlines()[-1] == "def f (n : ℕ) : ℕ := n + 1"
    same = read_statement("def f (n : ℕ) : ℕ := n + 1\ntheorem b : f 2 = 3 := by sorry")
    assert "def f" in shared_header(one, same)
    other = read_statement("def f (n : ℕ) : ℕ := n + 2\ntheorem b : f 2 = 3 := by sorry")
    with pytest.raises(ReadError, match="'f' is defined differently"):
        shared_header(one, other)
    undefined = read_statement("theorem b : f 2 = 3 := by sorry")
    with pytest.raises(ReadError, match="defined by the reference only"):
        shared_header(one, undefined)


def test_other_declarations_before_the_statement_are_refused_with_their_kind() -> None:
    with pytest.raises(ReadError, match="'notation' declaration"):
        read_statement('notation "𝔽" => ℕ\ntheorem a : (1 : 𝔽) = 1 := by sorry')


@pytest.mark.parametrize("criterion", ["syntactic", "sae", "logical"])
def test_each_side_of_a_pair_is_read_whatever_became_of_the_other(criterion: str) -> None:
    """The criteria record what the front end read of each pair; a side that fails does not
    stop the other from being read."""
    from afcheck_equivalence.read import read_pair
    from afcheck_equivalence.records import Pair

    from afcheck.plugins import get_plugins

    pytest.importorskip("z3")
    good = "theorem g (x : ℕ) : x + 0 = x := by sorry"
    bad = "theorem b (x : ℕ) : x = := by sorry"
    assert read_pair(bad, good).read == (False, True)
    deep = "theorem d : " + "(" * 5000 + "1" + ")" * 5000 + " = 1 := by sorry"
    assert read_pair(good, deep).read == (True, False)
    decide = get_plugins().create("criterion", criterion, {"prover": "smt"}).decide
    decided = decide([Pair("1", bad, good), Pair("2", good, bad), Pair("3", good, good)])
    assert [d.read for d in decided] == [(False, True), (True, False), (True, True)]
    assert decided[0].kind.value == "Inconclusive"
