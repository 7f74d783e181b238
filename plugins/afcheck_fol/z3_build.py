"""The z3 terms the FOL encoding builds most, made through z3's C API.

z3's Python operators (``z3.And``, ``f(x)``, ``a - b``, ``a < b``) check and merge their
operands' sorts and contexts, each check a foreign call: at the labelled tarski set's scale
that was most of the encoding's time. The callers here already know the sorts (formulas are
Boolean, the board's attributes integers, every operand from one encoder's context), so each
function makes the one C call the operator would make, on the same arguments in the same
order, and wraps the result as the operator does; only the checks are left out. The terms,
and so their ids and what z3 answers on them, are the operators' (``tests/test_fol_z3_build.py``
compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ctypes

    import z3


def conj(terms: Sequence[z3.BoolRef], ctx: z3.Context) -> z3.BoolRef:
    """``z3.And(terms)``; ``terms`` not empty."""
    from z3 import z3core

    return _nary_bool(z3core.Z3_mk_and, terms, ctx)


def disj(terms: Sequence[z3.BoolRef], ctx: z3.Context) -> z3.BoolRef:
    """``z3.Or(terms)``; ``terms`` not empty."""
    from z3 import z3core

    return _nary_bool(z3core.Z3_mk_or, terms, ctx)


def _nary_bool(make: Callable[..., z3.Ast], terms: Sequence[z3.BoolRef], ctx: z3.Context
               ) -> z3.BoolRef:
    import z3

    return z3.BoolRef(make(ctx.ref(), len(terms), _asts(terms)), ctx)


def _asts(terms: Sequence[z3.ExprRef]) -> ctypes.Array[z3.Ast]:
    """The terms' ASTs as the C array z3's n-ary calls take."""
    import z3

    array = (z3.Ast * len(terms))()
    for i, term in enumerate(terms):
        array[i] = term.ast
    return array


def neg(term: z3.BoolRef) -> z3.BoolRef:
    """``z3.Not(term)``."""
    import z3
    from z3 import z3core

    return z3.BoolRef(z3core.Z3_mk_not(term.ctx.ref(), term.ast), term.ctx)


def implies(left: z3.BoolRef, right: z3.BoolRef) -> z3.BoolRef:
    """``z3.Implies(left, right)``."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_implies, left, right)


def xor(left: z3.BoolRef, right: z3.BoolRef) -> z3.BoolRef:
    """``z3.Xor(left, right)``."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_xor, left, right)


def equal(left: z3.ExprRef, right: z3.ExprRef) -> z3.BoolRef:
    """``left == right`` (for Booleans: ``left ↔ right``)."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_eq, left, right)


def less(left: z3.ArithRef, right: z3.ArithRef) -> z3.BoolRef:
    """``left < right``."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_lt, left, right)


def greater(left: z3.ArithRef, right: z3.ArithRef) -> z3.BoolRef:
    """``left > right``."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_gt, left, right)


def at_least(left: z3.ArithRef, right: z3.ArithRef) -> z3.BoolRef:
    """``left >= right``."""
    from z3 import z3core

    return _binary_bool(z3core.Z3_mk_ge, left, right)


def _binary_bool(make: Callable[..., z3.Ast], left: z3.ExprRef, right: z3.ExprRef
                 ) -> z3.BoolRef:
    import z3

    return z3.BoolRef(make(left.ctx.ref(), left.ast, right.ast), left.ctx)


def differ(left: z3.ExprRef, right: z3.ExprRef) -> z3.BoolRef:
    """``left != right`` (z3 makes a two-argument ``distinct``)."""
    import z3
    from z3 import z3core

    return z3.BoolRef(z3core.Z3_mk_distinct(left.ctx.ref(), 2, _asts((left, right))), left.ctx)


def minus(left: z3.ArithRef, right: z3.ArithRef) -> z3.ArithRef:
    """``left - right``."""
    import z3
    from z3 import z3core

    return z3.ArithRef(z3core.Z3_mk_sub(left.ctx.ref(), 2, _asts((left, right))), left.ctx)


def negative(term: z3.ArithRef) -> z3.ArithRef:
    """``-term``."""
    import z3
    from z3 import z3core

    return z3.ArithRef(z3core.Z3_mk_unary_minus(term.ctx.ref(), term.ast), term.ctx)


def apply_bool(decl: z3.FuncDeclRef, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
    """``decl(args…)`` for a predicate (a function into the Booleans)."""
    import z3

    return z3.BoolRef(_apply(decl, args), decl.ctx)


def apply_int(decl: z3.FuncDeclRef, args: Sequence[z3.ExprRef]) -> z3.ArithRef:
    """``decl(args…)`` for a function into the integers."""
    import z3

    return z3.ArithRef(_apply(decl, args), decl.ctx)


def _apply(decl: z3.FuncDeclRef, args: Sequence[z3.ExprRef]) -> z3.Ast:
    from z3 import z3core

    return z3core.Z3_mk_app(decl.ctx.ref(), decl.ast, len(args), _asts(args))
