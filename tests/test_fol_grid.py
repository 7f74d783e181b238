"""Tarski's board: each predicate's one definition, as z3 terms and as truth values on
numbers, and a counter-model's listing computed from it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from afcheck_fol.grid import SHAPES, SIZES, Board, Placed

z3 = pytest.importorskip("z3")

PREDICATES = [*((name, 1) for name in (*SHAPES, *SIZES)), ("Between", 3),
              *((name, 2) for name in ("SameShape", "SameSize", "Larger", "Smaller", "SameCol",
                                       "SameRow", "LeftOf", "RightOf", "FrontOf", "BackOf",
                                       "Adjoins"))]


def test_every_board_predicate_is_known_and_nothing_else() -> None:
    assert all(Board.knows(name) for name, _ in PREDICATES)
    assert not Board.knows("Likes")


def test_truth_on_numbers_is_what_z3_evaluates_the_term_to() -> None:
    """On random boards of four blocks (squares shared too, and the edges of the board), each
    predicate on every tuple: :meth:`Board.holds` is z3's value of :meth:`Board.atom` in a model
    that puts the blocks there."""
    rng = random.Random(7)
    ctx = z3.Context()
    sort = z3.DeclareSort("Obj", ctx)
    board = Board(sort, ctx)
    elements = [z3.Const(f"e{i}", sort) for i in range(4)]
    for _ in range(12):
        placed = [Placed(rng.choice([0, 1, 2, 3, 7]), rng.choice([0, 1, 2, 6, 7]),
                         rng.randrange(3), rng.randrange(3)) for _ in elements]
        solver = z3.Solver(ctx=ctx)
        solver.add(z3.Distinct(*elements))
        for element, block in zip(elements, placed, strict=True):
            solver.add(board.col(element) == block.col, board.row(element) == block.row,
                       board.shape(element) == block.shape, board.size(element) == block.size)
        assert solver.check() == z3.sat
        model = solver.model()
        for name, arity in PREDICATES:
            for combo in itertools.product(range(len(elements)), repeat=arity):
                term = board.atom(name, [elements[i] for i in combo])
                expected = z3.is_true(model.eval(term, model_completion=True))
                assert Board.holds(name, [placed[i] for i in combo]) == expected, (name, combo)


@pytest.mark.parametrize("every", [
    pytest.param(1, marks=pytest.mark.slow, id="all"),
    pytest.param(6, id="every-sixth"),
])
def test_listing_from_numbers_changes_no_decision_of_the_labelled_set(
        every: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision on the 374 labelled candidates of ``suites/tarski`` (every sixth
    outside the slow profile: deciding them all twice takes minutes), counter-models
    included, is the one z3's evaluation of each atom gives."""
    import afcheck_fol.equiv as equiv
    from afcheck_fol.language import TARSKI
    from afcheck_nl2fol.decide import decide
    from afcheck_nl2fol.labels import load_labels
    from afcheck_nl2fol.records import Candidate, to_json
    from afcheck_nl2fol.suite import load_jsonl

    folder = Path(__file__).resolve().parent.parent / "suites" / "tarski"
    items = {item.id: item for item in load_jsonl(folder / "sentences.jsonl", TARSKI).items}
    entries, _ = load_labels(folder / "labelled.jsonl")
    pairs = [(items[e.item], e.candidate) for e in entries][::every]
    listed = 0
    original = equiv._board_rows

    def counting(*args: object) -> object:
        nonlocal listed
        rows = original(*args)  # type: ignore[arg-type]
        listed += rows is not None
        return rows

    def records() -> list[dict[str, object]]:
        out = []
        for item, text in pairs:
            record = to_json(decide(item, Candidate(item.id, text)))
            record.pop("seconds")
            out.append(record)
        return out

    with monkeypatch.context() as patch:
        patch.setattr(equiv, "_board_rows", counting)
        from_numbers = records()
    with monkeypatch.context() as patch:
        patch.setattr(equiv, "_board_rows", lambda *args: None)
        by_z3 = records()
    assert len(from_numbers) == len(pairs) > 300 // every
    assert listed > 100 // every  # the listing from numbers was taken
    assert from_numbers == by_z3
