#!/usr/bin/env python3
"""A stand-in for the Lean REPL binary that speaks its JSON protocol from transcripts.

Protocol (leanprover-community/repl): one JSON request per block, blocks separated by a
blank line; one JSON answer (pretty-printed) followed by a blank line. Every command makes a
new environment id (0, 1, …, per process); ``env`` must name an existing one, and ``import``
is only allowed in a command without ``env``.

Answers come from the transcript file named by ``FAKE_REPL_TRANSCRIPT`` (JSON lines):
``{"contains": ["…", …], "env": "none"|"any", "response": {…}}``; the first rule whose
strings all occur in the command wins. In a response, ``"$ENV"`` becomes the new
environment id and ``"$LINE_OF:<text>"`` the first line of the command containing ``<text>``
(positions shift with the header lines the client prepends). A command
no rule matches gets an error, as an unknown construct would.

Simulated failures, triggered by a marker in the command text:
``fake:timeout`` never answers, ``fake:slow`` answers as recorded after 0.4 s (a command
Lean elaborates slowly), ``fake:crash`` exits without answering (uncaught exception),
``fake:oom`` allocates until the address-space limit stops it and then fails the way Lean's
runtime does (``INTERNAL PANIC: out of memory``).

Every request is appended to ``FAKE_REPL_LOG`` (JSON lines with the process id), when set.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

STATE = {"next_env": 0}
SLOW_S = 0.4


def load_rules() -> list[dict[str, Any]]:
    path = os.environ.get("FAKE_REPL_TRANSCRIPT")
    if not path:
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_request() -> str | None:
    lines: list[str] = []
    while True:
        line = sys.stdin.readline()
        if not line:
            return "\n".join(lines) if lines else None
        if not line.strip():
            if lines:
                return "\n".join(lines)
            continue
        lines.append(line.rstrip("\n"))


def log(request: dict[str, Any]) -> None:
    path = os.environ.get("FAKE_REPL_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"pid": os.getpid(), "request": request}) + "\n")


def simulate_failures(cmd: str) -> None:
    if "fake:timeout" in cmd:
        time.sleep(3600)
    if "fake:slow" in cmd:
        time.sleep(SLOW_S)
    if "fake:crash" in cmd:
        sys.stderr.write("uncaught exception: fake crash\n")
        sys.stderr.flush()
        os._exit(1)
    if "fake:oom" in cmd:
        hoard = []
        try:
            while True:
                hoard.append(bytearray(256 * 1024 * 1024))
        except MemoryError:
            hoard.clear()
            sys.stderr.write("INTERNAL PANIC: out of memory\n")
            sys.stderr.flush()
            os._exit(1)


def error(line: int, text: str) -> dict[str, Any]:
    return {"severity": "error", "pos": {"line": line, "column": 0}, "endPos": None, "data": text}


def line_of(cmd: str, text: str) -> int:
    for number, line in enumerate(cmd.split("\n"), start=1):
        if text in line:
            return number
    return 1


def substitute(value: Any, env: int, cmd: str) -> Any:
    if value == "$ENV":
        return env
    if isinstance(value, str) and value.startswith("$LINE_OF:"):
        return line_of(cmd, value[len("$LINE_OF:"):])
    if isinstance(value, dict):
        return {k: substitute(v, env, cmd) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, env, cmd) for v in value]
    return value


def answer(request: dict[str, Any], rules: list[dict[str, Any]]) -> dict[str, Any]:
    cmd = request.get("cmd")
    if not isinstance(cmd, str):
        return {"message": "fake REPL: only commands are supported"}
    env = request.get("env")
    if env is not None and not (isinstance(env, int) and 0 <= env < STATE["next_env"]):
        return {"message": "Unknown environment."}
    if env is not None and any(line.startswith("import ") for line in cmd.split("\n")):
        return {"env": _new_env(), "messages": [error(1, "invalid 'import' command, it must be "
                                                         "used in the beginning of the file")]}
    simulate_failures(cmd)
    new_env = _new_env()
    for rule in rules:
        wants_env = rule.get("env", "any")
        if wants_env == "none" and env is not None:
            continue
        if all(s in cmd for s in rule.get("contains", [])):
            return substitute(rule["response"], new_env, cmd)
    return {"env": new_env, "messages": [error(1, "fake REPL: no recorded answer")]}


def _new_env() -> int:
    env = STATE["next_env"]
    STATE["next_env"] += 1
    return env


def main() -> int:
    rules = load_rules()
    while True:
        text = read_request()
        if text is None:
            return 0
        request = json.loads(text)
        log(request)
        sys.stdout.write(json.dumps(answer(request, rules), indent=2, ensure_ascii=False))
        sys.stdout.write("\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
