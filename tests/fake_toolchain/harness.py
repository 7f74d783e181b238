"""Installs the fake judging toolchain next to a fake Lean installation
(:func:`fake_repl.harness.make_fake_lean`): ``lean`` on ``PATH`` (:mod:`fake_toolchain.lean`)
and afcheck's judge built in the project (:mod:`fake_toolchain.judge`)."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from afcheck_lean.judge import ProcessJudge
from afcheck_lean.judges import build, toolchain_for
from afcheck_lean.settings import LeanSettings

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class FakeJudge:
    directory: Path

    def set_mode(self, mode: str) -> None:
        (self.directory / "mode").write_text(mode)

    def calls(self) -> list[list[str]]:
        log = self.directory / "calls.log"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def install(root: Path, project: Path) -> FakeJudge:
    """``root/bin/lean`` and ``project/.lake/build/bin/afcheck_judge``; put ``root/bin`` first
    on ``PATH`` to use them."""
    _executable(root / "bin" / "lean",
                f"#!/bin/sh\nexec {sys.executable} {shlex.quote(str(HERE / 'lean.py'))} \"$@\"\n")
    directory = root / "judge"
    directory.mkdir(parents=True)
    script = directory / "judge.py"
    script.write_text((HERE / "judge.py").read_text())
    _executable(project / ".lake" / "build" / "bin" / "afcheck_judge",
                f"#!/bin/sh\nexec {sys.executable} {shlex.quote(str(script))} \"$@\"\n")
    return FakeJudge(directory)


def afcheck_judge(root: Path, settings: LeanSettings, monkeypatch: pytest.MonkeyPatch
                  ) -> ProcessJudge:
    """afcheck's judge over the fake toolchain installed under ``root`` for the fake Lean
    project of ``settings``, with ``root/bin`` first on ``PATH``."""
    install(root, settings.project)
    monkeypatch.setenv("PATH", f"{root / 'bin'}:{os.environ.get('PATH', '')}")
    return build("afcheck", toolchain_for(settings))
