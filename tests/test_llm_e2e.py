"""``afcheck suites/examples --formaliser frontier`` end to end against a real local server.

The tiny SmolLM2 model is useless at Lean: the point is that the run completes and every
failure is classified (AF-Fail with a one-line reason, never a crash).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import llm_server_url  # noqa: F401 - pytest fixture

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.llm_server
def test_frontier_run_on_the_examples_suite(llm_server_url: str, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "r.json"
    command = [sys.executable, "-m", "afcheck", str(ROOT / "suites" / "examples"), "--limit", "2",
               "--formaliser", "frontier", "--formaliser-opt",
               f"base_url={llm_server_url},model=smollm2,max_tokens=16,concurrency=2",
               "--json", str(out), "--no-cache", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "AFCHECK_CACHE_DIR": str(tmp_path / "c")})
    assert done.returncode in (0, 1), done.stderr + done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    doc = json.loads(out.read_text())
    assert doc["details"]["overall"]["N"] == 2
    for record in doc["steps"]:
        for side in ("original", "perturbed"):
            formalisation = record[side]
            assert formalisation["formaliser"] == "frontier"
            assert formalisation["usage"]["completion_tokens"] > 0
            if formalisation["status"] != "ok":
                assert formalisation["status"] in ("af_fail", "tc_fail")
                assert formalisation["reason"] and "\n" not in formalisation["reason"]
            else:
                assert formalisation["statement"].endswith(":= by sorry")
