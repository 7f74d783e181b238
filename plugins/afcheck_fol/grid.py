"""Tarski's World's board: what each blocks-language predicate means, and a world as a picture.

A world is a set of blocks on distinct squares of an 8×8 board; each block has one shape (tet,
cube, dodecahedron) and one size (small, medium, large). Columns run left to right (0–7), rows
back to front (0–7), so ``FrontOf(x, y)`` is "x's row is nearer the viewer". ``Adjoins`` means
on squares that share an edge; ``Between(x, y, z)`` means x, y, z lie on one row, column or
diagonal with x strictly between y and z — the program's own definitions.

:class:`Board` declares the per-block attributes as z3 functions and defines every predicate
over them, so that a z3 model of the encoding *is* a Tarski world.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import z3

SIZE = 8
SHAPES = ("Tet", "Cube", "Dodec")
SIZES = ("Small", "Medium", "Large")


class Board:
    """The grid interpretation in one z3 context."""

    def __init__(self, sort: z3.SortRef, ctx: z3.Context) -> None:
        import z3

        self.ctx = ctx
        int_sort = z3.IntSort(ctx)
        self.col = z3.Function("col", sort, int_sort)
        self.row = z3.Function("row", sort, int_sort)
        self.shape = z3.Function("shape", sort, int_sort)
        self.size = z3.Function("size", sort, int_sort)
        x, y = z3.Const("x!b", sort), z3.Const("y!b", sort)
        self.axioms = [
            z3.ForAll([x], z3.And(
                self.col(x) >= 0, self.col(x) < SIZE, self.row(x) >= 0, self.row(x) < SIZE,
                self.shape(x) >= 0, self.shape(x) < 3, self.size(x) >= 0, self.size(x) < 3,
            )),
            # One block per square.
            z3.ForAll([x, y], z3.Implies(
                z3.And(self.col(x) == self.col(y), self.row(x) == self.row(y)), x == y,
            )),
        ]

    def ground_axioms(self, elements: Sequence[z3.ExprRef]) -> list[z3.BoolRef]:
        """:attr:`axioms` over a domain of exactly ``elements`` (some may be equal)."""
        import z3

        facts: list[z3.BoolRef] = []
        for e in elements:
            facts += [self.col(e) >= 0, self.col(e) < SIZE, self.row(e) >= 0,
                      self.row(e) < SIZE, self.shape(e) >= 0, self.shape(e) < 3,
                      self.size(e) >= 0, self.size(e) < 3]
        for i, e in enumerate(elements):
            for f in elements[i + 1:]:
                facts.append(z3.Or(e == f, self.col(e) != self.col(f), self.row(e) != self.row(f)))
        return facts

    def atom(self, name: str, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
        """The meaning of ``name(args…)``; ``KeyError`` for a name the board does not know."""
        # Only the asked predicate is built: building all eleven for every atom was most of
        # the encoding's time.
        return _meaning(self, name, args)

    @staticmethod
    def knows(name: str) -> bool:
        """Whether ``name`` is one of the predicates the board gives a meaning."""
        return name in SHAPES or name in SIZES or name == "Between" or name in _BINARY

    @staticmethod
    def holds(name: str, blocks: Sequence[Placed]) -> bool:
        """The truth of ``name(blocks…)`` on a board where the blocks stand as given: the same
        definitions as :meth:`atom`, computed on numbers (a counter-model's listing needs
        every tuple of every relation; building and evaluating a z3 term for each costs
        about 5% of the labelled set's time)."""
        return bool(_meaning(_Numbers(), name, blocks))


@dataclass(frozen=True)
class Placed:
    """A block's attributes as numbers: what :class:`Board`'s functions give it in a model."""

    col: int
    row: int
    shape: int
    size: int


class _Numbers:
    """The board's four attributes read from :class:`Placed` blocks, so that the one set of
    definitions below computes truth values as well as building z3 terms."""

    def col(self, block: Placed) -> int:
        return block.col

    def row(self, block: Placed) -> int:
        return block.row

    def shape(self, block: Placed) -> int:
        return block.shape

    def size(self, block: Placed) -> int:
        return block.size


def _any(*parts: Any) -> Any:
    """Disjunction of z3 terms, or of truth values when every part is one."""
    import z3

    if all(isinstance(part, bool) for part in parts):
        return any(parts)
    return z3.Or(*parts)


def _all(*parts: Any) -> Any:
    """Conjunction of z3 terms, or of truth values when every part is one."""
    import z3

    if all(isinstance(part, bool) for part in parts):
        return all(parts)
    return z3.And(*parts)


def _meaning(board: Any, name: str, args: Sequence[Any]) -> Any:
    """``name(args…)`` over ``board``'s attributes: a z3 term for a :class:`Board` and z3
    terms, a truth value for :class:`_Numbers` and :class:`Placed` blocks."""
    if name in SHAPES:
        return board.shape(args[0]) == SHAPES.index(name)
    if name in SIZES:
        return board.size(args[0]) == SIZES.index(name)
    if name == "Between":
        return _between(board, *args)
    meaning = _BINARY[name]
    a, b = args
    return meaning(board, a, b)


def _between(board: Any, a: Any, b: Any, c: Any) -> Any:
    dx1, dy1 = board.col(a) - board.col(b), board.row(a) - board.row(b)
    dx2, dy2 = board.col(c) - board.col(a), board.row(c) - board.row(a)

    def same_direction(d1: Any, d2: Any) -> Any:
        return _any(_all(d1 > 0, d2 > 0), _all(d1 < 0, d2 < 0))

    return _any(
        _all(dy1 == 0, dy2 == 0, same_direction(dx1, dx2)),
        _all(dx1 == 0, dx2 == 0, same_direction(dy1, dy2)),
        _all(
            _any(dx1 == dy1, dx1 == -dy1), _any(dx2 == dy2, dx2 == -dy2),
            same_direction(dx1, dx2), same_direction(dy1, dy2),
        ),
    )


def _adjoins(board: Any, a: Any, b: Any) -> Any:
    col, row = board.col, board.row
    return _any(
        _all(col(a) == col(b), _any(row(a) - row(b) == 1, row(b) - row(a) == 1)),
        _all(row(a) == row(b), _any(col(a) - col(b) == 1, col(b) - col(a) == 1)),
    )


_BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "SameShape": lambda board, a, b: board.shape(a) == board.shape(b),
    "SameSize": lambda board, a, b: board.size(a) == board.size(b),
    "Larger": lambda board, a, b: board.size(a) > board.size(b),
    "Smaller": lambda board, a, b: board.size(a) < board.size(b),
    "SameCol": lambda board, a, b: board.col(a) == board.col(b),
    "SameRow": lambda board, a, b: board.row(a) == board.row(b),
    "LeftOf": lambda board, a, b: board.col(a) < board.col(b),
    "RightOf": lambda board, a, b: board.col(a) > board.col(b),
    "FrontOf": lambda board, a, b: board.row(a) > board.row(b),
    "BackOf": lambda board, a, b: board.row(a) < board.row(b),
    "Adjoins": _adjoins,
}
"""The binary predicates' meanings over a board's attributes (z3 terms or numbers)."""


@dataclass(frozen=True)
class Block:
    name: str
    """The element's name in the model (``b1``…), or its constants joined (``a=c``)."""
    col: int
    row: int
    shape: str
    size: str


def picture(blocks: Sequence[Block], constants: Mapping[str, str]) -> str:
    """The board as text: back row on top, one cell per square, plus a key.

    A cell shows the block's shape and size (``Tl`` large tet, ``Cs`` small cube, ``Dm``
    medium dodecahedron) and the constants naming it.
    """
    names: dict[str, list[str]] = {}
    for constant, element in sorted(constants.items()):
        names.setdefault(element, []).append(constant)
    width = max([4] + [4 + len(",".join(names.get(b.name, []))) for b in blocks])
    cells = {(b.col, b.row): b for b in blocks}
    lines = ["   " + "".join(f"{c:^{width}}" for c in range(SIZE))]
    for row in range(SIZE):
        cells_text = []
        for col in range(SIZE):
            block = cells.get((col, row))
            if block is None:
                cells_text.append(f"{'.':^{width}}")
            else:
                label = block.shape[0] + block.size[0].lower()
                named = ",".join(names.get(block.name, []))
                cells_text.append(f"{label + (' ' + named if named else ''):^{width}}")
        lines.append(f"{row:>2} " + "".join(cells_text))
    lines.append("(row 0 at the back; T/C/D tet/cube/dodec, s/m/l small/medium/large)")
    return "\n".join(lines)
