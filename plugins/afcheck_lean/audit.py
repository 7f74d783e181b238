"""Auditing complete Lean files (header, theorem, proof) with the static integrity rules.

This is what ``afcheck lean audit`` runs on a model's proofs before any Lean time is spent:
the file is cut where Lean would cut it: the imports end where Lean's header parser ends them
(:func:`afcheck_lean.source.parse_imports`, comments read as spaces); the header runs up to
the first ``theorem``, ``lemma`` or ``example`` that starts a line together with its doc
comment, attributes, modifiers (``private nonrec``) and ``set_option … in`` / ``open … in``
prefixes (``«lemma»`` is a name, not a keyword); each such declaration's signature runs up to
its ``:=`` outside brackets and its proof from there to the next declaration, or to a line
that starts at column 0 with a scope command (``end``, ``namespace``, ``section``,
``open``), after which only such lines may stand. The header and the signatures go through the
header rules (with the statements known, so that a helper's ``local notation`` can be judged
and a header declaration that shadows a name a statement uses refused), every proof through
the proof rules, lexed at the column where it starts in the file (Lean's layout rules depend
on it). Every finding is reported at its line and column in the file.

This is a fast pre-filter, not the proof of integrity: a deny-list of text cannot be complete
for an extensible language. See ``docs/trust-model.md`` for what the Lean-side checks add.
"""

from __future__ import annotations

from dataclasses import dataclass

from afcheck.lean.lexer import Token, lex, line_column
from afcheck_lean.integrity import (
    CORE_NAMES,
    Violation,
    bound_names,
    declaration_start,
    find_header_violation,
    find_proof_violation,
    opens_scope,
    word_of,
)
from afcheck_lean.settings import DEFAULT_HEADER
from afcheck_lean.source import SourceError, check_imports, parse_imports

_DECLARATION_KEYWORDS = ("theorem", "lemma", "example")
_SCOPE_COMMANDS = frozenset({"end", "namespace", "section", "open"})
"""What may stand between a proof and the next declaration, each on a line of its own:
closing the namespace or section the theorem was in, opening the next one."""
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
    body_end: int = -1
    """Where the proof ends: at a line that starts at column 0 with ``end`` (the namespace
    or section around the theorem closing), ``namespace``, ``section`` or ``open``, else at
    :attr:`end`. What lies between is read by the scope rules (:func:`audit_text`)."""

    @property
    def proof_end(self) -> int:
        return self.end if self.body_end < 0 else self.body_end


def split_file(text: str) -> list[Declaration] | None:
    """The file's theorems, each cut at its top-level ``:=``; ``None`` when there is none or
    one has no ``:=``. Everything before the first is the header."""
    tokens = lex(text).tokens
    # A declaration starts a line, after its doc comment, attributes, modifiers and
    # `set_option … in` / `open … in` prefixes if any (`@[simp] theorem …`,
    # `open Real in theorem …` on one line): Lean reads them as one command.
    starts = [i for i, t in enumerate(tokens)
              if t.kind == "ident" and t.text in _DECLARATION_KEYWORDS and not t.escaped
              and _starts_command(tokens, declaration_start(tokens, i))]
    if not starts:
        return None
    found: list[Declaration] = []
    for number, first in enumerate(starts):
        limit = starts[number + 1] if number + 1 < len(starts) else len(tokens)
        assign = _top_level_assign(tokens, first + 1, limit)
        if assign is None:
            return None
        limit_start = declaration_start(tokens, limit) if limit < len(tokens) else len(tokens)
        end = tokens[limit_start].start if limit < len(tokens) else len(text)
        closing = next((k for k in range(assign + 1, limit_start)
                        if tokens[k].line_start and tokens[k].column == 0
                        and word_of(tokens[k]) in _SCOPE_COMMANDS), None)
        found.append(Declaration(tokens[declaration_start(tokens, first)].start,
                                 tokens[assign].end, end,
                                 -1 if closing is None else tokens[closing].start))
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
    signatures = [text[d.start : d.body_start] for d in declarations]
    found = find_header_violation(imports.blanked(header),
                                  allow_native_decide=allow_native_decide,
                                  statements="\n".join(_outside_scope(text, declarations)))
    if found is None:
        found = shadowing(header, signatures)
    if found is not None:
        return _rejected(text, found, 0)
    scopes = _open_scopes(lex(header).tokens, 0) or 0  # an `end` too many is Lean's error
    for declaration in declarations:
        signature = text[declaration.start : declaration.body_start]
        found = find_header_violation(signature, allow_native_decide=allow_native_decide,
                                      column=_column(text, declaration.start))
        if found is not None:
            return _rejected(text, found, declaration.start)
        body = text[declaration.body_start : declaration.proof_end]
        found = find_proof_violation(body, allow_native_decide=allow_native_decide,
                                     column=_column(text, declaration.body_start),
                                     names=bound_names(signature))
        if found is not None:
            return _rejected(text, found, declaration.body_start)
        if declaration.proof_end < declaration.end:
            trailer = text[declaration.proof_end : declaration.end]
            found = _scope_violation(trailer, scopes, allow_native_decide)
            if found is not None:
                return _rejected(text, found, declaration.proof_end)
            scopes = _open_scopes(lex(trailer).tokens, scopes) or 0
    return Audit(True)


_DECLARING = frozenset({"def", "abbrev", "theorem", "lemma", "structure", "class", "inductive",
                        "opaque", "irreducible_def", "instance", "axiom"})


def shadowing(header: str, signatures: list[str]) -> Violation | None:
    """A header declaration that shadows a name a statement uses: ``abbrev Nat := ZMod 1``
    (under that very name, or inside a namespace whose statements then read ``Nat`` as it),
    ``Cheat.Real.sqrt`` with ``open Cheat``. A name the header declares only for its
    statements (``def f``, ``structure Pt``) is what the statement means, not a shadow."""
    declared: list[tuple[str, Token]] = []
    namespaces: list[str] = []
    tokens = lex(header).tokens
    for index, token in enumerate(tokens):
        word = word_of(token)
        if opens_scope(tokens, index):
            named = word == "namespace" and index + 1 < len(tokens)
            namespaces.append(tokens[index + 1].text if named else "")
        elif token.line_start and word == "end" and namespaces:
            namespaces.pop()
        elif word in _DECLARING and index + 1 < len(tokens) and tokens[index + 1].kind == "ident":
            name = tokens[index + 1].text
            full = name.removeprefix("_root_.") if name.startswith("_root_.") else ".".join(
                [part for part in namespaces if part] + [name])
            declared.append((full, tokens[index + 1]))
    if not declared:
        return None
    own = {full.rsplit(".", 1)[-1] for full, _ in declared}
    used = {t.text for signature in signatures for t in lex(signature).tokens
            if t.kind == "ident"}
    for full, token in declared:
        for name in used:
            outside = name in CORE_NAMES or ("." in name and name.split(".")[0] not in own)
            if (full == name and name in CORE_NAMES) or (
                    full != name and full.endswith("." + name) and outside):
                return Violation("shadow", f"declares '{full}', which shadows '{name}' that a "
                                 "statement uses: the statement would mean the header's, not "
                                 "what it reads", token.text, token.start)
    return None


def _outside_scope(text: str, declarations: list[Declaration]) -> list[str]:
    """The signatures of the declarations outside the section or namespace still open where
    the header ends (every one when none is): the statements a ``local notation`` of the
    header must leave alone. Those inside are its helpers, which may use it."""
    depth = _open_scopes(lex(text[: declarations[0].start]).tokens, 0) or 0
    if depth == 0:
        return [text[d.start : d.body_start] for d in declarations]
    outside: list[str] = []
    level = depth
    for declaration in declarations:
        if level < depth:
            outside.append(text[declaration.start : declaration.body_start])
        trailer = lex(text[declaration.proof_end : declaration.end]).tokens
        level = _open_scopes(trailer, level) or 0
    return outside


def _starts_command(tokens: tuple[Token, ...], index: int) -> bool:
    """A line's start, or just after a module doc (`/-! … -/ theorem …`), which is a command
    of its own."""
    return tokens[index].line_start or (index > 0 and tokens[index - 1].text == "/-!")


def _open_scopes(tokens: tuple[Token, ...], opened: int) -> int | None:
    """How many namespaces and sections are open after ``tokens`` (``opened`` before them);
    ``None`` when an ``end`` closes one that is not."""
    for index, token in enumerate(tokens):
        if opens_scope(tokens, index):
            opened += 1
        elif token.line_start and word_of(token) == "end":
            opened -= 1
            if opened < 0:
                return None
    return opened


def _scope_violation(trailer: str, scopes: int, allow_native_decide: bool) -> Violation | None:
    """What follows a proof before the next declaration may only close the scope the theorem
    was in and open the next (``end Foo``, ``namespace Bar``, ``section``, ``open Baz``),
    each line one such command; anything else is a command after the proof."""
    tokens = lex(trailer).tokens
    for index, token in enumerate(tokens):
        if not token.line_start:
            continue
        if token.kind != "ident" or token.escaped or token.text not in _SCOPE_COMMANDS:
            return Violation("command", f"has a command after the proof ('{token.text}'): "
                             "only 'end', 'namespace', 'section' and 'open' lines may follow "
                             "it", token.text, token.start)
        line_end = next((k for k in range(index + 1, len(tokens)) if tokens[k].line_start),
                        len(tokens))
        words = tokens[index + 1 : line_end]
        if any(w.kind != "ident" or word_of(w) == "in" for w in words) or (
                token.text != "open" and len(words) > 1):
            return Violation("command", f"has more than a scope's name after "
                             f"'{token.text}' after the proof",
                             trailer[token.start : tokens[line_end - 1].end],
                             token.start)
        if token.text == "end" and scopes <= 0:
            return Violation("command", "has 'end' after the proof, closing no namespace or "
                             "section (a command after the proof)", token.text, token.start)
        scopes += {"end": -1, "namespace": 1, "section": 1}.get(token.text, 0)
    return find_header_violation(trailer, allow_native_decide=allow_native_decide)


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1)


def _rejected(text: str, found: Violation, base: int) -> Audit:
    line, column = line_column(text, base + found.start)
    span = found.span if len(found.span) <= 80 else found.span[:77] + "..."
    return Audit(False, found.rule, span, line, column, found.why)


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
