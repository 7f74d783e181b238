"""Lean source text sent to the REPL: a task's header lines plus one declaration.

Imports cannot appear in a command that runs in the base environment, so a task's
``import`` lines are checked against the pool's header instead of being sent: Mathlib's own
modules and its dependencies are already imported; anything else cannot be provided.
Imports are read as Lean's header parser reads them (:func:`parse_imports`): tokens, with
comments as whitespace, so ``import Mathlib/- -/axiom cheat : False`` is one import followed
by an axiom, which then goes through the header rules like any other command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck.lean.lexer import lex
from afcheck_lean.integrity import strip_resource_options
from afcheck_lean.statement import TARGET_NAME

_PROVIDED_ROOTS = ("Mathlib", "Aesop", "Init", "Std", "Batteries", "Qq", "ProofWidgets", "Lean")


class SourceError(ValueError):
    """A task header that cannot be used in the pool's environment."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset
        """Where in the header the problem is."""


@dataclass(frozen=True)
class Source:
    """A command and where the pieces of it start."""

    text: str
    body_line: int
    """1-based line of the declaration inside ``text``."""
    axioms_line: int = 0
    """1-based line of ``#print axioms``; 0 when there is none."""
    replay_line: int = 0
    """1-based line of ``#afcheck_replay`` (:mod:`afcheck_lean.kernel`); 0 when there is none."""
    type_line: int = 0
    """1-based line of ``#afcheck_type`` for the checked theorem; 0 when there is none."""

    def relative(self, line: int) -> str:
        """A message line as the user knows it: in the statement, or in the header."""
        if line >= self.body_line:
            return f"line {line - self.body_line + 1}"
        return f"header line {line}"


@dataclass(frozen=True)
class Import:
    """One imported module and the offset of its name."""

    module: str
    start: int


@dataclass(frozen=True)
class Imports:
    """A file's module header: its imports and where the commands after them start."""

    modules: tuple[Import, ...]
    end: int
    """Offset just after the last module name (0 when there is no import): everything from
    here on is commands, even on the same line."""

    def blanked(self, text: str) -> str:
        """``text`` with the module header turned into spaces (newlines kept), so that offsets,
        lines and columns of what follows stay those of the file."""
        head = "".join(ch if ch == "\n" else " " for ch in text[: self.end])
        return head + text[self.end :]


def parse_imports(text: str) -> Imports:
    """The ``import`` commands at the start of ``text``, read as Lean's header parser reads
    them: an optional ``prelude``, then ``import`` tokens each followed by a module name, with
    comments wherever whitespace may be; :class:`SourceError` for an ``import`` without a
    module name."""
    tokens = lex(text).tokens
    index, end, found = 0, 0, []
    first = tokens[0] if tokens else None
    if first is not None and first.kind == "ident" and first.text == "prelude" \
            and not first.escaped:
        index, end = 1, tokens[0].end
    while index < len(tokens) and tokens[index].kind == "ident" and not tokens[index].escaped \
            and tokens[index].text == "import":
        if index + 1 >= len(tokens) or tokens[index + 1].kind != "ident":
            raise SourceError("'import' is not followed by a module name",
                              tokens[index].start)
        module = tokens[index + 1]
        found.append(Import(module.text, module.start))
        end = module.end
        index += 2
    return Imports(tuple(found), end)


def header_lines(header: str, pool_header: str) -> str:
    """The task header without its imports and without resource options (afcheck's bounds,
    set by ``pool_header``, always win); :class:`SourceError` for an unavailable import."""
    imports = parse_imports(header)
    check_imports(imports, pool_header)
    kept = "\n".join(line.rstrip() for line in imports.blanked(header).split("\n"))
    return strip_resource_options(kept).strip("\n")


def check_imports(imports: Imports, pool_header: str) -> None:
    """:class:`SourceError` (at the module's offset) for the first module ``pool_header``
    does not provide."""
    provided = _imports(pool_header)
    for imported in imports.modules:
        if not _is_provided(imported.module, provided):
            raise SourceError(
                f"import {imported.module} is not available (the Lean project provides "
                f"{', '.join(sorted(provided))} and their dependencies)", imported.start)


def declaration_source(header: str, declaration: str, *, print_axioms: bool,
                       kernel: bool = False) -> Source:
    """``header`` (no imports), the declaration, and optionally ``#print axioms`` for it and
    (``kernel``) the replay and the type print of :mod:`afcheck_lean.kernel`."""
    prefix = f"{header}\n\n" if header.strip() else ""
    body_line = prefix.count("\n") + 1
    text = f"{prefix}{declaration.rstrip()}\n"
    if not print_axioms:
        return Source(text, body_line)
    axioms_line = text.count("\n") + 2
    text = f"{text}\n#print axioms {TARGET_NAME}\n"
    if not kernel:
        return Source(text, body_line, axioms_line)
    replay_line, type_line = axioms_line + 1, axioms_line + 2
    text = f"{text}#afcheck_replay\n#afcheck_type {TARGET_NAME}\n"
    return Source(text, body_line, axioms_line, replay_line, type_line)


def _imports(header: str) -> set[str]:
    return {imported.module for imported in parse_imports(header).modules}


def _is_provided(module: str, provided: set[str]) -> bool:
    root = re.split(r"\.", module, maxsplit=1)[0]
    if "Mathlib" in {p.split(".")[0] for p in provided}:
        return root in _PROVIDED_ROOTS
    return module in provided or root in {p.split(".")[0] for p in provided}
