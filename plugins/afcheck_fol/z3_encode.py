"""First-order formulas as z3 terms over one uninterpreted sort (the domain of discourse).

One :class:`Encoder` serves every z3 user of the formula tree: the equivalence check of nl2fol
and the ``z3-fol`` prover of chains. An encoder builds in its own z3 context unless it is given
one: encoders then share no symbols and can run in different threads. A caller that encodes
many small problems one after the other may pass one context to all of them instead: making a
context costs about a millisecond, a third of what z3 spends on one of chains' small problems.
Symbols of equal name and signature are then the same z3 symbols.

Symbols are named after the formula's: a constant ``a`` is the z3 constant ``a``, a predicate
``P`` of arity 2 the z3 function ``P/2``. What differs between users is explicit:

- ``strict_arity``: a predicate name keeps one arity across everything the encoder encodes, and
  a second arity is a ``ValueError``. Without it, ``P/1`` and ``P/2`` are two unrelated
  predicates;
- ``domain``: quantifiers range over that many elements (:attr:`Encoder.elements`) and are
  expanded into conjunctions and disjunctions, so the encoding is quantifier-free;
- ``interpretation``: a factory of an :class:`Interpretation` that gives some predicates a
  fixed meaning in the encoder's sort and context; the others stay uninterpreted.

A variable that no quantifier binds is a ``ValueError``: an open formula has no truth value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from afcheck_fol import z3_build as build
from afcheck_fol.formula import (
    And,
    Const,
    Eq,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Term,
    Truth,
    Xor,
)

if TYPE_CHECKING:
    import z3


class Interpretation(Protocol):
    """Fixed meanings for some predicates, built in an encoder's sort and context."""

    def atom(self, name: str, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
        """The meaning of ``name(args…)``; ``KeyError`` for a name left uninterpreted."""
        ...


InterpretationFactory = Callable[["z3.SortRef", "z3.Context"], Interpretation]
"""Builds an interpretation from the encoder's sort of objects and its context."""


class Encoder:
    """Encodes the formulas of one problem; symbols are shared across its formulas."""

    def __init__(
        self,
        *,
        strict_arity: bool = False,
        domain: int | None = None,
        interpretation: InterpretationFactory | None = None,
        ctx: z3.Context | None = None,
    ) -> None:
        import z3

        self.strict_arity = strict_arity
        self.ctx = ctx if ctx is not None else z3.Context()
        self.sort = z3.DeclareSort("Obj", self.ctx)
        self.interpretation = (
            None if interpretation is None else interpretation(self.sort, self.ctx)
        )
        self.constants: dict[str, z3.ExprRef] = {}
        """Each constant met so far, by name."""
        self.predicates: dict[tuple[str, int], z3.FuncDeclRef] = {}
        """Each uninterpreted predicate met so far, by name and arity."""
        self._arities: dict[str, int] = {}
        """Each uninterpreted predicate's first arity, by name."""
        self.fresh = itertools.count()
        """Numbers for bound variables' names; callers that make their own take from it too."""
        # With a bounded domain the problem becomes quantifier-free, which z3 decides quickly
        # even with an interpretation's arithmetic.
        self.elements: list[z3.ExprRef] | None = (
            None if domain is None
            else [z3.Const(f"e!{i}", self.sort) for i in range(domain)]
        )

    def formula(
        self, node: Formula, env: Mapping[str, z3.ExprRef] | None = None
    ) -> z3.BoolRef:
        """``node`` with each variable of ``env`` standing for its z3 term."""
        import z3

        env = env or {}
        if isinstance(node, Pred):
            return self.atom(node.name, [self.term(t, env) for t in node.args])
        if isinstance(node, Eq):
            return build.equal(self.term(node.left, env), self.term(node.right, env))
        if isinstance(node, Truth):
            return z3.BoolVal(node.value, self.ctx)
        if isinstance(node, Not):
            return build.neg(self.formula(node.body, env))
        if isinstance(node, And):
            if not node.items:
                return z3.BoolVal(True, self.ctx)
            return build.conj([self.formula(i, env) for i in node.items], self.ctx)
        if isinstance(node, Or):
            if not node.items:
                return z3.BoolVal(False, self.ctx)
            return build.disj([self.formula(i, env) for i in node.items], self.ctx)
        if isinstance(node, Xor):
            return build.xor(self.formula(node.left, env), self.formula(node.right, env))
        if isinstance(node, Implies):
            return build.implies(self.formula(node.left, env), self.formula(node.right, env))
        if isinstance(node, Iff):
            return build.equal(self.formula(node.left, env), self.formula(node.right, env))
        if self.elements is not None:
            expanded = [
                self.formula(node.body, {**env, node.var.name: e}) for e in self.elements
            ]
            return (build.conj(expanded, self.ctx) if isinstance(node, Forall)
                    else build.disj(expanded, self.ctx))
        # Fresh names per binder: shadowing and α-variants need no care.
        bound = z3.Const(f"{node.var.name}!{next(self.fresh)}", self.sort)
        body = self.formula(node.body, {**env, node.var.name: bound})
        return z3.ForAll([bound], body) if isinstance(node, Forall) else z3.Exists([bound], body)

    def term(self, term: Term, env: Mapping[str, z3.ExprRef]) -> z3.ExprRef:
        """A constant's z3 constant, or the term ``env`` gives a variable."""
        import z3

        if isinstance(term, Const):
            if term.name not in self.constants:
                self.constants[term.name] = z3.Const(term.name, self.sort)
            return self.constants[term.name]
        if term.name not in env:
            raise ValueError(f"free variable {term.name}")
        return env[term.name]

    def atom(self, name: str, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
        """``name(args…)``: the interpretation's meaning when it has one, else uninterpreted."""
        import z3

        if self.interpretation is not None:
            try:
                return self.interpretation.atom(name, args)
            except KeyError:
                pass  # a name the interpretation leaves open
        key = (name, len(args))
        if key not in self.predicates:
            first = self._arities.setdefault(name, len(args))
            if self.strict_arity and first != len(args):
                raise ValueError(f"predicate {name} used with {first} and {len(args)} arguments")
            self.predicates[key] = z3.Function(
                f"{name}/{len(args)}", *([self.sort] * len(args)), z3.BoolSort(self.ctx)
            )
        return build.apply_bool(self.predicates[key], args)
