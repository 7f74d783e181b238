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
from typing import TYPE_CHECKING, Protocol, TypeVar

from afcheck_fol import z3_build as build

if TYPE_CHECKING:
    import z3

SIZE = 8
SHAPES = ("Tet", "Cube", "Dodec")
SIZES = ("Small", "Medium", "Large")


class Board:
    """The grid interpretation in one z3 context.

    Every term it builds is built once: a quantifier expanded over a finite domain meets the
    same ground atom again and again, and the search tries the same domains for every gold of
    an item. Each memo keeps the terms its key's ids name, so those ids stay theirs.
    """

    def __init__(self, sort: z3.SortRef, ctx: z3.Context) -> None:
        import z3

        self.ctx = ctx
        self.sort = sort
        int_sort = z3.IntSort(ctx)
        self._functions = tuple(z3.Function(name, sort, int_sort)
                                for name in ("col", "row", "shape", "size"))
        self._numbers = [z3.IntVal(n, ctx) for n in range(SIZE + 1)]
        self._attributes: dict[tuple[int, int], tuple[z3.ArithRef, z3.ExprRef]] = {}
        self._atoms: dict[tuple[object, ...], tuple[z3.BoolRef, Sequence[z3.ExprRef]]] = {}
        self._facts: dict[tuple[int, ...], tuple[list[z3.BoolRef], Sequence[z3.ExprRef]]] = {}
        self._axioms: tuple[z3.BoolRef, ...] | None = None

    def col(self, block: z3.ExprRef) -> z3.ArithRef:
        return self._attribute(0, block)

    def row(self, block: z3.ExprRef) -> z3.ArithRef:
        return self._attribute(1, block)

    def shape(self, block: z3.ExprRef) -> z3.ArithRef:
        return self._attribute(2, block)

    def size(self, block: z3.ExprRef) -> z3.ArithRef:
        return self._attribute(3, block)

    def _attribute(self, which: int, block: z3.ExprRef) -> z3.ArithRef:
        key = (which, block.get_id())
        found = self._attributes.get(key)
        if found is None:
            term = build.apply_int(self._functions[which], [block])
            found = self._attributes[key] = (term, block)
        return found[0]

    def number(self, n: int) -> z3.ArithRef:
        """The integer ``n`` as a term of this context."""
        return self._numbers[n]

    # The operations the predicates' definitions use (:func:`_meaning`), as z3 terms.
    @staticmethod
    def eq(a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        return build.equal(a, b)

    @staticmethod
    def lt(a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        return build.less(a, b)

    @staticmethod
    def gt(a: z3.ArithRef, b: z3.ArithRef) -> z3.BoolRef:
        return build.greater(a, b)

    @staticmethod
    def sub(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
        return build.minus(a, b)

    @staticmethod
    def neg(a: z3.ArithRef) -> z3.ArithRef:
        return build.negative(a)

    def all(self, *parts: z3.BoolRef) -> z3.BoolRef:
        return build.conj(parts, self.ctx)

    def any(self, *parts: z3.BoolRef) -> z3.BoolRef:
        return build.disj(parts, self.ctx)

    @property
    def axioms(self) -> tuple[z3.BoolRef, ...]:
        """Every block stands on the board and has a shape and a size; one block per square.
        Quantified, for problems over the whole domain; built on first use (a search over
        finite domains needs only :meth:`ground_axioms`)."""
        import z3

        if self._axioms is None:
            x, y = z3.Const("x!b", self.sort), z3.Const("y!b", self.sort)
            self._axioms = (
                z3.ForAll([x], z3.And(*self._ranges(x))),
                z3.ForAll([x, y], z3.Implies(
                    z3.And(self.col(x) == self.col(y), self.row(x) == self.row(y)), x == y,
                )),
            )
        return self._axioms

    def _ranges(self, e: z3.ExprRef) -> list[z3.BoolRef]:
        zero, size, three = self.number(0), self.number(SIZE), self.number(3)
        return [build.at_least(self.col(e), zero), build.less(self.col(e), size),
                build.at_least(self.row(e), zero), build.less(self.row(e), size),
                build.at_least(self.shape(e), zero), build.less(self.shape(e), three),
                build.at_least(self.size(e), zero), build.less(self.size(e), three)]

    def ground_axioms(self, elements: Sequence[z3.ExprRef]) -> list[z3.BoolRef]:
        """:attr:`axioms` over a domain of exactly ``elements`` (some may be equal): each
        element's ranges, then for each pair that they stand on different squares unless
        equal."""
        facts: list[z3.BoolRef] = []
        for e in elements:
            facts += self._memo(self._ranges, e)
        for i, e in enumerate(elements):
            for f in elements[i + 1:]:
                facts += self._memo(self._apart, e, f)
        return facts

    def _apart(self, e: z3.ExprRef, f: z3.ExprRef) -> list[z3.BoolRef]:
        return [build.disj([build.equal(e, f), build.differ(self.col(e), self.col(f)),
                            build.differ(self.row(e), self.row(f))], self.ctx)]

    def _memo(self, facts: Callable[..., list[z3.BoolRef]],
              *elements: z3.ExprRef) -> list[z3.BoolRef]:
        """``facts(*elements)``, made once per elements (kept with them, so that their ids
        stay theirs)."""
        key = tuple(e.get_id() for e in elements)
        found = self._facts.get(key)
        if found is None:
            found = self._facts[key] = (facts(*elements), elements)
        return found[0]

    def atom(self, name: str, args: Sequence[z3.ExprRef]) -> z3.BoolRef:
        """The meaning of ``name(args…)``; ``KeyError`` for a name the board does not know."""
        # Only the asked predicate is built: building all eleven for every atom was most of
        # the encoding's time.
        key = (name, *(arg.get_id() for arg in args))
        found = self._atoms.get(key)
        if found is None:
            found = self._atoms[key] = (_meaning(self, name, args), tuple(args))
        return found[0]

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

    def number(self, n: int) -> int:
        return n

    @staticmethod
    def eq(a: int, b: int) -> bool:
        return a == b

    @staticmethod
    def lt(a: int, b: int) -> bool:
        return a < b

    @staticmethod
    def gt(a: int, b: int) -> bool:
        return a > b

    @staticmethod
    def sub(a: int, b: int) -> int:
        return a - b

    @staticmethod
    def neg(a: int) -> int:
        return -a

    @staticmethod
    def all(*parts: bool) -> bool:
        return all(parts)

    @staticmethod
    def any(*parts: bool) -> bool:
        return any(parts)


_B = TypeVar("_B", contravariant=True)
_N = TypeVar("_N")
_T = TypeVar("_T")


class _Operations(Protocol[_B, _N, _T]):
    """What the predicates' definitions read: a block's four attributes (numbers), numerals,
    and the comparisons, arithmetic and connectives over them. :class:`Board` gives z3 terms,
    :class:`_Numbers` Python's numbers and truth values."""

    def col(self, block: _B, /) -> _N: ...
    def row(self, block: _B, /) -> _N: ...
    def shape(self, block: _B, /) -> _N: ...
    def size(self, block: _B, /) -> _N: ...
    def number(self, n: int, /) -> _N: ...
    def eq(self, a: _N, b: _N, /) -> _T: ...
    def lt(self, a: _N, b: _N, /) -> _T: ...
    def gt(self, a: _N, b: _N, /) -> _T: ...
    def sub(self, a: _N, b: _N, /) -> _N: ...
    def neg(self, a: _N, /) -> _N: ...
    def all(self, *parts: _T) -> _T: ...
    def any(self, *parts: _T) -> _T: ...


Blk = TypeVar("Blk")
Num = TypeVar("Num")
Tru = TypeVar("Tru")

_BINARY = frozenset(("SameShape", "SameSize", "Larger", "Smaller", "SameCol", "SameRow",
                     "LeftOf", "RightOf", "FrontOf", "BackOf", "Adjoins"))
"""The binary predicates the board defines."""


def _meaning(board: _Operations[Blk, Num, Tru], name: str, args: Sequence[Blk]) -> Tru:
    """``name(args…)`` over ``board``'s attributes and operations: a z3 term for a
    :class:`Board` and z3 terms, a truth value for :class:`_Numbers` and :class:`Placed`
    blocks; ``KeyError`` for a name the board does not define."""
    if name in SHAPES:
        return board.eq(board.shape(args[0]), board.number(SHAPES.index(name)))
    if name in SIZES:
        return board.eq(board.size(args[0]), board.number(SIZES.index(name)))
    if name == "Between":
        return _between(board, *args)
    if name not in _BINARY:
        raise KeyError(name)
    a, b = args
    match name:
        case "SameShape":
            return board.eq(board.shape(a), board.shape(b))
        case "SameSize":
            return board.eq(board.size(a), board.size(b))
        case "Larger":
            return board.gt(board.size(a), board.size(b))
        case "Smaller":
            return board.lt(board.size(a), board.size(b))
        case "SameCol":
            return board.eq(board.col(a), board.col(b))
        case "SameRow":
            return board.eq(board.row(a), board.row(b))
        case "LeftOf":
            return board.lt(board.col(a), board.col(b))
        case "RightOf":
            return board.gt(board.col(a), board.col(b))
        case "FrontOf":
            return board.gt(board.row(a), board.row(b))
        case "BackOf":
            return board.lt(board.row(a), board.row(b))
    return _adjoins(board, a, b)


def _between(board: _Operations[Blk, Num, Tru], a: Blk, b: Blk, c: Blk) -> Tru:
    eq, sub, both, either = board.eq, board.sub, board.all, board.any
    dx1, dy1 = sub(board.col(a), board.col(b)), sub(board.row(a), board.row(b))
    dx2, dy2 = sub(board.col(c), board.col(a)), sub(board.row(c), board.row(a))

    zero = board.number(0)

    def same_direction(d1: Num, d2: Num) -> Tru:
        return either(both(board.gt(d1, zero), board.gt(d2, zero)),
                      both(board.lt(d1, zero), board.lt(d2, zero)))

    return either(
        both(eq(dy1, zero), eq(dy2, zero), same_direction(dx1, dx2)),
        both(eq(dx1, zero), eq(dx2, zero), same_direction(dy1, dy2)),
        both(
            either(eq(dx1, dy1), eq(dx1, board.neg(dy1))),
            either(eq(dx2, dy2), eq(dx2, board.neg(dy2))),
            same_direction(dx1, dx2), same_direction(dy1, dy2),
        ),
    )


def _adjoins(board: _Operations[Blk, Num, Tru], a: Blk, b: Blk) -> Tru:
    col, row, one = board.col, board.row, board.number(1)
    eq, sub, both, either = board.eq, board.sub, board.all, board.any
    return either(
        both(eq(col(a), col(b)),
             either(eq(sub(row(a), row(b)), one), eq(sub(row(b), row(a)), one))),
        both(eq(row(a), row(b)),
             either(eq(sub(col(a), col(b)), one), eq(sub(col(b), col(a)), one))),
    )


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
