"""The ``literal`` formaliser: a step's arithmetic claims, written as they are read.

It never corrects: the statement says exactly what the step says, true or false. Equations of
the context that give a name a value become hypotheses; the step's relations become the
conclusion (a conjunction when there are several). A numeral the claims do not read must
restate a value the statement, the context or (for a premise) the problem already has, or the
step may say more than its statement. Outside the fragment the answer is AF-Fail with the
reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from afcheck_arith.claims import (
    Chain,
    Expression,
    Number,
    Unreadable,
    bound_in,
    read_chains_leniently,
    read_step,
    written_expressions,
    written_values,
)
from afcheck_arith.expr import (
    Bin,
    Expr,
    Var,
    bare,
    is_real,
    numerals,
    substitution,
    subtrees,
    variables,
)
from afcheck_arith.values import evaluate

from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest
from afcheck_literal.lean import Hypothesis, theorem
from afcheck_literal.scope import Scope, UnknownName

VERSION = "4"

_NEGATED = {"=": "≠", "≠": "=", "<": "≥", "≥": "<", ">": "≤", "≤": ">"}
_FALSE_PREFIX = re.compile(r"^\s*it\s+is\s+(?:false|not\s+true)\s+that\s+", re.IGNORECASE)
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@dataclass(frozen=True)
class Claim:
    left: Expr
    rel: str
    right: Expr


class LiteralFormaliser:
    """Rule-based formaliser for arithmetic claims (see ``docs/literal.md``)."""

    name = "literal"
    version = VERSION

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [self.formalise_one(request) for request in requests]

    def formalise_one(self, request: FormaliseRequest) -> Formalisation:
        try:
            statement = formalise_text(request.text, request.context, request.problem)
        except (Unreadable, UnknownName) as error:
            return Formalisation(
                key=request.key,
                formaliser=self.name,
                status=FormalisationStatus.AF_FAIL,
                reason=str(error),
            )
        except Exception as error:  # noqa: BLE001 - one unreadable step must not stop a batch
            return Formalisation(
                key=request.key,
                formaliser=self.name,
                status=FormalisationStatus.AF_FAIL,
                reason=f"internal error: {type(error).__name__}: {error}",
            )
        return Formalisation(
            key=request.key,
            formaliser=self.name,
            status=FormalisationStatus.OK,
            statement=statement,
            header="",
            raw_output=statement,
        )


def formalise_text(text: str, context: Sequence[str] = (), problem: str = "") -> str:
    """The Lean statement of ``text`` read after ``context``; raises :class:`Unreadable` or
    :class:`UnknownName` with the reason when it cannot be read literally. The numerals of
    ``problem`` and ``context`` are the givens a premise in prose may restate."""
    scope = _after(tuple(context))
    negated = _FALSE_PREFIX.match(text)
    if negated:
        text = text[negated.end() :]
    reading = read_step(text)
    scope.unbind(reading.bound)
    step = _Step(scope)
    claims: list[Claim] = []
    read: set[int] = set()
    written: set[Expr] = set()
    for chain in reading.chains:
        found = step.read(chain)
        if found:
            read |= chain.refs
            written.update(t for e in chain.elements for t in subtrees(e))
        claims.extend(found)
    if not claims:
        raise Unreadable("no equation or inequality with a value to check in the step")
    env = scope.numbers()
    if negated:
        claims = _negate(claims)
    if _fails(claims, env):
        # A false statement stays false with more conjuncts: what it leaves out of the step
        # (a number or a computation in prose) cannot turn its refutation into a wrong one.
        return _statement(scope, claims)
    sides = {evaluate(t, env) for c in claims for t in (c.left, c.right)} | step.defined
    concluded = {v for v in sides if v is not None}
    given = written_expressions(problem, *context)
    _check_expressions(reading.expressions, written, concluded | given)
    leaves = {n.value for n in reading.numbers if n.ref in read}
    givens = written_values(problem, *context)
    first = min(read)
    # the numerals of a computation tied to the claims are read with it
    read |= {ref for e in reading.expressions for ref in e.refs}
    _check_prose_numbers(
        [n for n in reading.numbers if n.ref not in read], concluded, leaves, givens, first
    )
    _refuse_two_values([n for n in reading.numbers if n.ref not in read])
    return _statement(scope, claims)


_HOLDS = {
    "=": lambda a, b: a == b,
    "≠": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "≤": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "≥": lambda a, b: a >= b,
}


def _fails(claims: Sequence[Claim], env: Mapping[str, Fraction | None]) -> bool:
    """Whether some claim is false as read, exactly, with the values the hypotheses give."""
    for claim in claims:
        left, right = evaluate(claim.left, env), evaluate(claim.right, env)
        if left is not None and right is not None and not _HOLDS[claim.rel](left, right):
            return True
    return False


def _check_expressions(
    expressions: Sequence[Expression], written: set[Expr], values: set[Fraction]
) -> None:
    """Arithmetic outside every relation (``calculate \\(16 + 21\\): \\[16 - 21 = -5\\]``,
    ``1*3 of the babies``) says what the step computes; the statement checks it only when a
    claim writes the same expression (brackets aside), or when its value is the value of a
    whole side of one of the relations or of a name the step defines (``\\[2-4+6-8\\]``
    grouped into ``(2-4) + (6-8) = -4``), as for a number in concluding position, or of a
    computation written in the problem or an earlier step (the problem's ``92 - 45 \\div (3
    \\times 5) - 5^2`` rewritten ``92 - 45 \\div 15 - 5^2``). Otherwise
    it is a computation the statement does not contain, and a perturbation there would be
    proved."""
    for expression in expressions:
        if bare(expression.tree) in written or evaluate(expression.tree, {}) in values:
            continue
        raise Unreadable(
            f"'{expression.text}' is computed outside any claim, and no claim writes it or its "
            f"value"
        )


def _refuse_two_values(numbers: Sequence[Number]) -> None:
    """``2 red and 2 green hats … so she has 4 green hats``: a concluded number in prose given
    to a quantity the step's prose already counted otherwise is tied to no side of a claim,
    even when its value is one. ``numbers`` are those outside the claims."""
    for number in numbers:
        if not number.concluding or not number.unit:
            continue
        other = next(
            (n for n in numbers if n.unit == number.unit and n.value != number.value), None
        )
        if other is not None:
            shown = " ".join(number.unit)
            raise Unreadable(
                f"'{number.text} {shown}' and '{other.text} {shown}': the step gives two "
                f"values to one quantity"
            )


_AFTER: dict[tuple[str, ...], Scope] = {}
"""The scopes after the contexts read last, by context (never changed: :func:`_after` copies
them). Both sides of a step and the claims of one paragraph share their context, and a
chain's later steps extend its earlier steps' context: without them most of the time went
into reading the same context again for each request."""
_AFTER_SIZE = 256


def _after(context: tuple[str, ...]) -> Scope:
    """A new scope with what ``context`` defines, as reading it in order into an empty one
    gives: the scope after its longest prefix read before, copied, then the rest read."""
    scope, k = Scope(), 0
    for j in range(len(context), 0, -1):
        found = _AFTER.get(context[:j])
        if found is not None:
            scope, k = found.copy(), j
            break
    for j in range(k, len(context)):
        _learn(scope, context[j])
        if len(_AFTER) >= _AFTER_SIZE:
            _AFTER.pop(next(iter(_AFTER)), None)  # the oldest: contexts come chain by chain
        _AFTER[context[: j + 1]] = scope.copy()
    return scope


def _learn(scope: Scope, text: str) -> None:
    """Take the definitions of an earlier step; its claims are not checked here. A name it
    binds or solves for (``solve for n``) loses the value it had before it."""
    scope.unbind(bound_in(text))
    for chain in read_chains_leniently(text):
        if isinstance(chain, Chain):
            try:
                _read_chain(scope, chain)
            except UnknownName:
                # a claim over names never given a value says nothing usable, but it does
                # constrain them: a later ``p = 48`` claims, it does not name
                scope.constrain(key for e in chain.elements for key in variables(e))
        else:
            scope.forget(chain)


def _check_prose_numbers(
    numbers: Sequence[Number],
    concluded: set[Fraction],
    leaves: set[Fraction],
    givens: set[Fraction],
    first: int,
) -> None:
    """A numeral outside every claim read may carry the step's conclusion (``so 7 is the
    smallest prime factor``, ``the last digit is 1``). The step is read only when each such
    numeral is tied to what the claims say: a numeral in concluding position must be the value
    of a whole side of one of the step's relations or of a name it defines (``\\boxed{15}``
    after ``5 + 10 + 8 = 23`` is not, though ``5 + 10`` is 15); any other numeral (a premise:
    ``she buys 4 pens``) must be written in the claims, the problem or the earlier steps. A
    number that announces the computation before the first numeral of the claims (``so we add
    4000 and 8000 to 5000: 5000 + 4000 + 8000 = 17000``) may be one of its numerals."""
    for number in numbers:
        candidates = {number.value, number.value / 100} if number.percent else {number.value}
        if candidates & concluded:
            continue
        announced = number.ref < first and candidates & leaves
        if announced or (not number.concluding and candidates & (leaves | givens)):
            continue
        what = (
            "is the value of no side of the step's relations"
            if number.concluding
            else "is written neither in the claims nor in the problem or the earlier steps"
        )
        raise Unreadable(f"'{number.text}' in '{number.clause}' is outside any claim and {what}")


class _Step:
    """Reads the chains of the step being formalised, in order (the checked step)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.local: set[str] = set()
        """Names this step defines: only these may be compared as bare names."""
        self.defined: set[Fraction | None] = set()
        """The values of the names this step defines."""

    def read(self, chain: Chain) -> list[Claim]:
        scope = self.scope
        _refuse_outside_names(scope, chain, self.local)
        _refuse_substitutions(scope, chain)
        claims = _read_chain(scope, chain, checked=True)
        if chain.conditional and claims:
            raise Unreadable(f"'{chain.text}' is a condition, not a claim")
        env = scope.numbers()
        for i in range(len(chain.elements)):
            key = chain.name_at(i)
            if key is not None and scope.defines(key) and key not in self.local:
                self.local.add(key)
                self.defined.add(evaluate(scope.resolve(Var(key)), env))
        return claims


def _refuse_outside_names(scope: Scope, chain: Chain, local: set[str]) -> None:
    """A bare name that an earlier step defined, compared here (``Rate > 50 / 4 = 12.5`` after
    ``Rate = 47 / 4``, ``Number of car tires repaired < 12``): the step redefines the name or
    states a condition on it, and reading it as a claim about the old value would be a
    misreading. Only the head of a chain followed by ``=`` names; anything else is refused."""
    for i in range(len(chain.elements)):
        key = chain.name_at(i)
        if key is None or key in local or not scope.defines(key):
            continue
        around = chain.rels[max(i - 1, 0) : i + 1]
        if i == 0 and around[0] == "=":
            continue
        raise Unreadable(
            f"'{key}' in '{chain.text}' is compared, but its value comes from an earlier "
            f"step: a redefinition or a condition, not a claim about that value"
        )


def _refuse_substitutions(scope: Scope, chain: Chain) -> None:
    """``n^3 = 6^3`` puts 6 for ``n``: when ``n`` has another value from before, the step is
    about another ``n`` (``for n = 6``, lost in a sentence the step does not show). A formula
    over names without value (``Area₁ + Area₂ − Area₃ = 9 + 12 + 9``) must have the shape of the
    numbers it is equated to, or the claim read from the numbers is not the step's."""
    env = scope.numbers()
    for a, b in zip(chain.elements, chain.elements[1:], strict=False):
        for formula, numbers in ((a, b), (b, a)):
            names = set(variables(formula))
            if not names or any(True for _ in variables(numbers)):
                continue
            if isinstance(formula, Var):
                continue  # a bare name: a label or a comparison, decided elsewhere
            binding = substitution(formula, numbers)
            unknown = {k for k in names if not scope.defines(k)}
            if binding is None:
                # only a formula of operators has a shape to compare (``|B| = 60 / 2`` has none)
                operators = isinstance(formula, Bin)
                if unknown and operators and not any(True for _ in numerals(formula)):
                    raise Unreadable(
                        f"the formula in '{chain.text}' does not have the shape of the numbers "
                        f"equated to it"
                    )
                continue
            for key, value in binding.items():
                if not scope.defines(key):
                    continue
                resolved = scope.resolve(Var(key))
                given, put = evaluate(resolved, env), evaluate(value, {})
                same = given == put if given is not None and put is not None else (
                    substitution(scope.value_of(resolved), value) == {}
                )
                if not same:
                    raise Unreadable(
                        f"'{chain.text}' puts a number for '{key}' that is not the value an "
                        f"earlier step gave it: it is about another '{key}'"
                    )


def _read_chain(scope: Scope, chain: Chain, checked: bool = False) -> list[Claim]:
    """The claims of one chain; the names it defines enter ``scope`` afterwards.

    A bare name first in the chain and followed by ``=`` names what comes next (``Total =
    2 + 1 = 3``), as does a bare unknown name between two ``=``; neither is claimed about.
    In the ``checked`` step, naming a value of a name an earlier equation constrains
    (``p = 48`` after ``0.75p = 36``) is refused: it is a claim that cannot be checked. In the
    context such a value was solved for, not given (it may hold in one case only, ``r = 5`` or
    ``r = -1``), so the name stays unknown and a later claim over it is refused.
    """
    labels = [i for i in range(len(chain.elements)) if _is_label(scope, chain, i, checked)]
    formulas = [i for i in range(len(chain.elements)) if _is_formula(scope, chain, i)]
    kept = [i for i in range(len(chain.elements)) if i not in labels and i not in formulas]
    claims = []
    for a, b in zip(kept, kept[1:], strict=False):
        rels = [r for r in chain.rels[a:b] if r != "="] or ["="]
        claims.append(
            Claim(scope.resolve(chain.elements[a]), rels[0], scope.resolve(chain.elements[b]))
        )
    if kept:
        value = chain.elements[kept[0]]
        for i in labels:
            key = chain.name_at(i)
            assert key is not None
            if scope.constrained(key):
                scope.solve(key)
            else:
                scope.define(key, value)
    return claims


def _is_label(scope: Scope, chain: Chain, i: int, checked: bool) -> bool:
    key = chain.name_at(i)
    if key is None:
        return False
    around = chain.rels[max(i - 1, 0) : i + 1]
    if any(r != "=" for r in around):
        return False
    if checked and scope.constrained(key):
        raise Unreadable(
            f"'{key}' is constrained by an earlier equation that does not give its value: "
            f"'{chain.text}' is a claim about it that cannot be checked"
        )
    return i == 0 or not scope.defines(key)


def _is_formula(scope: Scope, chain: Chain, i: int) -> bool:
    """``Distance = Speed × Time = 18 × 5``: a formula over names with no value, without a
    numeral of its own, equated to the rest; it is not claimed about."""
    element = chain.elements[i]
    if chain.name_at(i) is not None or any(True for _ in numerals(element)):
        return False
    if all(scope.defines(key) for key in variables(element)):
        return False
    around = chain.rels[max(i - 1, 0) : i + 1]
    return all(r == "=" for r in around)


def _negate(claims: list[Claim]) -> list[Claim]:
    if len(claims) != 1:
        raise Unreadable("'it is false that' before several claims is outside the fragment")
    claim = claims[0]
    return [Claim(claim.left, _NEGATED[claim.rel], claim.right)]


def _statement(scope: Scope, claims: list[Claim]) -> str:
    trees = [t for c in claims for t in (c.left, c.right)]
    definitions = scope.needed(trees)
    real = any(is_real(t) for t in trees) or any(is_real(d.value) for d in definitions)
    hypotheses = [
        Hypothesis(d.ident, f"h{str(i).translate(_SUBSCRIPTS)}", d.value)
        for i, d in enumerate(definitions)
    ]
    return theorem("ℝ" if real else "ℚ", hypotheses, [(c.left, c.rel, c.right) for c in claims])
