"""A run that decided nothing never exits 0 (:mod:`afcheck.decided`).

Faults of the model server (an empty ``choices``, bytes that are not UTF-8, a redirect, 429
without end), budgets that put every item over its limit, and the unit rule itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from afcheck.decided import NOTHING_DECIDED_EXIT, undecided_line
from afcheck.method import Case, ItemOutcome, ItemResult
from afcheck.types import Status

ROOT = Path(__file__).resolve().parent.parent


def _item(status: Status, message: str = "") -> ItemResult[object]:
    case: Case[object] = Case("s::a", "a", "m", "s", "s", None, None)
    own = Status.FAILED if status is Status.XFAILED else status  # the run gives XFAILED
    return ItemResult(case, None, ItemOutcome(own, message), status)


def test_all_skipped_is_undecided_and_names_the_commonest_reasons() -> None:
    items = [_item(Status.SKIPPED, f"over budget: translate on {n} bytes (limit 1)")
             for n in (30, 8, 9)] + [_item(Status.SKIPPED, "backend error: HTTP 429")]
    line = undecided_line(items)
    assert line is not None and line.startswith("NOTHING DECIDED: all 4 items were skipped")
    # Reasons that differ only in numbers are counted together, shown as the first.
    assert "3× over budget: translate on 30 bytes (limit 1)" in line
    assert "backend error: HTTP 429" in line and str(NOTHING_DECIDED_EXIT) in line


@pytest.mark.parametrize("decided", [Status.PASSED, Status.FAILED, Status.XFAILED])
def test_one_decided_item_is_enough(decided: Status) -> None:
    assert undecided_line([_item(Status.SKIPPED, "x"), _item(decided, "y")]) is None


def test_no_item_is_no_line() -> None:
    assert undecided_line([]) is None


def test_many_reasons_are_cut_to_the_commonest() -> None:
    items = [_item(Status.SKIPPED, f"reason {chr(97 + n)}") for n in range(6)]
    line = undecided_line(items)
    assert line is not None and "3 other reasons" in line


def afcheck(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "afcheck", *args, "-p", "no:cacheprovider"],
        capture_output=True, text=True, timeout=timeout, cwd=cwd,
        env={**os.environ, "AFCHECK_CACHE_DIR": str(cwd / "cache")})


def _nothing_decided(done: subprocess.CompletedProcess[str]) -> None:
    out = done.stdout + done.stderr
    assert done.returncode == NOTHING_DECIDED_EXIT, out
    assert "NOTHING DECIDED: all " in out, out
    assert "Traceback" not in out, out


@pytest.mark.parametrize("args", [
    ("chains-examples", "--budget", "chains.translate.size=1"),
    ("equivalence-rewrites", "--limit", "6", "--budget", "equivalence.pair.memory_mb=1"),
])
def test_budgets_that_put_every_item_over_its_limit(tmp_path: Path, args: tuple[str, ...]
                                                    ) -> None:
    _nothing_decided(afcheck(*args, "--no-cache", cwd=tmp_path))


@pytest.mark.parametrize("mode", ["choices-empty", "badutf8", "redirect", "429",
                                  "choices-null", "nonjson"])
def test_chains_against_a_server_that_answers_nothing_usable(tmp_path: Path, mode: str
                                                            ) -> None:
    pytest.importorskip("httpx")
    fake = FakeOpenAI(mode, busy=10**6)
    with fake.running() as url:
        done = afcheck("chains-examples", "--limit", "3", "--fol-formaliser", "llm",
                       "--fol-formaliser-opt",
                       f"base_url={url},model=fake-formaliser,max_retries=0,fail_streak=0",
                       cwd=tmp_path)
    _nothing_decided(done)


def test_a_gate_keeps_deciding_the_status_with_the_line(tmp_path: Path) -> None:
    done = afcheck("chains-examples", "--budget", "chains.translate.size=1",
                   "--gate", "chains.ER<=0.5", "--no-cache", cwd=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out


@pytest.mark.parametrize("mode", ["empty", "choices-empty"])
def test_equivalence_with_a_model_that_writes_no_statement(tmp_path: Path, mode: str) -> None:
    pytest.importorskip("httpx")
    import json
    import shutil

    suite = tmp_path / "eq"
    suite.mkdir()
    shutil.copy(ROOT / "suites" / "equivalence-rewrites" / "suite.toml", suite / "suite.toml")
    toml = suite / "suite.toml"
    toml.write_text(toml.read_text().replace('name = "equivalence-rewrites"', 'name = "eq"'))
    rows = [json.loads(line) for line in (ROOT / "suites" / "equivalence-rewrites" /
                                          "items.jsonl").read_text().splitlines()[:3]]
    for row in rows:
        row.pop("candidate")  # the model under test writes it
    (suite / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    fake = FakeOpenAI(mode)
    with fake.running() as url:
        done = afcheck(str(suite), "--formaliser", "frontier", "--formaliser-opt",
                       f"base_url={url},model=m,max_retries=0", cwd=tmp_path)
    _nothing_decided(done)
