"""Read a formula in a language's surface syntax into a :mod:`afcheck_fol.formula` tree.

:func:`parse` is the one entry point. It runs the language's Lark grammar (LALR, so a failure has
one exact position), then checks what the grammar leaves open on purpose so that a wrong formula
is reported for what it is rather than as an unexpected character: that every predicate is in the
signature with its arity (or keeps the arity of its first use), that quantifiers bind variables,
that every name is a constant or a bound variable (a sentence has no free variables). Any failure
raises :class:`FolSyntaxError` with one of the five classes of :mod:`afcheck_fol.taxonomy`, the
rule that put it there and the character span of the text it is about.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Union

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
    Var,
    Xor,
)
from afcheck_fol.language import Language
from afcheck_fol.taxonomy import ErrorClass, ParseFailure, Span, classify

if TYPE_CHECKING:
    import lark

GRAMMARS_DIR = Path(__file__).parent / "grammars"

# Grammar terminal for each symbol of :data:`afcheck_fol.language.CONNECTIVES`; underscored
# ones are dropped from the tree.
_TERMINALS = {
    "not": "_NOT", "and": "_AND", "or": "_OR", "xor": "_XOR", "implies": "_IMPLIES",
    "iff": "_IFF", "forall": "_FORALL", "exists": "_EXISTS", "bottom": "BOTTOM", "eq": "EQ",
    "neq": "NEQ",
}
# A symbol the language does not spell still needs a terminal for the grammar to compile: a
# private-use character no one types.
_NEVER = "\ue000"


class FolSyntaxError(ValueError):
    """A formula that is not a sentence of the language.

    ``error_class`` is one of the five classes, ``rule`` the rule of the taxonomy (or of the
    post-parse checks) that decided it, ``span`` the half-open character range it is about.
    """

    def __init__(self, error_class: ErrorClass, rule: str, span: Span, message: str) -> None:
        super().__init__(f"{error_class.value} [{rule}] at {span[0]}-{span[1]}: {message}")
        self.error_class = error_class
        self.rule = rule
        self.span = span
        self.message = message

    def __reduce__(self) -> tuple[type[FolSyntaxError], tuple[ErrorClass, str, Span, str]]:
        # Items carry their gold's error to worker processes: rebuilt from its four parts.
        return (type(self), (self.error_class, self.rule, self.span, self.message))

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> FolSyntaxError:
        """The error :meth:`to_json` wrote."""
        span = data.get("span")
        start, end = span if isinstance(span, list) and len(span) == 2 else (0, 0)
        return cls(ErrorClass(str(data.get("class"))), str(data.get("rule")),
                   (int(start), int(end)), str(data.get("message")))

    def to_json(self) -> dict[str, object]:
        return {
            "class": self.error_class.value,
            "rule": self.rule,
            "span": list(self.span),
            "message": self.message,
        }


def grammar_text(language: Language) -> str:
    """The Lark grammar of ``language``: its grammar file plus terminals from its spellings."""
    rules = (GRAMMARS_DIR / f"{language.grammar}.lark").read_text(encoding="utf-8")
    lines = [rules, ""]
    for symbol, terminal in _TERMINALS.items():
        spellings = sorted(language.spelled(symbol), key=len, reverse=True) or [_NEVER]
        alternatives = " | ".join(json.dumps(s, ensure_ascii=False) for s in spellings)
        lines.append(f"{terminal}: {alternatives}")
    lines.append(f"PREDICATE: /{language.predicate_token}/")
    lines.append(f"NAME: /{language.name_token}/")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=16)
def _parser(language: Language) -> lark.Lark:
    import lark

    return lark.Lark(
        grammar_text(language), parser="lalr", propagate_positions=True,
        maybe_placeholders=True,
    )


def parse(
    text: str, language: Language, arities: Mapping[str, int] | None = None
) -> Formula:
    """The sentence ``text`` of ``language``, or :class:`FolSyntaxError`.

    ``arities`` (for ``first-use`` languages) holds arities fixed by earlier formulas, e.g. the
    other premises of a story; it is not changed.
    """
    import lark

    if len(text) > MAX_CHARS:
        # The parser's memory grows many times faster than the text: a formula of tens of
        # megabytes takes gigabytes and minutes, and no sentence of these languages is long.
        raise FolSyntaxError(ErrorClass.OTHER, "too-long", (0, len(text)),
                             f"the formula is {len(text):,} characters long (at most "
                             f"{MAX_CHARS:,})")
    try:
        tree = _parser(language).parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _failure(text, language, exc) from None
    except (MemoryError, RecursionError):
        raise FolSyntaxError(ErrorClass.OTHER, "too-large", (0, len(text)),
                             "the formula is too large to parse in the memory there is"
                             ) from None
    depth = _depth(tree)
    if depth > MAX_DEPTH:
        # Every later stage walks the tree recursively; no sentence of these languages
        # needs anything near this.
        raise FolSyntaxError(ErrorClass.OTHER, "too-deep", (0, len(text)),
                             f"the formula nests {depth} levels deep (at most {MAX_DEPTH})")
    return _Builder(text, language, dict(arities or {})).sentence(tree)


MAX_DEPTH = 200
"""Deepest parse tree :func:`parse` accepts."""
MAX_CHARS = 100_000
"""Longest text :func:`parse` starts on: the parse-size budget of every formula, gold or
candidate (a FOLIO premise is a few hundred characters)."""


def _depth(tree: _Node) -> int:
    import lark

    deepest = 0
    stack: list[tuple[_Node, int]] = [(tree, 1)]
    while stack:  # iterative: the point is to refuse what recursion cannot take
        node, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(node, lark.Tree):
            stack.extend((child, level + 1) for child in node.children
                         if isinstance(child, (lark.Tree, lark.Token)))
    return deepest


def _failure(text: str, language: Language, exc: lark.exceptions.UnexpectedInput) -> FolSyntaxError:
    import lark

    position = getattr(exc, "pos_in_stream", None)
    token_type = ""
    token_text = ""
    expected: frozenset[str] = frozenset()
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        token_type = str(exc.token.type)
        token_text = str(exc.token)
        expected = frozenset(exc.expected)
        if token_type == "$END":
            position = len(text)
        else:
            position = exc.token.start_pos
    elif isinstance(exc, lark.exceptions.UnexpectedCharacters):
        token_type = "CHARACTER"
        at = int(exc.pos_in_stream or 0)
        token_text = text[at] if at < len(text) else ""
        expected = frozenset(exc.allowed or ())
    elif isinstance(exc, lark.exceptions.UnexpectedEOF):
        token_type = "$END"
        position = len(text)
        expected = frozenset(exc.expected)
    failure = ParseFailure(
        position=len(text) if position is None else int(position),
        token_type=token_type,
        token=token_text,
        expected=expected,
    )
    found = classify(text, language, failure)
    return FolSyntaxError(found.error_class, found.rule, found.span, found.message)


_Node = Union["lark.Tree[lark.Token]", "lark.Token"]


@dataclass(frozen=True)
class _Issue:
    """A post-parse problem; the one with the lowest (order, start) is reported."""

    order: int
    error_class: ErrorClass
    rule: str
    span: Span
    message: str


# Post-parse rules in the order the taxonomy lists its classes: relation/arity first.
_CHECK_ORDER = {
    "unknown-predicate": 0,
    "arity": 1,
    "quantified-non-variable": 2,
    "bad-name": 3,
    "free-variable": 4,
}


class _Builder:
    """Tree to formula, resolving names against the binders in scope and the signature."""

    def __init__(self, text: str, language: Language, arities: dict[str, int]) -> None:
        self.text = text
        self.language = language
        self.arities = arities
        self.issues: list[_Issue] = []

    def sentence(self, tree: _Node) -> Formula:
        formula = self.build(tree, frozenset())
        if self.issues:
            issue = min(self.issues, key=lambda i: (i.order, i.span[0]))
            raise FolSyntaxError(issue.error_class, issue.rule, issue.span, issue.message)
        return formula

    def issue(self, error_class: ErrorClass, rule: str, span: Span, message: str) -> None:
        self.issues.append(_Issue(_CHECK_ORDER[rule], error_class, rule, span, message))

    def build(self, node: _Node, bound: frozenset[str]) -> Formula:
        import lark

        if isinstance(node, lark.Token):  # BOTTOM inlined by `?atom`
            return Truth(False)
        kind = node.data
        children = node.children
        if kind in ("conj", "disj"):
            items: list[Formula] = []
            for child in children:
                item = self.build(child, bound)
                same = And if kind == "conj" else Or
                # A parenthesised chain of the same connective is one chain.
                items.extend(item.items if isinstance(item, same) else (item,))
            return And(tuple(items)) if kind == "conj" else Or(tuple(items))
        if kind in ("implies", "iff", "xor"):
            left, right = (self.build(child, bound) for child in children)
            if kind == "implies":
                return Implies(left, right)
            return Iff(left, right) if kind == "iff" else Xor(left, right)
        if kind == "neg":
            return Not(self.build(children[0], bound))
        if kind in ("forall", "exists"):
            name_token, body = children
            assert isinstance(name_token, lark.Token)
            name = str(name_token)
            if not self.language.is_variable(name):
                self.issue(
                    ErrorClass.CONNECTIVES, "quantified-non-variable",
                    (name_token.start_pos or 0, name_token.end_pos or 0),
                    f"a quantifier binds {name!r}, which is not a variable of "
                    f"{self.language.name} ({self.language.variables})",
                )
            variable = Var(name)
            inner = self.build(body, bound | {name})
            return Forall(variable, inner) if kind == "forall" else Exists(variable, inner)
        if kind == "pred":
            return self.predicate(node, bound)
        if kind in ("eq", "neq"):
            left_term = self.term(children[0], bound)
            right_term = self.term(children[2], bound)
            equal = Eq(left_term, right_term)
            return equal if kind == "eq" else Not(equal)
        if kind == "bottom":
            return Truth(False)
        raise AssertionError(f"grammar rule {kind!r} has no formula")  # grammar and code disagree

    def predicate(self, node: lark.Tree[lark.Token], bound: frozenset[str]) -> Formula:
        import lark

        name_token, *arg_tokens = node.children
        assert isinstance(name_token, lark.Token)
        args = tuple(
            self.term(token, bound) for token in arg_tokens if isinstance(token, lark.Token)
        )
        name = str(name_token)
        span = (node.meta.start_pos, node.meta.end_pos)
        if self.language.arity == "fixed":
            expected = self.language.predicates.get(name)
            if expected is None:
                self.issue(
                    ErrorClass.RELATION_ARITY, "unknown-predicate",
                    (name_token.start_pos or 0, name_token.end_pos or 0),
                    f"{name} is not a predicate of {self.language.name}",
                )
                return Pred(name, args)
        else:
            expected = self.arities.setdefault(name, len(args))
        if len(args) != expected:
            self.issue(
                ErrorClass.RELATION_ARITY, "arity", span,
                f"{name} takes {expected} argument{'s' if expected != 1 else ''}, "
                f"given {len(args)}",
            )
        return Pred(name, args)

    def term(self, token: _Node, bound: frozenset[str]) -> Term:
        name = str(token)
        start = getattr(token, "start_pos", 0) or 0
        span = (start, start + len(name))
        if name in bound:
            return Var(name)
        if self.language.is_variable(name):
            self.issue(
                ErrorClass.TERMS, "free-variable", span,
                f"variable {name} is not bound by any quantifier (not a sentence)",
            )
            return Var(name)
        if self.language.is_constant(name):
            return Const(name)
        self.issue(
            ErrorClass.TERMS, "bad-name", span,
            f"{name!r} is neither a constant ({self.language.constants}) nor a variable "
            f"({self.language.variables}) of {self.language.name}",
        )
        return Const(name)
