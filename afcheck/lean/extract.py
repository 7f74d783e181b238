"""Find the one theorem statement in a formaliser's raw output.

Model output is prose around fenced code blocks, or plain Lean. The statement is the
declaration with the requested name when there is one, otherwise the last ``theorem`` (else
``lemma``, else ``example``) of the last code block that has one: models revise themselves,
so the last attempt is the answer, and a lemma or example written after it is a helper or a
test, not the answer. Its proof is replaced by ``by sorry``.
Everything else that Lean would need to read it comes back separately: the header commands,
and auxiliary definitions, which are reported rather than dropped so a caller can tell that
the statement depends on something the prover does not know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Extracted", "ExtractionError", "extract_statement", "strip_comments"]


class ExtractionError(ValueError):
    """Nothing extractable; ``str(error)`` is a one-line reason."""


@dataclass(frozen=True)
class Extracted:
    """A theorem statement taken out of raw text."""

    statement: str
    """One theorem statement, proof stripped, ending with ``:= by sorry``."""
    header: str
    """``import`` / ``open`` / ``set_option`` / ``namespace`` … lines, in order, one per line."""
    name: str
    """The theorem name; ``""`` for ``example``."""
    keyword: str
    """``theorem``, ``lemma`` or ``example``."""
    auxiliary: tuple[str, ...] = ()
    """Auxiliary declarations (``def``, ``abbrev``, ``instance`` …) that precede the statement."""

    @property
    def preamble(self) -> str:
        """What the statement needs before it: the header, then the auxiliary declarations."""
        return "\n\n".join(part for part in (self.header, *self.auxiliary) if part)


_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
_THEOREM_KEYWORDS = ("theorem", "lemma", "example")
_HEADER_KEYWORDS = (
    "import",
    "open",
    "set_option",
    "namespace",
    "section",
    "end",
    "universe",
    "universes",
    "variable",
    "variables",
    "noncomputable section",
)
_AUX_KEYWORDS = (
    "def",
    "abbrev",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "macro",
    "notation",
    "infix",
    "infixl",
    "infixr",
    "prefix",
    "postfix",
    "local",
    "scoped",
    "attribute",
    "syntax",
    "macro_rules",
    "elab",
    "mutual",
)
_MODIFIERS = ("private", "protected", "noncomputable", "unsafe", "partial", "nonrec")
_ATTRIBUTE = re.compile(r"@\[[^\]]*\]\s*")
_KEYWORD_RE = re.compile(r"\b(theorem|lemma|example)\b")
_OPEN = "([{⟨⦃"
_CLOSE = ")]}⟩⦄"


def strip_comments(text: str) -> str:
    """``text`` with Lean comments (``-- …``, nested ``/- … -/``, docstrings) blanked out.

    String literals are kept intact, so ``"--"`` inside a string is not a comment.
    """
    out: list[str] = []
    i, n, depth = 0, len(text), 0
    while i < n:
        if depth:
            if text.startswith("/-", i):
                depth += 1
                i += 2
            elif text.startswith("-/", i):
                depth -= 1
                i += 2
            else:
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        if text.startswith("/-", i):
            depth, i = 1, i + 2
            out.append("  ")
        elif text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text[i] == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def extract_statement(text: str, name: str | None = None) -> Extracted:
    """The statement in ``text`` (raw model output or Lean source): the last declaration
    named ``name`` when given and present, else the last theorem, lemma or example, in that
    order of preference.

    Raises :class:`ExtractionError` when there is none, or when it has no type.
    """
    source = _choose_source(text, name)
    commands = _split_commands(strip_comments(source))
    chosen = _choose(commands, name)
    if chosen is None and commands:
        start = _declaration_in_prose(commands[-1])
        if start is not None:
            # The declaration starts mid-line, after prose: take it from its keyword on.
            last = commands[-1]
            commands[-1:] = [last[:start], last[start:]]
            chosen = len(commands) - 1
    if chosen is None:
        raise ExtractionError("no theorem, lemma or example declaration found in the output")
    header: list[str] = []
    auxiliary: list[str] = []
    for command in commands[:chosen]:
        kind = _command_kind(command)
        if kind == "header":
            header.append(" ".join(command.split()))
        elif kind == "aux":
            auxiliary.append(command.strip())
    keyword, name, statement = _strip_proof(commands[chosen])
    return Extracted(
        statement=statement,
        header="\n".join(header),
        name=name,
        keyword=keyword,
        auxiliary=tuple(auxiliary),
    )


def _choose_source(text: str, name: str | None) -> str:
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    with_theorem = []
    for block in blocks:
        commands = _split_commands(strip_comments(block))
        if any(_theorem_keyword(c) for c in commands):
            with_theorem.append((block, name is not None and name in map(_declared_name,
                                                                        commands)))
    named = [block for block, has_name in with_theorem if has_name]
    if named:
        return named[-1]
    if with_theorem:
        return with_theorem[-1][0]
    return text


def _choose(commands: list[str], name: str | None) -> int | None:
    """Index of the statement among ``commands``: the last one named ``name``, else the last
    theorem, else the last lemma, else the last example."""
    found: dict[str, int] = {}
    for index, command in enumerate(commands):
        keyword = _theorem_keyword(command)
        if keyword is None:
            continue
        found[keyword] = index
        if name is not None and _declared_name(command) == name:
            found["named"] = index
    for kind in ("named", "theorem", "lemma", "example"):
        if kind in found:
            return found[kind]
    return None


def _declared_name(command: str) -> str:
    """The name a theorem or lemma command declares; ``""`` for anything else."""
    if _theorem_keyword(command) not in ("theorem", "lemma"):
        return ""
    body = _ATTRIBUTE.sub("", command.strip())
    match = _KEYWORD_RE.search(body)
    rest = body[match.end():] if match else ""
    name = re.match(r"\s*([^\s(\[{⦃:]+)", rest)
    return name.group(1) if name else ""


_PROSE_BEFORE_EXAMPLE = re.compile(r"\b(?:for|an|another|this|the|one|see)\W*$", re.I)


def _declaration_in_prose(line: str) -> int | None:
    """Where a declaration that follows prose on the same line starts (``Answer: theorem x :
    … := …``); ``None`` when the keyword is prose itself (``For example: 2 + 2 = 4``). Only a
    keyword followed by a proof (a top-level ``:=``) counts: prose has none."""
    for match in reversed(list(_KEYWORD_RE.finditer(line))):
        if match.group(1) == "example" and _PROSE_BEFORE_EXAMPLE.search(line[: match.start()]):
            continue
        if _proof_index(line[match.end():]) is not None:
            return match.start()
    return None


def _first_word(line: str) -> str:
    line = _ATTRIBUTE.sub("", line.strip())
    words = line.split()
    while words and words[0] in _MODIFIERS:
        if words[0] == "noncomputable" and len(words) > 1 and words[1] == "section":
            return "noncomputable section"
        words = words[1:]
    return words[0] if words else ""


def _is_command_start(line: str) -> bool:
    if not line.strip():
        return False
    word = _first_word(line)
    if line[0].isspace():
        # Indented theorems occur inside namespaces and sections; other indented words
        # belong to a proof or a wrapped statement.
        return word in _THEOREM_KEYWORDS
    return (
        word in _THEOREM_KEYWORDS
        or word in _HEADER_KEYWORDS
        or word in _AUX_KEYWORDS
        or line.startswith("@[")
        or line.startswith("#")
    )


def _split_commands(text: str) -> list[str]:
    """Top-level commands: each starts on an unindented line that begins with a command word."""
    commands: list[list[str]] = []
    for line in text.splitlines():
        if _is_command_start(line) or not commands:
            commands.append([line])
        else:
            commands[-1].append(line)
    return ["\n".join(c) for c in commands if "\n".join(c).strip()]


def _command_kind(command: str) -> str:
    word = _first_word(command)
    if word in _HEADER_KEYWORDS:
        return "header"
    if word in _AUX_KEYWORDS:
        return "aux"
    return "other"


def _theorem_keyword(command: str) -> str | None:
    word = _first_word(command)
    return word if word in _THEOREM_KEYWORDS else None


def _strip_proof(command: str) -> tuple[str, str, str]:
    """``(keyword, name, statement)`` with the proof replaced by ``by sorry``."""
    body = _ATTRIBUTE.sub("", command.strip())
    match = _KEYWORD_RE.search(body)
    assert match is not None
    keyword = match.group(1)
    rest = body[match.end() :]
    name = ""
    if keyword != "example":
        name_match = re.match(r"\s*([^\s(\[{⦃:]+)", rest)
        if name_match is None:
            raise ExtractionError(f"`{keyword}` without a name")
        name = name_match.group(1)
        rest = rest[name_match.end() :]
    signature = _before_proof(rest)
    if _top_level_index(signature, ":") is None:
        label = f"{keyword} {name}".strip()
        raise ExtractionError(f"declaration `{label}` has no type (no top-level ':')")
    signature = signature.rstrip()
    if not signature.split(":")[-1].strip():
        raise ExtractionError(f"{keyword} {name}: the statement after ':' is empty".strip())
    head = f"{keyword} {name}" if name else keyword
    return keyword, name, f"{head}{_with_space(signature)} := by sorry"


def _with_space(signature: str) -> str:
    stripped = signature.strip()
    return " " + stripped if stripped else ""


def _before_proof(rest: str) -> str:
    """The signature part of a declaration: up to the ``:=`` that starts its proof.

    Without ``:=`` a trailing ``by`` (a proof cut off after its first word) is dropped.
    """
    index = _proof_index(rest)
    if index is not None:
        return rest[:index]
    trimmed = rest.rstrip()
    if re.search(r"(^|\s)by$", trimmed):
        trimmed = trimmed[: -len("by")]
    return trimmed


_LOCAL_DEFINITION = re.compile(r"(?<![\w.'])(?:let|have|letI|haveI)(?![\w'!?])")


def _proof_index(text: str) -> int | None:
    """Index of the top-level ``:=`` that starts the proof: a ``let x := 5;`` or ``have h :=
    …`` inside the statement owns the next ``:=``, which is part of the type."""
    owed = 0
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _string_end(text, i)
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(":=", i):
            if owed == 0:
                return i
            owed -= 1
            i += 2
            continue
        elif depth == 0 and ch in "lh" and _LOCAL_DEFINITION.match(text, i):
            owed += 1
        i += 1
    return None


def _top_level_index(text: str, token: str) -> int | None:
    """Index of the first ``token`` outside brackets; ``:`` does not match ``:=``."""
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _string_end(text, i)
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(token, i):
            if token == ":" and text.startswith(":=", i):
                i += 2
                continue
            return i
        i += 1
    return None
