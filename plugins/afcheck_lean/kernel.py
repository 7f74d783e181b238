"""Kernel-side checks after Lean has elaborated a checked theorem.

The static audit reads text; these read what Lean built. They use the two commands of the
Lean module ``AfcheckKernel`` (``lean/AfcheckKernel.lean``, built by ``afcheck lean setup``):

- ``#afcheck_replay``, after the checked theorem in the same command: every theorem,
  definition and opaque constant the command added is re-checked by the kernel
  (lean4checker's method), so a declaration added past the kernel — which ``#print axioms``
  does not see — is found;
- ``#afcheck_type NAME``: the proved constant's type with every constant and instance named
  in full. The same is printed for afcheck's own statement elaborated in a clean environment
  (:func:`reference_source`): the two must be equal, so a header that redefines a numeral, a
  notation or a name cannot change what was proved.

The module is imported by the REPL's header only when it is built (:func:`kernel_available`);
without it the checks are skipped and the verdict says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from afcheck.lean.lexer import lex
from afcheck_lean.settings import LeanSettings

MODULE = "AfcheckKernel"
REPLAY_COMMAND = "#afcheck_replay"
REFERENCE_NAME = "afcheck_reference"

_REPLAY = re.compile(r"^afcheck-replay: (?:ok (?P<checked>\d+) checked, (?P<skipped>\d+) not "
                     r"replayed|rejected (?P<name>\S+): (?P<why>.*))$", re.DOTALL)
_TYPE = re.compile(r"^afcheck-type (?P<name>\S+): (?P<type>.*)$", re.DOTALL)
_DECLARING = frozenset({"def", "abbrev", "theorem", "lemma", "structure", "class", "inductive",
                        "opaque", "instance", "irreducible_def"})


def kernel_available(project: Path) -> bool:
    """Whether ``AfcheckKernel`` is built in ``project`` (its ``.olean`` exists)."""
    return (project / ".lake" / "build" / "lib" / f"{MODULE}.olean").is_file()


def with_kernel_checks(settings: LeanSettings) -> LeanSettings:
    """``settings`` with ``kernel_checks`` decided (``auto`` → on when the module is built)
    and, when on, ``import AfcheckKernel`` first in the REPL's header."""
    on = settings.kernel_checks == "on" or (
        settings.kernel_checks == "auto" and kernel_available(settings.project))
    if not on:
        return replace(settings, kernel_checks="off")
    header = settings.header
    if f"import {MODULE}" not in header.split("\n"):
        header = f"import {MODULE}\n{header}"
    return replace(settings, kernel_checks="on", header=header)


def type_command(name: str) -> str:
    return f"#afcheck_type {name}"


@dataclass(frozen=True)
class Replay:
    """What ``#afcheck_replay`` answered."""

    ok: bool
    checked: int = 0
    skipped: int = 0
    rejected: str = ""
    """The constant the kernel rejected."""
    why: str = ""


def parse_replay(info: str) -> Replay | None:
    """A :class:`Replay` from one info message, or ``None`` when it is not one."""
    match = _REPLAY.match(info.strip())
    if match is None:
        return None
    if match.group("name"):
        return Replay(False, rejected=match.group("name"), why=match.group("why").strip())
    return Replay(True, int(match.group("checked")), int(match.group("skipped")))


def parse_type(info: str, name: str) -> str | None:
    """The printed type of ``name`` from one info message, or ``None``."""
    match = _TYPE.match(info.strip())
    if match is None or match.group("name") != name:
        return None
    text = match.group("type").strip()
    return None if text == "unknown constant" else text


def declared_names(header: str) -> frozenset[str]:
    """Names a header declares (after ``def``, ``abbrev``, ``structure`` …)."""
    tokens = lex(header).tokens
    return frozenset(
        tokens[i + 1].text for i in range(len(tokens) - 1)
        if tokens[i].kind == "ident" and tokens[i].text in _DECLARING
        and tokens[i + 1].kind == "ident"
    )


def reference_header(header: str, signature: str) -> str:
    """The header afcheck's own statement is elaborated under for the comparison.

    When the statement names something the formaliser's header declares, the header is part
    of the statement and is kept whole (it has passed the header rules: no instances, no
    notation, no look-alike names). Otherwise only its ``open`` lines are kept: a clean
    environment in which the same text must mean the same thing."""
    declared = declared_names(header)
    used = {t.text for t in lex(signature).tokens if t.kind == "ident"}
    used |= {name.rsplit(".", 1)[-1] for name in used}
    if declared & used:
        return header
    return "\n".join(line for line in header.splitlines() if line.strip().startswith("open "))


def reference_source(header: str, signature: str) -> tuple[str, int]:
    """The command that elaborates afcheck's statement in the clean environment and prints its
    type, and the line of that print."""
    prefix = reference_header(header, signature)
    prefix = f"{prefix}\n\n" if prefix.strip() else ""
    theorem = f"theorem {REFERENCE_NAME} {signature.strip()} := by sorry\n"
    text = f"{prefix}{theorem}\n{type_command(REFERENCE_NAME)}\n"
    return text, text.count("\n")
