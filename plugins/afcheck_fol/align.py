"""Equivalence up to a signature alignment: the candidate's names mapped onto the gold's.

On open-vocabulary data (FOLIO) a model names its own predicates and constants, and a
translation that means what the gold means fails exact equivalence for a name alone
(``IsStriker(robertLewandowski)`` against ``Striker(robertLewandowski)``). An *alignment* is a
mapping of the candidate's predicate symbols (name and arity) and constants onto the gold's:

- **one per group** (a story or problem): all the group's items share it, so a model cannot
  rename one way in one sentence and another way in the next;
- **injective** and **arity-preserving**: two candidate symbols never become one gold symbol,
  and a predicate maps only onto one of the same arity;
- **proposed by name similarity only**: a symbol is mapped onto a gold symbol whose name is the
  same after normalisation (case, ``_``/``-``/``.``, accents, a leading ``Is``/``Are``/``The``
  …) or close to it (:data:`THRESHOLD`), never onto an unrelated name, so ``Tall`` never
  becomes ``Short`` however well that would fit, nor onto its opposite (``Unhappy``) or a
  name with other numbers (``gpt4`` for ``gpt3``). Same-named symbols map onto themselves first;
  the rest by decreasing similarity (greedy, deterministic).

:func:`propose` builds the mapping from the group's candidates and gold formulas;
:meth:`Alignment.rename` applies it; the nl2fol decision then asks z3, exactly as for exact
equivalence, whether the renamed candidate is equivalent to a gold formula
(:func:`afcheck_fol.decide.decide`). Symbols with no similar gold symbol keep their names.

A candidate equivalent to its gold as written stays equivalent after the renaming: every
renamed symbol has no same-named gold symbol (same-named ones map onto themselves), so the
renaming is a substitution that leaves the gold unchanged, and substitution preserves validity.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import TypeVar

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
    Xor,
    constants,
    subformulas,
)

THRESHOLD = 0.8
"""Least similarity (difflib's ratio of the normalised names) for a proposed pair."""

_FILLERS = frozenset({"is", "are", "was", "were", "be", "the", "a", "an"})
"""Leading words a name may carry or drop without changing what it names."""

Symbol = tuple[str, int]
"""A predicate symbol: name and arity."""


def normalised(name: str) -> str:
    """``name`` as names are compared: accents dropped, split into words (CamelCase, ``_``,
    ``-``, ``.``, digits), leading filler words dropped, lower case, joined."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_]+|\d+",
                                           plain)]
    while len(words) > 1 and words[0] in _FILLERS:
        words.pop(0)
    return "".join(words)


_NEGATIONS = ("un", "non", "not", "in", "im", "il", "ir", "dis")
"""Prefixes that turn a word into its opposite (Happy/Unhappy, Legal/Illegal)."""


def similarity(left: str, right: str) -> float:
    """How alike two names are, from 0 to 1 (1: the same after :func:`normalised`).

    Two names that differ by a negating prefix (``Happy``/``Unhappy``) or in their numbers
    (``gpt3``/``gpt4``) name different things, however alike they look: 0.
    """
    a, b = normalised(left), normalised(right)
    if a == b:
        return 1.0
    short, long = sorted((a, b), key=len)
    if any(long == prefix + short for prefix in _NEGATIONS):
        return 0.0
    numbers_a, numbers_b = re.findall(r"\d+", a), re.findall(r"\d+", b)
    if numbers_a and numbers_b and numbers_a != numbers_b:
        return 0.0
    return SequenceMatcher(None, a, b).ratio()


@dataclass(frozen=True)
class Alignment:
    """The renamings of one group: candidate symbol → gold symbol, identities left out."""

    group: str
    predicates: tuple[tuple[Symbol, str], ...] = ()
    """``((name, arity), gold name)``: the gold symbol has the same arity."""
    constants: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        return not self.predicates and not self.constants

    def rename(self, formula: Formula) -> Formula:
        """``formula`` with every mapped symbol replaced by its gold counterpart."""
        return _rename(formula, dict(self.predicates), dict(self.constants))

    def restricted(self, formula: Formula) -> Alignment:
        """The renamings of the symbols ``formula`` uses (what one item shows)."""
        used = {(n.name, len(n.args)) for n in subformulas(formula) if isinstance(n, Pred)}
        names = constants(formula)
        return replace(self, predicates=tuple(p for p in self.predicates if p[0] in used),
                       constants=tuple(c for c in self.constants if c[0] in names))

    def describe(self) -> str:
        """``IsStriker/1 → Striker, y1984 → 1984`` (``(none)`` when nothing is renamed)."""
        parts = [f"{name}/{arity} → {gold}" for (name, arity), gold in self.predicates]
        parts += [f"{name} → {gold}" for name, gold in self.constants]
        return ", ".join(parts) or "(none)"

    def to_json(self) -> dict[str, object]:
        return {
            "group": self.group,
            "predicates": [{"from": name, "arity": arity, "to": gold}
                           for (name, arity), gold in self.predicates],
            "constants": [{"from": name, "to": gold} for name, gold in self.constants],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Alignment:
        """The alignment :meth:`to_json` wrote (entries of the wrong shape are skipped)."""
        raw_predicates = data.get("predicates")
        raw_constants = data.get("constants")
        found: list[tuple[Symbol, str]] = []
        for entry in raw_predicates if isinstance(raw_predicates, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("arity"), int):
                found.append(((str(entry.get("from")), int(entry["arity"])),
                              str(entry.get("to"))))
        names = [(str(e.get("from")), str(e.get("to")))
                 for e in (raw_constants if isinstance(raw_constants, list) else [])
                 if isinstance(e, dict)]
        return cls(str(data.get("group") or ""), tuple(found), tuple(names))


def symbols(formulas: Iterable[Formula]) -> tuple[set[Symbol], set[str]]:
    """The predicate symbols (name, arity) and the constants of ``formulas``."""
    found: set[Symbol] = set()
    names: set[str] = set()
    for formula in formulas:
        for node in subformulas(formula):
            if isinstance(node, Pred):
                found.add((node.name, len(node.args)))
        names |= constants(formula)
    return found, names


def propose(group: str, candidates: Sequence[Formula], golds: Sequence[Formula]) -> Alignment:
    """The group's mapping of the candidates' symbols onto the golds' (module docstring)."""
    cand_predicates, cand_constants = symbols(candidates)
    gold_predicates, gold_constants = symbols(golds)
    predicate_pairs = _match(
        cand_predicates, gold_predicates,
        lambda c, g: c[1] == g[1], lambda s: s[0],
    )
    constant_pairs = _match(cand_constants, gold_constants, lambda c, g: True, lambda s: s)
    return Alignment(
        group,
        tuple(sorted((c, g[0]) for c, g in predicate_pairs if c != g)),
        tuple(sorted((c, g) for c, g in constant_pairs if c != g)),
    )


S = TypeVar("S", Symbol, str)


def _match(
    candidates: set[S], golds: set[S], compatible: Callable[[S, S], bool],
    name: Callable[[S], str],
) -> list[tuple[S, S]]:
    """An injective matching: identical symbols first, then by decreasing similarity."""
    scored = []
    for c in candidates:
        for g in golds:
            if not compatible(c, g):
                continue
            score = 2.0 if c == g else similarity(name(c), name(g))
            if score >= THRESHOLD:
                scored.append((-score, name(c), name(g), c, g))
    # Fully ordered (arities too), so the matching never depends on set order.
    scored.sort(key=lambda entry: (*entry[:3], str(entry[3]), str(entry[4])))
    taken_c: set[S] = set()
    taken_g: set[S] = set()
    pairs = []
    for _, _, _, c, g in scored:
        if c in taken_c or g in taken_g:
            continue
        taken_c.add(c)
        taken_g.add(g)
        pairs.append((c, g))
    return pairs


def _rename(node: Formula, predicates: Mapping[Symbol, str], names: Mapping[str, str]) -> Formula:
    def term(t: Term) -> Term:
        return Const(names.get(t.name, t.name)) if isinstance(t, Const) else t

    if isinstance(node, Pred):
        return Pred(predicates.get((node.name, len(node.args)), node.name),
                    tuple(term(a) for a in node.args))
    if isinstance(node, Eq):
        return Eq(term(node.left), term(node.right))
    if isinstance(node, Truth):
        return node
    if isinstance(node, Not):
        return Not(_rename(node.body, predicates, names))
    if isinstance(node, And):
        return And(tuple(_rename(i, predicates, names) for i in node.items))
    if isinstance(node, Or):
        return Or(tuple(_rename(i, predicates, names) for i in node.items))
    if isinstance(node, (Xor, Implies, Iff)):
        return type(node)(_rename(node.left, predicates, names),
                          _rename(node.right, predicates, names))
    if isinstance(node, (Forall, Exists)):
        return type(node)(node.var, _rename(node.body, predicates, names))
    raise AssertionError(f"unknown formula node {type(node).__name__}")
