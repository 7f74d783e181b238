"""Finding the relations a step states: chains ``e₀ r₁ e₁ r₂ e₂ …`` read from its text.

A step is cut into clauses at sentence punctuation. In a clause with a relation symbol, runs
of words are read by position: after a number they are units (``48 clips``) and dropped; next
to ``=`` or an operator they name a quantity (``Total books = 2 + 1``); elsewhere they are
prose and end the chain. Anything that could change a number's meaning next to a chain
(``half of 12 = 6``, ``2 dozen``, ``not``, ``≈``, an unknown symbol) makes the step
unreadable rather than read wrongly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from afcheck_arith import words as W
from afcheck_arith.expr import Expr, ParseError, Var, parse
from afcheck_arith.tokens import Kind, ScanError, Token, scan
from afcheck_arith.values import evaluate


class Unreadable(ValueError):
    """The step has a claim the formaliser cannot read literally; ``str`` is the reason."""


@dataclass(frozen=True)
class Chain:
    """``elements[0] rels[0] elements[1] rels[1] …`` as written in the step."""

    elements: tuple[Expr, ...]
    rels: tuple[str, ...]
    text: str
    """The chain as read, for messages."""
    refs: frozenset[int] = frozenset()
    """The step's numerals (:attr:`Token.ref`) the chain reads."""
    conditional: bool = False
    """A condition word stands before it in its clause (``for n = 6``, ``if x = 2``): it may
    bind a name for the step, never claim."""
    texts: tuple[str, ...] = ()
    """Each element as read, for messages."""
    spelled: bool = False
    """Part of it was read from words: a number word, ``times``, ``of``, ``percent``,
    ``equals``, ``divided by``."""

    def name_at(self, index: int) -> str | None:
        """The quantity's name when element ``index`` is a bare name, else ``None``."""
        element = self.elements[index]
        return element.key if isinstance(element, Var) else None


@dataclass(frozen=True)
class Number:
    """A numeral of the step, wherever it stands."""

    ref: int
    text: str
    value: Fraction
    percent: bool
    """Written with ``%``: it may restate ``value / 100``."""
    concluding: bool
    """It stands where a step concludes: after a relation of its sentence, or in a sentence
    that says ``so``, ``therefore`` … before it."""
    clause: str
    """The clause around it (between punctuation), for messages."""
    unit: tuple[str, ...] = ()
    """The two words written right after it (``green hats``), when there are two."""


@dataclass(frozen=True)
class Reading:
    """What a step says: its relation chains, and every numeral it writes."""

    chains: tuple[Chain, ...]
    numbers: tuple[Number, ...]
    bound: frozenset[str] = frozenset()
    """Names the step binds or solves for (:func:`bound_names`)."""
    expressions: tuple[Expression, ...] = ()
    """Arithmetic written outside every relation (``calculate \\(16 + 21\\):``)."""


@dataclass(frozen=True)
class Expression:
    """An expression with an operator that no relation of its clause contains."""

    tree: Expr
    text: str
    """The expression as read, for messages."""
    refs: frozenset[int] = frozenset()
    """The step's numerals (:attr:`Token.ref`) it reads."""


@dataclass(slots=True)
class _Item:
    """A token after the prose around it has been read."""

    kind: Kind
    text: str
    spaced: bool = True
    math: bool = False
    unit: str = ""
    """For a ``NUM``: ``$``, or the first word after it (singular), e.g. ``minute``."""
    words: tuple[str, ...] = ()
    """For ``SEP`` items made of prose: the words, to look for modifiers."""
    ref: int = -1
    spelled: bool = False
    """Read from words (``times``, ``three``, ``equals``)."""


_MATH_END = {Kind.NUM, Kind.RP, Kind.PCT, Kind.FACT, Kind.CONST, Kind.WORD}
_MATH_START = {Kind.NUM, Kind.LP, Kind.FUNC, Kind.CONST, Kind.WORD, Kind.ABS}
_NEIGHBOUR_WORDS = 3


def read_chains(text: str) -> list[Chain]:
    """Every relation chain of ``text``, in order; raises :class:`Unreadable`."""
    return list(read_step(text).chains)


def read_step(text: str) -> Reading:
    """The chains and numerals of ``text``; raises :class:`Unreadable`."""
    try:
        tokens = scan(text)
    except ScanError as error:
        raise Unreadable(str(error)) from None
    sentences = _refuse_whole(tokens, alternatives=True)
    concluding = _concluding(sentences)
    chains: list[Chain] = []
    numbers: list[Number] = []
    expressions: list[Expression] = []
    for clause in _clauses(tokens):
        _refuse_comparison(clause)
        if any(t.kind is Kind.REL for t in clause):
            chains.extend(_conditional(clause, _read_clause(clause)))
        else:
            expressions.extend(_expressions(clause))
        numbers.extend(_numbers(clause, concluding))
    return Reading(tuple(chains), tuple(numbers), bound_names(tokens), tuple(expressions))


_NUMERIC = {Kind.NUM, Kind.OP, Kind.LP, Kind.RP, Kind.PCT, Kind.FACT, Kind.FUNC, Kind.CONST}
_OPERAND_END = {Kind.NUM, Kind.RP, Kind.PCT, Kind.FACT, Kind.CONST}
_OPERAND_START = {Kind.NUM, Kind.LP, Kind.FUNC, Kind.CONST}


def _expressions(clause: Sequence[Token]) -> list[Expression]:
    """The runs of numbers and operators of a clause without a relation that hold a binary
    operator (``16 + 21``, ``1/3`` in ``1/3 of the babies``). A run that does not parse is
    passed over, as prose."""
    found: list[Expression] = []
    run: list[Token] = []
    for token in [*clause, None]:
        if token is not None and token.kind in _NUMERIC:
            run.append(token)
            continue
        run = _trim_brackets(run)
        binary = any(
            a.kind in _OPERAND_END and b.kind is Kind.OP and c.kind in _OPERAND_START
            for a, b, c in zip(run, run[1:], run[2:], strict=False)
        )
        if binary and not _range(run) and not _fraction(run):
            try:
                tree = parse(run)
            except ParseError:
                tree = None
            if tree is not None:
                refs = frozenset(t.ref for t in run if t.kind is Kind.NUM)
                found.append(Expression(tree, " ".join(t.text for t in run), refs))
        run = []
    return found


def _range(run: Sequence[Token]) -> bool:
    """``45-54`` in prose, written without blanks: a range or a label, not a difference."""
    return any(
        t.kind is Kind.OP and t.text == "-" and not t.math and not t.spaced
        and not run[k + 1].spaced
        for k, t in enumerate(run[:-1])
    )


def _fraction(run: Sequence[Token]) -> bool:
    """``1/3``, ``\\frac{3}{16}``: one number written as a fraction of two numerals."""
    kinds = [t.kind for t in run if t.kind not in (Kind.LP, Kind.RP)]
    ops = [t.text for t in run if t.kind is Kind.OP]
    return kinds == [Kind.NUM, Kind.OP, Kind.NUM] and ops == ["/"]


def _trim_brackets(run: list[Token]) -> list[Token]:
    """``run`` without the brackets at its ends that have no pair inside it."""
    while run and run[0].kind is Kind.LP and _balance(run) > 0:
        run = run[1:]
    while run and run[-1].kind is Kind.RP and _balance(run) < 0:
        run = run[:-1]
    return run


def _balance(run: Sequence[Token]) -> int:
    return sum(1 if t.kind is Kind.LP else -1 if t.kind is Kind.RP else 0 for t in run)


@dataclass(frozen=True)
class Parts:
    """What can be read of a text clause by clause: the chains of the readable clauses, and why
    each other clause with a relation could not be read."""

    chains: tuple[Chain, ...]
    unread: tuple[str, ...]


def read_parts(text: str) -> Parts:
    """Like :func:`read_step`, but a clause that cannot be read is set aside with its reason
    instead of making the whole text unreadable. What concerns the whole text (LaTeX it
    cannot delimit, ranges, quantifiers, integer division, alternatives) still does."""
    try:
        tokens = scan(text)
        _refuse_whole(tokens, alternatives=True)
    except ScanError as error:
        return Parts((), (str(error),))
    except Unreadable as error:
        return Parts((), (str(error),))
    chains: list[Chain] = []
    unread: list[str] = []
    for clause in _clauses(tokens):
        if not any(t.kind is Kind.REL for t in clause):
            continue
        try:
            _refuse_comparison(clause)
            chains.extend(_conditional(clause, _read_clause(clause)))
        except Unreadable as error:
            unread.append(str(error))
    return Parts(tuple(chains), tuple(unread))


def bound_names(tokens: Sequence[Token]) -> frozenset[str]:
    """Names the text binds, quantifies or solves for (``for n = 6``, ``solve for n``, ``let
    x``, ``find k``): within it they never take a value from before it."""
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token.kind is not Kind.WORD or token.text.lower() not in W.BINDERS:
            continue
        for after in tokens[i + 1 : i + 4]:
            if after.kind is Kind.WORD and after.text.lower() in W.BINDERS | W.ARTICLES:
                continue
            if after.kind is Kind.WORD and (after.math or len(after.text) == 1):
                found.add(_key([after.text]))
            break
    return frozenset(found)


@functools.lru_cache(maxsize=4096)
def bound_in(text: str) -> frozenset[str]:
    """:func:`bound_names` of a text; nothing when it cannot be scanned. Memoised, as
    :func:`read_chains_leniently`, with which an earlier step is read."""
    try:
        return bound_names(scan(text))
    except ScanError:
        return frozenset()


def _conditional(clause: Sequence[Token], chains: list[Chain]) -> list[Chain]:
    """Mark the chains of a clause that opens with a condition word (``For \\(n \\geq 6\\)``);
    a condition that is not a plain ``name = value`` is a range, never a claim."""
    words = [t.text.lower() for t in clause if t.kind is Kind.WORD and not t.math][:2]
    while words and words[0] in W.CONNECTIVES:
        words = words[1:]
    found = words[0] if words and words[0] in W.CONDITIONS else None
    if found is None or clause[0].kind is not Kind.WORD:
        return chains
    for chain in chains:
        if any(r != "=" for r in chain.rels):
            raise Unreadable(
                f"'{chain.text}' after '{found}' is a condition or a range, not a claim"
            )
    return [replace(c, conditional=True) for c in chains]


def _refuse_whole(tokens: Sequence[Token], alternatives: bool) -> list[list[Token]]:
    """Refuse what makes a whole text unreadable, in this order: ranges, quantifiers, integer
    division and (when ``alternatives``) alternatives. Returns the text's sentences, which all
    but the first are read from."""
    _refuse_ranges(tokens)
    sentences = _sentences(tokens)
    related = [s for s in sentences if any(t.kind is Kind.REL for t in s)]
    _refuse_quantifiers(related)
    _refuse_integer_division(related)
    if alternatives:
        _refuse_alternatives(related)
    return sentences


def _refuse_alternatives(related: Sequence[list[Token]]) -> None:
    """``r = 5 or r = -1``: relations joined by ``or`` are alternatives, not claims.
    ``related`` are the text's sentences that have a relation."""
    for sentence in related:
        rels = [i for i, t in enumerate(sentence) if t.kind is Kind.REL]
        between = sentence[rels[0] + 1 : rels[-1]]
        found = next((t.text for t in between if t.text.lower() in W.ALTERNATIVES), None)
        if found is not None:
            raise Unreadable(f"'{found}' next to a claim: alternatives are outside the fragment")


def written_values(*texts: str) -> set[Fraction]:
    """Every number written in ``texts``, in digits or as a number word."""
    return set().union(*map(_values_in, texts))


@functools.lru_cache(maxsize=4096)
def _values_in(text: str) -> frozenset[Fraction]:
    # Memoised: the problem and the earlier steps are the givens of every later step.
    try:
        tokens = scan(text)
    except ScanError:
        return frozenset()
    found: set[Fraction] = set()
    for token in tokens:
        if token.kind is Kind.NUM and token.value is not None:
            found.add(token.value)
        elif token.kind is Kind.WORD and token.text.lower() in W.NUMBER_WORDS:
            found.add(W.NUMBER_WORDS[token.text.lower()])
    return frozenset(found)


def written_expressions(*texts: str) -> set[Fraction]:
    """The values of the computations written in ``texts`` (runs of numbers with a binary
    operator, as :attr:`Reading.expressions` collects them, in clauses with or without a
    relation): what a step may restate in another form (``92 - 45 \\div (3 \\times 5) - 5^2``
    rewritten ``92 - 45 \\div 15 - 5^2``)."""
    return set().union(*map(_expression_values_in, texts))


@functools.lru_cache(maxsize=4096)
def _expression_values_in(text: str) -> frozenset[Fraction]:
    # Memoised, as _values_in.
    try:
        tokens = scan(text)
    except ScanError:
        return frozenset()
    found: set[Fraction] = set()
    for clause in _clauses(tokens):
        for expression in _expressions(clause):
            value = evaluate(expression.tree, {})
            if value is not None:
                found.add(value)
    return frozenset(found)


def _numbers(clause: Sequence[Token], concluding: set[int]) -> list[Number]:
    if not any(t.kind is Kind.NUM for t in clause):
        return []
    shown = " ".join(t.text for t in clause)
    out = []
    for i, token in enumerate(clause):
        if token.kind is Kind.NUM and token.value is not None:
            before = clause[i - 1].text.lower() if i > 0 else ""
            if before in W.LABELS or (before in W.PERIODS and i == len(clause) - 1):
                continue  # ``Step 2``, ``Day 1:``: a label, not a quantity
            percent = i + 1 < len(clause) and clause[i + 1].kind is Kind.PCT
            after = clause[i + 1 : i + 3]
            unit = tuple(t.text.lower() for t in after if t.kind is Kind.WORD and not t.math)
            out.append(
                Number(
                    token.ref,
                    token.text,
                    token.value,
                    percent,
                    token.ref in concluding,
                    shown,
                    unit if len(unit) == 2 else (),
                )
            )
    return out


def _concluding(sentences: Sequence[list[Token]]) -> set[int]:
    """The refs of the numerals in concluding position (see :attr:`Number.concluding`)."""
    found: set[int] = set()
    for sentence in sentences:
        concluded = False
        for token in sentence:
            if token.kind is Kind.REL or token.text.lower() in W.CONCLUSIONS:
                concluded = True
            elif token.kind is Kind.NUM and concluded:
                found.add(token.ref)
    return found


def _difference_before(clause: Sequence[Token], end: int) -> bool:
    """Whether a number stands just before a comparative word before ``end`` (``5 more``,
    ``two feet shorter``, ``45% more``)."""
    for i in range(end):
        token = clause[i]
        is_number = token.kind is Kind.NUM or token.text.lower() in W.NUMBER_WORDS
        if not is_number:
            continue
        following = [t.text.lower() for t in clause[i + 1 : i + 4] if t.kind is Kind.WORD]
        if any(w in W.DIFFERENCES or w.endswith("er") for w in following[:2]):
            return True
    return False


def _refuse_comparison(clause: Sequence[Token]) -> None:
    """``which is less than the original $200``, ``at least 5``: an order between quantities
    stated in words. ``5 more sticks than red`` is a difference given, not a comparison."""
    lowered = [t.text.lower() if t.kind is Kind.WORD else "" for t in clause]
    for i, word in enumerate(lowered):
        if word == "than":
            if not _difference_before(clause, i):
                shown = " ".join(t.text for t in clause[max(i - 2, 0) : i + 1])
                raise Unreadable(f"a comparison in words ('{shown} …') is outside the fragment")
        elif word in W.COMPARISONS or (word in ("least", "most") and lowered[i - 1 : i] == ["at"]):
            raise Unreadable(f"a comparison in words ('{clause[i].text}') is outside the fragment")


def _refuse_ranges(tokens: Sequence[Token]) -> None:
    """``n = 0, 1, \\dots, 9`` or ``x = 2, 3``: values listed, not one value claimed."""
    relations = []
    for i, token in enumerate(tokens):
        kind = token.kind
        if kind is Kind.REL:
            relations.append(i)
        elif kind is Kind.UNKNOWN and token.text == "!=":
            raise Unreadable(
                "'!=' right after a number: a factorial ('5! = 120') or '≠' ('5 ≠ 120')?"
            )
        elif kind is Kind.ELLIPSIS:
            raise Unreadable(
                f"enumeration '{token.text}': a range of values is outside the fragment"
            )
    for i in relations:
        token = tokens[i]
        j = _skip_sign(tokens, i + 1)
        if j + 2 < len(tokens) and tokens[j].kind is Kind.NUM and tokens[j + 1].text == ",":
            k = _skip_sign(tokens, j + 2)
            if k < len(tokens) and tokens[k].kind is Kind.NUM and tokens[k].math:
                raise Unreadable(
                    f"a list of values after '{token.text}' "
                    f"('{tokens[j].text}, {tokens[k].text}'): outside the fragment"
                )


def _skip_sign(tokens: Sequence[Token], i: int) -> int:
    return i + 1 if i < len(tokens) and tokens[i].text == "-" else i


def _refuse_quantifiers(related: Sequence[list[Token]]) -> None:
    """A quantifier in a sentence with a relation (``the only n < 10 with …``, ``for all x``)
    makes the relation a statement about many values; the fragment has one value per name.
    ``related`` are the text's sentences that have a relation."""
    for sentence in related:
        if not any(t.kind is Kind.WORD and t.math for t in sentence):
            continue  # quantifiers over objects (``for each gift``) bind no name of a claim
        lowered = [t.text.lower() for t in sentence if t.kind is Kind.WORD]
        found = next((w for w in lowered if w in W.QUANTIFIERS), None)
        if found is None:
            # The first phrase in the text: the reason names the same one in every process.
            found = next((f"{a} {b}" for a, b in zip(lowered, lowered[1:], strict=False)
                          if (a, b) in W.QUANTIFIER_PHRASES), None)
        if found is not None:
            raise Unreadable(f"quantifier '{found}' next to a claim is outside the fragment")


def _refuse_integer_division(related: Sequence[list[Token]]) -> None:
    """``2863 ÷ 1344 = 2 (quotient)``: a division next to ``quotient`` or ``remainder`` is the
    integer division, which the fragment's ``/`` is not. ``related`` are the text's sentences
    that have a relation."""
    for sentence in related:
        if not any(t.kind is Kind.OP and t.text == "/" for t in sentence):
            continue
        found = next((t.text for t in sentence if t.text.lower() in W.INTEGER_DIVISION), None)
        if found is not None:
            raise Unreadable(
                f"'{found}' next to a division: integer division is outside the fragment"
            )


def _sentences(tokens: Sequence[Token]) -> list[list[Token]]:
    """The tokens between sentence ends, empty runs left out."""
    sentences: list[list[Token]] = []
    sentence: list[Token] = []
    for token in tokens:
        if token.kind is Kind.SEP and token.text in _SENTENCE_ENDS:
            if sentence:
                sentences.append(sentence)
                sentence = []
        else:
            sentence.append(token)
    if sentence:
        sentences.append(sentence)
    return sentences


_SENTENCE_ENDS = {".", "!", "?", "\n", ";"}


@functools.lru_cache(maxsize=4096)
def read_chains_leniently(text: str) -> tuple[Chain | frozenset[str], ...]:
    """Like :func:`read_chains`, clause by clause: an unreadable clause gives the set of its
    words instead (any name it mentions may have been redefined there). Memoised by text: a
    step is read so again as the context of every later step of its chain."""
    try:
        tokens = scan(text)
        _refuse_whole(tokens, alternatives=False)
    except (ScanError, Unreadable):
        found = set(re.findall(r"[^\W\d_]+", text))
        return (frozenset(found | {w.lower() for w in found}),)
    out: list[Chain | frozenset[str]] = []
    for clause in _clauses(tokens):
        if not any(t.kind is Kind.REL for t in clause):
            continue
        try:
            out.extend(_read_clause(clause))
        except Unreadable:
            out.append(frozenset(_clause_words(clause)))
    return tuple(out)


def _clause_words(clause: Sequence[Token]) -> set[str]:
    found: set[str] = set()
    for token in clause:
        if token.kind is Kind.WORD:
            found.add(token.text)
            found.add(token.text.lower())
    return found


def _clauses(tokens: Sequence[Token]) -> list[list[Token]]:
    """The tokens between separators, empty runs left out."""
    clauses: list[list[Token]] = []
    clause: list[Token] = []
    for token in tokens:
        if token.kind is Kind.SEP:
            if clause:
                clauses.append(clause)
                clause = []
        else:
            clause.append(token)
    if clause:
        clauses.append(clause)
    return clauses


def _read_clause(clause: list[Token]) -> list[Chain]:
    _refuse_unreadable(clause)
    items = _rewrite_words(clause)
    items = _fix_parens(items)
    items = _read_word_runs(items)
    items = _implicit_products(items)
    return _chains(items)


def _refuse_unreadable(clause: Sequence[Token]) -> None:
    for token in clause:
        kind = token.kind
        if kind is Kind.UNKNOWN:
            raise Unreadable(f"unknown symbol '{token.text}' next to a claim")
        if kind is Kind.REL:
            if token.text == "≈":
                raise Unreadable("approximate relation '≈': only exact claims can be read")
        elif kind is Kind.WORD:
            lowered = token.text.lower()
            if lowered in W.NEGATIONS:
                raise Unreadable(f"negation '{token.text}' in a claim is outside the fragment")
            if lowered in W.FUNCTIONS:
                raise Unreadable(f"unknown symbol '{token.text}'")


# ------------------------------------------------------------------------------------------
# Spelled numbers, operators and relations
# ------------------------------------------------------------------------------------------


def _item(token: Token) -> _Item:
    return _Item(token.kind, token.text, token.spaced, token.math, token.unit, ref=token.ref)


def _rewrite_words(clause: Sequence[Token]) -> list[_Item]:
    items = [_item(t) for t in clause]
    # Each rewrite below turns words into symbols, so a word no token of the clause writes
    # cannot take part in a later one: a rewrite for words the clause lacks is skipped.
    written = {t.text for t in clause if t.kind is Kind.WORD}
    lowered = {w.lower() for w in written}
    if not lowered.isdisjoint(_RELATION_PHRASES):
        items = _phrases(items, _RELATION_PHRASES, Kind.REL)
    if not lowered.isdisjoint(_OPERATOR_PHRASES):
        items = _phrases(items, _OPERATOR_PHRASES, Kind.OP)
    for i, item in enumerate(items if "percent" in lowered else ()):
        word = item.text.lower()
        if item.kind is Kind.WORD and not item.math and word in ("percent", "%"):
            if i > 0 and items[i - 1].kind is Kind.NUM:
                item.kind, item.text, item.spelled = Kind.PCT, "%", True
    for i, item in enumerate(items if not lowered.isdisjoint(W.NUMBER_WORDS) else ()):
        if item.kind is Kind.WORD and item.text.lower() in W.NUMBER_WORDS and _operand_at(items, i):
            item.kind, item.text = Kind.NUM, str(W.NUMBER_WORDS[item.text.lower()])
            item.spelled = True
    for i, item in enumerate(items if "of" in lowered else ()):
        if item.kind is Kind.WORD and item.text.lower() == "of" and _scales(items, i):
            item.kind, item.text, item.spelled = Kind.OP, "*", True
    for i, item in enumerate(items if not written.isdisjoint(W.OPERATOR_WORDS) else ()):
        if item.kind is Kind.WORD and not item.math and item.text in W.OPERATOR_WORDS:
            after = items[i + 1] if i + 1 < len(items) else None
            if _operand_before(items, i) and after is not None and after.kind is Kind.NUM:
                item.kind, item.text = Kind.OP, W.OPERATOR_WORDS[item.text]
                item.spelled = True
    return items


def _operand_at(items: Sequence[_Item], i: int) -> bool:
    """A number word is read as a number only as an operand (``three times 4``)."""
    neighbours = [items[j] for j in (i - 1, i + 1) if 0 <= j < len(items)]
    return any(
        n.kind is Kind.OP or (n.kind is Kind.WORD and n.text.lower() in W.OPERATOR_WORDS)
        for n in neighbours
    )


def _operand_before(items: Sequence[_Item], i: int) -> bool:
    """An operand ends before ``items[i]``, maybe followed by its units (``20 fish x 0.5``)."""
    j = i - 1
    while j >= 0 and i - j <= 2 and items[j].kind is Kind.WORD and not items[j].math:
        j -= 1
    return j >= 0 and _ends_operand(items[j])


def _scales(items: Sequence[_Item], i: int) -> bool:
    """``25% of 80``, ``1/3 of 18``: ``of`` after a percentage or fraction is a product."""
    if i + 1 >= len(items) or items[i + 1].kind not in {Kind.NUM, Kind.LP}:
        return False
    before = items[i - 1] if i > 0 else None
    if before is None:
        return False
    if before.kind in {Kind.PCT, Kind.RP}:
        return True
    return before.kind is Kind.NUM and i >= 2 and items[i - 2].text == "/"


def _ends_operand(item: _Item | None) -> bool:
    return item is not None and item.kind in {Kind.NUM, Kind.RP, Kind.PCT, Kind.FACT}


_PhraseIndex = Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]
"""Phrases by their first word (:func:`_index`)."""


def _phrases(items: list[_Item], phrases: _PhraseIndex, kind: Kind) -> list[_Item]:
    out: list[_Item] = []
    i = 0
    while i < len(items):
        item = items[i]
        for phrase, symbol in (
            phrases.get(item.text.lower(), ()) if item.kind is Kind.WORD else ()
        ):
            window = items[i : i + len(phrase)]
            if len(window) == len(phrase) and all(
                it.kind is Kind.WORD and it.text.lower() == w
                for it, w in zip(window, phrase, strict=True)
            ):
                out.append(_Item(kind, symbol, item.spaced, item.math, spelled=True))
                i += len(phrase)
                break
        else:
            out.append(item)
            i += 1
    return out


def _index(phrases: Mapping[tuple[str, ...], str]) -> _PhraseIndex:
    """The phrases by their first word, each word's in the order of ``phrases``: the first
    phrase that matches at a word wins, and only those starting with it can."""
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, symbol in phrases.items():
        index.setdefault(phrase[0], []).append((phrase, symbol))
    return {first: tuple(found) for first, found in index.items()}


_RELATION_PHRASES = _index(W.RELATION_PHRASES)
_OPERATOR_PHRASES = _index(W.OPERATOR_PHRASES)


# ------------------------------------------------------------------------------------------
# Parentheses
# ------------------------------------------------------------------------------------------


def _fix_parens(items: list[_Item]) -> list[_Item]:
    """Drop prose asides ``(red)``; brackets around a whole claim or unmatched ones are
    boundaries, since no expression can span them."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    boundary: set[int] = set()
    for i, item in enumerate(items):
        if item.kind is Kind.LP:
            stack.append(i)
        elif item.kind is Kind.RP:
            if stack:
                pairs[stack.pop()] = i
            else:
                boundary.add(i)
    boundary.update(stack)
    if boundary:
        raise Unreadable("a bracket without its pair in a claim: part of it could not be read")
    dropped: set[int] = set()
    for start, end in pairs.items():
        inside = items[start + 1 : end]
        if any(it.kind is Kind.REL for it in inside):
            boundary.update((start, end))
        elif inside and all(it.kind is Kind.WORD and not it.math for it in inside):
            back = start - 1
            while back >= 0 and items[back].kind is Kind.WORD and not items[back].math:
                back -= 1  # ``125 cents (from quarters)``: the units of a value, then the aside
            before = items[back] if back >= 0 else None
            after = items[end + 1] if end + 1 < len(items) else None
            if not _ends_value(before) and (
                (before is not None and before.kind in {Kind.OP, Kind.REL, Kind.LP, Kind.ABS})
                or (after is not None and after.kind is Kind.OP)
            ):
                shown = " ".join(it.text for it in inside)
                raise Unreadable(f"'({shown})' stands where a number should: it cannot be read")
            dropped.update(range(start, end + 1))
    out: list[_Item] = []
    for i, item in enumerate(items):
        if i in dropped:
            continue
        out.append(_Item(Kind.SEP, " ") if i in boundary else item)
    return out


# ------------------------------------------------------------------------------------------
# Runs of words: units, names, prose
# ------------------------------------------------------------------------------------------


def _read_word_runs(items: list[_Item]) -> list[_Item]:
    out: list[_Item] = []
    i = 0
    while i < len(items):
        item = items[i]
        if item.kind is not Kind.WORD and not _is_unit_rate(out, items, i):
            out.append(item)
            i += 1
            continue
        if _is_unit_rate(out, items, i):
            i += 1  # ``$5/bag``: the ``/`` and the unit after it say nothing about the value
            while i < len(items) and items[i].kind is Kind.WORD and not items[i].math:
                i += 1
            continue
        if item.math or _is_variable_after_number(out, item):
            out.append(_Item(Kind.WORD, _key([item.text]), item.spaced, True))
            i += 1
            continue
        j = i
        while j < len(items) and items[j].kind is Kind.WORD and not items[j].math:
            j += 1
        unit_power = j < len(items) and items[j].kind is Kind.OP and items[j].text == "^"
        if unit_power and len(items[j - 1].text) > 1:
            raise Unreadable(f"a power of the word '{items[j - 1].text}': a unit, not a number")
        run = [it.text for it in items[i:j]]
        before = out[-1] if out else None
        j = _compound_unit(items, j) if _ends_operand(before) else j
        run = [it.text for it in items[i:j] if it.kind is Kind.WORD]
        after = items[j] if j < len(items) else None
        if _ends_value(before) and run[0].lower() not in W.STOP:
            assert before is not None
            before.unit = before.unit or _unit(items[i:j])
        out.extend(_classify_run(run, before, after))
        i = j
    return out


def _ends_value(item: _Item | None) -> bool:
    """A unit written after ``item`` belongs to the value it ends (``48 clips``, ``\\frac{1}{2}
    inch``)."""
    return item is not None and item.kind in {Kind.NUM, Kind.RP}


def _unit(run: list[_Item]) -> str:
    """The unit a run of words after a number starts with: ``hour`` for ``3 hours``,
    ``hour/week`` for ``8 hours/week`` (a rate measures something else than hours)."""
    unit = _singular(run[0].text.lower())
    for k in range(1, len(run) - 1):
        if run[k].kind is Kind.OP and run[k].text == "/" and run[k + 1].kind is Kind.WORD:
            return f"{unit}/{_singular(run[k + 1].text.lower())}"
    return unit


_IRREGULAR = {"feet": "foot", "inches": "inch", "pennies": "penny", "cents": "cent"}


def _singular(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _is_unit_rate(out: list[_Item], items: list[_Item], i: int) -> bool:
    """``items[i]`` is the ``/`` of ``5/bag``: a number over a word of prose."""
    return (
        bool(out)
        and out[-1].kind is Kind.NUM
        and items[i].kind is Kind.OP
        and items[i].text == "/"
        and i + 1 < len(items)
        and items[i + 1].kind is Kind.WORD
        and not items[i + 1].math
        and len(items[i + 1].text) > 1
    )


def _compound_unit(items: list[_Item], j: int) -> int:
    """Extend a unit run over ``/ word`` (``10 yards/minute``, ``$15 per hour``)."""
    while (
        j + 1 < len(items)
        and items[j].kind is Kind.OP
        and items[j].text == "/"
        and items[j + 1].kind is Kind.WORD
        and not items[j + 1].math
    ):
        j += 2
        while j < len(items) and items[j].kind is Kind.WORD and not items[j].math:
            j += 1
    return j


def _is_variable_after_number(out: list[_Item], item: _Item) -> bool:
    """``2x``: a single letter written against a number is a variable, never a unit."""
    return bool(out) and out[-1].kind is Kind.NUM and not item.spaced and len(item.text) == 1


def _classify_run(run: list[str], before: _Item | None, after: _Item | None) -> list[_Item]:
    lowered = [w.lower() for w in run]
    after_math = before is not None and before.kind in _MATH_END - {Kind.WORD}
    next_kind = after.kind if after is not None else None
    if after_math:
        return _after_number(run, lowered, next_kind)
    operand_before = before is not None and before.kind in {Kind.REL, Kind.OP, Kind.LP, Kind.ABS}
    operand_after = next_kind in {Kind.REL, Kind.OP, Kind.RP}
    if operand_after:
        cut = _last_stop(lowered)
        prose, name = run[: cut + 1], run[cut + 1 :]
        return _prose(prose) + _name(name)
    if operand_before:
        cut = _first_stop(lowered)
        name, prose = run[:cut], run[cut:]
        return _name(name) + _prose(prose)
    return _prose(run)


def _after_number(run: list[str], lowered: list[str], next_kind: Kind | None) -> list[_Item]:
    """Words after a number: units, then maybe prose, then maybe the next claim's name."""
    first_stop = _first_stop(lowered)
    units, rest = run[:first_stop], run[first_stop:]
    if lowered[0] in W.UNITS_MODIFIERS:
        raise Unreadable(f"'{run[0]}' after a number changes what it means")
    if not rest:
        if next_kind in {None, Kind.OP, Kind.REL, Kind.RP, Kind.ABS}:
            return []  # units, transparent to the expression (``12 pints + 3 pints``)
        return _prose(units)
    if next_kind in {Kind.REL, Kind.OP, Kind.RP}:
        cut = _last_stop([w.lower() for w in rest])
        return _prose(rest[: cut + 1]) + _name(rest[cut + 1 :])
    return _prose(rest)


def _first_stop(lowered: list[str]) -> int:
    return next((k for k, w in enumerate(lowered) if w in W.STOP), len(lowered))


def _last_stop(lowered: list[str]) -> int:
    return max((k for k, w in enumerate(lowered) if w in W.STOP), default=-1)


def _prose(run: list[str]) -> list[_Item]:
    if not run:
        return []
    return [_Item(Kind.SEP, " ".join(run), words=tuple(w.lower() for w in run))]


def _name(run: list[str]) -> list[_Item]:
    # ``for n = 6``, ``let the total = …``: the binding word is not part of the name
    while len(run) > 1 and run[0].lower() in W.ARTICLES | W.BINDERS:
        run = run[1:]
    if not run or (len(run) == 1 and run[0].lower() in W.ARTICLES | W.STOP):
        return _prose(run)
    return [_Item(Kind.WORD, _key(run), math=False)]


def _key(run: list[str]) -> str:
    """The name as a key: one letter keeps its case (``B``), words become snake case."""
    if len(run) == 1 and len(run[0]) == 1:
        return run[0]
    return "_".join(re.sub(r"[^\w]", "", w.lower()) for w in run)


# ------------------------------------------------------------------------------------------
# Implicit products and chains
# ------------------------------------------------------------------------------------------


def _implicit_products(items: list[_Item]) -> list[_Item]:
    out: list[_Item] = []
    for item in items:
        if out and _juxtaposed(out[-1], item):
            out.append(_Item(Kind.OP, "*", False, True))
        out.append(item)
    return out


def _juxtaposed(left: _Item, right: _Item) -> bool:
    """``2x``, ``3(4+5)``, ``(2)(3)``, ``2π``, ``x y`` in math mode: a product."""
    tight = right.math or not right.spaced
    if left.kind is Kind.NUM:
        return right.kind in {Kind.WORD, Kind.LP, Kind.FUNC, Kind.CONST} and tight
    if left.kind is Kind.RP:
        return right.kind in {Kind.LP, Kind.WORD, Kind.FUNC, Kind.CONST} and tight
    if left.kind in {Kind.WORD, Kind.CONST} and left.math:
        return right.kind in {Kind.WORD, Kind.LP, Kind.CONST, Kind.FUNC} and right.math
    return False


def _chains(items: list[_Item]) -> list[Chain]:
    segments: list[list[_Item]] = [[]]
    bounds: list[_Item] = []
    for item in items:
        if item.kind is Kind.SEP:
            segments.append([])
            bounds.append(item)
        else:
            segments[-1].append(item)
    chains: list[Chain] = []
    for k, segment in enumerate(segments):
        if not any(it.kind is Kind.REL for it in segment):
            continue
        _check_neighbours(segments, bounds, k)
        chain = _chain(segment)
        if chain is not None:
            chains.append(chain)
    return chains


def _check_neighbours(segments: list[list[_Item]], bounds: list[_Item], k: int) -> None:
    """Refuse a chain whose neighbouring prose could change it (``half of 12 = 6``)."""
    before = bounds[k - 1] if k > 0 else None
    after = bounds[k] if k < len(bounds) else None
    near = []
    if before is not None:
        near += list(before.words[-_NEIGHBOUR_WORDS:])
    if after is not None:
        near += list(after.words[:_NEIGHBOUR_WORDS])
    modifier = next((w for w in near if w in W.MODIFIERS), None)
    if modifier is not None:
        raise Unreadable(f"'{modifier}' next to a claim changes what it says")
    segment = segments[k]
    first_rel = next(j for j, it in enumerate(segment) if it.kind is Kind.REL)
    counted = first_rel == 1 and segment[0].kind is Kind.NUM and segment[0].unit not in ("", "$")
    if counted and before is not None and before.words[-1:] and (
        before.words[-1] in W.OF_WORDS
    ):
        raise Unreadable(
            f"'{before.text} …': a number after '{before.words[-1]}' may be part of a name "
            f"('sum of 40 numbers'), not the value claimed"
        )
    for side, bound in ((k - 1, before), (k + 1, after)):
        if bound is None or not 0 <= side < len(segments) or len(bound.words) > 2:
            continue
        neighbour = segments[side]
        if side == k - 1 and bound.words in _COPULAS and _counted(neighbour):
            continue  # ``the socks in 10 pairs is 10 * 2 = 20``: the subject, then the claim
        if (
            neighbour
            and not any(it.kind is Kind.REL for it in neighbour)
            and any(it.kind is Kind.NUM for it in neighbour)
        ):
            raise Unreadable(f"cannot tell how '{bound.text}' joins a number to a claim")


_COPULAS = {("is",), ("are",), ("was",), ("were",)}


def _counted(segment: list[_Item]) -> bool:
    """The segment is one number with a unit word (``10 pairs``, ``3 buckets``): a count in
    a subject's name, not an operand."""
    return len(segment) == 1 and segment[0].kind is Kind.NUM and segment[0].unit not in ("", "$")


def _chain(segment: list[_Item]) -> Chain | None:
    groups: list[list[_Item]] = [[]]
    rels: list[str] = []
    for item in segment:
        if item.kind is Kind.REL:
            groups.append([])
            rels.append(item.text)
        else:
            groups[-1].append(item)
    # ``Remaining water after use = 120 - 90``: prose that names nothing before a relation
    # leaves that relation without a side, and the rest of the chain is the claim
    if not groups[0]:
        groups, rels = groups[1:], rels[1:]
    if groups and not groups[-1]:
        groups, rels = groups[:-1], rels[:-1]
    if not rels:
        return None
    _check_units(groups, rels)
    elements = []
    texts = tuple(_text(g) for g in groups)
    for group, text in zip(groups, texts, strict=True):
        if not group:
            raise Unreadable("two relation symbols with nothing between them")
        try:
            elements.append(parse(group))
        except ParseError as error:
            shown = text if len(text) <= 80 else text[:77] + "..."
            raise Unreadable(f"cannot read '{shown}': {error}") from None
    shown = texts[0] + "".join(f" {r} {t}" for r, t in zip(rels, texts[1:], strict=False))
    _check_percentages(groups, elements)
    refs = frozenset(it.ref for group in groups for it in group if it.kind is Kind.NUM)
    spelled = any(it.spelled for it in segment)
    return Chain(tuple(elements), tuple(rels), shown, refs, texts=texts, spelled=spelled)


def _check_percentages(groups: list[list[_Item]], elements: list[Expr]) -> None:
    """``0.4 × 100 = 40%`` uses ``%`` as a label: the side without it equals the number written
    before ``%``. A bare percentage compared with a value that is not that number (``20% =
    0.2``, ``40% < 0.5``) is read as the fraction; one compared with a value the step does
    not give (a name) is refused."""
    for k in range(len(groups) - 1):
        for side, other in ((k, k + 1), (k + 1, k)):
            bare = [it.kind for it in groups[side]] == [Kind.NUM, Kind.PCT]
            if not bare or any(it.kind is Kind.PCT for it in groups[other]):
                continue
            written = Fraction(groups[side][0].text)
            value = evaluate(elements[other], {})
            if value is None or value == written:
                raise Unreadable(
                    f"'{_text(groups[side])}' compared with a number without '%' "
                    f"('{_text(groups[other])}'): a percentage or a label"
                )


def _check_units(groups: list[list[_Item]], rels: list[str]) -> None:
    """``30 minutes = 0.5 hours`` and ``3 hours + 30 minutes`` convert units: neither is a
    relation or a sum of the numbers as written (nor is ``60 minutes > 1 hour``)."""
    bare = [_bare_unit(group) for group in groups]
    for a in range(len(groups)):
        for b in range(a + 1, len(groups)):
            if b > a + 1 and any(rel != "=" for rel in rels[a:b]):
                break  # ``30 minutes = 30/60 = 0.5 hours`` converts across the whole chain
            unit = bare[a]
            others = _units(groups[b]) if bare[b] == "" else {bare[b]}
            if unit and others and unit not in others:
                shown = " and ".join(f"'{u}'" for u in sorted(others | {unit}))
                raise Unreadable(f"{shown} on the two sides of '=': a unit conversion")
    for group in groups:
        if not any(it.kind is Kind.OP and it.text in "+-" for it in group):
            continue
        measures = {it.unit for it in group if it.kind is Kind.NUM and it.unit in W.MEASURES}
        for dimension in {W.MEASURES[u] for u in measures}:
            same = sorted(u for u in measures if W.MEASURES[u] == dimension)
            if len(same) > 1:
                shown = " and ".join(f"'{u}'" for u in same)
                raise Unreadable(f"{shown} added in '{_text(group)}': a unit conversion")


def _bare_unit(group: list[_Item]) -> str:
    """The unit of a side that is one number with a unit (``30 minutes``, ``\\frac{1}{2}
    inch``), else ``""``."""
    if len(group) == 1 and group[0].kind is Kind.NUM:
        return group[0].unit
    if group and group[-1].kind is Kind.RP and not any(it.kind is Kind.WORD for it in group):
        return group[-1].unit if _one_bracket(group) else ""
    return ""


def _one_bracket(group: list[_Item]) -> bool:
    """The group is one bracketed term (``((1) / (2))``), not a product ending in one."""
    depth = 0
    for k, item in enumerate(group):
        depth += 1 if item.kind is Kind.LP else -1 if item.kind is Kind.RP else 0
        if depth == 0 and k < len(group) - 1:
            return False
    return group[0].kind is Kind.LP


def _units(group: list[_Item]) -> set[str]:
    return {it.unit for it in group if it.kind is Kind.NUM and it.unit}


def _text(group: list[_Item]) -> str:
    return " ".join(it.text for it in group)
