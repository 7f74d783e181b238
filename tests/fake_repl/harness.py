"""Wires lean-interact's real ``LeanServer`` to the fake REPL: a ``lake`` that only knows
``lake env <repl>``, and a prebuilt-REPL folder whose binary is :mod:`fake_repl.repl`."""

from __future__ import annotations

import json
import shlex
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from afcheck_lean.pool import ReplPool
from afcheck_lean.session import lean_interact_starter
from afcheck_lean.settings import LeanSettings

HERE = Path(__file__).resolve().parent
TRANSCRIPT = HERE / "transcript.jsonl"
TOOLCHAIN = "leanprover/lean4:v4.9.0\n"


@dataclass(frozen=True)
class FakeLean:
    settings: LeanSettings
    log: Path

    def pool(self, **changes: Any) -> ReplPool:
        settings = replace(self.settings, **changes)
        return ReplPool(lean_interact_starter(settings), settings)

    def requests(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def commands(self) -> list[str]:
        return [str(r["request"]["cmd"]) for r in self.requests()]


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def make_fake_lean(root: Path, transcript: Path = TRANSCRIPT) -> Iterator[FakeLean]:
    """Build the fake installation under ``root``; set the fake REPL's environment."""
    project, repl, lake = root / "project", root / "repl", root / "bin" / "lake"
    project.mkdir(parents=True)
    (project / "lean-toolchain").write_text(TOOLCHAIN)
    (project / "lakefile.lean").write_text("import Lake\n")
    (repl / ".lake" / "build" / "bin").mkdir(parents=True)
    (repl / "lean-toolchain").write_text(TOOLCHAIN)
    log = root / "requests.jsonl"
    # The binary carries its configuration, as a real REPL build does: the sandbox clears
    # the environment of every Lean process.
    _executable(repl / ".lake" / "build" / "bin" / "repl",
                f"#!/bin/sh\nFAKE_REPL_TRANSCRIPT={shlex.quote(str(transcript))} "
                f"FAKE_REPL_LOG={shlex.quote(str(log))} exec {sys.executable} "
                f"{HERE / 'repl.py'}\n")
    _executable(lake, "#!/bin/sh\n"
                'if [ "$1" = "--version" ]; then echo "Lake version 5.0.0 (Lean version 4.9.0)";'
                " exit 0; fi\n"
                '[ "$1" = "env" ] || { echo "fake lake: only env" >&2; exit 2; }\n'
                'shift\nexec "$@"\n')
    # The fake REPL runs from the test tree and logs every request into `root`, which a
    # namespace sandbox would hide or make read-only: it runs with the limits, the cleared
    # environment and the timeouts only (the namespaces are tested in
    # tests/test_lean_backend_sandbox.py).
    settings = LeanSettings(project=project, repl_dir=repl, lake=str(lake), workers=1,
                            timeout_s=10.0, header_timeout_s=10.0, memory_mb=0, sandbox="off")
    yield FakeLean(settings, log)


def negate_for_tests(statement: str) -> str:
    """The paper's negation, for the statements of these tests only."""
    from afcheck_lean.statement import split_statement

    parts = split_statement(statement)
    sig = parts.signature
    depth = 0
    for i, ch in enumerate(sig):
        depth += ch in "([{⦃"
        depth -= ch in ")]}⦄"
        if depth == 0 and ch == ":":
            binders, body = sig[:i].strip(), sig[i + 1 :].strip()
            break
    else:
        raise ValueError(statement)
    inner = f"¬(∀ {binders}, {body})" if binders else f"¬({body})"
    return f"theorem {parts.name or 'neg'} : {inner} := by sorry"


def accept_all_transcript(root: Path) -> Path:
    """A transcript under which Lean accepts every command with the standard axioms: what
    is rejected under it is rejected by afcheck's own rules alone."""
    rules = [
        {"env": "none", "contains": ["import Mathlib"], "response": {"env": "$ENV"}},
        {"contains": ["#print axioms"], "response": {"env": "$ENV", "messages": [{
            "severity": "info", "pos": {"line": "$LINE_OF:#print axioms", "column": 0},
            "data": "'afcheck_target' depends on axioms: [propext, Classical.choice, Quot.sound]",
        }]}},
    ]
    path = root / "accept_all.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rules))
    return path
