"""The drift detectors: each reads one step and one formal statement of it and says what in
the statement looks like the formaliser drifted from the step.

Every detector has the signature ``detect(step_text, statement, header="")`` and returns a
list of :class:`~afcheck_drift.warning.DriftWarning` (empty when nothing is suspicious, and
when the statement cannot be read: a detector never fails on bad input). ``statement`` is the
Lean statement (``theorem … : … := by sorry``, or model output it can be extracted from) and
``header`` the preamble that came with it (``open Real`` …). The failure of each kind that
FaithformBench (App. H) shows is a test in ``tests/test_drift_detectors.py``.

- ``vacuous_hypotheses``: the hypotheses cannot all hold (z3 finds them unsatisfiable, with
  Lean's arithmetic), so the statement is provable whatever its conclusion says.
- ``assumed_conclusion``: the conclusion is one of the hypotheses, up to the names of bound
  variables, the sides of ``= ≠ ↔`` and ``a > b`` read as ``b < a``.
- ``abandoned_content``: the conclusion holds by reflexivity (``12 = 12``), or is a closed
  true statement that shares no number with the step.
- ``numeral_fidelity``: the value the step arrives at does not occur in the statement (silent
  correction shows here before any proof).
- ``type_narrowing``: variables of type ℕ where the step has fractions, negative numbers or
  says "real"; ℕ subtraction or division in the conclusion where it truncates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from afcheck_arith.asserted import (
    has_fraction,
    has_negative,
    mentions_reals,
    result_numbers,
    step_numbers,
)

from afcheck.lean import ast as A
from afcheck.lean import typed as T
from afcheck.lean.lexer import ParseError, tokenize
from afcheck.lean.printer import print_expr
from afcheck_drift.warning import DriftWarning

Detector = Callable[[str, str, str], list[DriftWarning]]
"""``detect(step_text, statement, header) -> warnings``."""

Z3_TIMEOUT_MS = 2000
_NAT = {"ℕ", "Nat"}
_QUOTE_LIMIT = 80


@dataclass(frozen=True)
class _Formal:
    theorem: A.Theorem
    typed: T.Statement | None
    """``None`` when the statement is outside the arithmetic fragment."""


@functools.lru_cache(maxsize=256)
def _read(statement: str, header: str) -> _Formal | None:
    # Five detectors read the same statement: parse and elaborate it once.
    from afcheck.lean.elaborate import Unsupported, elaborate
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_theorem

    try:
        extracted = extract_statement(statement)
        theorem = parse_theorem(extracted.statement)
    except (ExtractionError, ParseError, RecursionError):
        return None
    try:
        typed: T.Statement | None = elaborate(
            theorem, "\n".join(filter(None, (header, extracted.header))))
    except (Unsupported, RecursionError):
        typed = None
    return _Formal(theorem, typed)


def _quote(expr: A.Expr) -> str:
    text = print_expr(expr)
    return f"`{text}`" if len(text) <= _QUOTE_LIMIT else f"`{text[:_QUOTE_LIMIT - 1]}…`"


def _hypotheses(theorem: A.Theorem) -> list[A.Binder]:
    """Binders whose type is a proposition (not a number type, not a typeclass instance)."""
    from afcheck.lean.elaborate import type_name

    return [b for b in theorem.binders
            if b.type is not None and b.kind != "instance" and type_name(b.type) is None
            and not (isinstance(b.type, A.Var) and b.type.name in ("Type", "Prop"))]


# --- vacuous hypotheses -------------------------------------------------------------------


def vacuous_hypotheses(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """Hypotheses that z3 finds jointly unsatisfiable (Lean's arithmetic; ℕ is non-negative).

    The warning names an unsatisfiable subset of them (z3's unsat core). Outside the SMT
    fragment, or when z3 answers unknown, there is no warning.
    """
    formal = _read(statement, header)
    if formal is None or formal.typed is None or not formal.typed.hypotheses:
        return []
    core = _unsat_core(formal.typed)
    if core is None:
        return []
    names = ", ".join(core)
    return [DriftWarning("vacuous_hypotheses",
                         f"hypotheses {names} cannot all hold (z3: unsatisfiable), so the "
                         "statement is provable whatever its conclusion says")]


def _unsat_core(statement: T.Statement) -> list[str] | None:
    try:
        import z3
        from afcheck_smt.encode import Encoding, declare, formula
    except ImportError:
        from afcheck.errors import MissingDependency

        raise MissingDependency("drift", "z3-solver", "pip install 'afcheck[smt]'") from None
    from afcheck.lean.elaborate import Unsupported

    enc = Encoding()
    env = {name: declare(enc, name, ty) for name, ty in statement.params}
    try:
        encoded = [(name, formula(h, enc, env)) for name, h in statement.hypotheses]
    except Unsupported:
        return None
    solver = z3.Solver()
    solver.set("timeout", Z3_TIMEOUT_MS)
    solver.add(*enc.side)
    trackers = {}
    for index, (name, hypothesis) in enumerate(encoded):
        tracker = z3.Bool(f"__hyp_{index}")
        trackers[str(tracker)] = name
        solver.assert_and_track(hypothesis, tracker)
    if solver.check() != z3.unsat:
        return None
    core = {trackers[str(t)] for t in solver.unsat_core()}
    return [name for name, _ in statement.hypotheses if name in core]


# --- assumed conclusion -------------------------------------------------------------------


def assumed_conclusion(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """The conclusion is a hypothesis, up to renaming bound variables and symmetry."""
    formal = _read(statement, header)
    if formal is None:
        return []
    goal = canonical(formal.theorem.conclusion)
    for binder in _hypotheses(formal.theorem):
        assert binder.type is not None
        if canonical(binder.type) == goal:
            return [DriftWarning(
                "assumed_conclusion",
                f"the conclusion {_quote(formal.theorem.conclusion)} is assumed as hypothesis "
                f"{binder.name}: the statement proves nothing about the step")]
    return []


_FLIPPED = {">": "<", "≥": "≤"}
_SYMMETRIC = {"=", "≠", "↔", "∧", "∨"}


def canonical(expr: A.Expr) -> A.Expr:
    """``expr`` with ascription-free numerals, bound variables renamed by position, ``>``/``≥``
    turned round and the sides of symmetric operators in a fixed order: two propositions that
    differ only in those ways have equal canonical forms."""
    return _canon(expr, {}, [0])


def _canon(expr: A.Expr, names: dict[str, str], counter: list[int]) -> A.Expr:
    if isinstance(expr, A.Var):
        return A.Var(names.get(expr.name, expr.name))
    if isinstance(expr, A.Ascription) and isinstance(expr.expr, A.Num):
        return expr.expr
    if isinstance(expr, A.Ascription):
        return A.Ascription(_canon(expr.expr, names, counter), expr.type)
    if isinstance(expr, A.BinOp):
        op = expr.op
        left, right = _canon(expr.left, names, counter), _canon(expr.right, names, counter)
        if op in _FLIPPED:
            op, left, right = _FLIPPED[op], right, left
        if op in _SYMMETRIC and repr(right) < repr(left):
            left, right = right, left
        return A.BinOp(op, left, right)
    if isinstance(expr, A.UnOp):
        return A.UnOp(expr.op, _canon(expr.operand, names, counter))
    if isinstance(expr, A.Coe):
        return A.Coe(_canon(expr.expr, names, counter))
    if isinstance(expr, A.App):
        return A.App(expr.fn, tuple(_canon(a, names, counter) for a in expr.args), expr.style)
    if isinstance(expr, A.Proj):
        return A.Proj(_canon(expr.expr, names, counter), expr.field)
    if isinstance(expr, (A.Quant, A.Lambda)):
        inner = dict(names)
        binders = []
        for binder in expr.binders:
            counter[0] += 1
            inner[binder.name] = f"_b{counter[0]}"
            kept = None if binder.type is None else _canon(binder.type, names, counter)
            binders.append(replace(binder, name=inner[binder.name], type=kept))
        body = _canon(expr.body, inner, counter)
        if isinstance(expr, A.Lambda):
            return A.Lambda(tuple(binders), body)
        bound = None if expr.bound is None else (expr.bound[0],
                                                 _canon(expr.bound[1], names, counter))
        return A.Quant(expr.q, tuple(binders), body, bound)
    if isinstance(expr, A.BigOp):
        counter[0] += 1
        inner = {**names, expr.var: f"_b{counter[0]}"}
        domain = None if expr.domain is None else _canon(expr.domain, names, counter)
        return A.BigOp(expr.op, inner[expr.var], expr.var_type, domain,
                       _canon(expr.body, inner, counter), "in")
    return expr


# --- abandoned content --------------------------------------------------------------------

_REFLEXIVE = {"=", "≤", "≥", "↔", "→"}


def abandoned_content(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """A conclusion provable with no reference to the step: a reflexivity (``12 = 12``,
    ``330 - 10 = 330 - 10``), or a closed statement that is true by evaluation and shares no
    number with the step."""
    formal = _read(statement, header)
    if formal is None:
        return []
    conclusion = formal.theorem.conclusion
    if isinstance(conclusion, A.Var) and conclusion.name == "True":
        return [DriftWarning("abandoned_content", "the conclusion is `True`: it says nothing")]
    if (isinstance(conclusion, A.BinOp) and conclusion.op in _REFLEXIVE
            and canonical(conclusion.left) == canonical(conclusion.right)):
        return [DriftWarning(
            "abandoned_content",
            f"the conclusion {_quote(conclusion)} holds by reflexivity: it keeps none of "
            "the step's content")]
    if formal.typed is None or not _closed_and_true(formal.typed.conclusion):
        return []
    ours = {n.value for n in step_numbers(step_text)}
    if ours & set(_values([conclusion])):
        return []
    return [DriftWarning(
        "abandoned_content",
        f"the conclusion {_quote(conclusion)} is true by evaluation and shares no number with "
        "the step")]


def _closed_and_true(formula: T.Formula) -> bool:
    from afcheck.lean.evaluate import NotExact, eval_formula

    if any(isinstance(node, (T.Sym, T.Quantified)) for node in _typed_nodes(formula)):
        return False
    try:
        return eval_formula(formula, {})
    except (NotExact, ZeroDivisionError, ValueError, OverflowError):
        return False


# --- numeral fidelity ---------------------------------------------------------------------


def numeral_fidelity(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """The value the step arrives at (:func:`~afcheck_arith.asserted.result_numbers`) does not
    occur in the statement.

    A number counts as present when the statement has a numeral of that value, its negation,
    a quotient of two numerals equal to it (``5 / 2`` for ``2.5``), or, for a percentage
    ``p%``, ``p / 100``. The warning also lists the statement's numbers that the step does
    not have: where one number replaced another, that shows which.
    """
    formal = _read(statement, header)
    if formal is None:
        return []
    asserted = result_numbers(step_text)
    if not asserted:
        return []
    present = set(_statement_values(formal.theorem))
    missing = [n for n in asserted
               if not ({n.value, -n.value} & present
                       or (n.percent and n.value / 100 in present))]
    if not missing:
        return []
    ours = {n.value for n in step_numbers(step_text)}
    extra = sorted({v for v in _numerals_of_theorem(formal.theorem) if v not in ours})
    message = ("the step's result " + ", ".join(n.text + "%" * n.percent for n in missing)
               + (" is" if len(missing) == 1 else " are") + " not in the statement")
    if extra:
        message += " (it has " + ", ".join(_show(v) for v in extra[:5]) + " instead)"
    return [DriftWarning("numeral_fidelity", message)]


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    decimal = value.numerator / value.denominator
    return f"{decimal:g}" if Fraction(f"{decimal:g}") == value else str(value)


def _numerals(expr: A.Expr) -> Iterator[Fraction]:
    for node in A.subterms(expr):
        if isinstance(node, A.Num):
            yield node.value
        elif isinstance(node, A.Opaque):
            yield from _lean_numerals(node.text)


def _lean_numerals(text: str) -> Iterator[Fraction]:
    """The numerals of Lean text the parser keeps whole (set-builder, anonymous constructors),
    read by the Lean lexer."""
    try:
        tokens = tokenize(text)
    except ParseError:
        return
    for token in tokens:
        if token.kind == "num":
            yield Fraction(token.text)


def _theorem_exprs(theorem: A.Theorem) -> Iterator[A.Expr]:
    for binder in theorem.binders:
        if binder.type is not None:
            yield binder.type
        if binder.default is not None:
            yield binder.default
    yield theorem.conclusion


def _numerals_of_theorem(theorem: A.Theorem) -> Iterator[Fraction]:
    for expr in _theorem_exprs(theorem):
        yield from _numerals(expr)


def _statement_values(theorem: A.Theorem) -> Iterator[Fraction]:
    yield from _values(_theorem_exprs(theorem))


def _values(exprs: Iterable[A.Expr]) -> Iterator[Fraction]:
    """The numerals of ``exprs`` and the quotients ``a / b`` of two numerals in them."""
    for expr in exprs:
        yield from _numerals(expr)
        for node in A.subterms(expr):
            if isinstance(node, A.BinOp) and node.op == "/":
                top, bottom = _plain_num(node.left), _plain_num(node.right)
                if top is not None and bottom:
                    yield top / bottom


def _plain_num(expr: A.Expr) -> Fraction | None:
    while isinstance(expr, A.Ascription):
        expr = expr.expr
    return expr.value if isinstance(expr, A.Num) else None


# --- type narrowing -----------------------------------------------------------------------


def type_narrowing(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """ℕ where the step is not about natural numbers, and ℕ ``-``/``/`` in the conclusion.

    Two warnings: variables declared ℕ (parameters or bound) while the step writes a
    fraction, a negative number or says "real"; and ℕ subtraction or division in the
    conclusion, which truncates — reported for symbolic operands always and for numerals
    only when the truncated value differs from the exact one (``3 - 5``, ``7 / 2``).
    """
    formal = _read(statement, header)
    if formal is None:
        return []
    warnings: list[DriftWarning] = []
    naturals = _natural_variables(formal.theorem)
    sign = has_fraction(step_text) or has_negative(step_text) or mentions_reals(step_text)
    if naturals and sign:
        names = ", ".join(naturals)
        warnings.append(DriftWarning(
            "type_narrowing",
            f"{names} {'is' if len(naturals) == 1 else 'are'} ℕ but the step has '{sign}'"))
    if formal.typed is not None:
        for node in _typed_nodes(formal.typed.conclusion):
            if (isinstance(node, T.Arith) and node.ty == "ℕ" and node.op in ("-", "/")
                    and _truncates(node)):
                what = "subtraction" if node.op == "-" else "division"
                effect = "stops at 0" if node.op == "-" else "rounds down"
                warnings.append(DriftWarning(
                    "type_narrowing",
                    f"ℕ {what} in the conclusion: `{show_term(node)}` {effect}"))
                break
    return warnings


def _natural_variables(theorem: A.Theorem) -> list[str]:
    names: list[str] = []
    for binder in theorem.binders:
        if isinstance(binder.type, A.Var) and binder.type.name in _NAT:
            names.append(binder.name)
    for expr in _theorem_exprs(theorem):
        for node in A.subterms(expr):
            if isinstance(node, (A.Quant, A.Lambda)):
                names.extend(b.name for b in node.binders
                             if isinstance(b.type, A.Var) and b.type.name in _NAT)
            elif (isinstance(node, A.BigOp) and isinstance(node.var_type, A.Var)
                  and node.var_type.name in _NAT):
                names.append(node.var)
    return list(dict.fromkeys(names))


def _truncates(node: T.Arith) -> bool:
    from afcheck.lean.evaluate import NotExact, eval_term

    if any(isinstance(n, (T.Sym, T.Quantified)) for n in _typed_nodes(node)):
        return True
    try:
        left, right = eval_term(node.left, {}), eval_term(node.right, {})
    except (NotExact, ZeroDivisionError, ValueError, OverflowError):
        return True
    if node.op == "-":
        return left < right
    return right == 0 or left % right != 0


def _typed_nodes(node: T.Formula | T.Term) -> Iterator[T.Formula | T.Term]:
    yield node
    if isinstance(node, (T.Cmp, T.Logic, T.Arith)):
        yield from _typed_nodes(node.left)
        yield from _typed_nodes(node.right)
    elif isinstance(node, T.Not):
        yield from _typed_nodes(node.operand)
    elif isinstance(node, T.Neg):
        yield from _typed_nodes(node.operand)
    elif isinstance(node, T.Cast):
        yield from _typed_nodes(node.expr)
    elif isinstance(node, T.Pow):
        yield from _typed_nodes(node.base)
    elif isinstance(node, T.Call):
        for arg in node.args:
            yield from _typed_nodes(arg)
    elif isinstance(node, T.Quantified):
        yield from _typed_nodes(node.body)


def show_term(term: T.Term) -> str:
    """A typed term in Lean-like notation (``1 / (n ^ 2 + 5 * n + 4)``)."""
    if isinstance(term, T.Const):
        return _show(term.value)
    if isinstance(term, T.Sym):
        return term.name
    if isinstance(term, T.Cast):
        return f"↑{_operand(term.expr, 100)}"
    if isinstance(term, T.Arith):
        prec = _PREC[term.op]
        return (f"{_operand(term.left, prec)} {term.op} "
                f"{_operand(term.right, prec + 1)}")
    if isinstance(term, T.Neg):
        return f"-{_operand(term.operand, 100)}"
    if isinstance(term, T.Pow):
        return f"{_operand(term.base, 76)} ^ {term.exponent}"
    return f"{term.fn} " + " ".join(_operand(a, 100) for a in term.args)


_PREC = {"+": 65, "-": 65, "*": 70, "/": 70, "%": 70}


def _operand(term: T.Term, context: int) -> str:
    """``term`` printed as an operand where precedence ``context`` binds: parenthesised
    when it binds less tightly."""
    text = show_term(term)
    if isinstance(term, T.Arith):
        own = _PREC[term.op]
    elif isinstance(term, T.Pow):
        own = 75
    elif isinstance(term, (T.Const, T.Sym)):
        own = 1000
    else:
        own = 90
    return f"({text})" if own < context else text


# --- all of them --------------------------------------------------------------------------

DETECTORS: dict[str, Detector] = {
    "vacuous_hypotheses": vacuous_hypotheses,
    "assumed_conclusion": assumed_conclusion,
    "abandoned_content": abandoned_content,
    "numeral_fidelity": numeral_fidelity,
    "type_narrowing": type_narrowing,
}
"""Every detector by name, in the order they run."""


def detect_all(step_text: str, statement: str, header: str = "") -> list[DriftWarning]:
    """The warnings of every detector on one formalisation, in detector order."""
    warnings: list[DriftWarning] = []
    for detect in DETECTORS.values():
        warnings.extend(detect(step_text, statement, header))
    return warnings
