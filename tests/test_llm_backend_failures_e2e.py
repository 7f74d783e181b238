"""``afcheck suites/examples --formaliser frontier`` against :mod:`fake_openai`, end to end:
a run against a failing server keeps every good result and records each bad one with its
reason, and a re-run against the fixed server asks only for what failed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI

pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parent.parent
STEPS = 6


def _run(url: str, tmp_path: Path, name: str) -> tuple[subprocess.CompletedProcess[str],
                                                        dict[str, Any]]:
    out = tmp_path / f"{name}.json"
    command = [sys.executable, "-m", "afcheck", str(ROOT / "suites" / "examples"),
               "--limit", str(STEPS), "--formaliser", "frontier", "--formaliser-opt",
               f"base_url={url},model=fake-formaliser,max_retries=0,concurrency=2",
               "--json", str(out), "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "AFCHECK_CACHE_DIR": str(tmp_path / "cache")})
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done, json.loads(out.read_text())


def _formalisations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["key"]: f for step in doc["steps"]
            for f in (step["original"], step["perturbed"]) if f}


@pytest.mark.heavy
def test_a_mixed_fault_run_keeps_good_results_and_records_bad_ones(tmp_path: Path) -> None:
    fake = FakeOpenAI("mixed")
    with fake.running() as url:
        _, doc = _run(url, tmp_path, "mixed")
    formalisations = _formalisations(doc)
    assert len(formalisations) == 2 * STEPS
    good = [f for f in formalisations.values() if f["status"] == "ok"]
    bad = [f for f in formalisations.values() if f["status"] != "ok"]
    assert good and bad
    for f in good:
        assert f["statement"].startswith("theorem t : (") and f["statement"].endswith("sorry")
    for f in bad:
        assert f["reason"].startswith("backend error: ") and "\n" not in f["reason"]


@pytest.mark.heavy
def test_a_rerun_against_a_healthy_server_completes_exactly_the_failed_ones(
    tmp_path: Path,
) -> None:
    fake = FakeOpenAI("500")
    with fake.running() as url:
        _, first = _run(url, tmp_path, "failing")
        failed = sum(1 for f in _formalisations(first).values() if f["status"] != "ok")
        assert failed == 2 * STEPS and fake.completions == failed
        fake.mode = "ok"
        _, second = _run(url, tmp_path, "healthy")
        assert fake.completions == 2 * failed
        assert all(f["status"] == "ok" for f in _formalisations(second).values())
        _run(url, tmp_path, "again")
        assert fake.completions == 2 * failed  # now everything is cached


@pytest.mark.heavy
def test_after_a_mixed_run_the_rerun_asks_only_for_the_failed_ones(tmp_path: Path) -> None:
    fake = FakeOpenAI("mixed")
    with fake.running() as url:
        _, first = _run(url, tmp_path, "mixed")
        before = _formalisations(first)
        failed = sum(1 for f in before.values() if f["status"] != "ok")
        sent = fake.completions
        fake.mode = "ok"
        _, second = _run(url, tmp_path, "healthy")
        assert fake.completions - sent == failed
    after = _formalisations(second)
    assert all(f["status"] == "ok" for f in after.values())
    for key, f in before.items():
        if f["status"] == "ok":
            assert after[key]["statement"] == f["statement"]
