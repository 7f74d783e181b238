"""Prenex normal form of a parsed statement: quantifier prefix, premises, residual conclusion.

``N(T) = Q₁(x₁ : A₁) … Qₙ(xₙ : Aₙ). H₁ → … → Hₘ → C`` (the seed's normalised statement form).
Read off the parsed statement, with the elaborator filling in binder types that were not written:

- signature binders: a recognisable proposition (``(h : x > 0)``, ``(h : Continuous f)``,
  ``[Fact P]``; :func:`afcheck.lean.sorts.is_prop`) is a premise; any other binder keeps its
  name and type as a ``∀`` binder (``(x : s)`` for a set ``s`` too: an object taken for a
  premise would lose its name); any other instance binder (``[Group G]``) is an ``inst``
  binder;
- the conclusion is peeled: ``∀ x, B`` adds ``x`` to the prefix (``A → ∀ y, B`` ≡ ``∀ y, A → B``
  always holds; a clashing ``y`` is renamed apart); ``A → B`` adds ``A`` to the premises; a leading
  ``∃ x, B`` joins the prefix only while there is no premise yet (moving it past a premise would
  assume its type is inhabited); ``∀ x > 0, B`` adds ``x`` and the premise ``x > 0``;
- premises are split at top-level ``∧`` (``A ∧ B → C`` ≡ ``A → B → C``);
- whatever remains (``¬``, ``↔``, ``∨``, ``∧``, a relation, an ``∃`` under premises) is the
  conclusion.

Premises are Prop binders moved after object binders: sound because a premise can only mention
binders before it. Brackets (explicit, implicit, strict) do not change what a statement claims
and are dropped.

What Lean identifies is identified here too, before any structure is compared:

- an instance binder of a proposition (``[IsSolvable G]``, ``[Fact P]``) is the premise
  ``(hG : IsSolvable G)`` is: a binder's brackets say how it is filled in, not what it claims;
- a binder whose name nothing after it uses is the arrow it abbreviates (``(hq : QuotientMap
  p) → B`` is ``QuotientMap p → B``): unless its type is recognisably one of objects
  (:func:`is_object_type`), it is a premise, as the anonymous arrow's antecedent is; a named
  arrow in the conclusion is read the same way (:func:`named_arrow`);
- ``¬ ∃ x, P`` is ``∀ x, ¬ P`` and ``¬ ∀ x, P`` is ``∃ x, ¬ P`` (``not_exists``,
  ``not_forall``): a negated quantifier is moved out before it is peeled;
- a universe variable that one binder type alone mentions (``{α : Type u}``) is ``Type*``
  (a fresh universe), as ``Type*`` is;
- an auto-bound implicit (``(f : α → β)`` with ``α`` declared nowhere: Lean binds a
  single-letter name it meets in a binder's type) is the binder ``{α : Type*}`` written
  before its first use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from afcheck.lean import ast as A
from afcheck.lean import typed as T
from afcheck.lean.rename import free_names, rename
from afcheck.lean.sorts import is_prop, is_type

__all__ = ["Bound", "NormalForm", "NotNormalisable", "is_object_type", "is_type", "named_arrow",
           "normalise", "push_negation"]

class NotNormalisable(ValueError):
    """The statement cannot be put in normal form; ``str(error)`` says why."""


@dataclass(frozen=True)
class Bound:
    """One binder of the prefix: ``q`` is ``∀``, ``∃`` or ``inst`` (an instance argument).
    While a quantifier is peeled, its Prop binders are held as ``premise`` entries, which
    never reach a :class:`NormalForm`'s prefix."""

    q: str
    name: str
    type: A.Expr


@dataclass(frozen=True)
class NormalForm:
    prefix: tuple[Bound, ...]
    premises: tuple[A.Expr, ...]
    conclusion: A.Expr
    header: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.prefix if b.name)

    def binders(self) -> tuple[A.Binder, ...]:
        """The prefix as signature binders (``∃`` binders too: obligations are pointwise)."""
        return tuple(
            A.Binder(b.name, b.type, "instance" if b.q == "inst" else "explicit")
            for b in self.prefix
        )

    def closed(self) -> A.Expr:
        """The whole statement as one closed proposition ``∀ x, ∃ y, H₁ → … → C``."""
        body = self.conclusion
        for premise in reversed(self.premises):
            body = A.BinOp("→", premise, body)
        for bound in reversed(self.prefix):
            kind = "instance" if bound.q == "inst" else "explicit"
            q = "∃" if bound.q == "∃" else "∀"
            body = A.Quant(q, (A.Binder(bound.name, bound.type, kind),), body)
        return body


_NUMBERS = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex", "Prop",
                      "Bool", "Type", "Type*", "Sort*", "NNReal", "ENNReal", "EReal", "ℝ≥0",
                      "ℝ≥0∞", "ℕ+", "PNat"})
_CONSTRUCTORS = frozenset({
    "Set", "Finset", "Fin", "List", "Multiset", "Matrix", "Polynomial", "MvPolynomial",
    "ZMod", "Subgroup", "AddSubgroup", "Submonoid", "Subring", "Subfield", "Submodule",
    "Ideal", "Subalgebra", "IntermediateField", "Equiv", "MulEquiv", "RingHom", "MonoidHom",
    "LinearMap", "ContinuousLinearMap", "Module.End", "Option", "Sym2", "Fintype",
    "Type", "Sort", "Filter", "Finsupp", "PowerSeries", "LaurentSeries", "GaloisField",
    "Units", "QuotientGroup.Quotient", "Quotient", "Sigma", "Subtype", "Prod", "Sum",
    "EuclideanSpace", "Metric.ball", "Complex", "Real", "Nat", "Int",
})
"""Type constructors: a binder of ``Set X`` or ``Subgroup G`` is an object, named or not."""


def is_object_type(expr: A.Expr, types: frozenset[str] = frozenset()) -> bool:
    """Whether ``expr`` is recognisably a type of objects (``ℝ``, ``Set X``, ``α → ℝ``, a
    type variable in ``types``), so a binder of it is kept in the prefix even when nothing
    uses its name (``∀ x : ℝ, P`` is kept as written)."""
    if isinstance(expr, A.Var):
        return expr.name in _NUMBERS or expr.name in types
    if isinstance(expr, A.App):
        return expr.fn in _CONSTRUCTORS
    if isinstance(expr, A.BinOp):
        return expr.op in ("→", "×") and is_object_type(expr.right, types) and (
            expr.op == "→" or is_object_type(expr.left, types))
    return isinstance(expr, A.Notation)


def _is_universe(expr: A.Expr) -> bool:
    return (isinstance(expr, A.Var) and expr.name in ("Type*", "Sort*")) or (
        isinstance(expr, A.App) and expr.fn in ("Type", "Sort") and len(expr.args) == 1
        and isinstance(expr.args[0], A.Var) and expr.args[0].name[:1].islower())


def _universes(binders: tuple[A.Binder, ...]) -> tuple[A.Binder, ...]:
    """``Type u`` as ``Type*`` where ``u`` is mentioned by one binder type only: both are a
    universe of that binder's own. A variable shared by two binders (``{α β : Type u}``)
    ties them to one universe, and is kept."""
    seen: dict[str, int] = {}
    for i, binder in enumerate(binders):
        if binder.type is None:
            continue
        for part in A.subterms(binder.type):
            if _is_universe(part) and isinstance(part, A.App):
                name = part.args[0].name  # type: ignore[union-attr]
                seen[name] = i if seen.get(name, i) == i else -1
    own = {name for name, where in seen.items() if where >= 0}
    if not own:
        return binders

    def fresh(expr: A.Expr) -> A.Expr:
        if isinstance(expr, A.App) and _is_universe(expr) and \
                expr.args[0].name in own:  # type: ignore[union-attr]
            return A.Var(f"{expr.fn}*")
        return expr

    return tuple(replace(b, type=fresh(b.type)) if b.type is not None else b for b in binders)


def named_arrow(expr: A.Expr) -> A.Expr:
    """``(h : P) → B`` as ``P → B`` when ``B`` does not use ``h`` (the same Lean type), and as
    ``∀ (h : P), B`` when it does; anything else unchanged."""
    if (isinstance(expr, A.BinOp) and expr.op == "→" and isinstance(expr.left, A.Ascription)
            and isinstance(expr.left.expr, A.Var)):
        name, type_ = expr.left.expr.name, expr.left.type
        if name not in free_names(expr.right):
            return A.BinOp("→", type_, expr.right)
        return A.Quant("∀", (A.Binder(name, type_),), expr.right)
    return expr


_AUTO_BOUND = re.compile(r"^[α-ωA-Za-z][₀-₉0-9']*$")


def _type_positions(expr: A.Expr) -> list[str]:
    """Names that ``expr``, a binder's type, uses as types: the type itself, an operand of
    ``→``/``×``, an argument of a type constructor (``Set α``)."""
    if isinstance(expr, A.Var):
        return [expr.name]
    if isinstance(expr, A.BinOp) and expr.op in ("→", "×"):
        return _type_positions(expr.left) + _type_positions(expr.right)
    if isinstance(expr, A.App) and expr.fn in _CONSTRUCTORS and expr.fn not in ("Type", "Sort"):
        return [n for a in expr.args for n in _type_positions(a)]
    return []


def _auto_bound(binders: tuple[A.Binder, ...], header: str) -> tuple[A.Binder, ...]:
    """``binders`` with an implicit ``{α : Type*}`` before the first binder whose type uses
    an undeclared single-letter ``α`` as a type (Lean's auto-bound implicit); a name the
    header defines is declared."""
    declared = set(re.findall(r"\b(?:def|abbrev|structure|inductive|class)\s+([^\s(\[{:]+)",
                              header))
    out: list[A.Binder] = []
    for binder in binders:
        if binder.type is not None:
            used = _type_positions(binder.type)
            if binder.kind == "instance" and isinstance(binder.type, A.App):
                used = [n for a in binder.type.args for n in _type_positions(a)]  # [Group G]
            for name in dict.fromkeys(used):
                if name not in declared and _AUTO_BOUND.match(name) and name not in _NUMBERS:
                    out.append(A.Binder(name, A.Var("Type*"), "implicit"))
                    declared.add(name)
        out.append(binder)
        declared.add(binder.name)
    return tuple(out) if len(out) != len(binders) else binders


def push_negation(expr: A.Expr) -> A.Expr:
    """``¬ ∃ x, P`` as ``∀ x, ¬ P`` and ``¬ ∀ x, P`` as ``∃ x, ¬ P`` (Mathlib's ``not_exists``,
    ``not_forall``), at the root only; anything else unchanged. A binder predicate stays
    with its binders: ``¬ ∃ x > 0, P`` is ``∀ x > 0, ¬ P``."""
    if (isinstance(expr, A.UnOp) and expr.op == "¬" and isinstance(expr.operand, A.Quant)
            and expr.operand.q in ("∀", "∃")
            and all(b.kind != "instance" for b in expr.operand.binders)):
        inner = expr.operand
        return A.Quant("∃" if inner.q == "∀" else "∀", inner.binders,
                       A.UnOp("¬", inner.body), inner.bound)
    return expr


def normalise(theorem: A.Theorem, header: str = "") -> NormalForm:
    """The normal form of ``theorem``; raises :class:`NotNormalisable` with the reason."""
    prefix: list[Bound] = []
    premises: list[A.Expr] = []
    props: set[str] = set()
    types: set[str] = set()
    binders = _universes(_auto_bound(theorem.binders, header))
    later: list[set[str]] = []  # the names used after each binder
    seen = free_names(theorem.conclusion)
    for binder in reversed(binders):
        later.append(seen)
        seen = seen | set().union(*(free_names(p) for p in (binder.type, binder.default) if p))
    later.reverse()
    for binder, used in zip(binders, later, strict=True):
        if binder.type is None:
            raise NotNormalisable(f"parameter '{binder.name}' has no written type")
        if binder.kind == "instance":
            fact = binder.type
            if isinstance(fact, A.App) and fact.fn == "Fact" and len(fact.args) == 1:
                premises.extend(_conjuncts(fact.args[0]))
            elif is_prop(fact, frozenset(props)) and binder.name not in used:
                premises.extend(_conjuncts(fact))
            else:
                prefix.append(Bound("inst", binder.name, binder.type))
            continue
        if is_prop(binder.type, frozenset(props)) or (
                binder.name not in used and not is_object_type(binder.type, frozenset(types))):
            premises.extend(_conjuncts(binder.type))
        else:
            prefix.append(Bound("∀", binder.name, binder.type))
            if isinstance(binder.type, A.Var) and binder.type.name == "Prop":
                props.add(binder.name)
            if _is_universe(binder.type) or (isinstance(binder.type, A.Var)
                                             and binder.type.name == "Type"):
                types.add(binder.name)
    typed = _Typed(theorem, header)
    conclusion = _peel(theorem.conclusion, typed.at(()), prefix, premises)
    return NormalForm(tuple(prefix), tuple(premises), conclusion, header)


_Step = tuple[str, str]
"""One step down the elaborated conclusion: ``("→", "")`` to an implication's right side,
``("binder", name)`` into the body of a quantifier over ``name``, ``("bound", "")`` past a
binder predicate's guard, ``("¬", "")`` into a negation moved past its quantifier."""


class _Typed:
    """The elaborated conclusion, read only when a binder with no written type needs its
    inferred one: most statements write every type, and elaborating a conclusion whose big
    operator expands to hundreds of terms costs tens of milliseconds (wasted when the pair
    is then decided by its prefix)."""

    def __init__(self, theorem: A.Theorem, header: str) -> None:
        self._theorem = theorem
        self._header = header
        self._read = False
        self._conclusion: T.Formula | None = None

    def at(self, path: tuple[_Step, ...]) -> _Cursor:
        return _Cursor(self, path)

    def conclusion(self) -> T.Formula | None:
        if not self._read:
            from afcheck.lean.elaborate import Unsupported, elaborate

            self._read = True
            try:
                self._conclusion = elaborate(self._theorem, self._header).conclusion
            except (Unsupported, RecursionError):
                self._conclusion = None
        return self._conclusion


@dataclass(frozen=True)
class _Cursor:
    """A place in the elaborated conclusion, as the steps that lead there from its root; a
    step that does not match the elaborated tree leads nowhere (``None``), as it would
    walking the tree itself."""

    typed: _Typed
    path: tuple[_Step, ...]

    def then(self, step: _Step) -> _Cursor:
        return _Cursor(self.typed, (*self.path, step))

    def node(self) -> T.Formula | None:
        node = self.typed.conclusion()
        for kind, name in self.path:
            if kind == "→":
                node = node.right if isinstance(node, T.Logic) and node.op == "→" else None
            elif kind == "¬":
                node = node.operand if isinstance(node, T.Not) else None
            elif kind == "binder":
                node = node.body if isinstance(node, T.Quantified) and node.name == name \
                    else None
            else:
                node = node.right if isinstance(node, T.Logic) else None
            if node is None:
                return None
        return node


def _conjuncts(expr: A.Expr) -> list[A.Expr]:
    if isinstance(expr, A.BinOp) and expr.op == "∧":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    if isinstance(expr, A.App) and expr.fn == "Fact" and len(expr.args) == 1:
        return _conjuncts(expr.args[0])  # ``Fact P ↔ P`` (fact_iff), as an instance or not
    return [expr]


def _peel(expr: A.Expr, typed: _Cursor | None, prefix: list[Bound],
          premises: list[A.Expr]) -> A.Expr:
    while True:
        arrow = named_arrow(expr)
        if arrow is not expr:
            expr, typed = arrow, None
            continue
        pushed = push_negation(expr)
        if pushed is not expr and (pushed.q == "∀" or not premises):  # type: ignore[union-attr]
            # The elaborated tree still has the ``¬`` here: the binders' types are read
            # under it (and a later ``¬`` that is not there leads nowhere).
            expr, typed = pushed, typed.then(("¬", "")) if typed is not None else None
            continue
        if isinstance(expr, A.BinOp) and expr.op == "→":
            premises.extend(_conjuncts(expr.left))
            expr = expr.right
            typed = typed.then(("→", "")) if typed is not None else None
            continue
        if isinstance(expr, A.Quant) and (expr.q == "∀" or (expr.q == "∃" and not premises)):
            peeled = _peel_quantifier(expr, typed, prefix, premises)
            if peeled is None:
                return expr
            expr, typed = peeled
            continue
        return expr


def _peel_quantifier(expr: A.Quant, typed: _Cursor | None, prefix: list[Bound],
                     premises: list[A.Expr]) -> tuple[A.Expr, _Cursor | None] | None:
    """Move the binders of ``expr`` to the prefix; ``None`` when one has no readable type."""
    types: list[A.Expr] = []
    cursor = typed
    for binder in expr.binders:
        if binder.kind == "instance":
            return None
        written = binder.type
        if written is None:
            node = cursor.node() if cursor is not None else None
            if not (isinstance(node, T.Quantified) and node.name == binder.name):
                return None
            written = A.Var(node.ty)
        cursor = cursor.then(("binder", binder.name)) if cursor is not None else None
        types.append(written)
    if expr.bound is not None:
        cursor = cursor.then(("bound", "")) if cursor is not None else None
    used = {b.name for b in prefix} | set().union(*(free_names(p) for p in premises))
    body: A.Expr = expr.body
    guard_bound = expr.bound
    new_prefix: list[Bound] = []
    mapping: dict[str, str] = {}
    rest = [free_names(expr.body)]
    for later in reversed(types[1:]):
        rest.append(rest[-1] | free_names(later))
    rest.reverse()
    if expr.bound is not None:
        rest = [names | free_names(expr.bound[1]) | {b.name for b in expr.binders}
                for names in rest]
    for binder, type_, used_later in zip(expr.binders, types, rest, strict=True):
        type_ = rename(type_, mapping)
        if not is_type(type_) or (binder.name not in used_later and not is_object_type(
                type_, frozenset(b.name for b in prefix if _is_universe(b.type)))):
            if expr.q != "∀":
                return None
            # ``∀ (x : ℝ) (h : P x), B``: a Prop binder is a premise.
            new_prefix.append(Bound("premise", binder.name, type_))
            continue
        name = binder.name
        if name in used:
            name = _fresh(name, used | free_names(body))
            mapping[binder.name] = name
        used.add(name)
        new_prefix.append(Bound(expr.q, name, type_))
    body = rename(body, mapping)
    objects = [b for b in new_prefix if b.q != "premise"]
    prefix.extend(objects)
    for bound in new_prefix:
        if bound.q == "premise":
            premises.extend(_conjuncts(bound.type))
    if guard_bound is not None:
        op, limit = guard_bound
        guards = [A.BinOp(op, A.Var(b.name), limit) for b in objects]
        if expr.q == "∀":
            for guard in guards:
                premises.append(guard)
        else:
            conj: A.Expr = guards[0]
            for guard in guards[1:]:
                conj = A.BinOp("∧", conj, guard)
            body = A.BinOp("∧", conj, body)
            cursor = None
    return body, cursor


def _fresh(name: str, avoid: set[str]) -> str:
    candidate = f"{name}'"
    while candidate in avoid:
        candidate += "'"
    return candidate
