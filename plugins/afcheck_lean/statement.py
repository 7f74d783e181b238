"""Theorem statements as text: split, find in a prover's output, and rebuild.

A proof is accepted for the statement *we* gave, never for one the prover wrote: the
prover's code only contributes the proof body, which is spliced under our own signature
(the way Goedel-Prover-V2's ``replace_statement_in_proof`` does it). A prover that changed
the statement is caught by comparing its signature with ours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from afcheck.lean import ParseError, parse_theorem
from afcheck.lean.lexer import Token, lex
from afcheck_lean.integrity import declaration_start, opens_scope, word_of

TARGET_NAME = "afcheck_target"
"""Name every rebuilt theorem gets, so that ``#print axioms`` can name it (``example`` has no
name) and no prover-chosen name is ever trusted."""

_DECL = re.compile(
    r"(?:^|(?<=\s))(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*"
    r"(?P<keyword>theorem|lemma|example)\b(?P<rest>.*)",
    re.DOTALL,
)
_NAME = re.compile(r"\s*(?P<name>[^\s:({\[⦃]+)")
_OPEN = "([{⟨⦃"
_CLOSE = ")]}⟩⦄"
_SORRY_PROOF = re.compile(r":=\s*(?:by\s+)?sorry\s*$", re.DOTALL)
_KEYWORDS = frozenset({"theorem", "lemma", "example"})
_OPEN_TOKENS = ("(", "[", "{", "⟨", "⦃", "@[", "#[", "%[", "![")
_CLOSE_TOKENS = (")", "]", "}", "⟩", "⦄")
_COMMANDS = frozenset({
    "def", "abbrev", "instance", "structure", "class", "inductive", "opaque", "axiom",
    "mutual", "private", "protected", "noncomputable", "partial", "nonrec", "unsafe",
    "namespace", "section", "end", "open", "set_option", "attribute", "variable", "universe",
    "notation", "macro", "syntax", "elab", "macro_rules", "local", "scoped", "export",
    "import", "initialize",
})
"""Words that start a command when they start a line at column 0 after a proof."""


class StatementError(ValueError):
    """A statement that is not ``theorem|lemma|example [name] <signature> := by sorry``."""


@dataclass(frozen=True)
class Statement:
    """A theorem statement cut into its parts."""

    keyword: str
    name: str
    """Empty for ``example``."""
    signature: str
    """Binders, colon and type: everything between the name and ``:=``."""

    def with_proof(self, body: str) -> str:
        """The theorem under :data:`TARGET_NAME` with ``body`` (the text after ``:=``)."""
        return f"theorem {TARGET_NAME} {self.signature.strip()} :=\n{body.strip(chr(10))}"

    def with_sorry(self) -> str:
        return self.with_proof("by sorry")


def split_statement(text: str) -> Statement:
    """Cut our own statement (proof ``by sorry`` or ``sorry``) into keyword, name, signature."""
    match = _DECL.search(_strip_docstring(text))
    if match is None:
        raise StatementError("no theorem, lemma or example declaration in the statement")
    keyword, rest = match.group("keyword"), match.group("rest")
    name, rest = _take_name(keyword, rest)
    end = top_level_assign(rest)
    if end is None:
        raise StatementError("the statement has no ':=' after its type")
    if _SORRY_PROOF.search(rest[end:]) is None:
        raise StatementError("the statement's proof is not 'by sorry'")
    signature = rest[:end].strip()
    if not signature.startswith((":", "(", "{", "[", "⦃")) and not signature:
        raise StatementError("the statement has an empty signature")
    return Statement(keyword, name, signature)


@dataclass(frozen=True)
class Found:
    """A declaration found in a prover's code."""

    signature: str
    body: str
    """Text after the top-level ``:=`` up to the next top-level command or the end."""


def find_declaration(code: str, target: Statement) -> Found | None:
    """The prover's declaration of ``target`` (same name; for ``example``, the last one).

    The code is read as tokens, as Lean and ``afcheck lean audit`` read it: a keyword in a
    comment, a string or guillemets (``«theorem»``) starts nothing, and the proof ends where
    the next command starts (:func:`proof_end`)."""
    tokens = lex(code).tokens
    found: Found | None = None
    for index, token in enumerate(tokens):
        keyword = word_of(token)
        if keyword not in _KEYWORDS:
            continue
        name, after = "", index + 1
        if keyword != "example" and after < len(tokens) and tokens[after].kind == "ident":
            name, after = tokens[after].text, after + 1
        if (name != target.name) if target.name else keyword != "example":
            continue
        assign = _top_level_assign(tokens, after)
        if assign is None:
            continue
        end = proof_end(tokens, assign + 1)
        found = Found(code[tokens[after - 1].end : tokens[assign].start].strip(),
                      code[tokens[assign].end : tokens[end].start if end < len(tokens)
                           else len(code)])
        if target.name:
            break
    return found


def proof_end(tokens: Sequence[Token], start: int) -> int:
    """Index of the token where the proof starting at ``start`` ends: the next declaration
    (at its modifiers, attributes, doc comment and ``set_option … in`` / ``open … in``
    prefixes, :func:`~afcheck_lean.integrity.declaration_start`), a namespace or section
    opening (:func:`~afcheck_lean.integrity.opens_scope`) or an ``end`` starting a line
    (neither is ever part of a proof), or a command at column 0. Cutting early is safe: what
    is cut off is never sent to Lean, and what is kept is checked whole."""
    for index in range(start, len(tokens)):
        token = tokens[index]
        word = word_of(token)
        if word in _KEYWORDS:
            return max(start, declaration_start(tokens, index))
        if opens_scope(tokens, index) or (token.line_start and word == "end"):
            return index
        if token.line_start and token.column == 0 and (
                word in _COMMANDS or token.kind == "doc" or token.text == "@["
                or (token.kind == "sym" and token.text.startswith("#"))):
            return index
    return len(tokens)


def _top_level_assign(tokens: Sequence[Token], start: int) -> int | None:
    """Index of the first ``:=`` outside brackets, before any other declaration keyword."""
    depth = 0
    for index in range(start, len(tokens)):
        token = tokens[index]
        if word_of(token) in _KEYWORDS:
            return None
        if token.kind != "sym":
            continue
        if token.text in _OPEN_TOKENS:
            depth += 1
        elif token.text in _CLOSE_TOKENS:
            depth = max(0, depth - 1)
        elif token.text == ":=" and depth == 0:
            return index
    return None


def same_signature(a: str, b: str) -> bool:
    """The same statement, read as Lean reads it: equal token sequences (whitespace and
    comments do not count, ``(x:ℝ)`` is ``(x : ℝ)``), or equal trees from afcheck's Lean
    front end (``→`` is ``->``, ``(a b : ℝ)`` is ``(a : ℝ) (b : ℝ)``, redundant parentheses
    do not count). Anything else is a changed statement."""
    ours_tokens = _tokens(a)
    if ours_tokens is not None and ours_tokens == _tokens(b):
        return True
    ours, theirs = _parsed(a), _parsed(b)
    return ours is not None and ours == theirs


def _tokens(signature: str) -> list[tuple[str, str]] | None:
    lexed = lex(signature)
    if lexed.problems:
        return None
    return [(t.kind, t.text) for t in lexed.tokens]


def _parsed(signature: str) -> tuple[object, object] | None:
    text = signature
    for start, end in reversed(lex(signature).comments):
        text = text[:start] + " " * (end - start) + text[end:]
    try:
        theorem = parse_theorem(f"theorem afcheck_statement {text} := by sorry")
    except ParseError:
        return None
    return theorem.binders, theorem.conclusion


def top_level_assign(text: str) -> int | None:
    """Index of the first ``:=`` outside brackets (binder defaults ``(x : ℕ := 2)`` are inside)."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(":=", i):
            return i
    return None


def _take_name(keyword: str, rest: str) -> tuple[str, str]:
    if keyword == "example":
        return "", rest
    match = _NAME.match(rest)
    if match is None:
        return "", rest
    return match.group("name"), rest[match.end() :]


def _strip_docstring(text: str) -> str:
    return re.sub(r"/--.*?-/", "", text, flags=re.DOTALL)
