"""Logical equivalence of two sentences with z3, over an uninterpreted sort of objects.

φ and ψ are equivalent under a theory T when T ∪ {¬(φ ↔ ψ)} is unsatisfiable. z3 answers
``unsat`` (equivalent), ``sat`` (not equivalent: the model is a counter-model, a world where one
holds and the other does not) or ``unknown`` (undecided, never read as "not equivalent").

How a pair is decided (:func:`check`), every call by z3's SMT core (``SimpleSolver``):

1. when the two use the same symbols, a quick z3 call in pure logic (a tenth of the budget)
   in a context kept per thread (:func:`_quick`): most equivalent pairs end here, without
   making a context of their own. Only its ``unsat`` is used (and its ``sat`` when pure logic
   is the chosen theory and the caller wants no counter-model); everything else is decided
   from the start in the item's own context;
2. under ``none``, the same quick call in the pair's own context;
3. a bounded finite-model search under the chosen theory: domains of n = 1, 2, … ``max_domain``
   elements, quantifiers expanded over them, so the problem is quantifier-free and z3 decides
   it quickly. A model found there refutes equivalence (and is the smallest such world); this
   is what decides ∀x∃y φ against ∃y∀x φ, where plain z3 runs out of time. Finding none proves
   nothing;
4. under another theory, the quick call of step 2 now (a counter-model of the theory is one of
   pure logic too, so before the search it would only repeat it): its ``unsat`` proves the
   pair in pure logic, its ``sat`` leaves only the theory for step 6;
5. z3 without a theory (``none``), unless step 4 found a counter-model: an equivalence of pure
   logic needs no background truths, and the verdict then records ``none`` as the theory that
   decided it;
6. z3 under the chosen theory, when it is not ``none``: the verdict records that theory (so
   "equivalent only under the analytic truths" is visible). ``unknown`` from both leaves the
   pair undecided (for the grid theory after a last attempt with extremum instances).

z3's budget is its deterministic resource limit (``rlimit``), so a verdict does not depend on the
machine's speed; a wall-clock timeout is kept only as a backstop. The finite-model search has a
budget of its own (:data:`SEARCH_BUDGET`, changed with ``--budget nl2fol.search.KEY=N``): its
expansion has about n^q nodes for q nested quantifiers over n elements (190 alternating
quantifiers would never finish building), so a domain whose expansion is over ``size`` nodes
is not tried, and the search stops once its ``seconds`` are spent; either is noted in the
verdict's steps and the later z3 attempts still run.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from afcheck.budget import Budget, OverBudget
from afcheck_fol.formula import (
    And,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Xor,
    constants,
    free_vars,
    predicates,
    subformulas,
)
from afcheck_fol.grid import SHAPES, SIZES, Block, Board, Placed, picture
from afcheck_fol.language import Language
from afcheck_fol.theory import Theory, theory_named
from afcheck_fol.z3_encode import Encoder

if TYPE_CHECKING:
    import z3

DEFAULT_RLIMIT = 1_000_000
"""z3 resource units per solver call (about half a second): far more than the blocks
language's sentences need when z3 decides them at all."""
BACKSTOP_MS = 20_000
DEFAULT_MAX_DOMAIN = 4
SEARCH_BUDGET = Budget(seconds=10.0, size=200_000, unit="nodes")
"""What the finite-model search of one pair may build and spend."""
_MODEL_LISTING_LIMIT = 8
"""Relations are listed only for models this small (ternary ones grow as n³)."""


@dataclass(frozen=True)
class CounterModel:
    """A structure where exactly one of the two sentences holds."""

    domain: tuple[str, ...]
    constants: Mapping[str, str]
    """Each constant's element."""
    relations: Mapping[str, tuple[tuple[str, ...], ...]]
    """For each predicate of the two sentences, the tuples it holds of."""
    holds: str
    """``left`` or ``right``: which sentence is true here."""
    blocks: tuple[Block, ...] | None = None
    """For grid worlds, where each element stands and what it is."""

    def render(self) -> str:
        lines = [f"a world where the {self.holds} formula holds and the other does not:"]
        if self.blocks is not None:
            lines.append(picture(self.blocks, self.constants))
        else:
            lines.append(f"domain: {', '.join(self.domain)}")
            if self.constants:
                lines.append(
                    "  ".join(f"{c} = {e}" for c, e in sorted(self.constants.items()))
                )
            for name, rows in sorted(self.relations.items()):
                shown = ", ".join(
                    row[0] if len(row) == 1 else "(" + ", ".join(row) + ")" for row in rows
                )
                lines.append(f"{name}: {shown or '(none)'}")
        return "\n".join(lines)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> CounterModel:
        """The model :meth:`to_json` wrote."""
        blocks = data.get("blocks")
        relations = data.get("relations")
        constants = data.get("constants")
        domain = data.get("domain")
        assert isinstance(relations, dict) and isinstance(constants, dict)
        assert isinstance(domain, list)
        return cls(
            domain=tuple(str(e) for e in domain),
            constants={str(k): str(v) for k, v in constants.items()},
            relations={str(k): tuple(tuple(str(e) for e in row) for row in rows)
                       for k, rows in relations.items()},
            holds=str(data.get("holds")),
            blocks=None if not isinstance(blocks, list) else tuple(
                Block(str(b["name"]), int(b["col"]), int(b["row"]), str(b["shape"]),
                      str(b["size"]))
                for b in blocks
            ),
        )

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "domain": list(self.domain),
            "constants": dict(self.constants),
            "relations": {k: [list(r) for r in v] for k, v in self.relations.items()},
            "holds": self.holds,
        }
        if self.blocks is not None:
            data["blocks"] = [
                {"name": b.name, "col": b.col, "row": b.row, "shape": b.shape, "size": b.size}
                for b in self.blocks
            ]
        return data


@dataclass(frozen=True)
class Equivalence:
    """The verdict on one pair."""

    equivalent: bool | None
    theory: str
    """The theory that decided (or, when undecided, the strongest one tried)."""
    how: str
    """``z3`` or ``finite-model search (n=K)`` or the reason z3 gave up."""
    model: CounterModel | None = None
    steps: tuple[str, ...] = field(default=())
    """What each solver call answered, for the record."""

    def to_json(self) -> dict[str, object]:
        return {
            "equivalent": self.equivalent,
            "theory": self.theory,
            "how": self.how,
            "counter_model": None if self.model is None else self.model.to_json(),
            "steps": list(self.steps),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Equivalence:
        """The verdict :meth:`to_json` wrote."""
        model = data.get("counter_model")
        steps = data.get("steps")
        equivalent = data.get("equivalent")
        return cls(
            equivalent=equivalent if isinstance(equivalent, bool) else None,
            theory=str(data.get("theory")),
            how=str(data.get("how")),
            model=CounterModel.from_json(model) if isinstance(model, dict) else None,
            steps=tuple(str(s) for s in steps) if isinstance(steps, list) else (),
        )


class _Shared(threading.local):
    """This thread's z3 contexts: the open :func:`scope`'s, made on its first use, and the
    kept one of :func:`_quick`; Tarski's board in each."""

    def __init__(self) -> None:
        self.open = False
        self.ctx: z3.Context | None = None
        self.board: Board | None = None
        self.kept: z3.Context | None = None
        self.kept_board: Board | None = None
        self.kept_checks = 0

    def context(self) -> z3.Context:
        """The open scope's context."""
        import z3

        assert self.open, "a solver call outside scope()"
        if self.ctx is None:
            self.ctx = z3.Context()
        return self.ctx

    def kept_context(self) -> z3.Context:
        """The thread's kept context, renewed every :data:`_KEPT_CHECKS` checks so that what
        z3 keeps per context (symbols, caches) cannot grow without bound."""
        import z3

        if self.kept is None or self.kept_checks >= _KEPT_CHECKS:
            self.kept, self.kept_board, self.kept_checks = z3.Context(), None, 0
        self.kept_checks += 1
        return self.kept

    def grid(self, sort: z3.SortRef, ctx: z3.Context) -> Board:
        if ctx is self.kept:
            if self.kept_board is None:
                self.kept_board = Board(sort, ctx)
            return self.kept_board
        if self.board is None or self.board.ctx is not ctx:
            self.board = Board(sort, ctx)
        return self.board


_shared = _Shared()
_KEPT_CHECKS = 1000


@contextmanager
def scope() -> Iterator[None]:
    """One z3 context for every solver call of :func:`check` inside, in this thread.

    A context costs about 3.5 ms to make, more than z3 spends deciding most pairs, and a pair
    takes up to seven solver calls; Tarski's board (four functions, two quantified axioms)
    depends only on the context, so it is built once per scope too. Each call still has its
    own solver, so no assertion carries over. What z3 answers in a shared context depends on
    what was built in it before (term ids order its search), so a scope covers one item's
    calls and no more: a counter-model, and any verdict decided here, is then a function of
    the item alone, never of the items decided before it. The one exception is a proof
    (``unsat``) found by :func:`_quick` in the thread's kept context, whose history does
    depend on earlier items: the verdict is still right (a proof is one in any context), but
    whether that quick attempt proved it within its budget may depend on the order, the
    thread or the worker. The context is made on the scope's first solver call, so a scope
    whose pairs :func:`_quick` settles costs none. :func:`check` opens one for its own
    calls; an inner scope uses the outer one's context.
    """
    if _shared.open:
        yield
        return
    _shared.open = True
    try:
        yield
    finally:
        _shared.open, _shared.ctx, _shared.board = False, None, None


def _encoder(theory: Theory, domain: int | None, ctx: z3.Context) -> Encoder:
    """An encoder for ``theory`` in ``ctx``: Tarski's board interprets the blocks predicates
    of a ``grid`` theory; every other predicate stays uninterpreted, one symbol per name and
    arity."""
    return Encoder(
        domain=domain, interpretation=_shared.grid if theory.interpretation == "grid" else None,
        ctx=ctx,
    )


def _board(encoder: Encoder) -> Board | None:
    board = encoder.interpretation
    return board if isinstance(board, Board) else None


def check(
    left: Formula,
    right: Formula,
    language: Language,
    theory: str | None = None,
    *,
    rlimit: int = DEFAULT_RLIMIT,
    max_domain: int = DEFAULT_MAX_DOMAIN,
    search: Budget = SEARCH_BUDGET,
    counter_model: bool = True,
) -> Equivalence:
    """Whether ``left`` and ``right`` are equivalent under ``theory`` (the language's default
    when ``None``); see the module docstring for the order of the attempts. Without
    ``counter_model`` a pair that is not equivalent has no :attr:`Equivalence.model`, and
    under ``none`` the quick call's ``sat`` settles it (for a caller asking only whether a
    pair is equivalent)."""
    with scope():
        chosen = theory_named(language, theory)
        plain = _plain(language, chosen)
        if _same_symbols(left, right):
            answer, _ = _quick(left, right, plain, rlimit, _shared.kept_context())
            if answer == "unsat":
                return Equivalence(True, plain.name, "z3", None, (f"{plain.name} (quick): unsat",))
            if answer == "sat" and not counter_model and chosen.name == plain.name:
                # Not equivalent in pure logic, the chosen theory; under another theory a
                # world of pure logic may break its axioms, so only its search can tell.
                return Equivalence(False, plain.name, "z3", None, (f"{plain.name} (quick): sat",))
        return _check(left, right, chosen, plain, rlimit=rlimit, max_domain=max_domain,
                      search=search, counter_model=counter_model)


def _plain(language: Language, chosen: Theory) -> Theory:
    """The theory of pure logic, where the language has one; else ``chosen``."""
    return theory_named(language, "none") if "none" in language.theories else chosen


def _same_symbols(left: Formula, right: Formula) -> bool:
    """Whether the two use the same predicates (with arities) and constants: a pair that does
    not is seldom equivalent in pure logic (only where a symbol's every use is vacuous), so
    under a theory its quick call in pure logic waits until the search has found no
    counter-model. Only the order of the attempts depends on this, never the verdict."""
    return (_symbols(left) == _symbols(right)
            and constants(left) == constants(right))


def _quick(left: Formula, right: Formula, plain: Theory, rlimit: int,
           ctx: z3.Context | None = None) -> tuple[str, str]:
    """z3's answer on the pair in pure logic with a tenth of the budget, and its reason when
    ``unknown``, in ``ctx`` (the open scope's when ``None``). No counter-model is read: it is
    never the evidence (the search's smallest world, or a full call's, is).

    :func:`check` makes this call first in this thread's kept context instead of a new one:
    ``unsat`` proves the two equivalent in pure logic, whatever context found it, and is the
    verdict :func:`_check`'s quick call gives; so an equivalent pair, the common case, is
    decided without the ~3.5 ms of making a context. Any other answer is dropped and the pair
    is decided from the start in the item's own context: a counter-model, or how far the
    search went, can depend on what was built in a context before, and so never comes from
    the kept one. The one exception is a caller that wants no counter-model under ``none``
    (the verdict is then only "not equivalent", which any context's ``sat`` shows). The one
    answer that may differ: z3 in the kept context proving within the budget a pair that a
    fresh context would run out of budget on (never seen: the records of all the labelled
    candidates and FOLIO items are the same as with a new context for each of these calls,
    in either order, ``tests/test_fol_decide.py``); the verdict is then still a proved
    equivalence.
    """
    answer, _, reason = _solve(left, right, plain, max(1, rlimit // 10), domain=None, ctx=ctx,
                               want_model=False)
    return answer, reason


def _check(
    left: Formula,
    right: Formula,
    chosen: Theory,
    plain: Theory,
    *,
    rlimit: int,
    max_domain: int,
    search: Budget,
    counter_model: bool,
) -> Equivalence:
    steps: list[str] = []

    def note(label: str, answer: str, reason: str) -> None:
        steps.append(f"{label}: {answer}{' (' + reason + ')' if reason else ''}")

    def quick() -> str:
        # A quick look in pure logic: most equivalent pairs are decided here in milliseconds.
        answer, reason = _quick(left, right, plain, rlimit)
        note(f"{plain.name} (quick)", answer, reason)
        return answer

    # Pure logic first when it is the chosen theory. Under a theory the search comes first:
    # a world of the theory where the two differ is one of pure logic too, and most pairs
    # that get here are not equivalent, so the quick call would only repeat what it shows.
    first = quick() if chosen.name == plain.name else None
    if first == "unsat":
        return Equivalence(True, plain.name, "z3", None, tuple(steps))
    if first == "sat" and not counter_model:
        return Equivalence(False, plain.name, "z3", None, tuple(steps))
    # Small counter-models next: quantifier-free, so cheap, and the smallest world is the
    # clearest evidence.
    clock = search.clock("finite-model search")
    for size in range(1, max_domain + 1):
        nodes = max(expansion_size(left, size, search.size), expansion_size(right, size,
                                                                            search.size))
        if search.size is not None and nodes > search.size:
            note(f"{chosen.name}, domain of {size}", "not tried",
                 f"over budget: finite-model search on {_at_least(nodes, search.size)} nodes "
                 f"(limit {search.size:,})")
            break
        try:
            clock.check(f"domain of {size}")
        except OverBudget as exc:
            note(f"{chosen.name}, domain of {size}", "not tried", str(exc))
            break
        answer, model, reason = _solve(left, right, chosen, rlimit, domain=size,
                                       want_model=counter_model)
        note(f"{chosen.name}, domain of {size}", answer, reason)
        if answer == "sat":
            return Equivalence(
                False, chosen.name, f"finite-model search (n={size})", model, tuple(steps)
            )
    if first is None:
        first = quick()
        if first == "unsat":
            return Equivalence(True, plain.name, "z3", None, tuple(steps))
    attempts = [plain] if chosen.name == plain.name else [plain, chosen]
    if first == "sat" and chosen.name != plain.name:
        attempts = [chosen]  # pure logic already has a counter-model: only the theory can help
    for attempt in attempts:
        answer, model, reason = _solve(left, right, attempt, rlimit, domain=None,
                                       want_model=counter_model)
        note(attempt.name, answer, reason)
        if answer == "unsat":
            return Equivalence(True, attempt.name, "z3", None, tuple(steps))
        if answer == "sat" and attempt is chosen:
            return Equivalence(False, chosen.name, "z3", model, tuple(steps))
    if chosen.interpretation == "grid":
        # A last, larger budget: the instances make the problem bigger.
        answer, model, reason = _solve(left, right, chosen, 3 * rlimit, domain=None,
                                       extrema=True, want_model=counter_model)
        note(f"{chosen.name} with extremum instances", answer, reason)
        if answer == "unsat":
            return Equivalence(True, chosen.name, "z3 with extremum instances", None,
                               tuple(steps))
        if answer == "sat":
            return Equivalence(False, chosen.name, "z3", model, tuple(steps))
    return Equivalence(
        None, chosen.name, "undecided: z3 gave up and no counter-model has at most "
        f"{max_domain} elements", None, tuple(steps),
    )


def expansion_size(formula: Formula, domain: int, cap: int | None = None) -> int:
    """Nodes of ``formula`` with each quantifier expanded over ``domain`` elements, counted
    without building it; counting stops above ``cap`` (the result is then only over it)."""
    limit = cap if cap is not None else float("inf")

    def count(node: Formula) -> int:
        if isinstance(node, (Forall, Exists)):
            body = count(node.body)
            return body * domain + 1 if body <= limit else body
        total = 1
        for part in _children(node):
            total += count(part)
            if total > limit:
                break
        return total

    return count(formula)


def _children(node: Formula) -> tuple[Formula, ...]:
    if isinstance(node, (And, Or)):
        return node.items
    if isinstance(node, (Not, Forall, Exists)):
        return (node.body,)
    if isinstance(node, (Xor, Implies, Iff)):
        return (node.left, node.right)
    return ()  # atoms


def _at_least(nodes: int, cap: int) -> str:
    return f"over {cap:,}" if nodes > cap else f"{nodes:,}"


def _solve(
    left: Formula,
    right: Formula,
    theory: Theory,
    rlimit: int,
    domain: int | None,
    extrema: bool = False,
    ctx: z3.Context | None = None,
    want_model: bool = True,
) -> tuple[str, CounterModel | None, str]:
    """z3's answer on ``¬(left ↔ right)`` under ``theory``, with its counter-model when
    ``sat`` and ``want_model``, in ``ctx`` (the open scope's when ``None``)."""
    import z3

    encoder = _encoder(theory, domain, ctx if ctx is not None else _shared.context())
    board = _board(encoder)
    # z3's SMT core without the default solver's preprocessing in front of it, which costs
    # about 0.8 ms a call, more than most of these problems, and decided nothing the core
    # does not (every decision of the labelled candidates, of FOLIO's golds, and of the tarski
    # golds against each other under each theory is the same). Where quantifier instantiation
    # cannot complete a model the core says so at once instead of spending the budget.
    solver = z3.SimpleSolver(ctx=encoder.ctx)
    solver.set("rlimit", rlimit)
    solver.set("timeout", BACKSTOP_MS)
    if board is not None:
        if encoder.elements is None:
            solver.add(*board.axioms)
        else:
            solver.add(*board.ground_axioms(encoder.elements))
    for axiom in theory.axioms:
        solver.add(encoder.formula(axiom, {}))
    phi = encoder.formula(left, {})
    psi = encoder.formula(right, {})
    solver.add(phi != psi)
    if extrema and board is not None:
        solver.add(*_extremum_instances(encoder, left, right))
    if encoder.elements is not None:
        for constant in encoder.constants.values():
            solver.add(z3.Or([constant == e for e in encoder.elements]))
    try:
        answer = solver.check()
    except z3.Z3Exception as exc:  # an internal z3 failure leaves the pair undecided
        return "unknown", None, f"z3 error: {exc}"
    if answer == z3.unsat:
        return "unsat", None, ""
    if answer == z3.sat:
        if not want_model:
            return "sat", None, ""
        return "sat", _counter_model(encoder, solver.model(), phi, left, right), ""
    return "unknown", None, solver.reason_unknown()


def _one_variable_subformulas(formulas: tuple[Formula, ...]) -> list[tuple[str, Formula]]:
    """Every subformula with exactly one free variable, with that variable, without repeats."""
    found: list[tuple[str, Formula]] = []
    for formula in formulas:
        for node in subformulas(formula):
            free = free_vars(node)
            if len(free) == 1 and not isinstance(node, (Forall, Exists)):
                entry = (next(iter(free)), node)
                if entry not in found:
                    found.append(entry)
    return found


def _extremum_instances(encoder: Encoder, left: Formula, right: Formula) -> list[z3.BoolRef]:
    """Least-element instances the board makes true: a non-empty set of blocks defined by a
    subformula of the pair has a leftmost and a rightmost member, a frontmost and a backmost,
    a smallest and a largest (columns, rows and sizes are bounded integers).

    They are analytic truths, so adding them is sound; they give z3 the "take the leftmost one"
    step that LPL's sentences about orderings need and that quantifier instantiation does not
    find on its own (e.g. ∀y ∃x (Cube(x) ∧ (Tet(y) → LeftOf(x, y))) against
    ∃x (Cube(x) ∧ ∀y (Tet(y) → LeftOf(x, y)))).
    """
    import z3

    board = _board(encoder)
    assert board is not None
    used = set(predicates(left)) | set(predicates(right))
    # Only the attributes an ordering of the pair reads: fewer instances, less for z3 to try.
    attributes = [
        attribute for attribute, readers in (
            (board.col, {"LeftOf", "RightOf", "SameCol", "Adjoins", "Between"}),
            (board.row, {"FrontOf", "BackOf", "SameRow", "Adjoins", "Between"}),
            (board.size, {"Larger", "Smaller", "SameSize"}),
        ) if used & readers
    ]
    instances = []
    for name, body in _one_variable_subformulas((left, right)) if attributes else []:
        y = z3.Const(f"{name}!min{next(encoder.fresh)}", encoder.sort)
        z = z3.Const(f"{name}!any{next(encoder.fresh)}", encoder.sort)
        at_y = encoder.formula(body, {name: y})
        at_z = encoder.formula(body, {name: z})
        for attribute in attributes:
            for least in (True, False):
                bound = attribute(y) <= attribute(z) if least else attribute(y) >= attribute(z)
                instances.append(z3.Implies(
                    z3.Exists([z], at_z),
                    z3.Exists([y], z3.And(at_y, z3.ForAll([z], z3.Implies(at_z, bound)))),
                ))
    return instances


def _symbols(formula: Formula) -> set[tuple[str, int]]:
    """Each predicate of ``formula`` with each arity it is used at."""
    return {(node.name, len(node.args)) for node in subformulas(formula)
            if isinstance(node, Pred)}


def _board_rows(name: str, arity: int, placed: list[Placed] | None
                ) -> list[tuple[int, ...]] | None:
    """The tuples (of element indices) a board predicate holds of, computed from where the
    model puts each block; ``None`` for a predicate the board does not define at this arity,
    or without every block's attributes as numbers (z3 evaluates each atom then)."""
    if placed is None or not Board.knows(name) or arity != _BOARD_ARITY.get(name, 2):
        return None
    return [combo for combo in itertools.product(range(len(placed)), repeat=arity)
            if Board.holds(name, [placed[i] for i in combo])]


_BOARD_ARITY = {**{name: 1 for name in (*SHAPES, *SIZES)}, "Between": 3}
"""The arity of each board predicate that is not binary."""


def _counter_model(
    encoder: Encoder, model: z3.ModelRef, phi: z3.BoolRef, left: Formula, right: Formula
) -> CounterModel:
    import z3

    if encoder.elements is None:
        universe = list(model.get_universe(encoder.sort) or [])
    else:
        # The elements' values, without repeats: the model's own universe may hold more.
        universe = []
        for e in encoder.elements:
            value = model.eval(e, model_completion=True)
            if not any(z3.eq(value, seen) for seen in universe):
                universe.append(value)
    names = [f"e{i}" for i in range(len(universe))]

    def element(value: z3.ExprRef) -> str:
        for name, candidate in zip(names, universe, strict=True):
            if z3.eq(model.eval(value, model_completion=True), candidate):
                return name
        return str(value)

    constants = {name: element(const) for name, const in sorted(encoder.constants.items())}
    blocks = None
    placed: list[Placed] | None = None
    board = _board(encoder)
    if board is not None:
        numbers = [[model.eval(fn(value), model_completion=True)
                    for fn in (board.col, board.row, board.shape, board.size)]
                   for value in universe]
        if all(isinstance(n, z3.IntNumRef) for each in numbers for n in each):
            placed = [Placed(*(n.as_long() for n in each)) for each in numbers]

        def number(result: z3.ExprRef) -> int:
            return result.as_long() if isinstance(result, z3.IntNumRef) else 0

        blocks = tuple(
            Block(
                name=names[i],
                col=number(col),
                row=number(row),
                shape=("Tet", "Cube", "Dodec")[number(shape) % 3],
                size=("Small", "Medium", "Large")[number(size) % 3],
            )
            for i, (col, row, shape, size) in enumerate(numbers)
        )
    relations: dict[str, tuple[tuple[str, ...], ...]] = {}
    if len(universe) <= _MODEL_LISTING_LIMIT:
        used = sorted(_symbols(left) | _symbols(right))
        # A name used at two arities is two unrelated predicates: each is listed as name/arity.
        twice = {name for name, _ in used if sum(1 for n, _ in used if n == name) > 1}
        for name, arity in used:
            rows = _board_rows(name, arity, placed)
            if rows is None:
                rows = []
                for combo in itertools.product(range(len(universe)), repeat=arity):
                    atom = encoder.atom(name, [universe[i] for i in combo])
                    if z3.is_true(model.eval(atom, model_completion=True)):
                        rows.append(combo)
            relations[f"{name}/{arity}" if name in twice else name] = tuple(
                tuple(names[i] for i in combo) for combo in rows)
    holds = "left" if z3.is_true(model.eval(phi, model_completion=True)) else "right"
    return CounterModel(tuple(names), constants, relations, holds, blocks)
