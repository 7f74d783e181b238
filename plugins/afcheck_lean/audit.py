"""Auditing complete Lean files (header, theorem, proof) with the static integrity rules.

This is what ``afcheck lean audit`` runs on a model's proofs before any Lean time is spent:
the file is cut where Lean would cut it: the imports end where Lean's header parser ends them
(:func:`afcheck_lean.source.parse_imports`, comments read as spaces); the header runs up to
the first ``theorem``, ``lemma`` or ``example`` keyword that starts a line (``«lemma»`` is a
name, not a keyword); each such declaration's signature runs up to its ``:=`` outside
brackets and its body from there to the next declaration. The header and the signatures go
through the header rules, every body through the proof rules, lexed at the column where it
starts in the file (Lean's layout rules depend on it). Every finding is reported at its line
and column in the file.

This is a fast pre-filter, not the proof of integrity: a deny-list of text cannot be complete
for an extensible language. See ``docs/trust-model.md`` for what the Lean-side checks add.
"""

from __future__ import annotations

from dataclasses import dataclass

from afcheck_lean.integrity import (
    Violation,
    bound_names,
    find_header_violation,
    find_proof_violation,
)
from afcheck_lean.settings import DEFAULT_HEADER
from afcheck_lean.source import SourceError, check_imports, parse_imports
from afcheck_lean.tokens import Token, lex, line_column

_DECLARATION_KEYWORDS = ("theorem", "lemma", "example")
_OPEN = ("(", "[", "{", "⟨", "⦃", "@[", "#[", "%[", "![")
_CLOSE = (")", "]", "}", "⟩", "⦄")


@dataclass(frozen=True)
class Audit:
    """The decision on one file."""

    accepted: bool
    rule: str = ""
    span: str = ""
    line: int = 0
    column: int = 0
    why: str = ""

    def one_line(self) -> str:
        if self.accepted:
            return "accepted"
        where = f"{self.line}:{self.column}: " if self.line else ""
        span = f"{self.span!r} " if self.span else ""
        return f"rejected: {self.rule}: {where}{span}({self.why})"

    def to_json(self) -> dict[str, object]:
        if self.accepted:
            return {"accepted": True}
        return {"accepted": False, "rule": self.rule, "span": self.span, "line": self.line,
                "column": self.column, "why": self.why}


@dataclass(frozen=True)
class Declaration:
    """One ``theorem``/``lemma``/``example`` of a file (offsets into the file)."""

    start: int
    """Where its modifiers or keyword start."""
    body_start: int
    """Just after its top-level ``:=``."""
    end: int
    """Where the next declaration starts, or the end of the file."""


def split_file(text: str) -> list[Declaration] | None:
    """The file's theorems, each cut at its top-level ``:=``; ``None`` when there is none or
    one has no ``:=``. Everything before the first is the header."""
    tokens = lex(text).tokens
    # A declaration starts a line, after its doc comment, attributes and modifiers if any
    # (`@[simp] theorem …` on one line).
    starts = [i for i, t in enumerate(tokens)
              if t.kind == "ident" and t.text in _DECLARATION_KEYWORDS and not t.escaped
              and tokens[_modifiers_index(tokens, i)].line_start]
    if not starts:
        return None
    found: list[Declaration] = []
    for number, first in enumerate(starts):
        limit = starts[number + 1] if number + 1 < len(starts) else len(tokens)
        assign = _top_level_assign(tokens, first + 1, limit)
        if assign is None:
            return None
        end = tokens[_modifiers_index(tokens, limit)].start if limit < len(tokens) else len(text)
        found.append(Declaration(tokens[_modifiers_index(tokens, first)].start,
                                 tokens[assign].end, end))
    return found


def audit_text(text: str, *, allow_native_decide: bool = False) -> Audit:
    """The static rules on one complete file."""
    declarations = split_file(text)
    if declarations is None:
        return Audit(False, "structure", "", 0, 0,
                     "no theorem, lemma or example with ':=' starting a line")
    header_end = declarations[0].start
    header = text[:header_end]
    try:
        imports = parse_imports(header)
        check_imports(imports, DEFAULT_HEADER)
    except SourceError as exc:
        line, column = line_column(text, exc.offset)
        return Audit(False, "import", "", line, column, str(exc))
    # The module header is blanked rather than removed so that offsets stay those of the file.
    found = find_header_violation(imports.blanked(header),
                                  allow_native_decide=allow_native_decide)
    if found is not None:
        return _rejected(text, found, 0)
    for declaration in declarations:
        signature = text[declaration.start : declaration.body_start]
        found = find_header_violation(signature, allow_native_decide=allow_native_decide,
                                      column=_column(text, declaration.start))
        if found is not None:
            return _rejected(text, found, declaration.start)
        body = text[declaration.body_start : declaration.end]
        found = find_proof_violation(body, allow_native_decide=allow_native_decide,
                                     column=_column(text, declaration.body_start),
                                     names=bound_names(signature))
        if found is not None:
            return _rejected(text, found, declaration.body_start)
    return Audit(True)


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1)


def _rejected(text: str, found: Violation, base: int) -> Audit:
    line, column = line_column(text, base + found.start)
    span = found.span if len(found.span) <= 80 else found.span[:77] + "..."
    return Audit(False, found.rule, span, line, column, found.why)


def _modifiers_index(tokens: tuple[Token, ...], index: int) -> int:
    # `@[simp] private theorem …`: modifiers belong to the declaration, not to the header.
    start = index
    while start > 0 and tokens[start - 1].text in ("private", "protected", "noncomputable"):
        start -= 1
    if start > 0 and tokens[start - 1].text == "]":
        depth, k = 0, start - 1
        while k >= 0:
            if tokens[k].text in _CLOSE:
                depth += 1
            elif tokens[k].text in _OPEN:
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        if k >= 0 and tokens[k].text == "@[":
            start = k
    # `/-- doc -/ @[simp] theorem …`: the doc comment documents the declaration after it.
    if start > 0 and tokens[start - 1].kind == "doc" and tokens[start - 1].text == "/--":
        start -= 1
    return start


def _top_level_assign(tokens: tuple[Token, ...], start: int, limit: int) -> int | None:
    depth = 0
    for index in range(start, limit):
        text = tokens[index].text
        if tokens[index].kind != "sym":
            continue
        if text in _OPEN:
            depth += 1
        elif text in _CLOSE:
            depth = max(0, depth - 1)
        elif text == ":=" and depth == 0:
            return index
    return None
