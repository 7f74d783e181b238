"""The chains method through the ``afcheck`` command: collection, the run, JSON, gates, cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import chains_data
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "suites" / "chains-examples"


def afcheck(*args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if data_dir is not None:
        env["AFCHECK_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "afcheck", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=ROOT)


def test_examples_suite_runs_and_writes_each_chain(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = afcheck(str(EXAMPLES), "--fol-prover", "z3-fol", "--no-cache", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 passed" in done.stdout
    assert "chains: N=7" in done.stdout
    data = json.loads(out.read_text())
    cases = {c["id"]: c for c in data["steps"]}
    assert cases["t4-wrong-class"]["class"] == "T4"
    assert [s["label"] for s in cases["t4-wrong-class"]["steps"]] == ["False", "True"]
    assert cases["t1-gold-walk"]["method"] == "chains"
    assert data["methods"]["chains"]["details"]["overall"]["step_label_macro_f1"] == 1.0
    # The formaliser is a component of the run like the prover: built, recorded, versioned.
    assert set(data["config"]["components"]) == {"fol_prover:z3-fol", "fol_formaliser:rules"}
    assert data["methods"]["chains"]["candidates"] == {"written_by": {"fol formaliser rules": 7},
                                                       "fixed": 0}


@pytest.mark.heavy
def test_collect_only_lists_the_items() -> None:
    done = afcheck(str(EXAMPLES), "--co", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "chains-examples::t2-stray-rule" in done.stdout


@pytest.mark.heavy
def test_a_wrong_expected_class_fails_and_a_gate_decides(tmp_path: Path) -> None:
    suite = tmp_path / "mine"
    suite.mkdir()
    (suite / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "mine"\nkind = "chains"\nsource = "responses"\n'
        'data = "c.jsonl"\n')
    rows = [
        {"id": "claims-t1", "premises": ["Ann is a lorpus.", "Every lorpus is a gimpus."],
         "conclusion": "Ann is a gimpus.", "label": "True", "steps": ["Ann is a lorpus."],
         "answer": "True", "expected_class": "T1"},
        {"id": "odd", "premises": ["Ann may be a lorpus."], "conclusion": "Ann is a gimpus.",
         "label": "True", "steps": [], "answer": "True"},
        {"id": "broken"},
    ]
    (suite / "c.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    run = (str(suite), "--fol-prover", "z3-fol", "--no-cache")
    done = afcheck(*run)
    text = done.stdout + done.stderr
    assert done.returncode == 1, text
    assert "expected T1, got class T3" in text
    assert "analysis failure" in text and "Ann may be a lorpus." in text
    assert "c.jsonl:3" in text
    # A gate never passes over a record that could not be read.
    unread = afcheck(*run, "--gate", "chains.analysis_failure_rate<=0.5")
    assert unread.returncode == 1 and "could not be read" in unread.stdout
    (suite / "c.jsonl").write_text("\n".join(json.dumps(r) for r in rows[:2]) + "\n")
    # Gates given: they decide the exit status (one of two items is an analysis failure).
    assert afcheck(*run, "--gate", "chains.analysis_failure_rate<=0.5").returncode == 0
    held = afcheck(*run, "--gate", "chains.analysis_failure_rate<=0.4")
    assert held.returncode == 1 and "analysis_failure_rate" in held.stdout + held.stderr


@pytest.mark.heavy
def test_classification_suite_from_a_users_prontoqa_copy(tmp_path: Path) -> None:
    (tmp_path / "prontoqa").mkdir()
    chains_data.write(tmp_path / "prontoqa" / "dev.json", 8)
    cache = tmp_path / "cache"
    args = (str(ROOT / "suites" / "prontoqa-classification"), "--fol-prover", "eprover",
            "--cache-dir", str(cache), "--json", str(tmp_path / "r.json"))
    first = afcheck(*args, data_dir=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "8 passed" in first.stdout
    again = afcheck(*args, data_dir=tmp_path)
    assert again.returncode == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert {c["expected_class"] for c in data["steps"]} == {"T1", "T2", "T3", "T4"}
    assert all(c["class"] == c["expected_class"] for c in data["steps"])
    # The second run read every prover answer from the cache.
    assert data["timings"].get("fol-proof", 0.0) == 0.0


def test_generate_command_through_afcheck(tmp_path: Path) -> None:
    data = chains_data.write(tmp_path / "dev.json", 8)
    done = afcheck("chains", "generate", str(data), "--per-type", "2")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["expected_class"] for r in rows] == ["T1", "T1", "T2", "T2", "T3", "T3", "T4", "T4"]
    assert all(r["answer"] == r["label"] for r in rows)
    missing = afcheck("chains", "generate", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def _pigeon_fol(pigeons: int) -> list[str]:
    """``pigeons`` pigeons in one hole fewer, one pigeon a hole: inconsistent, and slow for
    E to find so (measured: 2.5 s for 6 pigeons, 9 s for 7)."""
    holes = range(pigeons - 1)
    axioms = [" ∨ ".join(f"In(p{i}, h{j})" for j in holes) for i in range(pigeons)]
    axioms += [f"¬(In(p{i}, h{j}) ∧ In(p{k}, h{j}))"
               for j in holes for i in range(pigeons) for k in range(i + 1, pigeons)]
    return axioms


FAST = {"id": "fast", "premises": ["Every lorpus is a gimpus.", "Ann is a lorpus."],
        "conclusion": "Ann is a gimpus.", "label": "True", "steps": ["So Ann is a gimpus."],
        "answer": "True", "premises_fol": ["∀x (Lorpus(x) → Gimpus(x))", "Lorpus(ann)"],
        "conclusion_fol": "Gimpus(ann)", "steps_fol": ["Gimpus(ann)"]}
SLOW = {"id": "pigeons", "premises": ["Seven pigeons sit in six holes, one pigeon a hole."],
        "conclusion": "Bob is happy.", "label": "True", "steps": ["So Bob is happy."],
        "answer": "True", "premises_fol": _pigeon_fol(7), "conclusion_fol": "Happy(bob)",
        "steps_fol": ["Happy(bob)"]}


def _suite(folder: Path, rows: list[dict[str, object]]) -> Path:
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "budgeted"\nkind = "chains"\nsource = "responses"\n'
        'data = "c.jsonl"\n\n[afcheck.defaults]\nfol_formaliser = "reference"\n')
    (folder / "c.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                            for r in rows))
    return folder


@pytest.mark.heavy
def test_a_step_over_the_prove_budget_is_its_own_outcome(tmp_path: Path) -> None:
    alone = _suite(tmp_path / "alone", [FAST])
    both = _suite(tmp_path / "both", [FAST, SLOW])
    base, out = tmp_path / "base.json", tmp_path / "out.json"
    first = afcheck(str(alone), "--no-cache", "--json", str(base))
    assert first.returncode == 0, first.stdout + first.stderr
    done = afcheck(str(both), "--no-cache", "--json", str(out), "-rs",
                   "--budget", "chains.prove.seconds=0.5")
    text = done.stdout + done.stderr
    assert done.returncode == 0, text
    assert "1 passed, 1 skipped" in text
    assert ("c.jsonl:2: no decision for the conclusion under the premises (a prover limit: "
            "wall-clock limit of 0.5 s)") in text
    data = json.loads(out.read_text())
    cases = {c["id"]: c for c in data["steps"]}
    assert cases["pigeons"]["analysis"] == "undecided"
    kept = {c["id"]: c for c in json.loads(base.read_text())["steps"]}["fast"]
    for key in ("status", "analysis", "class", "steps"):
        assert cases["fast"][key] == kept[key], key
    assert data["config"]["budgets"]["chains"]["prove"]["seconds"] == 0.5


@pytest.mark.heavy
def test_the_prove_budget_and_the_provers_own_limit_are_not_both_given(tmp_path: Path
                                                                       ) -> None:
    suite = _suite(tmp_path / "s", [FAST])
    done = afcheck(str(suite), "--no-cache", "--budget", "chains.prove.seconds=5",
                   "--fol-prover-opt", "wall_limit_s=30")
    assert done.returncode != 0
    assert ("--budget chains.prove (seconds=5) sets eprover's option wall_limit_s=5, and "
            "--fol-prover-opt gives wall_limit_s=30; keep one of them") in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    # The same limit given both ways is one limit.
    same = afcheck(str(suite), "--no-cache", "--budget", "chains.prove.seconds=30",
                   "--fol-prover-opt", "wall_limit_s=30.0")
    assert same.returncode == 0, same.stdout + same.stderr


@pytest.mark.heavy
def test_a_budget_for_a_stage_chains_has_not_lists_those_it_has() -> None:
    done = afcheck(str(EXAMPLES), "--no-cache", "--budget", "chains.nosuch.seconds=1")
    assert done.returncode != 0
    assert ("--budget chains.nosuch.seconds=1: no stage 'chains.nosuch' in this run; stages "
            "with a budget: chains.formalise, chains.prove, chains.translate"
            ) in done.stdout + done.stderr


@pytest.mark.heavy
def test_a_formula_over_the_translate_budget_leaves_its_chain_undecided(tmp_path: Path
                                                                         ) -> None:
    atoms = " ∧ ".join(f"Red(a{i})" for i in range(40))
    big = {**FAST, "id": "big", "premises_fol": [atoms, "∀x (Lorpus(x) → Gimpus(x))",
                                                 "Lorpus(ann)"]}
    suite = _suite(tmp_path / "s", [FAST, big])
    out = tmp_path / "r.json"
    done = afcheck(str(suite), "--no-cache", "-rs", "--json", str(out),
                   "--budget", "chains.translate.size=300")
    text = done.stdout + done.stderr
    assert done.returncode == 0, text
    assert "1 passed, 1 skipped" in text
    size = len(atoms.encode())
    assert (f"c.jsonl:2: premise 1: over budget: translate on {size:,} bytes (limit 300) "
            "(--budget chains.translate.size)") in text
    cases = {c["id"]: c for c in json.loads(out.read_text())["steps"]}
    assert cases["big"]["analysis"] == "undecided" and cases["fast"]["status"] == "passed"
    # The default budget reads it.
    assert afcheck(str(suite), "--no-cache").returncode == 0
