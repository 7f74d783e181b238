"""The nl2fol method through the ``afcheck`` command: collection, the run, JSON, theory, cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llm_fixtures import llm_server_url  # noqa: F401 - pytest fixture

ROOT = Path(__file__).resolve().parent.parent

ITEMS = [
    {"id": "t1", "sentence": "b is smaller than c.", "gold": ["Smaller(b, c)"],
     "difficulty": "low"},
    {"id": "t2", "sentence": "Every cube is small.", "gold": ["∀x (Cube(x) → Small(x))"],
     "difficulty": "high"},
    {"id": "t3", "sentence": "a is a cube.", "gold": ["Cube(a)"], "difficulty": "low"},
    {"id": "t4", "sentence": "Not every tet is large.", "gold": ["¬∀x (Tet(x) → Large(x))"],
     "difficulty": "high"},
]
OUTPUTS = [
    {"id": "t1", "output": "= Larger(c, b)"},
    {"id": "t2", "output": "∀x (Cube(x) ∧ Small(x))"},
    {"id": "t3", "output": "Formula: Cube(a) → Small(a) → Tet(a)"},
    {"id": "t4", "output": "```\n∃y (Tet(y) ∧ ¬Large(y))\n```"},
]


def afcheck(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=300, cwd=ROOT)


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "mine"\nkind = "nl2fol"\ndata = "items.jsonl"\n\n'
        '[afcheck.defaults]\nfol_formaliser = "replay"\n'
        'fol_formaliser_opt = { path = "outputs.jsonl" }\n\n'
        '[afcheck.options]\nlanguage = "tarski"\n', encoding="utf-8")
    rows = [*ITEMS, {"id": "t5", "sentence": "broken", "gold": ["Cube(a"]}]
    (folder / "items.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (folder / "outputs.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in OUTPUTS), encoding="utf-8")
    return folder


def test_a_run_judges_each_item_and_writes_the_metrics(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = afcheck(str(suite), "--no-cache", "--json", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "3 failed, 2 passed" in done.stdout
    assert "syntax error, structure [unparenthesised-mix]" in done.stdout
    assert "items.jsonl:5" in done.stdout and "unbalanced-parentheses" in done.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    steps = {s["id"]: s for s in data["steps"] if "id" in s}
    assert steps["t1"]["equivalence"]["theory"] == "analytic"
    assert steps["t2"]["ted"] == 1 and steps["t2"]["equivalence"]["counter_model"]["blocks"]
    assert steps["t3"]["syntax_error"]["class"] == "structure"
    assert steps["t4"]["equivalence"]["theory"] == "none"
    overall = data["methods"]["nl2fol"]["metrics"]["overall"]
    assert (overall["N"], overall["correct"], overall["mean_ted_semantic_errors"]) == (4, 2, 1.0)


def test_theory_option_and_gate(suite: Path) -> None:
    done = afcheck(str(suite), "--no-cache", "--nl2fol-theory", "none", "-k", "t1")
    assert done.returncode == 1 and "not equivalent to any gold under theory none" in done.stdout
    gated = afcheck(str(suite), "--no-cache", "-k", "t1 or t4", "--gate",
                    "nl2fol.accuracy>=0.9")
    assert gated.returncode == 0, gated.stdout + gated.stderr
    wrong = afcheck(str(suite), "--no-cache", "--nl2fol-theory", "klingon")
    assert wrong.returncode != 0 and "klingon" in wrong.stdout + wrong.stderr


def test_reference_formaliser_and_the_result_cache(suite: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = afcheck(str(suite), "--fol-formaliser", "reference", "--cache-dir", str(cache),
                    "--json", str(tmp_path / "a.json"))
    assert "1 failed, 4 passed" in first.stdout, first.stdout + first.stderr
    again = afcheck(str(suite), "--fol-formaliser", "reference", "--cache-dir", str(cache),
                    "--json", str(tmp_path / "b.json"))
    assert "1 failed, 4 passed" in again.stdout
    a = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    strip = [{k: v for k, v in s.items() if k not in ("seconds",)} for s in a["steps"]]
    assert strip == [{k: v for k, v in s.items() if k not in ("seconds",)} for s in b["steps"]]


def test_shipped_tarski_suite_passes_with_its_golds() -> None:
    done = afcheck(str(ROOT / "suites" / "tarski"), "--no-cache", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "87 passed" in done.stdout


@pytest.mark.realdata
def test_folio_suite_reports_rejected_golds_by_class(data_dir: Path) -> None:
    done = afcheck(str(ROOT / "suites" / "folio-nl2fol"), "--no-cache", "-q",
                   env={"AFCHECK_DATA_DIR": str(data_dir)})
    assert "passed" in done.stdout, done.stdout + done.stderr
    assert "is not a sentence of folio" in done.stdout
    assert "[free-variable]" in done.stdout


def test_fol_command_is_registered() -> None:
    done = afcheck("fol", "equiv", "--json", "∀x Cube(x)", "∀y Cube(y)")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["equivalent"] is True


@pytest.mark.llm_server
def test_seed_prompt_against_a_real_local_server(llm_server_url: str, tmp_path: Path) -> None:  # noqa: F811
    # SmolLM2-135M is useless at logic: the point is that every item ends classified.
    out = tmp_path / "r.json"
    done = afcheck(str(ROOT / "suites" / "tarski"), "-k", "tw-001 or tw-039",
                   "--fol-formaliser", "nl2fol-llama", "--fol-formaliser-opt",
                   f"base_url={llm_server_url},model=smollm2,max_tokens=32",
                   "--json", str(out), "--no-cache", "-q",
                   env={"AFCHECK_CACHE_DIR": str(tmp_path / "c")})
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    steps = json.loads(out.read_text(encoding="utf-8"))["steps"]
    assert {s["id"] for s in steps} == {"tw-001", "tw-039"}
    for step in steps:
        assert step["decision"] in ("correct", "syntax-error", "not-equivalent", "undecided",
                                    "no-output")
        assert step["status"] in ("passed", "failed", "skipped")
        assert step["output"] or step["error"]


def test_a_bad_suite_option_is_one_line(suite: Path) -> None:
    manifest = suite / "suite.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + 'rlimit = "lots"\n',
                        encoding="utf-8")
    done = afcheck(str(suite), "--no-cache")
    assert done.returncode != 0
    assert "rlimit = 'lots'" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_an_unknown_theory_in_the_suite_names_the_suite_not_an_option(suite: Path) -> None:
    manifest = suite / "suite.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + 'theory = "klingon"\n',
                        encoding="utf-8")
    done = afcheck(str(suite), "--no-cache")
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert f"{manifest}:13: [afcheck.options] theory: " in text and "klingon" in text
    assert "--nl2fol-theory" not in text and "Traceback" not in text
