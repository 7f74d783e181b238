"""The README's quick start: its commands as written, and the output it shows is the real one.

``test_first_output_is_the_real_output`` runs the first command here (fast, every run);
``test_quickstart_block_in_a_fresh_venv`` runs the whole block, venv and install included, in a
copy of the checkout (marker ``install``: it needs a package index; ``.ci/run`` runs it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(marker: str) -> str:
    """The fenced block that follows the HTML comment ``<!-- marker: … -->``."""
    match = re.search(rf"<!-- {marker}:[^\n]*-->\n```[a-z]*\n(.*?)\n```", README, re.S)
    assert match, f"README has no block after <!-- {marker}: … -->"
    return match[1]


def _afcheck_section(output: str) -> str:
    """From the ``afcheck`` section heading to the final counts line, timing left out."""
    start = output.index("=================================== afcheck ====")
    return re.sub(r" in \d+\.\d+s ", " in <time> ", output[start:]).rstrip("\n")


def _clean_env(cache: Path) -> dict[str, str]:
    """The environment of a new shell: no active venv, a cache of its own."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTEST_ADDOPTS")
           and not key.startswith(("PYTEST_", "AFCHECK_"))}
    active = os.environ.get("VIRTUAL_ENV")
    if active:
        env["PATH"] = os.pathsep.join(part for part in env.get("PATH", "").split(os.pathsep)
                                      if not part.startswith(active))
    env["AFCHECK_CACHE_DIR"] = str(cache)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def test_quickstart_block_is_the_readmes_first_commands() -> None:
    block = _block_after("quickstart")
    assert block.splitlines()[-1] == "afcheck suites/examples"
    assert README.index(block) < README.index("## What it measures")


def test_first_output_is_the_real_output(tmp_path: Path) -> None:
    """The afcheck section the README shows is what ``afcheck suites/examples`` prints in a
    log (no terminal), with a new result cache."""
    shown = _block_after("first-output")
    env = {**os.environ, "AFCHECK_CACHE_DIR": str(tmp_path)}
    env.pop("PYTEST_ADDOPTS", None)
    # The console script, as a user runs it (``python -m afcheck`` imports afcheck before
    # pytest can rewrite it, which pytest warns about in the counts line).
    done = subprocess.run([str(Path(sys.executable).parent / "afcheck"), "suites/examples"],
                          cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert _afcheck_section(done.stdout) == _afcheck_section(shown)
    for line in shown.splitlines():
        if line.startswith(("suites/examples ", "... and ")):
            assert line in done.stdout.splitlines(), line


def _copy_checkout(target: Path) -> Path:
    """The checkout's files without what a build or a venv left in it."""
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__",
        ".tox", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".lake"))
    return target


@pytest.mark.install
def test_quickstart_block_in_a_fresh_venv(tmp_path: Path) -> None:
    """The quick-start block, run as written by a new shell in a fresh copy of the checkout,
    ends as the README says: exit 1, the afcheck section it shows."""
    checkout = _copy_checkout(tmp_path / "afcheck")
    block = _block_after("quickstart")
    done = subprocess.run(["bash", "-c", f"set -e\n{block}"], cwd=checkout,
                          env=_clean_env(tmp_path / "cache"), capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert _afcheck_section(done.stdout) == _afcheck_section(_block_after("first-output"))
