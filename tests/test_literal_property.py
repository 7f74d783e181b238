"""The literal formaliser never corrects: a generated claim's statement is true exactly when
the claim is. Truth of the statement is computed here from the Lean text, independently of
the formaliser's own trees."""

from __future__ import annotations

import ast
import re
from fractions import Fraction

import pytest
from afcheck_literal.formaliser import formalise_text
from hypothesis import given
from hypothesis import strategies as st

_OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
}
_SURFACE = {
    "+": ["+", "+", "plus"],
    "-": ["-", "−", "minus"],
    "*": ["*", "×", "\\times", "\\cdot", "x"],
    "/": ["/", "÷", "\\div"],
}


def lean_truth(statement: str) -> bool:
    """Evaluate a ground ``theorem step : … := by sorry`` over ℚ with Fractions."""
    match = re.fullmatch(r"theorem step : (.*) := by sorry", statement)
    assert match, statement
    body = re.sub(r"\((\d+) : ℚ\)", r"\1", match.group(1))
    for lean, python in (("≠", "!="), ("≤", "<="), ("≥", ">="), ("∧", " and ")):
        body = body.replace(lean, python)
    body = re.sub(r"(?<![<>!=])=(?!=)", "==", body)
    tree = ast.parse(body, mode="eval")
    return bool(_eval(tree.body))


def _eval(node: ast.expr) -> Fraction | bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_num(node.operand)
    if isinstance(node, ast.BinOp):
        left, right = _num(node.left), _num(node.right)
        if isinstance(node.op, ast.Div):
            return left / right if right else Fraction(0)  # Lean: x / 0 = 0
        ops = {ast.Add: _OPS["+"], ast.Sub: _OPS["-"], ast.Mult: _OPS["*"]}
        return Fraction(ops[type(node.op)](left, right))
    if isinstance(node, ast.BoolOp):
        return all(_eval(v) for v in node.values)
    if isinstance(node, ast.Compare):
        (op,), (other,) = node.ops, node.comparators
        a, b = _num(node.left), _num(other)
        table = {
            ast.Eq: a == b,
            ast.NotEq: a != b,
            ast.Lt: a < b,
            ast.LtE: a <= b,
            ast.Gt: a > b,
            ast.GtE: a >= b,
        }
        return table[type(op)]
    raise AssertionError(f"outside the ground fragment: {ast.dump(node)}")


def _num(node: ast.expr) -> Fraction:
    value = _eval(node)
    assert isinstance(value, Fraction)
    return value


def _written(value: Fraction, money: bool, latex: bool, grouping: str = ",") -> str:
    """A value as a step writes it: integer (thousands grouped by ``grouping`` for money),
    two-place decimal, or a fraction."""
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    dollar = "$" if money else ""
    if magnitude.denominator == 1:
        if not money:
            return f"{sign}{magnitude}"
        return f"{sign}{dollar}{magnitude.numerator:,}".replace(",", grouping)
    if (magnitude * 100).denominator == 1:
        return f"{sign}{dollar}{float(magnitude):.2f}"
    if latex:
        return f"{sign}\\frac{{{magnitude.numerator}}}{{{magnitude.denominator}}}"
    return f"{sign}{magnitude.numerator}/{magnitude.denominator}"


@st.composite
def claims(draw: st.DrawFn) -> tuple[str, bool]:
    op = draw(st.sampled_from(sorted(_OPS)))
    a = Fraction(draw(st.integers(0, 100_000)), draw(st.sampled_from([1, 1, 1, 100])))
    b = Fraction(draw(st.integers(1, 1_000)), draw(st.sampled_from([1, 1, 4])))
    truth = _OPS[op](a, b)
    wrong = draw(st.booleans())
    c = truth + draw(st.sampled_from([1, -1, 10, Fraction(1, 2)])) if wrong else truth
    money = draw(st.booleans()) and op in "+-"
    symbol = draw(st.sampled_from(_SURFACE[op]))
    # spelled operators belong to prose, LaTeX commands to math mode
    latex = symbol.startswith("\\") or (not symbol.isalpha() and draw(st.booleans()))
    # LaTeX groups thousands with ``{,}`` or a thin space as often as with a comma
    grouping = draw(st.sampled_from([",", "{,}", "\\,"])) if latex else ","
    claim = " ".join(
        [
            _written(a, money, latex, grouping),
            symbol,
            _written(b, money, latex, grouping),
            "=",
            _written(c, money, latex, grouping),
        ]
    )
    text = f"\\({claim}\\)" if latex else claim
    prefix = draw(st.sampled_from(["", "So, ", "In total she pays ", "Natalia sold "]))
    suffix = draw(st.sampled_from(["", ".", " clips.", " in May."]))
    return prefix + text + suffix, not wrong


@given(claims())
def test_statement_is_true_exactly_when_the_claim_is(case: tuple[str, bool]) -> None:
    text, claim_is_true = case
    statement = formalise_text(text)
    assert lean_truth(statement) is claim_is_true, (text, statement)


@pytest.mark.parametrize(
    ("statement", "truth"),
    [
        ("theorem step : (48 : ℚ) / 2 = 24 := by sorry", True),
        ("theorem step : (1 : ℚ) / 3 * 18 = 7 := by sorry", False),
        ("theorem step : (5 : ℚ) + 3 = 8 ∧ (8 : ℚ) * 2 ≠ 16 := by sorry", False),
        ("theorem step : (2 : ℚ) - 5 = -3 ∧ (3 : ℚ) ≤ 3 := by sorry", True),
    ],
)
def test_the_independent_evaluator(statement: str, truth: bool) -> None:
    assert lean_truth(statement) is truth


@given(
    st.integers(1, 500),
    st.integers(1, 500),
    st.integers(0, 1_000),
    st.sampled_from(["so she has {} left", "so the answer is {}", "and the remainder is {}"]),
)
def test_a_number_concluded_in_prose_is_read_or_refused(
    a: int, b: int, n: int, conclusion: str
) -> None:
    """``a + b = c, so she has n left``: a conclusion that is not the value of a side of the
    claim cannot be checked (``5 + 10 + 8 = 23 … 15`` restates the subterm ``5 + 10`` only), so
    the step is refused rather than proved by its claim alone."""
    text = f"\\({a} + {b} = {a + b}\\), {conclusion.format(n)}."
    try:
        statement = formalise_text(text)
    except ValueError as error:
        assert n != a + b, (text, error)
        assert f"'{n}'" in str(error)
    else:
        assert n == a + b, (text, statement)
        assert lean_truth(statement)
