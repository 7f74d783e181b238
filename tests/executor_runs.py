"""A short run of ``suites/examples`` as a user runs it, for the executors' tests: its JSON
results and its output, and what each step came to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def examples_json(tmp_path: Path, name: str, *options: str, limit: int = 12,
                  env: dict[str, str] | None = None) -> tuple[dict[str, object], str]:
    """``afcheck suites/examples`` on its first ``limit`` steps in chunks of 4, without the
    cache, with ``options``: the JSON results and the output."""
    target = tmp_path / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(ROOT / "suites" / "examples"), "--limit",
         str(limit), "--chunk-size", "4", "--no-cache", "-q", "--json", str(target), *options],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, **(env or {})})
    assert target.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(target.read_text(encoding="utf-8")), done.stdout


def outcomes(results: dict[str, object]) -> list[tuple[object, ...]]:
    """Each step's case, outcome and the verdicts on its two statements."""
    steps = results["steps"]
    assert isinstance(steps, list)
    return [(s["case_id"], s["outcome"], (s["z"] or {}).get("kind"),
             (s["z_bar"] or {}).get("kind")) for s in steps]
