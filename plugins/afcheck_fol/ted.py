"""Tree edit distance between formulas, and the gold formula nearest a candidate.

Trees (what a unit-cost insert, delete or relabel acts on):

* a connective is a node labelled ``¬ ∧ ∨ ⊕ → ↔`` with its operands as children, in order;
  ∧ and ∨ chains are one n-ary node (``A ∧ (B ∧ C)`` and ``A ∧ B ∧ C`` are the same tree), so
  the way a chain is bracketed costs nothing;
* a quantifier is a node labelled ``∀`` or ``∃`` with two children: a leaf for the variable it
  binds, then its body; so changing ∀ to ∃ costs 1, and so does binding another variable;
* an atom is a node labelled with the predicate's name (``=`` for identity) with one leaf per
  argument, in order; ``⊤``/``⊥`` are leaves;
* bound variables are α-normalised before anything else: the i-th quantifier met in a pre-order,
  left-to-right walk binds ``v<i>`` and its occurrences are renamed to match, so ``∀x Cube(x)``
  and ``∀y Cube(y)`` are at distance 0. Constants keep their names.

The distance is Zhang–Shasha's with unit costs (:func:`_zhang_shasha`, on plain lists: the
same distances as ``zss.simple_distance``, which also records every edit operation and was
most of the cost of ranking). :func:`nearest` breaks ties by the lowest gold index, so the
choice is deterministic.

Its cost grows much faster than the trees (measured on flat chains: 150 × 100 nodes 0.4 s,
300 × 200 nodes 2.4 s, 600 × 400 nodes 14 s; zss took 4 s, 18 s and 141 s), so it runs under
a size budget
(:data:`BUDGET`, nodes of the larger tree, changed with ``--budget nl2fol.ted.size=N``):
above it :func:`rank` orders the golds by the difference of their sizes, a lower bound of the
distance that costs nothing, and says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from afcheck.budget import Budget, OverBudget
from afcheck_fol.formula import (
    And,
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


@dataclass(frozen=True, slots=True)
class Node:
    """A node of a formula's tree: its label and its children, in order."""

    label: str
    children: tuple[Node, ...] = ()


class _Namer:
    def __init__(self) -> None:
        self.count = 0

    def next(self) -> str:
        self.count += 1
        return f"v{self.count}"


def tree(formula: Formula) -> Node:
    """The labelled ordered tree of ``formula`` (see the module docstring)."""
    namer = _Namer()

    def term(t: Term, names: Mapping[str, str]) -> Node:
        return Node(names.get(t.name, t.name) if isinstance(t, Var) else t.name)

    def build(node: Formula, names: Mapping[str, str]) -> Node:
        if isinstance(node, Pred):
            return Node(node.name, tuple(term(t, names) for t in node.args))
        if isinstance(node, Eq):
            return Node("=", (term(node.left, names), term(node.right, names)))
        if isinstance(node, Truth):
            return Node("⊤" if node.value else "⊥")
        if isinstance(node, Not):
            return Node("¬", (build(node.body, names),))
        if isinstance(node, (And, Or)):
            kind = type(node)
            flat: list[Formula] = []
            pending = list(node.items)
            while pending:  # nested chains of the same connective are one chain
                item = pending.pop(0)
                if isinstance(item, kind):
                    pending[0:0] = list(item.items)
                else:
                    flat.append(item)
            label = "∧" if isinstance(node, And) else "∨"
            return Node(label, tuple(build(item, names) for item in flat))
        if isinstance(node, (Xor, Implies, Iff)):
            label = {Xor: "⊕", Implies: "→", Iff: "↔"}[type(node)]
            return Node(label, (build(node.left, names), build(node.right, names)))
        if isinstance(node, (Forall, Exists)):
            fresh = namer.next()
            label = "∀" if isinstance(node, Forall) else "∃"
            inner = {**names, node.var.name: fresh}
            return Node(label, (Node(fresh), build(node.body, inner)))
        raise TypeError(f"not a formula: {node!r}")

    return build(formula, {})


def size(formula: Formula) -> int:
    """Number of nodes of :func:`tree` (``formula``)."""
    return _tree_of(formula).size


BUDGET = Budget(size=150, unit="nodes")
"""The largest tree the distance is computed on by default (under half a second at worst)."""
STAGE = "tree edit distance"


def distance(left: Formula, right: Formula, budget: Budget | None = None) -> int:
    """Zhang–Shasha edit distance between the two trees, unit costs; :class:`OverBudget`
    when the larger tree has more nodes than ``budget`` allows."""
    return _tree_of(left).distance(_tree_of(right), budget)


class _Tree:
    """A formula's tree in post-order, as Zhang–Shasha reads it: each node's label and the
    index of its leftmost leaf, and the key roots (the highest node of each leftmost leaf)."""

    __slots__ = ("node", "labels", "leftmost", "keyroots", "size")

    def __init__(self, node: Node) -> None:
        self.node = node
        self.labels: list[str] = []
        self.leftmost: list[int] = []

        def visit(node: Node) -> int:
            leaf = -1
            for child in node.children:
                below = visit(child)
                leaf = below if leaf < 0 else leaf
            self.labels.append(node.label)
            self.leftmost.append(len(self.labels) - 1 if leaf < 0 else leaf)
            return self.leftmost[-1]

        visit(self.node)
        self.size = len(self.labels)
        highest = {leaf: index for index, leaf in enumerate(self.leftmost)}
        self.keyroots = sorted(highest.values())

    def distance(self, other: _Tree, budget: Budget | None) -> int:
        if budget is not None:
            budget.check_size(STAGE, max(self.size, other.size))
        if self.node == other.node:
            return 0
        return _zhang_shasha(self, other)


@lru_cache(maxsize=4096)
def _tree_of(formula: Formula) -> _Tree:
    """Each formula's tree, made once: a gold is ranked against every candidate of its item."""
    return _Tree(tree(formula))


def _zhang_shasha(a: _Tree, b: _Tree) -> int:
    """The unit-cost edit distance of ``a`` and ``b`` (Zhang and Shasha 1989): for each pair of
    key roots, the forest distances of their subtrees' prefixes, keeping the tree distances
    of every pair of nodes on their leftmost paths for the later key roots."""
    la, lb, al, bl = a.labels, b.labels, a.leftmost, b.leftmost
    trees = [[0] * b.size for _ in range(a.size)]
    for i in a.keyroots:
        li = al[i]
        for j in b.keyroots:
            lj = bl[j]
            width = j - lj + 2
            forest = [list(range(width))]
            above = forest[0]
            for x in range(li, i + 1):
                lx, label, tx = al[x], la[x], trees[x]
                row = [x - li + 1] * width
                left = row[0]
                corner = forest[lx - li]
                for dy in range(1, width):
                    y = lj + dy - 1
                    ly = bl[y]
                    other = min(above[dy], left) + 1
                    if lx == li and ly == lj:  # two trees: relabel the roots
                        value = above[dy - 1] + (label != lb[y])
                        if other < value:
                            value = other
                        tx[y] = value
                    else:  # two forests: the last trees' distance, kept from before
                        value = corner[ly - lj] + tx[y]
                        if other < value:
                            value = other
                    row[dy] = left = value
                forest.append(row)
                above = row
    return trees[-1][-1]


@dataclass(frozen=True)
class Ranking:
    """The golds nearest first, with their distances, or why distances were not computed."""

    order: tuple[int, ...]
    distances: tuple[int | None, ...]
    skipped: str = ""
    """Empty when every distance was computed; else the reason, and :attr:`order` is by the
    difference of sizes (a lower bound of the distance)."""


def rank(candidate: Formula, golds: Sequence[Formula], budget: Budget = BUDGET) -> Ranking:
    """The golds by distance to ``candidate``, lowest index first among ties."""
    own, trees = _tree_of(candidate), [_tree_of(gold) for gold in golds]
    try:
        # A candidate identical to a gold is at distance 0 from it: the distance, the costliest
        # part of an easy item, is computed only for the others.
        found = [0 if candidate == gold else own.distance(other, budget)
                 for gold, other in zip(golds, trees, strict=True)]
    except OverBudget as exc:
        bound = [abs(other.size - own.size) for other in trees]
        order = sorted(range(len(golds)), key=lambda i: (bound[i], i))
        return Ranking(tuple(order), (None,) * len(golds),
                       f"{exc}; golds ranked by size difference")
    order = sorted(range(len(golds)), key=lambda i: (found[i], i))
    return Ranking(tuple(order), tuple(found))


def nearest_known(candidate: Formula, golds: Sequence[Formula], budget: Budget = BUDGET
                  ) -> int | None:
    """The gold :func:`rank` puts first, when that follows without computing a distance: the
    lowest-indexed gold identical to ``candidate`` up to its bound variables' names (distance
    0, the least there is), provided no gold's size puts :func:`rank` over ``budget`` (it
    would then rank by size difference). ``None`` otherwise."""
    own = _tree_of(candidate)
    first = None
    for index, gold in enumerate(golds):
        other = _tree_of(gold)
        if (candidate != gold and budget.size is not None
                and max(own.size, other.size) > budget.size):
            return None
        if first is None and other.node == own.node:
            first = index
    return first


def nearest(candidate: Formula, golds: Sequence[Formula]) -> tuple[int, int]:
    """``(index, distance)`` of the gold nearest ``candidate``; the lowest index among ties."""
    if not golds:
        raise ValueError("no gold formula to compare with")
    best = (0, distance(candidate, golds[0]))
    for index, gold in enumerate(golds[1:], start=1):
        found = distance(candidate, gold)
        if found < best[1]:
            best = (index, found)
    return best
