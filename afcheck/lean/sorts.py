"""Whether a binder's written type is a proposition (the binder is a premise) or not.

``(h : x > 0)`` is a premise and ``(x : ℝ)`` an object; a type the front end cannot place —
``(x : s)`` for a set ``s`` coerced to a type, ``(h : P x)`` for a predicate variable ``P``,
``(x : {y // y > 0})`` — is *not* taken for a proposition: a premise loses its name and its
place (premises are compared as one conjunction, up to order), so reading an object as a
premise can make two different statements look alike (``(x : s) (y : t)`` and
``(x : t) (y : s)``), while reading a premise as an object only keeps more structure.
:func:`is_prop` therefore says ``True`` only for recognisable propositions.
"""

from __future__ import annotations

import re

from afcheck.lean import ast as A

__all__ = ["is_prop", "is_type"]

_PROP_OPS = {"=", "≠", "<", ">", "≤", "≥", "∣", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "≡", "∧", "∨", "↔",
             "≈"}
_PREDICATES = {
    "Continuous", "ContinuousOn", "ContinuousAt", "ContinuousWithinAt", "UniformContinuous",
    "UniformContinuousOn", "Differentiable", "DifferentiableOn", "DifferentiableAt",
    "DifferentiableWithinAt", "HasDerivAt", "HasDerivWithinAt", "HasFDerivAt", "HasSum",
    "Summable", "Tendsto", "TendstoUniformly", "TendstoUniformlyOn", "CauchySeq", "Monotone",
    "Antitone", "StrictMono", "StrictAnti", "MonotoneOn", "AntitoneOn", "StrictMonoOn",
    "StrictAntiOn", "Injective", "Surjective", "Bijective", "InjOn", "SurjOn", "BijOn", "MapsTo",
    "Prime", "Irreducible", "Squarefree", "Coprime", "Even", "Odd", "Irrational", "Nonempty",
    "Finite", "Infinite", "Countable", "Dense", "Disjoint", "Normal", "Fact", "Measurable",
    "Integrable", "IntegrableOn", "IntervalIntegrable", "Convex", "ConvexOn", "ConcaveOn",
    "StrictConvexOn", "StrictConcaveOn", "BddAbove", "BddBelow", "Commute", "Periodic",
    "ClusterPt", "LinearIndependent", "Orthonormal", "Embedding", "Inducing", "OpenEmbedding",
    "ClosedEmbedding", "Eventually", "Frequently", "True", "False", "Not", "Nat.ModEq",
    "Int.ModEq", "ModEq", "Characteristic", "Cyclic", "Simple", "Solvable", "Nilpotent",
}
"""Mathlib predicates (by their last name component): ``Continuous f`` is a proposition."""
_IS = re.compile(r"Is[A-Z]")


def _predicate_name(name: str) -> bool:
    last = name.lstrip("@").split(".")[-1]
    return last in _PREDICATES or bool(_IS.match(last))


def is_prop(expr: A.Expr, props: frozenset[str] = frozenset()) -> bool:
    """Whether ``expr``, written as a binder's type, is recognisably a proposition; ``props``
    are the names of binders of type ``Prop`` in scope."""
    if isinstance(expr, A.Var):
        if expr.name in props:
            return True
        if "." in expr.name:
            return _predicate_name(expr.name)  # ``p.Prime``, ``N.Normal``
        return expr.name in ("True", "False")
    if isinstance(expr, A.App):
        return expr.fn in props or _predicate_name(expr.fn)
    if isinstance(expr, A.Proj):
        return _predicate_name(expr.field)  # ``(card G).Prime``
    if isinstance(expr, A.UnOp):
        return expr.op == "¬"
    if isinstance(expr, A.BinOp):
        if expr.op in _PROP_OPS:
            return True
        # ``P → Q`` and ``(x : A) → P x`` are propositions; ``A → B`` between types is not.
        return expr.op == "→" and is_prop(expr.right, props)
    if isinstance(expr, A.Quant):
        # ``∀ i, X i`` may be a dependent function type; ``∃`` is always a proposition.
        return expr.q != "∀" or is_prop(expr.body, props)
    return False


def is_type(expr: A.Expr, props: frozenset[str] = frozenset()) -> bool:
    """Whether a binder of this type is an object (kept with its name and type), not a
    premise: everything :func:`is_prop` does not recognise."""
    return not is_prop(expr, props)
