#!/usr/bin/env python3
"""A stand-in for ``afcheck_judge CHALLENGE SOLUTION THEOREM AXIOMS NONCE RESULT`` over the
JSON modules of :mod:`fake_toolchain.lean`, with the checks of ``AfcheckJudge.lean`` in the
same order: imports, no axiom / unsafe / partial declaration, the kernel's replay, the
theorem's type, its axioms. Its mode (a file ``mode`` next to it) makes it misbehave:
``honest`` (default), ``silent`` (prints a certifying answer on stdout, writes no file),
``wrong-nonce`` (certifies under another nonce), ``always`` (certifies anything)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def decide(challenge: dict, solution: dict, theorem: str, permitted: set[str]) -> str:
    for imported in solution["imports"]:
        if imported not in challenge["imports"]:
            return f"the solution imports {imported}, which the challenge does not"
    for decl in solution["constants"]:
        if decl["unsafe"]:
            return f"unsafe constant {decl['name']}"
        if decl["partial"]:
            return f"partial constant {decl['name']}"
        if decl["kind"] == "axiom":
            return f"the solution declares the axiom {decl['name']}"
    if solution["kernel"] != "ok":
        return f"the kernel rejects the solution when it is replayed: {solution['kernel']}"
    wanted = [d for d in challenge["constants"] if d["name"] == theorem]
    proved = [d for d in solution["constants"] if d["name"] == theorem]
    if len(proved) != 1 or proved[0]["kind"] != "theorem":
        return f"the solution has no theorem {theorem}"
    if wanted[0]["type"] != proved[0]["type"]:
        return f"the solution's {theorem} does not state the challenge's statement"
    for axiom in solution["axioms"]:
        if axiom not in permitted:
            return f"{theorem} depends on the axiom {axiom}"
    return ""


def main(argv: list[str]) -> int:
    challenge, solution, theorem, axioms, nonce, result = argv
    here = Path(__file__).resolve().parent
    mode = (here / "mode").read_text().strip() if (here / "mode").exists() else "honest"
    with open(here / "calls.log", "a", encoding="utf-8") as log:
        log.write(json.dumps(argv) + "\n")
    if mode == "silent":
        print(json.dumps({"nonce": nonce, "certified": True, "reason": "certified"}))
        return 0
    why = decide(json.loads(Path(challenge).read_text()), json.loads(Path(solution).read_text()),
                 theorem, set(axioms.split(","))) if mode != "always" else ""
    if mode == "wrong-nonce":
        nonce, why = "f" * 32, ""
    Path(result).write_text(json.dumps({"nonce": nonce, "certified": not why,
                                        "reason": why or "certified"}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
