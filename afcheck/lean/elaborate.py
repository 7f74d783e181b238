"""Give a parsed statement Lean's meaning, or say it is outside the supported fragment.

Numerals and coercions follow Lean 4's ``binop%``/``binrel%`` elaborator
(``Lean/Elab/Extra.lean``): a tree is made of ``+ - * / %`` nodes, unary ``-`` and the bases of
``^`` (a ``rightact%``: the exponent is elaborated apart); everything else — a numeral, a
variable, an ascription, ``min``/``max``/``|·|``, ``∑``/``∏``, any function application — is a
*leaf*, elaborated on its own with no expected type (``processLeaf``: ``elabTerm s none``).
The *maximal* type among the leaves' own types (and the expected type, if the tree has one) is
the type of the whole tree, and ``↑`` is inserted at every leaf of a smaller type. A leaf whose
own type is unknown (a numeral, ``min 2 3``, a sum of numerals) takes the tree's type. When no
leaf has a type, numerals take the default ``ℕ`` — so ``7 / 2 = 3`` is a statement about ℕ,
and true. So in ``(x : ℝ) = min (a - b) 5`` with ``a b : ℕ`` the ``min`` is taken in ℕ (where
``a - b`` truncates) and then cast, and ``∑ k in Finset.range 4, k / 2 = (3 : ℝ)`` sums in ℕ.
The expected type reaches inside a leaf only where Lean propagates it: an ascription of the
whole leaf (``(min (a - b) 5 : ℝ)``, ``(∑ k in Finset.range 3, (k - 1) : ℝ)``) and the
argument of a function whose parameter type is fixed (``Real.sqrt``, ``Int.natAbs``). ``min a
b`` unifies its type from the first argument whose type is known, as Lean's application
elaborator does (``min (n : ℕ) (z : ℤ)`` is a type error in Lean, outside here). ``a ∣ b`` is
a plain application, not a ``binrel%``: ``b`` is elaborated at ``a``'s type. Decimal numerals
with no type are ``Float`` in Lean and therefore outside the fragment.

The fragment: variables of type ℕ ℤ ℚ ℝ; hypotheses; ``∀ ∃ ∃!`` over ℕ ℤ ℝ (not ℚ, which z3
cannot quantify over exactly); ``¬ ∧ ∨ → ↔ True False``; ``= ≠ < ≤ > ≥``; ``∣`` on ℕ ℤ;
``+ - * / %``; ``^`` with a literal exponent; ``abs min max Real.sqrt Int.floor Int.ceil
Int.natAbs Int.toNat``; ``Nat.factorial choose gcd lcm`` on literals; ``∑``/``∏`` over
``Finset.range``/``Icc``/``Ico``/``Ioc``/``Ioo`` with literal bounds (at most 1000 terms);
``Fact P`` instance binders. With ``symbols=True`` (see :func:`elaborate`) also function-typed
parameters, ``x ^ n`` with a non-literal natural exponent (``npow``), ``Nat.factorial choose
gcd lcm`` of any terms, ``Real.exp log sin cos logb pi``, ``Nat.Prime``, ``Irrational``,
``Function.Injective``, ``Finset.card`` of ranges and filters, and ``∑``/``∏`` whose domain's
upper end is a term, unrolled to :data:`UNROLL_LIMIT` terms. Everything else raises
:class:`Unsupported` with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from afcheck.lean import ast as A
from afcheck.lean import typed as T
from afcheck.lean.typed import NUMERIC

__all__ = ["Unsupported", "clear_cache", "elaborate"]


class Unsupported(ValueError):
    """The statement is outside the fragment; ``str(error)`` says which part and why."""


_TYPE_NAMES = {
    "ℕ": "ℕ",
    "Nat": "ℕ",
    "ℤ": "ℤ",
    "Int": "ℤ",
    "ℚ": "ℚ",
    "Rat": "ℚ",
    "ℝ": "ℝ",
    "Real": "ℝ",
}
_ARITH = {"+", "-", "*", "/", "%"}
_RELATIONS = {"=", "≠", "<", "≤", ">", "≥"}
_LOGIC = {"∧", "∨", "→", "↔"}
_MAX_TERMS = 1000
_MAX_EXPONENT = 64
_FUNCTIONS = {
    "abs": "abs",
    "min": "min",
    "max": "max",
    "Real.sqrt": "sqrt",
    "Int.floor": "floor",
    "Int.ceil": "ceil",
    "Int.natAbs": "natAbs",
    "Int.toNat": "toNat",
    "Nat.factorial": "factorial",
    "Nat.choose": "choose",
    "Nat.gcd": "gcd",
    "Nat.lcm": "lcm",
    "Nat.succ": "succ",
    "Int.gcd": "gcd_int",
    "Real.exp": "exp",
    "Real.log": "log",
    "Real.sin": "sin",
    "Real.cos": "cos",
    "Real.pi": "pi",
    "Real.logb": "logb",
}
_SYMBOLIC = frozenset(("exp", "log", "sin", "cos", "pi", "logb"))
"""Functions read only with ``symbols=True``: the encoder knows them through true facts
(Mathlib lemmas), not by value."""
_SYMBOLIC_OPENED = {"Real": ("exp", "log", "sin", "cos", "logb")}
"""Short names of :data:`_SYMBOLIC` an ``open`` makes available, when no other namespace
Lean sees has the same short name (``log`` under ``open Real Nat`` is ambiguous)."""
_OPENED = {
    "Real": ("sqrt",),
    "Nat": ("factorial", "choose", "gcd", "lcm", "succ"),
    "Int": ("floor", "ceil", "natAbs", "toNat"),
    "Finset": ("range", "Icc", "Ico", "Ioc", "Ioo"),
}


@dataclass
class _Scope:
    types: dict[str, str | None] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    inferred: set[str] = field(default_factory=set)
    """Bound variables whose type was read off their first use."""
    expansions: dict[tuple[int, bool], tuple[A.BigOp, tuple[str, list[A.Expr]]]] = field(
        default_factory=dict)
    """Each big operator's expansion in this statement, by the node's identity (the node is
    kept beside it, so the identity is not reused): a tree's leaves and then the tree itself
    are read from the same expansion."""

    functions: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    """Function-typed parameters: ``(domain, codomain)`` by name."""

    symbols: bool = False
    """Whether terms known only through facts (function parameters, ``Real.log``, ``x ^ n``
    with a variable ``n``) are read: see :func:`elaborate`."""

    def child(self) -> _Scope:
        return _Scope(dict(self.types), self.aliases, self.inferred, self.expansions,
                      self.functions, self.symbols)


def type_name(expr: A.Expr | None, scope: _Scope | None = None) -> str | None:
    """``ℕ ℤ ℚ ℝ`` for a number type written in any spelling; ``None`` otherwise."""
    if isinstance(expr, A.Var):
        if expr.name == "R" and not (scope and "R" in scope.types):
            return "ℝ"
        return _TYPE_NAMES.get(expr.name)
    return None


def elaborate(theorem: A.Theorem, header: str = "", symbols: bool = False) -> T.Statement:
    """The typed statement; raises :class:`Unsupported` outside the fragment.

    ``symbols`` admits what only an encoder with uninterpreted symbols can read: parameters
    of function type (``f : ℝ → ℝ``, applied as :class:`afcheck.lean.typed.Apply`). A reader
    that walks typed trees on its own leaves it off and never meets those nodes.

    The answer is a function of ``theorem`` and ``header`` alone (both immutable, compared by
    value), so the last :data:`_CACHE_SIZE` answers are kept, refusals included: a method
    elaborates the same statement several times (the equivalence method once to normalise it
    and again per binder alignment; its prover once more per obligation), and a statement whose
    big operator expands to hundreds of terms costs tens of milliseconds each time.
    """
    # The declaration's kind and name mean nothing here, so two statements that differ only
    # in them (a method's restatement of a conclusion under its own name) share an answer.
    answer = _elaborated(theorem.binders, theorem.conclusion, header, symbols)
    if isinstance(answer, _Refusal):
        raise Unsupported(answer.reason)
    return answer


def clear_cache() -> None:
    """Forget every kept answer of :func:`elaborate` (a benchmark's first run starts cold)."""
    _elaborated.cache_clear()
    _header_aliases.cache_clear()


_CACHE_SIZE = 1024


@dataclass(frozen=True)
class _Refusal:
    reason: str


@lru_cache(maxsize=_CACHE_SIZE)
def _elaborated(binders: tuple[A.Binder, ...], conclusion: A.Expr, header: str,
                symbols: bool = False) -> T.Statement | _Refusal:
    # Only the refusal's text is kept: a fresh exception is raised each time, so no traceback
    # is shared between callers. A RecursionError is not kept (it depends on the stack).
    try:
        return _elaborate(A.Theorem("theorem", "_", binders, conclusion), header, symbols)
    except Unsupported as error:
        return _Refusal(str(error))


def _elaborate(theorem: A.Theorem, header: str, symbols: bool = False) -> T.Statement:
    scope = _Scope(aliases=_aliases(header), symbols=symbols)
    params: list[tuple[str, str]] = []
    functions: list[tuple[str, tuple[str, ...], str]] = []
    hypotheses: list[tuple[str, T.Formula]] = []
    for binder in theorem.binders:
        if binder.kind == "instance":
            hypotheses.append((binder.name, _instance(binder, scope)))
            continue
        signature = _function_type(binder.type, scope) if symbols else None
        if signature is not None:
            scope.types.pop(binder.name, None)
            scope.functions[binder.name] = signature
            functions.append((binder.name, signature[0], signature[1]))
            continue
        ty = type_name(binder.type, scope) if binder.type is not None else None
        if binder.type is None and binder.default is not None:
            ty = _term(binder.default, None, scope.child()).ty
        if ty is not None:
            scope.functions.pop(binder.name, None)
            scope.types[binder.name] = ty
            params.append((binder.name, ty))
            continue
        if binder.type is None:
            raise Unsupported(f"parameter '{binder.name}' has no type")
        try:
            hypotheses.append((binder.name, _formula(binder.type, scope)))
        except Unsupported:
            from afcheck.lean.sorts import is_prop

            if is_prop(binder.type):
                raise
            raise Unsupported(f"parameter '{binder.name}' has type '{_show(binder.type)}', "
                              "outside the fragment (variables of type ℕ ℤ ℚ ℝ)") from None
    conclusion = _formula(theorem.conclusion, scope)
    return T.Statement(tuple(params), tuple(hypotheses), conclusion, tuple(functions))


def _function_type(expr: A.Expr | None, scope: _Scope) -> tuple[tuple[str, ...], str] | None:
    """``(domain, codomain)`` of ``ℕ → ℝ``, ``ℕ → ℕ → ℕ`` (curried); ``None`` for anything
    else, a number type included."""
    domain: list[str] = []
    while isinstance(expr, A.BinOp) and expr.op == "→":
        ty = type_name(expr.left, scope)
        if ty is None:
            return None
        domain.append(ty)
        expr = expr.right
    codomain = type_name(expr, scope)
    if not domain or codomain is None:
        return None
    return tuple(domain), codomain


def _aliases(header: str) -> dict[str, str]:
    """Short names of the modelled functions that the header's ``open`` commands make
    available (``open scoped`` opens none; see :mod:`afcheck.lean.names`)."""
    return dict(_header_aliases(header))


@lru_cache(maxsize=64)  # a run has a handful of headers, each read for every statement
def _header_aliases(header: str) -> tuple[tuple[str, str], ...]:
    from afcheck.lean.names import short_names

    found = short_names(header, _OPENED, known=_OPENED, roots=frozenset())
    found.update(short_names(header, _SYMBOLIC_OPENED))
    return tuple((short, full) for short, full in found.items() if _FUNCTIONS.get(full)
                 or full.startswith("Finset."))


def _instance(binder: A.Binder, scope: _Scope) -> T.Formula:
    type_ = binder.type
    if isinstance(type_, A.App) and type_.fn == "Fact" and len(type_.args) == 1:
        return _formula(type_.args[0], scope)
    shown = _show(type_) if type_ is not None else "?"
    raise Unsupported(f"instance binder [{shown}] is outside the fragment")


def _show(expr: A.Expr) -> str:
    from afcheck.lean.printer import print_expr

    return print_expr(expr)


# --- propositions ------------------------------------------------------------------------
def _formula(expr: A.Expr, scope: _Scope) -> T.Formula:
    if isinstance(expr, A.Var) and expr.name in ("True", "False"):
        return T.Truth(expr.name == "True")
    if isinstance(expr, A.UnOp) and expr.op == "¬":
        return T.Not(_formula(expr.operand, scope))
    if isinstance(expr, A.BinOp):
        if expr.op in _LOGIC:
            return T.Logic(expr.op, _formula(expr.left, scope), _formula(expr.right, scope))
        if expr.op in _RELATIONS or expr.op == "∣":
            return _relation(expr, scope)
    if isinstance(expr, A.Quant):
        return _quantifier(expr, scope)
    injective = _injective(expr, scope)
    if injective is not None:
        return injective
    if scope.symbols and isinstance(expr, A.App) and expr.fn == "Irrational" \
            and len(expr.args) == 1:
        return _irrational(_term(expr.args[0], "ℝ", scope))
    prime = _prime_argument(expr, scope)
    if prime is not None:
        return _prime(_term(prime, "ℕ", scope))
    if isinstance(expr, A.App) and expr.fn == "Even" and len(expr.args) == 1:
        return _relation(A.BinOp("∣", A.Num("2"), expr.args[0]), scope)
    if isinstance(expr, A.App) and expr.fn == "Odd" and len(expr.args) == 1:
        return T.Not(_relation(A.BinOp("∣", A.Num("2"), expr.args[0]), scope))
    raise Unsupported(f"proposition '{_show(expr)}' is outside the fragment")


def _prime_argument(expr: A.Expr, scope: _Scope) -> A.Expr | None:
    """``p`` of ``Nat.Prime p`` or ``p.Prime`` (``p`` a ℕ variable), with ``symbols``."""
    if not scope.symbols:
        return None
    if isinstance(expr, A.App) and expr.fn == "Nat.Prime" and len(expr.args) == 1:
        return expr.args[0]
    if isinstance(expr, A.Var) and expr.name.endswith(".Prime"):
        name = expr.name.removesuffix(".Prime")
        if scope.types.get(name) == "ℕ":
            return A.Var(name)
    return None


def _injective(expr: A.Expr, scope: _Scope) -> T.Formula | None:
    """``Function.Injective f`` for a unary function parameter, by its definition:
    ``∀ x y, f x = f y → x = y``."""
    if not (scope.symbols and isinstance(expr, A.App) and expr.fn == "Function.Injective"
            and len(expr.args) == 1):
        return None
    fn = expr.args[0]
    if not isinstance(fn, A.Var) or fn.name in scope.types:
        return None
    signature = scope.functions.get(fn.name)
    if signature is None or len(signature[0]) != 1:
        return None
    (domain,), codomain = signature
    if domain == "ℚ":
        raise Unsupported("quantifiers over ℚ inside a statement are outside the fragment")
    x, y = T.Sym("Function.Injective.x", domain), T.Sym("Function.Injective.y", domain)
    same = T.Cmp("=", T.Apply(fn.name, (x,), codomain), T.Apply(fn.name, (y,), codomain))
    body = T.Logic("→", same, T.Cmp("=", x, y))
    return T.Quantified("∀", x.name, domain, T.Quantified("∀", y.name, domain, body))


def _irrational(x: T.Term) -> T.Formula:
    """``Irrational x`` (``x ∉ Set.range ((↑) : ℚ → ℝ)``) as ``∀ p q : ℤ, 0 < q → x * q ≠ p``:
    no fraction ``p / q`` equals ``x``."""
    p, q = T.Sym("Irrational.p", "ℤ"), T.Sym("Irrational.q", "ℤ")
    differs = T.Cmp("≠", T.Arith("*", x, T.Cast(q, "ℝ"), "ℝ"), T.Cast(p, "ℝ"))
    body = T.Logic("→", T.Cmp("<", T.Const(Fraction(0), "ℤ"), q), differs)
    return T.Quantified("∀", p.name, "ℤ", T.Quantified("∀", q.name, "ℤ", body))


_DIVISOR = "Nat.Prime.m"
"""The bound variable of :func:`_prime` (a dotted name: no Lean variable has it)."""


def _prime(p: T.Term) -> T.Formula:
    """``Nat.Prime p`` by ``Nat.prime_def_lt'``: ``2 ≤ p ∧ ∀ m, 2 ≤ m → m < p → ¬m ∣ p``
    (the guard ``m < p`` first, so that the exact evaluator can range over it)."""
    m = T.Sym(_DIVISOR, "ℕ")
    two = T.Const(Fraction(2), "ℕ")
    no_divisor = T.Logic("→", T.Cmp("≤", two, m), T.Not(T.Cmp("∣", m, p)))
    body = T.Quantified("∀", _DIVISOR, "ℕ", T.Logic("→", T.Cmp("<", m, p), no_divisor))
    return T.Logic("∧", T.Cmp("≤", two, p), body)


def _relation(expr: A.BinOp, scope: _Scope) -> T.Formula:
    if expr.op == "∣":
        # ``Dvd.dvd a b`` is an ordinary application: its type comes from ``a`` when ``a`` has
        # one of its own, and ``b`` is elaborated against it (coerced up, never down).
        at = _own_type(expr.left, scope) or _own_type(expr.right, scope) or "ℕ"
        left, right = _term(expr.left, at, scope), _term(expr.right, at, scope)
        if left.ty not in ("ℕ", "ℤ"):
            raise Unsupported(f"'∣' over {left.ty} is outside the fragment")
        return T.Cmp(expr.op, left, right)
    left, right = _tree_pair(expr.left, expr.right, None, scope)
    return T.Cmp(expr.op, left, right)


def _quantifier(expr: A.Quant, scope: _Scope) -> T.Formula:
    inner = scope.child()
    names: list[str] = []
    for binder in expr.binders:
        if binder.kind == "instance":
            raise Unsupported("instance binders inside a quantifier are outside the fragment")
        ty = type_name(binder.type, scope) if binder.type is not None else None
        if binder.type is not None and ty is None:
            raise Unsupported(f"quantifier over '{_show(binder.type)}' is outside the fragment")
        inner.types[binder.name] = ty
        names.append(binder.name)
    for name in names:
        if inner.types[name] is None:
            inner.types[name] = _bound_type(name, expr, inner)
    body: A.Expr = expr.body
    if expr.bound is not None:
        op, limit = expr.bound
        if op not in _RELATIONS:
            raise Unsupported(f"binder predicate '{op}' is outside the fragment")
        guards = [A.BinOp(op, A.Var(n), limit) for n in names]
        guard: A.Expr = guards[0]
        for g in guards[1:]:
            guard = A.BinOp("∧", guard, g)
        body = A.BinOp("→" if expr.q == "∀" else "∧", guard, body)
    formula = _formula(body, inner)
    unique = expr.q == "∃!"
    if unique and len(names) != 1:
        raise Unsupported("'∃!' over several variables is outside the fragment")
    for name in reversed(names):
        ty = inner.types[name]
        if ty is None:
            raise Unsupported(f"cannot tell the type of the bound variable '{name}'")
        if ty == "ℚ":
            raise Unsupported("quantifiers over ℚ inside a statement are outside the fragment")
        if unique:
            formula = _exists_unique(name, ty, formula)
        else:
            formula = T.Quantified("∀" if expr.q == "∀" else "∃", name, ty, formula)
    return formula


def _bound_type(name: str, quant: A.Quant, scope: _Scope) -> str | None:
    """The type Lean unifies an untyped bound variable with over the whole body: the domain
    of a function parameter it is an argument of, the type of a tree (a relation's both
    sides) it is a leaf of, an ascription ``(x : T)``. ``None`` unless every use of the
    variable is one of these and all agree, or when the name is bound again inside."""
    var = A.Var(name)
    parts = [quant.body] + ([quant.bound[1]] if quant.bound else [])
    nodes = [n for part in parts for n in A.subterms(part)]
    found: set[str] = set()
    seen = 0
    ty: str | None
    for node in nodes:
        if isinstance(node, (A.Quant, A.Lambda)) and any(b.name == name for b in node.binders) \
                or isinstance(node, A.BigOp) and node.var == name:
            return None
        if isinstance(node, A.App) and node.fn in scope.functions and node.fn not in scope.types:
            for arg, domain in zip(node.args, scope.functions[node.fn][0], strict=False):
                uses = _leaves(arg, scope).count(var)
                if uses:
                    found.add(domain)
                    seen += uses
        elif isinstance(node, A.App) and node.fn in ("Even", "Odd") and len(node.args) == 1:
            seen += _leaves(node.args[0], scope).count(var)  # ``Even : α → Prop``: no type
        elif isinstance(node, A.Ascription) and node.expr == var:
            ty = type_name(node.type, scope)
            if ty is None:
                return None
            found.add(ty)
            seen += 1
        elif isinstance(node, A.BinOp) and node.op in _RELATIONS:
            leaves = _leaves(node.left, scope) + _leaves(node.right, scope)
            uses = leaves.count(var)
            if uses:
                try:
                    types = [_leaf_type(leaf, scope) for leaf in leaves if leaf != var]
                except Unsupported:
                    return None
                ty = _max_type(types, None)
                if ty is not None:
                    found.add(ty)
                seen += uses
    if seen != sum(1 for n in nodes if n == var):
        return None  # a use whose constraint is not read here (``min x 1``, ``Real.sqrt x``)
    if quant.bound is not None:
        try:
            ty = _own_type(quant.bound[1], scope)
        except Unsupported:
            return None
        if ty is not None:  # ``∀ x > (0 : ℝ)``: the guard is a relation with its bound
            found.add(ty)
    return found.pop() if len(found) == 1 else None


def _exists_unique(name: str, ty: str, body: T.Formula) -> T.Formula:
    """``∃! x, P x`` is ``∃ x, P x ∧ ∀ y, P y → y = x``."""
    other = f"{name}'"
    renamed = rename(body, name, other)
    uniqueness = T.Quantified(
        "∀", other, ty, T.Logic("→", renamed, T.Cmp("=", T.Sym(other, ty), T.Sym(name, ty)))
    )
    return T.Quantified("∃", name, ty, T.Logic("∧", body, uniqueness))


def rename(node: T.Formula, old: str, new: str) -> T.Formula:
    """``node`` with the free variable ``old`` renamed to ``new``."""
    import dataclasses

    def go(value: object) -> object:
        if isinstance(value, T.Sym) and value.name == old:
            return T.Sym(new, value.ty)
        if isinstance(value, T.Quantified) and value.name == old:
            return value
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {f.name: go(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return dataclasses.replace(value, **changes)
        if isinstance(value, tuple):
            return tuple(go(v) for v in value)
        return value

    result = go(node)
    assert isinstance(result, (T.Cmp, T.Logic, T.Not, T.Truth, T.Quantified))
    return result


# --- arithmetic trees ----------------------------------------------------------------------
def _is_node(expr: A.Expr) -> bool:
    """Whether ``expr`` is a node of a ``binop%`` tree (``binop%``, ``unop%``, ``rightact%``)."""
    return (isinstance(expr, A.BinOp) and (expr.op in _ARITH or expr.op == "^")
            or isinstance(expr, A.UnOp) and expr.op == "-")


def _leaves(expr: A.Expr, scope: _Scope) -> list[A.Expr]:
    """The leaves of a ``binop%`` tree: operands of ``+ - * / %``, unary ``-`` and ``^`` bases.
    A big operator, ``min``, ``|·|`` or any application is one leaf, as in Lean."""
    if isinstance(expr, A.BinOp) and expr.op in _ARITH:
        return _leaves(expr.left, scope) + _leaves(expr.right, scope)
    if isinstance(expr, A.BinOp) and expr.op == "^":
        return _leaves(expr.left, scope)
    if isinstance(expr, A.UnOp) and expr.op == "-":
        return _leaves(expr.operand, scope)
    return [expr]


def _own_type(expr: A.Expr, scope: _Scope) -> str | None:
    """The type ``expr`` has when elaborated with no expected type; ``None`` when it is
    unknown there (only numerals, ``↑x``, untyped variables), so that it unifies with the
    type of the context."""
    if _is_node(expr):
        return _max_type([_leaf_type(leaf, scope) for leaf in _leaves(expr, scope)], None)
    return _leaf_type(expr, scope)


def _leaf_type(expr: A.Expr, scope: _Scope) -> str | None:
    """The type a leaf has on its own; ``None`` for numerals, ``↑x``, untyped variables and
    leaves built only of them (``min 2 3``)."""
    if isinstance(expr, (A.Num, A.Coe)):
        return None
    if isinstance(expr, A.Var) and expr.name in scope.types:
        return scope.types[expr.name]
    if isinstance(expr, A.Ascription):
        target = type_name(expr.type, scope)
        if target is None:
            raise Unsupported(f"type '{_show(expr.type)}' is outside the fragment")
        return target
    if isinstance(expr, A.Var):
        return _call(A.App(expr.name, ()), "ℕ", scope).ty
    if _card_of(expr, scope) is not None:
        return "ℕ"
    if isinstance(expr, A.App):
        fn = _function(expr.fn, scope)
        if fn in ("min", "max") and len(expr.args) == 2:
            # ``min a b`` elaborates ``a`` first; its type, when known, is the type of both.
            return _own_type(expr.args[0], scope) or _own_type(expr.args[1], scope)
        if fn == "abs" and len(expr.args) == 1:
            return _own_type(expr.args[0], scope)
        return _call(expr, "ℕ", scope).ty
    if isinstance(expr, A.BigOp):
        _expand(expr, scope)  # the domain is read (and refused) first
        return _body_type(expr, scope)
    raise Unsupported(f"'{_show(expr)}' is outside the fragment")


def _max_type(types: list[str | None], expected: str | None) -> str | None:
    known = [t for t in types if t is not None] + ([expected] if expected else [])
    if not known:
        return None
    return max(known, key=NUMERIC.index)


def _tree_pair(
    left: A.Expr, right: A.Expr, expected: str | None, scope: _Scope
) -> tuple[T.Term, T.Term]:
    leaves = _leaves(left, scope) + _leaves(right, scope)
    ty = _resolve(leaves, expected, scope)
    return _tree(left, ty, scope), _tree(right, ty, scope)


def _resolve(leaves: list[A.Expr], expected: str | None, scope: _Scope) -> str:
    ty = _max_type([_leaf_type(leaf, scope) for leaf in leaves], expected)
    untyped = [
        leaf.name
        for leaf in leaves
        if isinstance(leaf, A.Var) and leaf.name in scope.types and scope.types[leaf.name] is None
    ]
    if ty is None:
        if any(isinstance(leaf, A.Num) and not leaf.is_natural_literal for leaf in leaves):
            raise Unsupported("a decimal numeral with no type is a Float in Lean")
        if untyped:
            # Lean unifies the variable's type across the whole body before defaulting
            # numerals; a local guess could differ from it.
            raise Unsupported(f"cannot tell the type of the bound variable '{untyped[0]}'")
        ty = "ℕ"
    for name in untyped:
        scope.types[name] = ty
        scope.inferred.add(name)
    for leaf in leaves:
        if isinstance(leaf, A.Var) and leaf.name in scope.inferred and scope.types[leaf.name] != ty:
            raise Unsupported(f"cannot tell the type of the bound variable '{leaf.name}'")
    return ty


def _term(expr: A.Expr, expected: str | None, scope: _Scope) -> T.Term:
    """Elaborate ``expr`` as a whole, with an optional expected type (an ascription, the
    parameter type of a function): a tree counts it among its leaves' types, and a leaf
    such as ``min``/``|·|``/``∑`` elaborates its arguments at it. A result of a larger type
    than the expected one is a type error in Lean (no coercion goes down)."""
    if expected is not None and isinstance(expr, (A.App, A.BigOp)):
        term = _leaf(expr, expected, scope, expected=True)
    else:
        ty = _resolve(_leaves(expr, scope), expected, scope)
        term = _tree(expr, ty, scope)
    return term if expected is None else _coerce(term, expected)


def _tree(expr: A.Expr, ty: str, scope: _Scope) -> T.Term:
    """Elaborate a tree whose type is already decided."""
    if isinstance(expr, A.BinOp) and expr.op in _ARITH:
        return T.Arith(expr.op, _tree(expr.left, ty, scope), _tree(expr.right, ty, scope), ty)
    if isinstance(expr, A.BinOp) and expr.op == "^":
        return _power(_tree(expr.left, ty, scope), expr.right, ty, scope)
    if isinstance(expr, A.UnOp) and expr.op == "-":
        if ty == "ℕ":
            raise Unsupported("unary minus on ℕ does not exist in Lean")
        return T.Neg(_tree(expr.operand, ty, scope), ty)
    return _coerce(_leaf(expr, ty, scope), ty)


def _coerce(term: T.Term, ty: str) -> T.Term:
    if term.ty == ty:
        return term
    if NUMERIC.index(term.ty) > NUMERIC.index(ty):
        raise Unsupported(f"no coercion from {term.ty} to {ty} (a type error in Lean)")
    return T.Cast(term, ty)


_MAX_DIGITS = 1000
"""The most digits a power of two constants is computed to (``2 ^ 2000`` has 603)."""


def _power(base: T.Term, exponent: A.Expr, ty: str, scope: _Scope) -> T.Term:
    """``base ^ exponent`` (``Monoid.npow``): a literal exponent up to 64 is a product; a
    constant to a larger literal is computed; anything else with a natural exponent is the
    ``npow`` function, known to the encoder through its facts (``symbols=True`` only)."""
    if not scope.symbols:
        return T.Pow(base, _exponent(exponent, scope), ty)
    power = _term(exponent, None, scope)
    if power.ty != "ℕ":
        raise Unsupported(f"exponent '{_show(exponent)}' of type {power.ty} (zpow/rpow) is "
                          "outside the fragment")
    if isinstance(power, T.Const):
        n = int(power.value)
        if n <= _MAX_EXPONENT:
            return T.Pow(base, n, ty)
        value = _ground(base)
        if value is not None:
            size = max(abs(value.numerator), value.denominator)
            if size <= 1 or n <= _MAX_DIGITS * 4 and n * math.log10(size) <= _MAX_DIGITS:
                return T.Const(value ** n, ty)
    return T.Call("npow", (base, power), ty)


def _ground(term: T.Term) -> Fraction | None:
    """The exact value of a term of numerals and arithmetic alone (``7 / 16``, read by
    Lean's rules for its type), ``None`` for any other: a power of it is then that value's
    power, as ``Monoid.npow`` computes it."""
    from afcheck.lean.evaluate import NotExact, eval_term

    if not isinstance(term, (T.Const, T.Arith, T.Neg, T.Cast, T.Pow)):
        return None
    try:
        return eval_term(term, {})
    except (NotExact, KeyError, ZeroDivisionError):
        return None


def _exponent(expr: A.Expr, scope: _Scope) -> int:
    term = _term(expr, None, scope)
    if not isinstance(term, T.Const) or term.ty != "ℕ":
        raise Unsupported(f"exponent '{_show(expr)}' is not a natural literal")
    if term.value > _MAX_EXPONENT:
        raise Unsupported(f"exponent {term.value} is larger than {_MAX_EXPONENT}")
    return int(term.value)


def _leaf(expr: A.Expr, ty: str, scope: _Scope, expected: bool = False) -> T.Term:
    """One leaf of a tree of type ``ty`` (the caller adds the coercion to ``ty``): elaborated
    on its own, and at ``ty`` where its own type is unknown; with ``expected``, ``ty`` is the
    expected type Lean propagates into it (an ascription of the whole leaf)."""
    if isinstance(expr, A.Num):
        if not expr.is_natural_literal and ty in ("ℕ", "ℤ"):
            raise Unsupported(f"decimal numeral {expr.text} at type {ty}")
        return T.Const(expr.value, ty)
    if isinstance(expr, A.Var):
        known = scope.types.get(expr.name, "?")
        if known == "?":
            return _call(A.App(expr.name, ()), ty, scope)
        assert known is not None
        return T.Sym(expr.name, known)
    if isinstance(expr, A.Coe):
        inner = _term(expr.expr, None, scope)
        return inner
    if isinstance(expr, A.Ascription):
        target = type_name(expr.type, scope)
        if target is None:
            raise Unsupported(f"type '{_show(expr.type)}' is outside the fragment")
        return _term(expr.expr, target, scope)
    finset = _card_of(expr, scope)
    if finset is not None:
        return _card(finset, scope)
    if isinstance(expr, A.App):
        return _call(expr, ty, scope, expected)
    if isinstance(expr, A.BigOp):
        return _big_operator(expr, ty, scope, expected)
    raise Unsupported(f"'{_show(expr)}' is outside the fragment")


def _card_of(expr: A.Expr, scope: _Scope) -> A.Expr | None:
    """``s`` of ``Finset.card s`` or ``s.card``, with ``symbols``."""
    if not scope.symbols:
        return None
    if isinstance(expr, A.Proj) and expr.field == "card":
        return expr.expr
    if isinstance(expr, A.App) and scope.aliases.get(expr.fn, expr.fn) == "Finset.card" \
            and len(expr.args) == 1:
        return expr.args[0]
    return None


def _card(finset: A.Expr, scope: _Scope) -> T.Term:
    """``(Finset.filter p s).card`` over a domain with literal bounds and a predicate of
    the index alone: the number of values that satisfy it, counted by the exact evaluator;
    ``(Finset.range n).card = n`` (``Finset.card_range``) and ``(Finset.Icc a b).card =
    b + 1 - a`` (``Nat.card_Icc``) for any natural bounds."""
    from afcheck.lean.evaluate import NotExact, eval_formula

    one = T.Const(Fraction(1), "ℕ")
    predicate = finset.args[0] if isinstance(finset, A.App) and finset.args else None
    if isinstance(finset, A.App) and scope.aliases.get(finset.fn, finset.fn) == "Finset.filter" \
            and len(finset.args) == 2 and isinstance(predicate, A.Lambda) \
            and len(predicate.binders) == 1:
        domain = finset.args[1]
        binder = predicate.binders[0]
        var_ty = type_name(binder.type, scope) if binder.type is not None else "ℕ"
        if var_ty not in ("ℕ", "ℤ"):
            raise Unsupported("Finset.filter over this type is outside the fragment")
        count = 0
        for value in _domain(domain, var_ty, scope):
            literal = A.Ascription(_literal(value), A.Var(var_ty))
            cond = _formula(_substitute(predicate.body, binder.name, literal), scope.child())
            try:
                count += eval_formula(cond, {})
            except KeyError:
                raise Unsupported("a Finset.filter predicate that mentions a variable is "
                                  "outside the fragment") from None
            except NotExact as error:
                raise Unsupported(f"a Finset.filter predicate that cannot be evaluated "
                                  f"exactly ({error}) is outside the fragment") from None
        return T.Const(Fraction(count), "ℕ")
    if isinstance(finset, A.App):
        name = scope.aliases.get(finset.fn, finset.fn)
        if name == "Finset.range" and len(finset.args) == 1:
            return _term(finset.args[0], "ℕ", scope)  # Finset.card_range
        if name == "Finset.Icc" and len(finset.args) == 2:  # Nat.card_Icc
            a, b = (_term(arg, "ℕ", scope) for arg in finset.args)
            return T.Arith("-", T.Arith("+", b, one, "ℕ"), a, "ℕ")
    raise Unsupported(f"the cardinality of '{_show(finset)}' is outside the fragment")


def _big_operator(expr: A.BigOp, ty: str, scope: _Scope, expected: bool) -> T.Term:
    """``Finset.sum s f``/``Finset.prod s f``: the body is elaborated at the expected type
    when Lean propagates one, else on its own (at ``ty`` when that is unknown); the terms are
    the body at each index value, summed in the body's type."""
    op, terms = _expand(expr, scope)
    own = None if expected else _body_type(expr, scope)
    at = own or ty
    count = _unrolled_count(expr, scope)
    if count is not None:
        fn = "sum_first" if op == "+" else "prod_first"
        return T.Call(fn, (count, *(_term(term, at, scope) for term in terms)), at)
    if not terms:
        return T.Const(Fraction(0 if op == "+" else 1), at)
    result = _term(terms[0], at, scope)
    for term in terms[1:]:
        result = T.Arith(op, result, _term(term, at, scope), at)
    return result


def _function(name: str, scope: _Scope) -> str | None:
    if name in scope.types:
        return None  # a local binder shadows every global of its name (``open Real``, ``sqrt``)
    return _FUNCTIONS.get(scope.aliases.get(name, name))


def _call(expr: A.App, ty: str, scope: _Scope, expected: bool = False) -> T.Term:
    """A function application at type ``ty`` (see :func:`_leaf`); functions of a fixed
    result type ignore ``ty``."""
    args = expr.args
    signature = scope.functions.get(expr.fn) if expr.fn not in scope.types else None
    if signature is not None:
        domain, codomain = signature
        if len(args) != len(domain):
            raise Unsupported(f"'{expr.fn}' applied to {len(args)} of its {len(domain)} "
                              "arguments is outside the fragment")
        return T.Apply(expr.fn, tuple(_term(a, d, scope) for a, d in zip(args, domain,
                                                                          strict=True)),
                       codomain)
    fn = _function(expr.fn, scope)
    if fn is None:
        raise Unsupported(f"unknown function or name '{expr.fn}'")
    if fn == "sqrt" and len(args) == 1:
        return T.Call("sqrt", (_term(args[0], "ℝ", scope),), "ℝ")
    if fn in ("abs", "min", "max") and len(args) == (1 if fn == "abs" else 2):
        arg_ty = ty if expected else (_leaf_type(expr, scope) or ty)
        if fn == "abs" and arg_ty == "ℕ":
            raise Unsupported("|·| on ℕ is outside the fragment")
        return T.Call(fn, tuple(_term(a, arg_ty, scope) for a in args), arg_ty)
    if fn in ("floor", "ceil") and len(args) == 1:
        inner = _term(args[0], None, scope)
        if inner.ty == "ℕ":
            raise Unsupported("⌊·⌋/⌈·⌉ on ℕ is outside the fragment")
        return T.Call(fn, (inner,), "ℤ")
    if fn in ("natAbs", "toNat") and len(args) == 1:
        return T.Call(fn, (_term(args[0], "ℤ", scope),), "ℕ")
    if fn == "succ" and len(args) == 1:
        arg = _term(args[0], "ℕ", scope)
        return T.Arith("+", arg, T.Const(Fraction(1), "ℕ"), "ℕ")
    arity = {"factorial": 1, "choose": 2, "gcd": 2, "lcm": 2}.get(fn)
    if arity == len(args):
        consts = [_term(a, "ℕ", scope) for a in args]
        if not scope.symbols and not all(isinstance(c, T.Const) for c in consts):
            raise Unsupported(f"{expr.fn} is supported on literals only")
        return T.Call(fn, tuple(consts), "ℕ")
    if fn in _SYMBOLIC and scope.symbols:
        arity = {"pi": 0, "logb": 2}.get(fn, 1)
        if len(args) != arity:
            raise Unsupported(f"'{_show(expr)}' is outside the fragment")
        return T.Call(fn, tuple(_term(a, "ℝ", scope) for a in args), "ℝ")
    raise Unsupported(f"'{_show(expr)}' is outside the fragment")


def _expand(expr: A.BigOp, scope: _Scope) -> tuple[str, list[A.Expr]]:
    """``∑ i in Finset.range 3, f i`` becomes ``+`` and ``[f 0, f 1, f 2]`` (``i`` a typed
    constant)."""
    # What the expansion reads of the scope: the aliases (one per statement) and, for the
    # index's written type, only whether ``R`` is a variable (``type_name``); the bounds are
    # literals, so their elaboration does not depend on the variables' types.
    key = (id(expr), "R" in scope.types)
    kept = scope.expansions.get(key)
    if kept is not None and kept[0] is expr:
        return kept[1]
    expanded = _expand_fresh(expr, scope)
    scope.expansions[key] = (expr, expanded)
    return expanded


def _expand_fresh(expr: A.BigOp, scope: _Scope) -> tuple[str, list[A.Expr]]:
    var_ty = _index_type(expr, scope)
    lo, hi, ends = _bounds(expr.domain, var_ty, scope)
    if isinstance(hi, int):
        hi -= ends
        if hi - lo + 1 > _MAX_TERMS:
            raise Unsupported(f"big operator with more than {_MAX_TERMS} terms")
        values = list(range(lo, hi + 1))
    else:  # the first terms of a domain whose upper end is a term (see ``_unrolled_count``)
        values = list(range(lo, lo + UNROLL_LIMIT))
    terms = [
        _substitute(expr.body, expr.var, A.Ascription(_literal(v), A.Var(var_ty))) for v in values
    ]
    return ("+" if expr.op == "∑" else "*"), terms


def _index_type(expr: A.BigOp, scope: _Scope) -> str:
    if expr.op not in ("∑", "∏"):
        raise Unsupported(f"'{expr.op}' is outside the fragment")
    if expr.var_type is not None:
        var_ty = type_name(expr.var_type, scope)
    elif (isinstance(expr.domain, A.App)
          and scope.aliases.get(expr.domain.fn, expr.domain.fn) != "Finset.range"):
        # ``Finset.Icc a b : Finset α`` takes its α from the bounds; numerals default to ℕ.
        bounds = [_own_type(b, scope.child()) for b in expr.domain.args]
        var_ty = _max_type(bounds, None) or "ℕ"
    else:
        var_ty = "ℕ"
    if var_ty is None or var_ty not in ("ℕ", "ℤ"):
        raise Unsupported("big operators over this index type are outside the fragment")
    return var_ty


def _body_type(expr: A.BigOp, scope: _Scope) -> str | None:
    """The own type of a big operator's body (the index has its type; an empty domain has
    a body too, which Lean elaborates all the same)."""
    sample = A.Ascription(A.Num("0"), A.Var(_index_type(expr, scope)))
    return _own_type(_substitute(expr.body, expr.var, sample), scope)


def _literal(value: int) -> A.Expr:
    return A.Num(str(value)) if value >= 0 else A.UnOp("-", A.Num(str(-value)))


UNROLL_LIMIT = 64
"""The most terms a big operator over a domain with a non-literal upper end is unrolled to
(:data:`afcheck.lean.typed.UNROLLED`): beyond it, its value is unknown to the encoder."""


def _domain(domain: A.Expr | None, var_ty: str, scope: _Scope) -> list[int]:
    lo, hi, ends = _bounds(domain, var_ty, scope)
    if not isinstance(hi, int):
        raise Unsupported("big operator bounds must be literals")
    hi -= ends
    if hi - lo + 1 > _MAX_TERMS:
        raise Unsupported(f"big operator with more than {_MAX_TERMS} terms")
    return list(range(lo, hi + 1))


def _bounds(domain: A.Expr | None, var_ty: str, scope: _Scope
            ) -> tuple[int, int | T.Term, int]:
    """``(first, end, shift)``: the first index of a domain and its written upper end, whose
    last index is ``end - shift`` (an integer difference, never ℕ's truncating one); with
    ``symbols``, the end may be a term (elaborated at the index type) when the lower one is a
    literal: ``Finset.range n`` is ``(0, n, 1)``, ``Finset.Icc 1 n`` is ``(1, n, 0)``."""
    if not isinstance(domain, A.App):
        raise Unsupported("a big operator needs a Finset.range/Icc/Ico/Ioc/Ioo domain")
    name = scope.aliases.get(domain.fn, domain.fn)
    bounds: list[int | T.Term] = []
    for arg in domain.args:
        term = _term(arg, var_ty, scope.child())
        if isinstance(term, T.Neg) and isinstance(term.operand, T.Const):  # ``(-2 : ℤ)``
            term = T.Const(-term.operand.value, term.ty)
        bounds.append(int(term.value) if isinstance(term, T.Const) else term)
    if not scope.symbols and not all(isinstance(b, int) for b in bounds):
        raise Unsupported("big operator bounds must be literals")
    if not all(isinstance(b, int) for b in bounds[:-1]):
        raise Unsupported("the lower end of a big operator's domain must be a literal")
    if name == "Finset.range" and len(bounds) == 1:
        lo, hi = 0, bounds[0]
        ends = 1
    elif name in ("Finset.Icc", "Finset.Ico", "Finset.Ioc", "Finset.Ioo") and len(bounds) == 2:
        first = bounds[0]
        assert isinstance(first, int)
        lo = first + (1 if name in ("Finset.Ioc", "Finset.Ioo") else 0)
        hi = bounds[1]
        ends = 1 if name in ("Finset.Ico", "Finset.Ioo") else 0
    else:
        raise Unsupported(f"big operator domain '{_show(domain)}' is outside the fragment")
    return lo, hi, ends


def _unrolled_count(expr: A.BigOp, scope: _Scope) -> T.Term | None:
    """The number of terms of a big operator whose upper end is a term, as a ℤ term
    (``≤ 0`` for an empty domain); ``None`` when both ends are literals."""
    var_ty = _index_type(expr, scope)
    lo, hi, ends = _bounds(expr.domain, var_ty, scope)
    if isinstance(hi, int):
        return None
    return T.Arith("-", _coerce(hi, "ℤ"), T.Const(Fraction(lo - 1 + ends), "ℤ"), "ℤ")


def _substitute(expr: A.Expr, name: str, value: A.Expr) -> A.Expr:
    import dataclasses

    if isinstance(expr, A.Var):
        return value if expr.name == name else expr
    if isinstance(expr, A.Num):
        return expr
    if isinstance(expr, A.BinOp):  # most nodes of a big operator's body: no generic walk
        left, right = _substitute(expr.left, name, value), _substitute(expr.right, name, value)
        if left is expr.left and right is expr.right:
            return expr
        return A.BinOp(expr.op, left, right)
    if isinstance(expr, (A.Quant, A.Lambda)) and any(b.name == name for b in expr.binders):
        return expr
    if isinstance(expr, A.BigOp) and expr.var == name:
        return expr
    if isinstance(expr, A.Opaque):
        raise Unsupported(f"'{expr.text}' is outside the fragment")
    changes: dict[str, object] = {}
    for f in dataclasses.fields(expr):
        current = getattr(expr, f.name)
        if isinstance(current, tuple) and current and not isinstance(current[0], str):
            if isinstance(current[0], A.Binder):
                continue
            changes[f.name] = tuple(_substitute(c, name, value) for c in current)
        elif dataclasses.is_dataclass(current) and not isinstance(current, A.Binder):
            changes[f.name] = _substitute(current, name, value)  # type: ignore[arg-type]
    return dataclasses.replace(expr, **changes)  # type: ignore[arg-type]
