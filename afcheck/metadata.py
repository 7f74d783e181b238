"""Where and when a run ran, for its result file: a model repository's CI compares runs
across commits, so each result says its command line, start and end, host, Python, and the
git commit of the suites it ran and of the checkout it ran in (the model under test's)."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from afcheck.method import JsonObject
from afcheck.redact import is_secret_name, redact_text


@dataclass(frozen=True)
class RunStart:
    """What is known when a run starts; :meth:`record` adds the end."""

    command: tuple[str, ...]
    paths: tuple[str, ...]
    """The suite paths of the command line, as given."""
    cwd: str
    started: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    @classmethod
    def now(cls, paths: Sequence[str], argv: Sequence[str] | None = None) -> RunStart:
        argv = list(sys.argv if argv is None else argv)
        command = [Path(argv[0]).name if argv else "afcheck", *argv[1:]]
        return cls(tuple(_redacted(command)), tuple(paths), os.getcwd())

    def record(self) -> JsonObject:
        """The ``run`` section of the result file, ended now."""
        ended = datetime.now(timezone.utc)
        # Suites of one work tree share its commit and status: each is asked of git once.
        trees: dict[str, JsonObject] = {}
        suites: dict[str, JsonObject | None] = {}
        for path in self.paths:
            folder = Path(self.cwd, path.split("::", 1)[0])
            suites[path] = git_state(folder if folder.is_dir() else folder.parent, trees)
        return {
            "command": list(self.command),
            "started": self.started.isoformat(timespec="seconds"),
            "ended": ended.isoformat(timespec="seconds"),
            "seconds": round((ended - self.started).total_seconds(), 3),
            "host": socket.gethostname(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": platform.platform(),
            "cwd": self.cwd,
            "git": {"checkout": git_state(Path(self.cwd), trees), "suites": suites},
        }


def git_state(folder: Path, trees: dict[str, JsonObject] | None = None) -> JsonObject | None:
    """``{"commit", "dirty", "root"}`` of the git work tree that holds ``folder``; ``None``
    outside one or without git. ``dirty``: tracked files differ from the commit. ``trees``
    holds the states already found, by root, and is added to."""
    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                                  text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None:
        return None
    if trees is not None and top in trees:
        return trees[top]
    commit = git("rev-parse", "HEAD")
    if commit is None:
        return None
    status = git("status", "--porcelain", "--untracked-files=no")
    state: JsonObject = {"commit": commit, "dirty": bool(status), "root": top}
    if trees is not None:
        trees[top] = state
    return state


def _redacted(command: Sequence[str]) -> list[str]:
    """The command line with secrets hidden: key-like tokens, URL credentials, and the value
    of an option named like a secret (``api_key=…``)."""
    out = []
    for arg in command:
        parts = []
        for part in arg.split(","):
            key, eq, value = part.partition("=")
            name = key.rsplit(".", 1)[-1].lstrip("-")
            parts.append(f"{key}=***" if eq and is_secret_name(name) else part)
        out.append(redact_text(",".join(parts)))
    return out
