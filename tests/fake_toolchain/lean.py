#!/usr/bin/env python3
"""A stand-in for ``lean -o OUT FILE``: "elaborates" FILE into a JSON module and behaves as
adversarial code run during elaboration would.

The module records what a real ``.olean`` holds and a judge reads: the imports, every
declaration (kind, name, type, modifiers), the axioms the target theorem rests on, and what
the kernel says when the declarations are replayed (a declaration added past the kernel, one
with metavariables). Those facts are read from the source the way Lean would produce them:
``sorry`` → ``sorryAx``, ``native_decide`` → ``Lean.ofReduceBool``, a declared axiom used →
that axiom, ``addDeclWithoutChecking`` → a declaration the kernel rejects on replay, a false
numeral equation ``(a : ℕ) = b`` proved without ``sorry`` → an elaboration error (exit
status 1).

Whatever the file, it prints, to stdout and stderr, replies forged in the REPL's shape
(a clean ``#print axioms``, a replay "ok", ``afcheck-type`` lines, a judge-shaped result)
and reads the parent's environment; it tries to write outside its scratch directory (next
to it, where a judge's directory would be), and with markers:
``fake:error`` fails as Lean does on an error; ``fake:connect:PORT`` connects to
127.0.0.1:PORT; ``fake:linger`` leaves a process that keeps writing forged result files
into every directory it can find next to its scratch for 3 seconds.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

FORGED = [
    '{"env": 1, "messages": [{"severity": "info", "data": "\'afcheck_target\' depends on axioms: '
    '[propext, Classical.choice, Quot.sound]"}]}',
    "afcheck-replay: ok 3 checked, 0 not replayed",
    "afcheck-type afcheck_target: forged",
    '{"nonce": "0000", "certified": true, "reason": "certified"}',
]
_DECL = re.compile(r"^(?P<attrs>@\[[^\]]*\]\s*)?(?P<mods>(?:(?:private|protected|noncomputable|"
                   r"unsafe|partial|nonrec)\s+)*)(?P<kind>theorem|lemma|def|axiom|opaque|"
                   r"instance|abbrev|inductive|structure)\s+(?P<name>[^\s:(\[{]+)"
                   r"(?P<rest>.*)$")


def declarations(text: str) -> list[dict[str, object]]:
    out = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        match = _DECL.match(line)
        if match is None:
            continue
        rest = " ".join([match.group("rest"), *lines[index + 1:index + 6]])
        signature = rest.split(":=", 1)[0]
        out.append({"name": match.group("name"), "kind": match.group("kind"),
                    "type": " ".join(signature.split()),
                    "unsafe": "unsafe" in match.group("mods").split(),
                    "partial": "partial" in match.group("mods").split(),
                    "attrs": (match.group("attrs") or "").strip()})
    return out


def axioms_of(text: str, decls: list[dict[str, object]]) -> list[str]:
    found = {"propext"}
    if re.search(r"\b(sorry|admit|sorryAx)\b", text):
        found.add("sorryAx")
    if re.search(r"native_decide|decide \+native|ofReduceBool", text):
        found.add("Lean.ofReduceBool")
    for decl in decls:
        name = str(decl["name"])
        if decl["kind"] == "axiom" and len(re.findall(rf"\b{re.escape(name)}\b", text)) > 1:
            found.add(name)
    return sorted(found)


def kernel_of(text: str) -> str:
    if re.search(r"addDeclWithoutChecking|skipKernelTC", text):
        return "rejected: (kernel) declaration type mismatch"
    if re.search(r"mkFreshExprMVar|mkMVar", text):
        return "rejected: (kernel) declaration has metavariables"
    return "ok"


def false_numeral(decls: list[dict[str, object]]) -> bool:
    for decl in decls:
        match = re.search(r"\(\s*(\d+)\s*:\s*ℕ\s*\)\s*=\s*(\d+)\s*$", str(decl["type"]))
        if decl["kind"] == "theorem" and match and match.group(1) != match.group(2):
            return True
    return False


def adversary(text: str, scratch: Path) -> None:
    for line in FORGED + [f"env: {os.environ.get('AFCHECK_FAKE_SECRET', '')}"]:
        print(line)
        print(line, file=sys.stderr)
    for target in (scratch.parent / "escaped.txt", scratch.parent / "judge-0" / "judgement.json"):
        try:
            target.parent.mkdir(exist_ok=True)
            target.write_text(FORGED[-1])
        except OSError:
            pass
    connect = re.search(r"fake:connect:(\d+)", text)
    if connect:
        try:
            with socket.create_connection(("127.0.0.1", int(connect.group(1))), timeout=2) as s:
                s.sendall(os.environ.get("AFCHECK_FAKE_SECRET", "none").encode())
        except OSError:
            pass
    if "fake:linger" in text:
        subprocess.Popen([sys.executable, __file__, "--linger", str(scratch.parent)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)


def linger(root: Path) -> None:
    end = time.monotonic() + 3
    while time.monotonic() < end:
        for directory in root.glob("judge-*"):
            try:
                (directory / "judgement.json").write_text(FORGED[-1])
            except OSError:
                pass
        (root / "lingered.txt").write_text("a process of the candidate outlived its compilation")
        time.sleep(0.05)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--linger"]:
        linger(Path(argv[1]))
        return 0
    out = Path(argv[argv.index("-o") + 1])
    source = Path(argv[-1])
    text = source.read_text(encoding="utf-8")
    adversary(text, source.parent)
    decls = declarations(text)
    # A false equation has no proof: Lean reports an error, unless the proof is `sorry`.
    if "fake:error" in text or (false_numeral(decls) and "sorry" not in text):
        print(f"{source}:1:0: error: type mismatch", file=sys.stderr)
        return 1
    module = {"imports": re.findall(r"^import\s+(\S+)", text, re.MULTILINE),
              "constants": decls, "axioms": axioms_of(text, decls), "kernel": kernel_of(text)}
    out.write_text(json.dumps(module), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
