"""Theorem statements as text: split, find in a prover's output, and rebuild.

A proof is accepted for the statement *we* gave, never for one the prover wrote: the
prover's code only contributes the proof body, which is spliced under our own signature
(the way Goedel-Prover-V2's ``replace_statement_in_proof`` does it). A prover that changed
the statement is caught by comparing its signature with ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck.lean import ParseError, parse_theorem
from afcheck_lean.tokens import lex

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
    """The prover's declaration of ``target`` (same name; for ``example``, the last one)."""
    found: Found | None = None
    for match in _DECL.finditer(code):
        keyword, rest = match.group("keyword"), match.group("rest")
        name, rest = _take_name(keyword, rest)
        if target.name and name != target.name:
            continue
        if not target.name and keyword != "example":
            continue
        end = top_level_assign(rest)
        if end is None:
            continue
        body = rest[end + 2 :]
        found = Found(rest[:end].strip(), _cut_at_next_command(body))
        if target.name:
            break
    return found


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


_NEXT_COMMAND = re.compile(
    r"^(?:theorem|lemma|example|def|abbrev|instance|structure|inductive|namespace|section|end"
    r"|open|#\w+|@\[|noncomputable|private|protected|set_option|attribute|variable)\b",
    re.MULTILINE,
)


def _cut_at_next_command(body: str) -> str:
    # The body ends where the prover's next top-level command starts (a column-0 keyword).
    match = _NEXT_COMMAND.search(body, 1)
    return body if match is None else body[: match.start()]


def _strip_docstring(text: str) -> str:
    return re.sub(r"/--.*?-/", "", text, flags=re.DOTALL)
