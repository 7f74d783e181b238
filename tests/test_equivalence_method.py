"""The ``equivalence`` method: runs end to end, its budgets, candidates written by a
formaliser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REF = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"


def write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False))
                            + "\n" for r in rows), encoding="utf-8")
    return path


SUITE = """[afcheck]
schema = 1
name = "tiny"
kind = "equivalence"
data = "items.jsonl"

[afcheck.defaults]
criterion = "sae"
prover = "smt"
"""


@pytest.mark.heavy
def test_a_suite_runs_end_to_end(tmp_path: Path) -> None:
    pytest.importorskip("z3")
    suite = tmp_path / "tiny"
    suite.mkdir()
    (suite / "suite.toml").write_text(SUITE, encoding="utf-8")
    write(suite / "items.jsonl", [
        {"id": "moved", "reference": REF, "gold": "equivalent", "group": "rewrite",
         "candidate": "theorem b (y : ℝ) : y = 2 → y ^ 2 = 4 := by sorry"},
        {"id": "constant", "reference": REF, "gold": "inequivalent", "group": "perturbation",
         "candidate": "theorem b (x : ℝ) (h : x = 2) : x ^ 2 = 5 := by sorry"},
        {"id": "mislabelled", "reference": REF, "gold": "inequivalent", "group": "perturbation",
         "candidate": "theorem b (x : ℝ) (h : x = 2) : 4 = x ^ 2 := by sorry"},
        {"id": "outside", "reference": "theorem a (x : ℝ) (h : 0 < x) : Real.tan x < x := by "
         "sorry", "candidate": "theorem b (x : ℝ) (h : 0 < x) : Real.tan x < x + 0 := by sorry"},
        {"id": "broken", "reference": ""},
    ])
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--json", str(out),
                           "-rs", "--gate", "false_positive_rate<=0.2"], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert "2 failed, 2 passed, 1 skipped" in done.stdout, done.stdout + done.stderr
    assert "gold inequivalent, got Eq (sae)" in done.stdout
    assert "items.jsonl:5: missing or empty 'reference'" in done.stdout
    assert "outside the SMT fragment" in done.stdout
    record = json.loads(out.read_text(encoding="utf-8"))
    sae = record["methods"]["equivalence"]["details"]["overall"]["sae"]
    assert sae["coverage"]["count"] == 1 and sae["false_positive_rate"]["count"] == 1
    steps = {s["id"]: s for s in record["steps"] if "unreadable" not in s}
    [bad] = [s for s in record["steps"] if "unreadable" in s]
    assert bad["status"] == "failed" and bad["unreadable"]["line"] == 5
    assert steps["constant"]["decision"] == "Noneq"
    assert steps["constant"]["counterexample"] == {"x": "2"}
    assert done.returncode != 0 and "GATE FAILED: false_positive_rate" in done.stdout
    # With gates, an unreadable record fails the run; without it, the lenient gate holds.
    lines = (suite / "items.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (suite / "items.jsonl").write_text("".join(lines[:-1]), encoding="utf-8")
    lenient = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--gate",
                              "false_positive_rate<=0.6"], capture_output=True, text=True,
                             timeout=300, cwd=tmp_path)
    assert lenient.returncode == 0, lenient.stdout  # the gate decides, and it holds
    assert "results reused" in lenient.stdout


def formalised_suite(tmp_path: Path, rows: list[object]) -> Path:
    """A suite ``formalised`` of ``rows``, pairs whose candidates a formaliser writes."""
    suite = tmp_path / "formalised"
    suite.mkdir()
    (suite / "suite.toml").write_text(SUITE.replace("tiny", "formalised"), encoding="utf-8")
    write(suite / "items.jsonl", rows)
    return suite


@pytest.mark.heavy
def test_items_without_a_candidate_are_formalised_by_the_chosen_formaliser(
        tmp_path: Path) -> None:
    pytest.importorskip("z3")
    sum_ref = "theorem r : (2 : ℚ) + 3 = 5 := by sorry"
    suite = formalised_suite(tmp_path, [
        {"id": "right", "informal": "So 2 + 3 = 5.", "reference": sum_ref,
         "gold": "equivalent"},
        {"id": "wrong", "informal": "So 2 + 3 = 6.", "reference": sum_ref,
         "gold": "inequivalent"},
        {"id": "unreadable", "informal": "Hello there.", "reference": sum_ref},
    ])
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--formaliser",
                           "literal", "--json", str(out), "-rs"], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert "2 passed, 1 skipped" in done.stdout, done.stdout + done.stderr
    assert "the formaliser wrote no candidate statement" in done.stdout
    steps = {s["id"]: s for s in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps["right"]["candidate"] == "theorem step : (2 : ℚ) + 3 = 5 := by sorry"
    assert steps["wrong"]["decision"] == "Noneq"
    assert steps["unreadable"]["candidate"] is None


@pytest.mark.heavy
def test_a_pair_past_its_time_limit_is_inconclusive_and_the_rest_are_decided(
        tmp_path: Path) -> None:
    """With a wall-clock budget per pair, a criterion that never answers for one pair has
    its worker killed; that pair is Inconclusive ("time limit"), the others are decided."""
    from conftest import TEST_PLUGINS

    suite = tmp_path / "tiny"
    suite.mkdir()
    (suite / "suite.toml").write_text(SUITE.replace('criterion = "sae"',
                                                    'criterion = "stuck"'))
    same = "theorem t (x : ℕ) : x + 0 = x := by sorry"
    rows = [{"id": "fine", "reference": same, "candidate": same},
            {"id": "hangs", "reference": "theorem stuck : 1 = 1 := by sorry",
             "candidate": "theorem stuck : 1 = 1 := by sorry"}]
    (suite / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TEST_PLUGINS),
                                                        os.environ.get("PYTHONPATH", "")])}
    log = tmp_path / "batches.jsonl"
    for _ in range(2):  # the second run: the decided pair from the cache, the stopped one asked
        done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--plugin",
                               "stuckcriterion", "--budget", "equivalence.pair.seconds=3",
                               "--criterion-opt", f"log={log}", "--cache-dir",
                               str(tmp_path / "cache"), "--json", str(out), "-rs"],
                              capture_output=True, text=True, timeout=240, cwd=tmp_path,
                              env=env)
        assert "1 passed, 1 skipped" in done.stdout, done.stdout + done.stderr
        steps = {s["id"]: s for s in json.loads(out.read_text())["steps"]}
        assert steps["fine"]["decision"] == "Eq"
        assert steps["hangs"]["decision"] == "Inconclusive"
        assert steps["hangs"]["reason"].startswith("time limit: no decision within 3 s")
        asked = [json.loads(line)[1] for line in log.read_text().splitlines()]
        log.unlink()
    assert asked == [["hangs"]]


@pytest.mark.heavy
def test_the_pair_limit_is_on_by_default_and_keeps_only_decisions_in_the_cache(
        tmp_path: Path) -> None:
    """No --budget: the run records the default pair limit and decides in workers it stops;
    a second run takes the decided pairs from the cache and asks again only for the pair the
    limit stopped."""
    from conftest import TEST_PLUGINS

    suite = tmp_path / "tiny"
    suite.mkdir()
    (suite / "suite.toml").write_text(SUITE.replace('criterion = "sae"',
                                                    'criterion = "stuck"'))
    rows = [{"id": f"fine{n}", "reference": f"theorem t{n} (x : ℕ) : x + {n} = x + {n} := by "
             "sorry", "candidate": f"theorem t{n} (x : ℕ) : x + {n} = x + {n} := by sorry"}
            for n in range(3)]
    rows.append({"id": "boom", "reference": "theorem boom : 1 = 1 := by sorry",
                 "candidate": "theorem boom : 1 = 1 := by sorry"})
    (suite / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    log = tmp_path / "batches.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TEST_PLUGINS),
                                                        os.environ.get("PYTHONPATH", "")])}

    def run(out: Path) -> tuple[int, dict[str, dict[str, object]]]:
        with subprocess.Popen([sys.executable, "-m", "afcheck", str(suite), "--plugin",
                               "stuckcriterion", "--criterion-opt", f"log={log}",
                               "--cache-dir", str(tmp_path / "cache"), "--json", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=tmp_path, env=env) as done:
            stdout, stderr = done.communicate(timeout=240)
        assert "3 passed, 1 skipped" in stdout, stdout + stderr
        record = json.loads(out.read_text())
        pair = record["config"]["budgets"]["equivalence"]["pair"]
        assert (pair["seconds"], pair["memory_mb"]) == (60.0, 4096)
        return done.pid, {str(s["id"]): s for s in record["steps"]}

    run_pid, first = run(tmp_path / "first.json")
    assert first["boom"]["reason"].startswith("the criterion failed: RuntimeError")
    asked_first = [json.loads(line)[1] for line in log.read_text().splitlines()]
    assert max(len(batch) for batch in asked_first) > 1  # decided in batches
    for pid in {json.loads(line)[0] for line in log.read_text().splitlines()}:
        assert pid != run_pid, "decided in the run's own process"
        with pytest.raises(ProcessLookupError):  # no worker outlives the run
            os.kill(pid, 0)
    log.unlink()
    _, second = run(tmp_path / "second.json")
    assert [json.loads(line)[1] for line in log.read_text().splitlines()] == [["boom"]]
    assert {k: v["decision"] for k, v in second.items()} == {
        k: v["decision"] for k, v in first.items()}


def test_a_formalise_budget_reaches_the_formaliser_and_one_without_refuses_it() -> None:
    from afcheck_equivalence.method import Equivalence

    from afcheck.budget import resolve
    from afcheck.errors import UsageError
    from afcheck.method import Choice
    from afcheck.plugins import get_plugins
    from afcheck.registry import FORMALISER
    from afcheck.runtime import Components, Runtime

    budgets = resolve({"equivalence": Equivalence.budgets}, ["equivalence.formalise.seconds=9"])
    runtime = Runtime(Components(get_plugins()), budgets=budgets)
    server = {"model": "m", "base_url": "http://127.0.0.1:9/v1"}
    choice = runtime.budgeted(FORMALISER, Choice.of("frontier", server), "equivalence",
                              "formalise")
    assert dict(choice.options) == {**server, "deadline_s": "9"}
    with pytest.raises(UsageError, match=r"^--budget equivalence.formalise: the formaliser "
                       r"'literal' takes no budget"):
        runtime.budgeted(FORMALISER, Choice.of("literal"), "equivalence", "formalise")


@pytest.mark.heavy
def test_a_stalled_formaliser_request_leaves_its_pair_inconclusive_and_uncached(
        tmp_path: Path) -> None:
    # The second pair's request never gets an answer: the budget stops it after 0.5 s (not
    # 30 s and 4 retries); the pair says why, the first pair is decided, and only the
    # answered request is kept for the next run.
    pytest.importorskip("z3")
    from fake_openai import FakeOpenAI

    statement = "theorem r : (2 : ℚ) + 3 = 5 := by sorry"
    suite = formalised_suite(tmp_path, [
        {"id": "answered", "informal": "So 2 + 3 = 5.", "reference": statement,
         "gold": "equivalent"},
        {"id": "stalled", "informal": "So STALL.", "reference": statement,
         "gold": "equivalent"},
    ])
    fake = FakeOpenAI(stall="STALL", content=lambda prompt: f"```lean4\n{statement}\n```")
    out, cache = tmp_path / "out.json", tmp_path / "cache"
    with fake.running() as url:
        done = subprocess.run(
            [sys.executable, "-m", "afcheck", str(suite), "--formaliser", "frontier",
             "--formaliser-opt", f"model=fake,base_url={url},timeout_s=30,max_retries=4",
             "--budget", "equivalence.formalise.seconds=0.5", "--cache-dir", str(cache),
             "--json", str(out), "-rs"], capture_output=True, text=True, timeout=300,
            cwd=tmp_path, env={**os.environ, "OPENAI_API_KEY": "none"})
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert "1 passed, 1 skipped" in text, text
    assert ("the formaliser wrote no candidate statement: backend error: no reply within the "
            "deadline of 0.5 s (deadline_s)") in text, text
    assert fake.completions == 2
    steps = {s["id"]: s for s in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps["answered"]["decision"] == "Eq" and steps["stalled"]["candidate"] is None
    info = subprocess.run([sys.executable, "-m", "afcheck", "cache", "info", "--json",
                           "--cache-dir", str(cache)], capture_output=True, text=True,
                          timeout=300)
    assert json.loads(info.stdout)["entries"]["formalise"] == 1
