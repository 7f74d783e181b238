"""Lean source text sent to the REPL: a task's header lines plus one declaration.

Imports cannot appear in a command that runs in the base environment, so a task's
``import`` lines are checked against the pool's header instead of being sent: Mathlib's own
modules and its dependencies are already imported; anything else cannot be provided.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck_lean.integrity import strip_resource_options
from afcheck_lean.statement import TARGET_NAME

_PROVIDED_ROOTS = ("Mathlib", "Aesop", "Init", "Std", "Batteries", "Qq", "ProofWidgets", "Lean")


class SourceError(ValueError):
    """A task header that cannot be used in the pool's environment."""


@dataclass(frozen=True)
class Source:
    """A command and where the pieces of it start."""

    text: str
    body_line: int
    """1-based line of the declaration inside ``text``."""
    axioms_line: int = 0
    """1-based line of ``#print axioms``; 0 when there is none."""

    def relative(self, line: int) -> str:
        """A message line as the user knows it: in the statement, or in the header."""
        if line >= self.body_line:
            return f"line {line - self.body_line + 1}"
        return f"header line {line}"


def header_lines(header: str, pool_header: str) -> str:
    """The task header without its imports and without resource options (afcheck's bounds,
    set by ``pool_header``, always win); :class:`SourceError` for an unavailable import."""
    provided = _imports(pool_header)
    kept = []
    for line in header.splitlines():
        stripped = line.strip()
        if stripped.startswith("import "):
            for module in stripped.split()[1:]:
                if not _is_provided(module, provided):
                    raise SourceError(
                        f"import {module} is not available (the Lean project provides "
                        f"{', '.join(sorted(provided))} and their dependencies)"
                    )
            continue
        kept.append(line)
    return strip_resource_options("\n".join(kept)).strip("\n")


def declaration_source(header: str, declaration: str, *, print_axioms: bool) -> Source:
    """``header`` (no imports), the declaration, and optionally ``#print axioms`` for it."""
    prefix = f"{header}\n\n" if header.strip() else ""
    body_line = prefix.count("\n") + 1
    text = f"{prefix}{declaration.rstrip()}\n"
    if not print_axioms:
        return Source(text, body_line)
    axioms_line = text.count("\n") + 2
    text = f"{text}\n#print axioms {TARGET_NAME}\n"
    return Source(text, body_line, axioms_line)


def _imports(header: str) -> set[str]:
    return {m for line in header.splitlines() if line.strip().startswith("import ")
            for m in line.split()[1:]}


def _is_provided(module: str, provided: set[str]) -> bool:
    root = re.split(r"\.", module, maxsplit=1)[0]
    if "Mathlib" in {p.split(".")[0] for p in provided}:
        return root in _PROVIDED_ROOTS
    return module in provided or root in {p.split(".")[0] for p in provided}
