"""Why a formula does not parse: the five classes of syntax error, decided by an ordered rule table.

The classes are the seed's: relation/arity (a relation not in the signature, or with the wrong
number of arguments), connectives and quantifiers (a symbol the language does not have, a
connective without one of its operands, a quantifier without a variable), constants and
variables (names outside the naming conventions, free variables), structure (unpaired or missing
parentheses, a missing connective), and other.

On a parse failure :func:`classify` tries :data:`RULES` in order over the raw text and the
parser's error (its position, the token it could not take, what it expected); the first rule
that matches decides the class, and its name and the span it matched are reported. Errors the
grammar lets through on purpose (unknown predicates, arities, unbound or misnamed variables)
are found after parsing, by :mod:`afcheck_fol.syntax`, with the rule names ``unknown-predicate``,
``arity``, ``quantified-non-variable``, ``bad-name`` and ``free-variable``.

The table is versioned (:data:`TABLE_VERSION`): a change of rules or order is a new version, so
that reported distributions say which table made them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from afcheck_fol.language import Language

TABLE_VERSION = "2"

Span = tuple[int, int]


class ErrorClass(enum.Enum):
    RELATION_ARITY = "relation/arity"
    CONNECTIVES = "connectives and quantifiers"
    TERMS = "constants and variables"
    STRUCTURE = "structure"
    OTHER = "other"


@dataclass(frozen=True)
class ParseFailure:
    """Where and how the parser stopped."""

    position: int
    """Character offset of the token (or character) it could not take; the length at the end."""
    token_type: str
    """The token's grammar terminal, ``$END`` at the end, ``CHARACTER`` when nothing lexed."""
    token: str = ""
    expected: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Classification:
    error_class: ErrorClass
    rule: str
    span: Span
    message: str


# Connective spellings seen in the wild (LLM outputs, other logic notations). Those a language
# does not spell are foreign to it.
KNOWN_SPELLINGS = (
    "<->", "<=>", "->", "=>", "⇒", "⇔", "⊃", "≡", "⊕", "⊻", "&&", "||", "^", "!", "~", "∼",
    "&", "|", "$", "%", "@", "/", "¬", "∧", "∨", "→", "↔", "∀", "∃", "⊥", "≠", "!=", "\\/", "/\\",
)

_BINARY = ("and", "or", "xor", "implies", "iff")
_BINARY_TERMINALS = {"_AND": "and", "_OR": "or", "_XOR": "xor", "_IMPLIES": "implies",
                     "_IFF": "iff"}
_UNIT_START = {"PREDICATE", "NAME", "LPAR", "_NOT", "_FORALL", "_EXISTS", "BOTTOM"}


@dataclass(frozen=True)
class _Lexicon:
    """Regular expressions over one language's spellings."""

    binary: str
    negation: str
    quantifier: str
    accepted: tuple[str, ...]
    foreign: tuple[str, ...]


def _alternation(spellings: tuple[str, ...]) -> str:
    ordered = sorted(set(spellings), key=len, reverse=True)
    return "(?:" + "|".join(re.escape(s) for s in ordered) + ")" if ordered else "(?!)"


@lru_cache(maxsize=16)
def _lexicon(language: Language) -> _Lexicon:
    binary = tuple(s for symbol in _BINARY for s in language.spelled(symbol))
    accepted = tuple(sorted(language.all_spellings(), key=len, reverse=True))
    foreign = tuple(s for s in KNOWN_SPELLINGS if s not in language.all_spellings())
    return _Lexicon(
        binary=_alternation(binary),
        negation=_alternation(language.spelled("not")),
        quantifier=_alternation(language.spelled("forall") + language.spelled("exists")),
        accepted=accepted,
        foreign=foreign,
    )


Rule = Callable[[str, "Language", ParseFailure], "tuple[Span, str] | None"]


def _search(pattern: str, text: str, group: int = 0) -> tuple[Span, str] | None:
    match = re.search(pattern, text)
    if match is None:
        return None
    return (match.start(group), match.end(group)), match.group(group)


def _empty(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    if text.strip():
        return None
    return (0, len(text)), "the formula is empty"


def _quoted_term(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # A title in quotes as an argument (Book("The Hobbit")): before `prose`, which its words
    # would otherwise match.
    found = _search(r"[(,]\s*(\"[^\"]*\"|“[^”]*”|'[^']*'|‘[^’]*’)\s*(?=[,)])", text, 1)
    if found is None:
        return None
    words = re.findall(r"\w+", found[1])
    name = "".join(w.lower() if i == 0 else w.capitalize() for i, w in enumerate(words))
    return found[0], (f"{found[1]} is a quoted string, not a term: a constant is one word "
                      f"({name or 'aName'})")


def _prose(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    # Three words in a row, none of them a predicate call: explanation text, not a formula.
    found = _search(r"\b[A-Za-z]{2,} +[a-z]{2,} +[a-z]{2,}\b(?!\s*\()", text)
    if found is None:
        return None
    return found[0], f"natural-language text {found[1]!r} in the formula"


_WORD_CONNECTIVES = (
    "and", "or", "not", "but", "if", "then", "iff", "implies", "unless", "only", "forall",
    "exists", "all", "some", "every", "no", "xor",
)


def _word_connective(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # Any case: a sentence-initial "If GivenOut(roses) …" is the word, not a predicate; a word
    # followed by "(" or joined by "-" is a name (Not(x), Eco-friendly).
    words = "|".join(_WORD_CONNECTIVES)
    match = re.search(rf"(?<![\w-])({words})(?![\w(-])", text, re.IGNORECASE)
    if match is None:
        return None
    return (match.start(1), match.end(1)), (
        f"the English word {match.group(1)!r} used as a connective or quantifier")


def _identity_chain(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    if failure.token_type not in ("EQ", "NEQ"):
        return None
    return (failure.position, failure.position + len(failure.token)), (
        "identity takes two terms; a chain of = or ≠ needs ∧"
    )


def _unbalanced(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    depth = 0
    opened: list[int] = []
    for index, char in enumerate(text):
        if char == "(":
            opened.append(index)
            depth += 1
        elif char == ")":
            if not opened:
                return (index, index + 1), "')' closes nothing"
            opened.pop()
    if opened:
        return (opened[-1], opened[-1] + 1), f"{len(opened)} '(' never closed"
    return None


def _trailing(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    stripped = text.rstrip()
    if failure.position < len(stripped.rstrip(".;,")) or not stripped.endswith((".", ";", ",")):
        return None
    return (len(stripped) - 1, len(stripped)), f"trailing {stripped[-1]!r} after the formula"


def _foreign(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    lexicon = _lexicon(language)
    spellings = sorted(set(lexicon.accepted) | set(lexicon.foreign), key=len, reverse=True)
    position = 0
    while position < len(text):
        # The longest spelling at each position decides: `=>` is foreign even though `=` is not.
        spelling = next((s for s in spellings if text.startswith(s, position)), None)
        if spelling is None:
            position += 1
            continue
        if spelling in lexicon.foreign:
            spelled = " ".join(
                s for key in ("not", "and", "or", "xor", "implies", "iff")
                for s in language.spelled(key)
            )
            return (position, position + len(spelling)), (
                f"{spelling!r} is not a connective of {language.name} (it has {spelled})"
            )
        position += len(spelling)
    return None


_NAME_SYMBOLS = "$€£¥’'‘`"
"""Characters models put inside names (US$300, mary’s, d’angelo) that no name may hold."""


def _name_character(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # An argument written as one word that holds one of the characters above; before
    # `foreign-connective`, since `$` is a connective elsewhere.
    symbols = re.escape(_NAME_SYMBOLS)
    for match in re.finditer(r"(?<=[(,])\s*([^\s(),]+)\s*(?=[,)])", text):
        word = match.group(1)
        if re.search(rf"[{symbols}]", word) and re.search(r"\w", word) \
                and re.fullmatch(rf"[\w.+{symbols}-]+", word):
            return (match.start(1), match.end(1)), (
                f"{word!r} is not a name: a constant is one word of letters, digits, '_', '-' "
                "and '.'")
    return None


def _predicate_name(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # A word before "(" that is no predicate name: a leading digit (4Side), a character no
    # name holds (Mary’sFriend). A lower-case word is `lowercase-predicate`'s.
    symbols = re.escape(_NAME_SYMBOLS)
    for match in re.finditer(rf"(?<![\w{symbols}.-])([\w{symbols}.-]+)\s*\(", text):
        word = match.group(1)
        if re.fullmatch(language.predicate_token, word) or (
                re.fullmatch(r"[^\W\d_]\w*", word) and word[0].islower()):
            continue
        if not (word[0].isdigit() or re.search(rf"[{symbols}]", word)):
            continue
        return (match.start(1), match.end(1)), (
            f"{word!r} is used as a predicate; a predicate name starts with a capital letter "
            "and holds letters, digits, '_' and '-'")
    return None


def _term_as_formula(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # The parser read a term where a formula belongs and now wants `=`: `1984 ⊕ P(1984)`.
    # (A character no token starts with is `unexpected-character`'s: `b < c`.)
    if failure.token_type in ("EQ", "NEQ", "CHARACTER") or not {"EQ", "NEQ"} & failure.expected:
        return None
    before = re.search(r"(\S+)\s*$", text[: failure.position])
    if before is None:
        return None
    return (before.start(1), before.end(1)), (
        f"{before.group(1)!r} is a term where a formula belongs: a predicate is missing "
        f"(write P({before.group(1)}))")


def _atom_in_identity(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    # `Deposit(x, y) = 1`: an atom is true or false, not an object; there are no functions.
    if failure.token_type not in ("EQ", "NEQ") or not text[: failure.position].rstrip() \
            .endswith(")"):
        return None
    return (failure.position, failure.position + len(failure.token)), (
        f"{failure.token!r} after an atom: an atom is true or false, not a term, and there "
        "are no function symbols to compare")


def _bare_quantifier(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    found = _search(_lexicon(language).quantifier + r"\s*(?![a-z\s])", text)
    if found is None:
        return None
    return found[0], f"quantifier {found[1].strip()!r} without a variable"


def _missing_operand(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    lexicon = _lexicon(language)
    binary = lexicon.binary
    for pattern, what in (
        (rf"^\s*({binary})", "starts with a binary connective"),
        (rf"({binary})\s*$", "ends with a binary connective"),
        (rf"\(\s*({binary})", "a binary connective right after '('"),
        (rf"({binary})\s*\)", "a binary connective right before ')'"),
        (rf"({lexicon.negation})\s*(?:{binary}|\)|$)", "¬ without anything to negate"),
        (rf"({binary})\s*(?:{binary})", "two binary connectives in a row"),
    ):
        found = _search(pattern, text, 1)
        if found is not None:
            return found[0], what
    return None


def _infix_predicate(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    found = _search(rf"\b{language.name_token}\s+({language.predicate_token})\s+[a-z]", text, 1)
    if found is None:
        return None
    return found[0], f"predicate {found[1]} written between its arguments"


def _predicate_without_arguments(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    pattern = rf"(?<![\w-])({language.predicate_token})(?!\s*\(|[\w-])"
    found = _search(pattern, text, 1)
    if found is None:
        return None
    return found[0], f"{found[1]} is used without an argument list"


def _lowercase_predicate(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    after_quantifier = re.compile(_lexicon(language).quantifier + r"\s*$")
    for match in re.finditer(r"(?<![\w-])([a-z][\w-]*)\s*\(", text):
        if after_quantifier.search(text[: match.start()]):
            continue  # ∀x(…): a variable before a parenthesis, not a predicate
        return (match.start(1), match.end(1)), (
            f"{match.group(1)!r} is used as a predicate; predicates start with a capital"
        )
    return None


def _term_position(language: Language, failure: ParseFailure) -> tuple[int, int] | None:
    """Span of a capitalised name the parser met where a term belongs."""
    if failure.token_type != "PREDICATE" or "NAME" not in failure.expected:
        return None
    return failure.position, failure.position + len(failure.token)


def _predicate_as_term(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    span = _term_position(language, failure)
    if span is None or not text[span[1]:].lstrip().startswith("("):
        return None
    return span, f"predicate {failure.token} used as an argument (there are no function symbols)"


def _uppercase_term(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    span = _term_position(language, failure)
    if span is None:
        return None
    return span, f"{failure.token!r} where a term belongs: constants and variables are lower-case"


def _unparenthesised_mix(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    symbol = _BINARY_TERMINALS.get(failure.token_type)
    if symbol is None:
        return None
    lexicon = _lexicon(language)
    # The binary connective before the failing one at the same parenthesis depth.
    depth = 0
    previous: int | None = None
    masked = text[: failure.position]
    for match in re.finditer(rf"\(|\)|{lexicon.binary}", masked):
        token = match.group(0)
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth == _depth_at(text, failure.position):
            previous = match.start()
    start = failure.position if previous is None else previous
    return (start, failure.position + len(failure.token)), (
        f"{failure.token!r} combined with another binary connective without parentheses"
    )


def _depth_at(text: str, position: int) -> int:
    return text[:position].count("(") - text[:position].count(")")


def _spaced_name(text: str, language: Language, failure: ParseFailure) -> tuple[Span, str] | None:
    if failure.token_type != "NAME":
        return None
    before = text[: failure.position]
    if not re.search(r"[A-Za-z0-9_]\s+$", before) or _depth_at(text, failure.position) == 0:
        return None
    start = re.search(r"[A-Za-z0-9_]+\s+$", before)
    begin = start.start() if start else failure.position
    return (begin, failure.position + len(failure.token)), (
        f"{text[begin:failure.position + len(failure.token)]!r}: a name cannot hold a space"
    )


def _missing_connective(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    if failure.token_type not in _UNIT_START:
        return None
    before = text[: failure.position].rstrip()
    if not before or not (before.endswith(")") or re.search(r"[A-Za-z0-9_]$", before)):
        return None
    return (len(before), failure.position + max(1, len(failure.token))), (
        "two formulas side by side without a connective"
    )


def _comma_outside_arguments(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    if failure.token_type != "COMMA":
        return None
    return (failure.position, failure.position + 1), "a comma outside an argument list"


def _unexpected_character(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    if failure.token_type != "CHARACTER":
        return None
    return (failure.position, failure.position + 1), (
        f"character {failure.token!r} is not part of {language.name}'s syntax"
    )


def _unclassified(
    text: str, language: Language, failure: ParseFailure
) -> tuple[Span, str] | None:
    token = failure.token or "the end"
    return (failure.position, failure.position + len(failure.token)), (
        f"the parser cannot take {token!r} here"
    )


@dataclass(frozen=True)
class TableRule:
    name: str
    error_class: ErrorClass
    match: Rule


RULES: tuple[TableRule, ...] = (
    TableRule("empty", ErrorClass.STRUCTURE, _empty),
    TableRule("quoted-term", ErrorClass.TERMS, _quoted_term),
    TableRule("prose", ErrorClass.OTHER, _prose),
    TableRule("word-connective", ErrorClass.CONNECTIVES, _word_connective),
    TableRule("unbalanced-parentheses", ErrorClass.STRUCTURE, _unbalanced),
    TableRule("trailing-punctuation", ErrorClass.STRUCTURE, _trailing),
    TableRule("name-character", ErrorClass.TERMS, _name_character),
    TableRule("predicate-name", ErrorClass.RELATION_ARITY, _predicate_name),
    TableRule("foreign-connective", ErrorClass.CONNECTIVES, _foreign),
    TableRule("quantifier-without-variable", ErrorClass.CONNECTIVES, _bare_quantifier),
    TableRule("missing-operand", ErrorClass.CONNECTIVES, _missing_operand),
    TableRule("infix-predicate", ErrorClass.RELATION_ARITY, _infix_predicate),
    TableRule("lowercase-predicate", ErrorClass.RELATION_ARITY, _lowercase_predicate),
    TableRule("predicate-as-term", ErrorClass.RELATION_ARITY, _predicate_as_term),
    TableRule("uppercase-term", ErrorClass.TERMS, _uppercase_term),
    TableRule("predicate-without-arguments", ErrorClass.RELATION_ARITY,
              _predicate_without_arguments),
    TableRule("term-as-formula", ErrorClass.RELATION_ARITY, _term_as_formula),
    TableRule("unparenthesised-mix", ErrorClass.STRUCTURE, _unparenthesised_mix),
    TableRule("spaced-name", ErrorClass.TERMS, _spaced_name),
    TableRule("missing-connective", ErrorClass.STRUCTURE, _missing_connective),
    TableRule("atom-in-identity", ErrorClass.RELATION_ARITY, _atom_in_identity),
    TableRule("identity-chain", ErrorClass.RELATION_ARITY, _identity_chain),
    TableRule("comma-outside-arguments", ErrorClass.RELATION_ARITY, _comma_outside_arguments),
    TableRule("unexpected-character", ErrorClass.OTHER, _unexpected_character),
    TableRule("unclassified", ErrorClass.OTHER, _unclassified),
)
"""First match wins; ``unclassified`` always matches."""


def classify(text: str, language: Language, failure: ParseFailure) -> Classification:
    """The class, rule and span of a parse failure of ``text`` in ``language``."""
    for rule in RULES:
        found = rule.match(text, language, failure)
        if found is not None:
            span, message = found
            return Classification(rule.error_class, rule.name, span, message)
    raise AssertionError("the last rule matches everything")
