"""The faithfulness method through the ``afcheck`` command: its stages' budgets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FERMAT_3 = ("theorem fermat_3 (x y z : ℕ) (h0 : 0 < x) (h1 : 0 < y) (h2 : 0 < z) : "
            "x ^ 3 + y ^ 3 ≠ z ^ 3 := by sorry")
"""True, and beyond z3: no answer within any budget a test can wait for."""


def _step(node: str, text: str, perturbed: str, original_lean: str, perturbed_lean: str
          ) -> dict[str, object]:
    return {"problem_id": "p", "node_id": node, "dataset": "d", "problem": "P.",
            "context": [], "step": text, "perturbed": perturbed,
            "lean": {"original": original_lean, "perturbed": perturbed_lean}}


def _suite(folder: Path) -> Path:
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "budgeted"\nkind = "jsonl"\ndata = "steps.jsonl"\n\n'
        '[afcheck.defaults]\nperturber = "given"\nformaliser = "reference"\nprover = "smt"\n')
    rows = [
        _step("1", "2 + 3 = 5.", "2 + 3 = 6.", "theorem a : (2 : ℕ) + 3 = 5 := by sorry",
              "theorem a : (2 : ℕ) + 3 = 6 := by sorry"),
        _step("2", "No cube is a sum of two cubes.", "Some cube is a sum of two cubes.",
              FERMAT_3, "theorem b : (1 : ℕ) ^ 3 + 1 ^ 3 = 1 ^ 3 := by sorry"),
    ]
    (folder / "steps.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                for r in rows))
    return folder


def afcheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


@pytest.mark.heavy
def test_a_statement_over_the_prove_budget_is_its_own_outcome_and_never_cached(
        tmp_path: Path) -> None:
    suite, out, cache = _suite(tmp_path / "s"), tmp_path / "r.json", tmp_path / "cache"
    run = (str(suite), "--cache-dir", str(cache), "--json", str(out), "-rs",
           "--budget", "faithfulness.prove.seconds=0.4")
    done = afcheck(*run)
    text = done.stdout + done.stderr
    assert done.returncode == 0, text
    assert "1 passed, 1 skipped" in text
    assert "steps.jsonl:2: undecided: z = ∅ inconclusive by smt" in text
    assert "z̄ = ⊥ refuted by smt" in text
    assert "z3 returned unknown (timeout)" in text
    data = json.loads(out.read_text())
    assert data["config"]["budgets"]["faithfulness"]["prove"]["seconds"] == 0.4
    # Only the decided verdicts are kept (both of step 1, and the refuted perturbation of
    # step 2); the stopped one is asked again next run.
    info = afcheck("cache", "info", "--json", "--cache-dir", str(cache))
    assert json.loads(info.stdout)["entries"]["prove"] == 3
    again = afcheck(*run)
    assert "1 passed, 1 skipped" in again.stdout + again.stderr
    info = afcheck("cache", "info", "--json", "--cache-dir", str(cache))
    assert json.loads(info.stdout)["entries"]["prove"] == 3


def test_a_memory_budget_the_smt_prover_cannot_hold_is_one_line(tmp_path: Path) -> None:
    done = afcheck(str(_suite(tmp_path / "s")), "--no-cache",
                   "--budget", "faithfulness.prove.memory_mb=512")
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert ("--budget faithfulness.prove: the prover 'smt' decides small batches in this "
            "process, where memory cannot be bounded") in text
    assert "Traceback" not in text


def _hanging_model_run(tmp_path: Path, kind: str, stage: str) -> int:
    """A run with ``--<kind> <model>`` on a server that never answers, under
    ``faithfulness.<stage>.seconds=0.5``: 30 s an attempt and 4 retries would hold each
    request 150 s, the budget gives each one 0.5 s in all, and nothing of the stage is cached,
    so the next run asks again. Returns the requests the server saw."""
    from fake_openai import FakeOpenAI

    suite, out, cache = _suite(tmp_path / "s"), tmp_path / "r.json", tmp_path / "cache"
    fake = FakeOpenAI("hang")
    component = "frontier" if kind == "formaliser" else "llm"
    with fake.running() as url:
        done = afcheck(str(suite), "--cache-dir", str(cache), "--json", str(out), "-rA",
                       f"--{kind}", component, f"--{kind}-opt",
                       f"model=fake,base_url={url},timeout_s=30,max_retries=4,concurrency=4",
                       "--budget", f"faithfulness.{stage}.seconds=0.5")
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert "no reply within the deadline of 0.5 s (deadline_s)" in text, text
    data = json.loads(out.read_text())
    assert data["config"]["budgets"]["faithfulness"][stage]["seconds"] == 0.5
    info = afcheck("cache", "info", "--json", "--cache-dir", str(cache))
    assert json.loads(info.stdout)["entries"].get(stage, 0) == 0
    return fake.completions


@pytest.mark.heavy
def test_a_formalise_budget_is_the_whole_request_of_an_llm_formaliser(tmp_path: Path) -> None:
    # both sides of both steps, one attempt each
    assert _hanging_model_run(tmp_path, "formaliser", "formalise") == 4


@pytest.mark.heavy
def test_a_perturb_budget_is_the_whole_request_of_an_llm_perturber(tmp_path: Path) -> None:
    # one request a step, one attempt each; a step stopped there has no perturbation
    assert _hanging_model_run(tmp_path, "perturber", "perturb") == 2


@pytest.mark.parametrize(("stage", "says"), [
    ("formalise", "the formaliser 'reference' takes no budget"),
    ("check", "the checker 'none' takes no budget; bound it with its own options "
              "(--checker-opt)"),
    ("perturb", "the perturber 'given' takes no budget"),
])
def test_a_budget_on_a_component_without_one_is_one_line(tmp_path: Path, stage: str,
                                                        says: str) -> None:
    done = afcheck(str(_suite(tmp_path / "s")), "--no-cache",
                   "--budget", f"faithfulness.{stage}.seconds=5")
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert f"--budget faithfulness.{stage}: {says}" in text, text
    assert "Traceback" not in text


def test_list_methods_shows_the_check_and_every_formalise_budget() -> None:
    done = afcheck("list", "methods")
    assert done.returncode == 0, done.stderr
    assert "check: the checker's own limits (lean," in done.stdout, done.stdout
    # chains, equivalence, faithfulness and nl2fol each declare one.
    assert done.stdout.count("formalise: the formaliser's own limits") == 4, done.stdout
    assert "perturb: the perturber's own limits" in done.stdout, done.stdout
