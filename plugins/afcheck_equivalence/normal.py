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
"""

from __future__ import annotations

from dataclasses import dataclass

from afcheck.lean import ast as A
from afcheck.lean import typed as T
from afcheck.lean.rename import free_names, rename
from afcheck.lean.sorts import is_prop, is_type

__all__ = ["Bound", "NormalForm", "NotNormalisable", "is_type", "normalise"]

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


def normalise(theorem: A.Theorem, header: str = "") -> NormalForm:
    """The normal form of ``theorem``; raises :class:`NotNormalisable` with the reason."""
    prefix: list[Bound] = []
    premises: list[A.Expr] = []
    props: set[str] = set()
    for binder in theorem.binders:
        if binder.type is None:
            raise NotNormalisable(f"parameter '{binder.name}' has no written type")
        if binder.kind == "instance":
            fact = binder.type
            if isinstance(fact, A.App) and fact.fn == "Fact" and len(fact.args) == 1:
                premises.extend(_conjuncts(fact.args[0]))
            else:
                prefix.append(Bound("inst", binder.name, binder.type))
            continue
        if is_prop(binder.type, frozenset(props)):
            premises.extend(_conjuncts(binder.type))
        else:
            prefix.append(Bound("∀", binder.name, binder.type))
            if isinstance(binder.type, A.Var) and binder.type.name == "Prop":
                props.add(binder.name)
    typed = _Typed(theorem, header)
    conclusion = _peel(theorem.conclusion, typed.at(()), prefix, premises)
    return NormalForm(tuple(prefix), tuple(premises), conclusion, header)


_Step = tuple[str, str]
"""One step down the elaborated conclusion: ``("→", "")`` to an implication's right side,
``("binder", name)`` into the body of a quantifier over ``name``, ``("bound", "")`` past a
binder predicate's guard."""


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
    return [expr]


def _peel(expr: A.Expr, typed: _Cursor | None, prefix: list[Bound],
          premises: list[A.Expr]) -> A.Expr:
    while True:
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
    for binder, type_ in zip(expr.binders, types, strict=True):
        type_ = rename(type_, mapping)
        if not is_type(type_):
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
