"""Uninterpreted sorts and functions in z3, and exact readings of their models.

A statement about a function parameter (``f : ℝ → ℝ``) or about objects of a type the encoder
does not interpret (``α : Type*``) holds when it holds for *every* function and every type:
exactly what z3 checks when the function is an uninterpreted symbol and the type an
uninterpreted sort. So ``unsat`` of hypotheses ∧ ¬conclusion is a proof. A ``sat`` answer is a
counter-model only once checked: :func:`function_table` reads z3's interpretation of a
function as an exact finite table, which a caller evaluates the statement with.

The encoder of the ``smt`` prover uses this module for function-typed parameters; any other
component with obligations over such parameters or over ``Type*`` (the equivalence criteria)
can build its z3 terms through the same :class:`Vocabulary`::

    vocabulary = Vocabulary()
    f = vocabulary.function("f", ("ℕ",), "ℝ")      # f : ℕ → ℝ
    x = vocabulary.constant("x", "α")               # x : α, α an uninterpreted sort
    g = vocabulary.function("g", ("α",), "ℕ")       # g : α → ℕ (values ≥ 0 by an axiom)
    solver.add(*vocabulary.axioms, g(x) > f(3))

Number types are z3's ``Int`` (ℕ ℤ) and ``Real`` (ℚ ℝ), ``Prop`` is ``Bool``, and every other
type name is one uninterpreted sort of that name. A ℕ-valued function or constant comes with
the axiom that its values are ``≥ 0`` (in :attr:`Vocabulary.axioms`): true of every Lean
function into ℕ, so it never makes a true statement unprovable, and without it a statement
true only of natural numbers would not be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

__all__ = ["FunctionTable", "Functions", "Vocabulary", "function_table", "render_value", "value_of"]

_NUMBERS = {"ℕ": "Int", "ℤ": "Int", "ℚ": "Real", "ℝ": "Real"}


@dataclass
class Vocabulary:
    """The z3 sorts, functions and constants of one obligation, declared once each by name,
    and the axioms their Lean types impose (:attr:`axioms`, to assert with the obligation)."""

    axioms: list[Any] = field(default_factory=list)
    functions: dict[str, tuple[Any, tuple[str, ...], str]] = field(default_factory=dict)
    """``name → (z3 declaration, domain, codomain)``."""
    _sorts: dict[str, Any] = field(default_factory=dict)
    _constants: dict[str, Any] = field(default_factory=dict)

    def sort(self, ty: str) -> Any:
        """``Int`` for ℕ ℤ, ``Real`` for ℚ ℝ, ``Bool`` for Prop, else the uninterpreted sort
        named ``ty`` (the same one each time)."""
        if ty in _NUMBERS:
            return z3.IntSort() if _NUMBERS[ty] == "Int" else z3.RealSort()
        if ty == "Prop":
            return z3.BoolSort()
        if ty not in self._sorts:
            self._sorts[ty] = z3.DeclareSort(ty)
        return self._sorts[ty]

    def function(self, name: str, domain: tuple[str, ...], codomain: str) -> Any:
        """The uninterpreted function ``name : domain₁ → … → codomain`` (declared once; a
        second call with another signature is a :class:`ValueError`)."""
        if name in self.functions:
            decl, known_domain, known_codomain = self.functions[name]
            if (known_domain, known_codomain) != (domain, codomain):
                raise ValueError(f"'{name}' is already declared with another type")
            return decl
        if not domain:
            raise ValueError(f"'{name}' has no arguments: declare it with constant()")
        decl = z3.Function(name, *(self.sort(t) for t in domain), self.sort(codomain))
        self.functions[name] = (decl, domain, codomain)
        if codomain == "ℕ":
            xs = [z3.Const(f"{name}!arg{i}", self.sort(t)) for i, t in enumerate(domain)]
            self.axioms.append(z3.ForAll(xs, decl(*xs) >= 0, patterns=[decl(*xs)]))
        return decl

    def constant(self, name: str, ty: str) -> Any:
        """The constant ``name : ty`` (``≥ 0`` for ℕ, by an axiom)."""
        if name not in self._constants:
            self._constants[name] = z3.Const(name, self.sort(ty))
            if ty == "ℕ":
                self.axioms.append(self._constants[name] >= 0)
        return self._constants[name]


def value_of(value: Any) -> Fraction | None:
    """The exact value of a z3 numeral; ``None`` for anything else (an algebraic number, a
    term that is not a value)."""
    if z3.is_int_value(value):
        return Fraction(value.as_long())
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    return None


@dataclass(frozen=True)
class FunctionTable:
    """A function given by finitely many values and one value everywhere else: the shape of
    z3's models of an uninterpreted function over numbers."""

    entries: tuple[tuple[tuple[Fraction, ...], Fraction], ...]
    default: Fraction

    def __call__(self, args: tuple[Fraction, ...]) -> Fraction:
        for point, value in self.entries:
            if point == args:
                return value
        return self.default

    def lean(self, names: tuple[str, ...]) -> str:
        """Lean text: ``fun x => if x = 1 then 3 else 0``."""
        body = render_value(self.default)
        for point, value in reversed(self.entries):
            test = " ∧ ".join(f"{n} = {render_value(v)}" for n, v in zip(names, point,
                                                                          strict=True))
            body = f"if {test} then {render_value(value)} else {body}"
        return f"fun {' '.join(names)} => {body}"


def function_table(model: Any, decl: Any) -> FunctionTable | None:
    """z3's interpretation of ``decl`` in ``model`` as an exact table; ``None`` when it is
    not one (an ``else`` that depends on the arguments, an irrational value). A function the
    model leaves free is the constant 0."""
    interpretation = model[decl]
    if interpretation is None:
        return FunctionTable((), Fraction(0))
    if not isinstance(interpretation, z3.FuncInterp):
        return None
    entries: list[tuple[tuple[Fraction, ...], Fraction]] = []
    for i in range(interpretation.num_entries()):
        entry = interpretation.entry(i)
        point = tuple(value_of(entry.arg_value(j)) for j in range(entry.num_args()))
        value = value_of(entry.value())
        if value is None or any(p is None for p in point):
            return None
        entries.append((tuple(p for p in point if p is not None), value))
    default = value_of(interpretation.else_value())
    if default is None:
        return None
    return FunctionTable(tuple(entries), default)


def render_value(value: Fraction) -> str:
    """``3``, ``-1/2``: Lean-readable exact values."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


Functions = Mapping[str, Callable[[tuple[Fraction, ...]], Fraction]]
"""Interpretations of function parameters, by name, for the exact evaluator."""
