"""FOL formulas as z3 terms over one uninterpreted sort (the domain of discourse)."""

from __future__ import annotations

from typing import Any

from afcheck_fol.formula import (
    And,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Term,
    Truth,
    Var,
    Xor,
)


class Encoder:
    """Encodes formulas of one problem; symbols are shared across its formulas.

    A predicate used with two arities is refused (``ValueError``): z3 would silently make two
    symbols of it, and E refuses it too.
    """

    def __init__(self) -> None:
        import z3

        self._z3 = z3
        self.sort = z3.DeclareSort("Obj")
        self._preds: dict[str, Any] = {}
        self._consts: dict[str, Any] = {}

    def formula(self, node: Formula, scope: dict[str, Any] | None = None) -> Any:
        z3 = self._z3
        scope = scope or {}
        if isinstance(node, Pred):
            args = [self._term(t, scope) for t in node.args]
            symbol = self._pred(node.name, len(args))
            return symbol(*args) if args else symbol
        if isinstance(node, Eq):
            return self._term(node.left, scope) == self._term(node.right, scope)
        if isinstance(node, Truth):
            return z3.BoolVal(node.value)
        if isinstance(node, Not):
            return z3.Not(self.formula(node.body, scope))
        if isinstance(node, And):
            return z3.And(*[self.formula(i, scope) for i in node.items]) if node.items else (
                z3.BoolVal(True))
        if isinstance(node, Or):
            return z3.Or(*[self.formula(i, scope) for i in node.items]) if node.items else (
                z3.BoolVal(False))
        if isinstance(node, Xor):
            return z3.Xor(self.formula(node.left, scope), self.formula(node.right, scope))
        if isinstance(node, Implies):
            return z3.Implies(self.formula(node.left, scope), self.formula(node.right, scope))
        if isinstance(node, Iff):
            return self.formula(node.left, scope) == self.formula(node.right, scope)
        bound = z3.Const(f"{node.var.name}!{len(scope)}", self.sort)
        inner = {**scope, node.var.name: bound}
        body = self.formula(node.body, inner)
        if isinstance(node, Forall):
            return z3.ForAll([bound], body)
        if isinstance(node, Exists):
            return z3.Exists([bound], body)
        raise ValueError(f"not a formula: {node!r}")

    def _term(self, term: Term, scope: dict[str, Any]) -> Any:
        if isinstance(term, Var):
            if term.name not in scope:
                raise ValueError(f"free variable {term.name}")
            return scope[term.name]
        if isinstance(term, Const):
            if term.name not in self._consts:
                self._consts[term.name] = self._z3.Const(f"c_{term.name}", self.sort)
            return self._consts[term.name]
        raise ValueError(f"not a term: {term!r}")

    def _pred(self, name: str, arity: int) -> Any:
        z3 = self._z3
        known = self._preds.get(name)
        if known is not None:
            if known[0] != arity:
                raise ValueError(f"predicate {name} used with {known[0]} and {arity} arguments")
            return known[1]
        if arity == 0:
            symbol = z3.Bool(f"p_{name}")
        else:
            symbol = z3.Function(f"p_{name}", *([self.sort] * arity), z3.BoolSort())
        self._preds[name] = (arity, symbol)
        return symbol
