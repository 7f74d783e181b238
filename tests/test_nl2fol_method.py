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
    # The item whose gold does not parse stays in the result file, with its own outcome, and
    # is left out of the accuracy's denominator.
    assert steps["t5"]["decision"] == "gold-error" and steps["t5"]["status"] == "failed"
    assert steps["t5"]["gold_error"]["rule"] == "unbalanced-parentheses"
    overall = data["methods"]["nl2fol"]["details"]["overall"]
    assert (overall["N"], overall["decided"], overall["gold_errors"]) == (5, 4, 1)
    assert (overall["correct"], overall["mean_ted_semantic_errors"]) == (2, 1.0)
    # Tarski's World fixes its vocabulary: nothing is renamed, aligned equals exact.
    assert (overall["aligned_correct"], overall["aligned_accuracy"]) == (2, 0.5)


@pytest.mark.heavy
def test_theory_option_and_gate(suite: Path) -> None:
    done = afcheck(str(suite), "--no-cache", "--nl2fol-theory", "none", "-k", "t1")
    assert done.returncode == 1 and "not equivalent to any gold under theory none" in done.stdout
    gated = afcheck(str(suite), "--no-cache", "-k", "t1 or t4", "--gate",
                    "nl2fol.accuracy>=0.9")
    assert gated.returncode == 0, gated.stdout + gated.stderr
    wrong = afcheck(str(suite), "--no-cache", "--nl2fol-theory", "klingon")
    assert wrong.returncode != 0 and "klingon" in wrong.stdout + wrong.stderr


@pytest.mark.heavy
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


@pytest.mark.heavy
def test_a_cached_decision_names_its_own_story(tmp_path: Path) -> None:
    # The recorded suite and the examples share a candidate, its gold and its renaming
    # (IsStriker → Striker) in stories of different names: the second run's record names the
    # story its own item belongs to, cache or not.
    cache = tmp_path / "cache"
    for name in ("nl2fol-recorded", "folio-nl2fol-examples"):
        done = afcheck(str(ROOT / "suites" / name), "--cache-dir", str(cache), "--json",
                       str(tmp_path / f"{name}.json"))
        assert "passed" in done.stdout, done.stdout + done.stderr
    data = json.loads((tmp_path / "folio-nl2fol-examples.json").read_text(encoding="utf-8"))
    groups = {s["aligned"]["alignment"]["group"] for s in data["steps"] if s.get("aligned")}
    assert groups and groups <= {"books", "football", "music"}


@pytest.mark.heavy
def test_shipped_tarski_suite_passes_with_its_golds() -> None:
    done = afcheck(str(ROOT / "suites" / "tarski"), "--no-cache", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "87 passed" in done.stdout


@pytest.mark.realdata
@pytest.mark.heavy
def test_folio_suite_reports_rejected_golds_by_class(data_dir: Path) -> None:
    done = afcheck(str(ROOT / "suites" / "folio-nl2fol"), "--no-cache", "-q",
                   env={"AFCHECK_DATA_DIR": str(data_dir)})
    assert "passed" in done.stdout, done.stdout + done.stderr
    assert "is not a sentence of folio" in done.stdout
    assert "[free-variable]" in done.stdout


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


@pytest.mark.heavy
def test_a_bad_suite_option_is_one_line(suite: Path) -> None:
    manifest = suite / "suite.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + 'rlimit = "lots"\n',
                        encoding="utf-8")
    done = afcheck(str(suite), "--no-cache")
    assert done.returncode != 0
    assert "rlimit = 'lots'" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


FOLIO_ITEMS = [
    {"id": "s1/p1", "group": "s1", "sentence": "Robert Lewandowski is a striker.",
     "gold": "Striker(robertLewandowski)"},
    {"id": "s1/p2", "group": "s1", "sentence": "Strikers are soccer players.",
     "gold": "∀x (Striker(x) → SoccerPlayer(x))"},
    {"id": "s1/c1", "group": "s1", "sentence": "Robert Lewandowski is a soccer player.",
     "gold": "SoccerPlayer(robertLewandowski)"},
    {"id": "s2/p1", "group": "s2", "sentence": "1984 is printed text.",
     "gold": "PrintedText(1984)"},
    {"id": "s2/p2", "group": "s2", "sentence": "1984 is a streaming service or printed text.",
     "gold": "StreamingService(1984) ∨ PrintedText(1984)"},
]
FOLIO_OUTPUTS = [
    {"id": "s1/p1", "output": "= IsStriker(robertLewandowski)"},
    {"id": "s1/p2", "output": "= ∀x (IsStriker(x) → IsSoccerPlayer(x))"},
    {"id": "s1/c1", "output": "= IsSoccerPlayer(robertLewandowski)"},
    {"id": "s2/p1", "output": "= PrintedText(y1984)"},
    {"id": "s2/p2", "output": "= 1984 ⊕ StreamingService(1984)"},
]


def test_exact_and_aligned_side_by_side_on_open_vocabulary_outputs(tmp_path: Path) -> None:
    folder = tmp_path / "open"
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "open"\nkind = "nl2fol"\ndata = "items.jsonl"\n\n'
        '[afcheck.defaults]\nfol_formaliser = "replay"\n'
        'fol_formaliser_opt = { path = "outputs.jsonl" }\n\n'
        '[afcheck.options]\nlanguage = "folio"\n', encoding="utf-8")
    for name, rows in (("items.jsonl", FOLIO_ITEMS), ("outputs.jsonl", FOLIO_OUTPUTS)):
        (folder / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                           for r in rows), encoding="utf-8")
    out = tmp_path / "r.json"
    done = afcheck(str(folder), "--no-cache", "--json", str(out), "--gate",
                   "nl2fol.aligned_accuracy>=0.75")
    # Exact equivalence stays the test's verdict: every item fails; the gate on the aligned
    # figure holds.
    assert "5 failed" in done.stdout, done.stdout + done.stderr
    assert "up to the renaming IsStriker/1 → Striker" in done.stdout
    assert "exact [95% CI]" in done.stdout and "aligned [95% CI]" in done.stdout
    assert "[term-as-formula]" in done.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    overall = data["methods"]["nl2fol"]["details"]["overall"]
    assert (overall["correct"], overall["aligned_correct"], overall["decided"]) == (0, 4, 5)
    assert overall["aligned_accuracy"] == 0.8
    steps = {s["id"]: s for s in data["steps"]}
    assert steps["s2/p1"]["aligned"]["alignment"]["constants"] == [
        {"from": "y1984", "to": "1984", "by": "the same number"}]
    assert steps["s2/p1"]["aligned_decision"] == "correct"
    assert steps["s2/p2"]["aligned_decision"] == "syntax-error"
    assert done.returncode == 0, done.stdout + done.stderr


def test_folio_validation_suite_judges_premises_and_conclusions(tmp_path: Path) -> None:
    records = [
        {"story_id": 5, "example_id": 11, "premises": ["All cats purr.", "Tom is a cat."],
         "premises-FOL": ["∀x (Cat(x) → Purr(x))", "Cat(tom)"], "conclusion": "Tom purrs.",
         "conclusion-FOL": "Purr(tom)", "label": "True", "source": "wiki"},
        {"story_id": 5, "example_id": 12, "premises": ["All cats purr.", "Tom is a cat."],
         "premises-FOL": ["∀x (Cat(x) → Purr(x)) ∧ Cat(tom)"],
         "conclusion": "Tom does not purr.", "conclusion-FOL": "¬Purr(tom)", "label": "False"},
    ]
    (tmp_path / "folio").mkdir()
    (tmp_path / "folio" / "folio-validation.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    suite = str(ROOT / "suites" / "folio-nl2fol-validation")
    out = tmp_path / "r.json"
    done = afcheck(suite, "--no-cache", "--json", str(out),
                   env={"AFCHECK_DATA_DIR": str(tmp_path)})
    # Two premises and two conclusions pass; the unpaired record is one line naming it.
    assert "1 failed, 4 passed" in done.stdout, done.stdout + done.stderr
    assert "example 12 (story 5): 2 premises but 1 formulas" in done.stdout
    ids = {s["id"] for s in json.loads(out.read_text(encoding="utf-8"))["steps"] if "id" in s}
    assert {"folio-5/c11", "folio-5/c12", "folio-5/p1", "folio-5/p2"} <= ids
    missing = afcheck(suite, "--no-cache", env={"AFCHECK_DATA_DIR": str(tmp_path / "none")})
    assert missing.returncode != 0
    assert "folio/folio-validation.jsonl" in missing.stdout + missing.stderr


@pytest.mark.heavy
def test_the_vocabulary_option_is_checked(tmp_path: Path) -> None:
    folder = tmp_path / "vocab"
    folder.mkdir()
    (folder / "items.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in FOLIO_ITEMS), encoding="utf-8")
    manifest = folder / "suite.toml"
    head = ('[afcheck]\nschema = 1\nname = "vocab"\nkind = "nl2fol"\ndata = "items.jsonl"\n\n'
            '[afcheck.options]\nlanguage = "folio"\n')
    manifest.write_text(head + 'vocabulary = "gold"\n', encoding="utf-8")
    done = afcheck(str(folder), "--no-cache", "-q")
    assert done.returncode == 0 and "5 passed" in done.stdout, done.stdout + done.stderr
    manifest.write_text(head + 'vocabulary = "all of it"\n', encoding="utf-8")
    wrong = afcheck(str(folder), "--no-cache", "-q")
    assert wrong.returncode != 0
    assert "vocabulary = 'all of it'" in wrong.stdout + wrong.stderr


def test_shipped_open_vocabulary_examples_show_exact_and_aligned(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = afcheck(str(ROOT / "suites" / "folio-nl2fol-examples"), "--no-cache", "-q",
                   "--json", str(out))
    assert "12 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    overall = json.loads(out.read_text(encoding="utf-8"))["methods"]["nl2fol"]["details"][
        "overall"]
    assert (overall["N"], overall["correct"], overall["aligned_correct"]) == (13, 1, 7)
    assert (overall["syntax_errors"], overall["semantic_errors"]) == (3, 9)
    steps = {s["id"]: s for s in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    # The wrong meaning stays wrong under the renaming; the name used two ways is not merged.
    assert steps["football/c2"]["aligned_decision"] == "not-equivalent"
    assert steps["football/p3"]["aligned_decision"] == "not-equivalent"
    assert steps["football/p3"]["aligned"]["alignment"]["constants"] == [
        {"from": "bayern_munich", "to": "bayernMunich",
         "by": "the same name up to case, separators, accents and a leading 'is'"}]


@pytest.mark.heavy
def test_an_unknown_theory_in_the_suite_names_the_suite_not_an_option(suite: Path) -> None:
    manifest = suite / "suite.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + 'theory = "klingon"\n',
                        encoding="utf-8")
    done = afcheck(str(suite), "--no-cache")
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert f"{manifest}:13: [afcheck.options] theory: " in text and "klingon" in text
    assert "--nl2fol-theory" not in text and "Traceback" not in text


def test_a_formalise_budget_reaches_the_llm_fol_formalisers_as_their_deadline() -> None:
    from afcheck_fol.kinds import FOL_FORMALISER
    from afcheck_nl2fol.method import Nl2FolMethod

    from afcheck.budget import resolve
    from afcheck.errors import UsageError
    from afcheck.method import Choice
    from afcheck.plugins import get_plugins
    from afcheck.runtime import Components, Runtime

    def budgeted(change: str, name: str, options: dict[str, str]) -> dict[str, str]:
        budgets = resolve({"nl2fol": Nl2FolMethod.budgets}, [change] if change else [])
        runtime = Runtime(Components(get_plugins()), budgets=budgets)
        return dict(runtime.budgeted(FOL_FORMALISER, Choice.of(name, options), "nl2fol",
                                     "formalise").options)

    server = {"model": "m", "base_url": "http://127.0.0.1:9/v1"}
    for name in ("llm", "nl2fol-llama", "nl2fol-gemma", "nl2fol-folio"):
        assert budgeted("nl2fol.formalise.seconds=20", name, server) == {
            **server, "deadline_s": "20"}
    # Left at its default, the formaliser's own limits hold: nothing is added.
    assert budgeted("", "llm", server) == server
    with pytest.raises(UsageError, match=r"^--budget nl2fol.formalise: the fol formaliser "
                       r"'reference' takes no budget; bound it with its own options "
                       r"\(--fol-formaliser-opt\)"):
        budgeted("nl2fol.formalise.seconds=20", "reference", {})
    with pytest.raises(UsageError, match="offline vLLM engine generates a whole batch"):
        budgeted("nl2fol.formalise.seconds=20", "llm", {"model": "m"})
    with pytest.raises(UsageError, match="leave memory_mb unset"):
        budgeted("nl2fol.formalise.memory_mb=512", "llm", server)


@pytest.mark.heavy
def test_a_stalled_formaliser_request_is_stopped_and_the_other_items_decided(
        tmp_path: Path) -> None:
    # One sentence's request never gets an answer: 30 s an attempt and 4 retries would hold
    # it 150 s; the budget stops it after 0.5 s, and the other item is judged as usual.
    from fake_openai import FakeOpenAI

    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "s"\nkind = "nl2fol"\ndata = "items.jsonl"\n\n'
        '[afcheck.options]\nlanguage = "tarski"\n', encoding="utf-8")
    rows = [{"id": "quick", "sentence": "a is a cube.", "gold": ["Cube(a)"]},
            {"id": "stalled", "sentence": "b is a cube, STALL.", "gold": ["Cube(b)"]}]
    (folder / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                        encoding="utf-8")
    out, cache = tmp_path / "r.json", tmp_path / "cache"
    fake = FakeOpenAI(stall="STALL", content=lambda prompt: "Cube(a)")
    with fake.running() as url:
        done = afcheck(str(folder), "--cache-dir", str(cache), "--json", str(out), "-rA",
                       "--fol-formaliser", "llm", "--fol-formaliser-opt",
                       f"model=fake,base_url={url},timeout_s=30,max_retries=4",
                       "--budget", "nl2fol.formalise.seconds=0.5",
                       env={"OPENAI_API_KEY": "none"})
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert fake.completions == 2, text  # one attempt each: no retry fits in what was left
    steps = {s["id"]: s for s in json.loads(out.read_text())["steps"]}
    assert steps["quick"]["status"] == "passed", steps["quick"]
    assert steps["stalled"]["status"] != "passed"
    assert "no reply within the deadline of 0.5 s (deadline_s)" in json.dumps(
        steps["stalled"], ensure_ascii=False)
    data = json.loads(out.read_text())
    assert data["config"]["budgets"]["nl2fol"]["formalise"]["seconds"] == 0.5
    # Only the answered request is kept: the next run asks the stalled one again.
    info = afcheck("cache", "info", "--json", "--cache-dir", str(cache))
    assert json.loads(info.stdout)["entries"]["fol-formalise"] == 1


def test_the_run_s_model_judges_the_alignment_and_its_answers_are_kept(tmp_path: Path) -> None:
    """``--nl2fol-align-judge``: the model of ``--formaliser`` (a fake OpenAI-compatible
    server) confirms one renaming and refuses the other; recorded translations answer."""
    from fake_openai import FakeOpenAI

    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "s"\nkind = "nl2fol"\ndata = "items.jsonl"\n\n'
        '[afcheck.options]\nlanguage = "folio"\ntheory = "none"\n', encoding="utf-8")
    rows = [{"id": "p1", "sentence": "Ann has a feud with Bo.", "gold": ["Feud(ann, bo)"],
             "group": "g"},
            {"id": "p2", "sentence": "Kim can block Sam.", "gold": ["Block(kim, sam)"],
             "group": "g"}]
    (folder / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                        encoding="utf-8")
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(json.dumps({"id": "p1", "output": "HasFeud(ann, bo)"}) + "\n"
                       + json.dumps({"id": "p2", "output": "CanBlock(kim, sam)"}) + "\n",
                       encoding="utf-8")

    def answer(prompt: str) -> str:
        return ("Yes: a feud is what one has." if "HasFeud/2" in prompt
                else "No: being able to block is not blocking.")

    fake = FakeOpenAI(content=answer)
    out = tmp_path / "r.json"
    with fake.running() as url:
        done = afcheck(str(folder), "--no-cache", "--json", str(out), "-rA",
                       "--fol-formaliser", "replay", "--fol-formaliser-opt", f"path={outputs}",
                       "--formaliser", "frontier", "--formaliser-opt",
                       f"model=fake,base_url={url}", "--nl2fol-align-judge",
                       env={"OPENAI_API_KEY": "none"})
        refused = afcheck(str(folder), "--no-cache", "--nl2fol-align-judge",
                          "--fol-formaliser", "replay", "--fol-formaliser-opt",
                          f"path={outputs}")
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    assert fake.completions == 2, text
    steps = {s["id"]: s for s in json.loads(out.read_text())["steps"]}
    assert steps["p1"]["aligned_decision"] == "correct"
    [renaming] = steps["p1"]["aligned"]["alignment"]["predicates"]
    assert renaming["by"].endswith("judge: Yes: a feud is what one has.")
    assert steps["p2"]["aligned_decision"] == "not-equivalent"
    assert steps["p2"]["aligned"]["alignment"]["rejected"] == [
        {"renaming": "CanBlock/2 → Block",
         "why": "judge: No: being able to block is not blocking."}]
    assert "confirmed by the judge 1, refused 1" in done.stdout
    # The judge is the run's model: without one, one line says what to give.
    assert refused.returncode != 0
    assert "--nl2fol-align-judge asks the run's model" in refused.stdout + refused.stderr
    not_a_model = afcheck(str(folder), "--no-cache", "--nl2fol-align-judge",
                          "--formaliser", "reference")
    assert not_a_model.returncode != 0
    assert "--formaliser reference is no model" in not_a_model.stdout + not_a_model.stderr
