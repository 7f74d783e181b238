"""The suite kind ``recorded``: recorded model outputs evaluated without a server, for the
chains and nl2fol methods, on the shipped recorded-output suites."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from afcheck_chains.records import ChainRecord
from afcheck_recorded.suite import RecordedSuite

from afcheck.errors import LoadError, SuiteError
from afcheck.suites import load_spec

ROOT = Path(__file__).resolve().parent.parent
CHAINS = ROOT / "suites" / "chains-recorded"
NL2FOL = ROOT / "suites" / "nl2fol-recorded"


def _run(tmp_path: Path, *args: str) -> dict[str, object]:
    out = tmp_path / "run.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", *args, "-q",
         "-p", "no:cacheprovider", "--cache-dir", str(tmp_path / "cache"), "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.exists(), done.stdout + done.stderr
    return json.loads(out.read_text("utf-8"))  # type: ignore[no-any-return]


def test_each_record_names_its_model_and_source() -> None:
    records = list(RecordedSuite().load(load_spec(CHAINS)))
    assert all(isinstance(r, ChainRecord) for r in records) and len(records) == 7
    chains = [r for r in records if isinstance(r, ChainRecord)]
    assert {r.dataset for r in chains} == {"prontoqa/demo-model-a", "prontoqa/demo-model-b",
                                           "proofwriter/demo-model-a"}
    assert chains[0].metadata["model"] == "demo-model-a"
    assert [r.id for r in chains if r.cut_off] == ["demo-b/prontoqa-cut-off"]


@pytest.fixture(scope="module")
def chains_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return _run(tmp_path_factory.mktemp("recorded"), "suites/chains-recorded",
                "--fol-prover", "z3-fol")


def _steps(run: dict[str, object]) -> dict[str, dict[str, object]]:
    steps = run["steps"]
    assert isinstance(steps, list)
    return {str(s["id"]): s for s in steps}


@pytest.mark.heavy
def test_recorded_chains_get_every_outcome_from_the_recorded_translations(
        chains_run: dict[str, object]) -> None:
    steps = _steps(chains_run)
    assert {k: (s["status"], s["class"] or s["analysis"]) for k, s in steps.items()} == {
        "demo-a/prontoqa-walk": ("passed", "T1"),       # "The correct option is: B"
        "demo-a/prontoqa-echo": ("passed", "T2"),       # "Therefore, the statement is false."
        "demo-a/prontoqa-repeats": ("passed", "T1"),    # "Answer: False"
        "demo-b/prontoqa-pronouns": ("passed", "T1"),   # "**False**"
        "demo-b/prontoqa-cut-off": ("skipped", "cut_off"),
        "demo-b/prontoqa-no-answer": ("skipped", "no_answer"),
        "demo-a/proofwriter-smart": ("passed", "T1"),   # 'the statement "…" is false'
    }
    assert steps["demo-a/prontoqa-echo"]["restatement_only"] is True
    assert steps["demo-a/prontoqa-walk"]["restatement_only"] is False
    assert steps["demo-a/prontoqa-repeats"]["repeated_steps"] == [
        {"step": 4, "repeats": 2, "text": "Yumpuses are dumpuses."}]
    quality = {q["role"]: q for q in steps["demo-a/proofwriter-smart"]["fol_quality"]}  # type: ignore[attr-defined]
    assert quality["premise 3"]["equivalent"] is True and quality["premise 3"]["bleu"] < 1
    assert quality["premise 5"]["equivalent"] is False   # IsKind(charlie) for Kind(charlie)
    assert quality["conclusion"] == {"role": "conclusion", "bleu": 1.0, "equivalent": True}
    assert steps["demo-b/prontoqa-cut-off"]["first_executed"] is False
    # What the model wrote is kept: its response and its translation, as recorded.
    walk = steps["demo-a/prontoqa-walk"]
    assert walk["raw_outputs"][0].startswith("Premises:\n")  # type: ignore[index]
    assert str(walk["response"]).endswith("The correct option is: B")


def test_recorded_chains_metrics_count_what_the_models_did(
        chains_run: dict[str, object]) -> None:
    overall = chains_run["methods"]["chains"]["details"]["overall"]  # type: ignore[index]
    assert overall["T2_valid_only_by_restating"]["count"] == 1
    assert overall["T2_valid_only_by_restating"]["total"] == 1
    assert overall["cut_off"]["count"] == 1 and overall["no_answer"]["count"] == 1
    # The cut-off response was never translated: outside the execution rate.
    assert (overall["execution_rate"]["count"], overall["execution_rate"]["total"]) == (6, 6)
    assert (overall["logical_equivalence"]["count"],
            overall["logical_equivalence"]["total"]) == (5, 6)
    groups = chains_run["methods"]["chains"]["details"]["by_dataset"]  # type: ignore[index]
    assert set(groups) == {"prontoqa/demo-model-a", "prontoqa/demo-model-b",
                           "proofwriter/demo-model-a"}


@pytest.mark.heavy
def test_the_same_responses_translated_by_the_rule_translator(tmp_path: Path) -> None:
    """Without the recorded translations, the rule translator reads the same chains, the
    pronouns and the class noun written as a name included."""
    steps = _steps(_run(tmp_path, "suites/chains-recorded", "--fol-formaliser", "rules",
                       "--fol-prover", "z3-fol"))
    assert steps["demo-b/prontoqa-pronouns"]["class"] == "T1"
    fol = [s["fol"] for s in steps["demo-b/prontoqa-pronouns"]["steps"]]  # type: ignore[attr-defined]
    assert fol[1:3] == ["dumpus(max)", "![X]: (dumpus(X) => wumpus(X))"]
    assert {k: s["analysis"] for k, s in steps.items()}["demo-b/prontoqa-cut-off"] == "cut_off"


def test_recorded_nl2fol_translations(tmp_path: Path) -> None:
    steps = _steps(_run(tmp_path, "suites/nl2fol-recorded"))
    assert {k: s["status"] for k, s in steps.items()} == {
        "demo-a/s1": "passed", "demo-a/s2": "passed", "demo-a/s3": "failed",
        "demo-a/s4": "failed", "demo-b/s1": "passed", "demo-b/s2": "failed"}
    assert {s["group"] for s in steps.values()} == {"folio-style/demo-model-a",
                                                   "folio-style/demo-model-b"}


def _suite(tmp_path: Path, lines: list[dict[str, object]], extra: str = "") -> Path:
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "r"\nkind = "recorded"\ndata = "o.jsonl"\n' + extra,
        encoding="utf-8")
    (tmp_path / "o.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines),
                                      encoding="utf-8")
    return tmp_path


BASE = {"premises": ["Max is a yumpus."], "conclusion": "Max is a yumpus.", "label": "True",
        "response": "Max is a yumpus.\nAnswer: True"}


def test_a_line_without_model_or_source_is_one_failing_item(tmp_path: Path) -> None:
    root = _suite(tmp_path, [{**BASE, "id": "a", "model": "m", "source": "s"},
                             {**BASE, "id": "b", "source": "s"},
                             {**BASE, "id": "c"}])
    a, b, c = RecordedSuite().load(load_spec(root))
    assert isinstance(a, ChainRecord) and a.dataset == "s/m"
    assert isinstance(b, LoadError) and str(b.location).endswith("o.jsonl:2")
    assert "no model for this recorded output" in b.message and b.name == "b"
    assert isinstance(c, LoadError) and "no source and no model" in c.message


def test_the_suite_may_name_the_model_and_source_of_every_line(tmp_path: Path) -> None:
    root = _suite(tmp_path, [{**BASE, "id": "a"}, {**BASE, "id": "b", "model": "m3"}],
                  '[afcheck.options]\nmodel = "m2"\nsource = "prontoqa"\n')
    a, b = RecordedSuite().load(load_spec(root))
    assert isinstance(a, ChainRecord) and a.dataset == "prontoqa/m2"
    assert isinstance(b, ChainRecord) and b.dataset == "prontoqa/m3"
    top = tmp_path / "top"
    top.mkdir()
    _suite(top, [{**BASE, "id": "a", "model": "m"}])
    (top / "suite.toml").write_text((top / "suite.toml").read_text("utf-8").replace(
        'kind = "recorded"', 'kind = "recorded"\nsource = "proofwriter"'), encoding="utf-8")
    [c] = RecordedSuite().load(load_spec(top))
    assert isinstance(c, ChainRecord) and c.dataset == "proofwriter/m"


def test_a_method_it_cannot_read_for_is_a_suite_error(tmp_path: Path) -> None:
    root = _suite(tmp_path, [{**BASE, "id": "a"}], "")
    (root / "suite.toml").write_text((root / "suite.toml").read_text("utf-8").replace(
        'kind = "recorded"', 'kind = "recorded"\nmethod = "equivalence"'), encoding="utf-8")
    with pytest.raises(SuiteError, match="chains, nl2fol, not 'equivalence'"):
        list(RecordedSuite().load(load_spec(root)))


SENTENCE = {"sentence": "Robert Lewandowski is a striker.", "gold": ["Striker(robertLewandowski)"],
            "source": "folio"}


def test_two_models_sharing_an_id_are_each_judged_on_their_own_translation(
        tmp_path: Path) -> None:
    """Keyed by (model, id): model a's wrong predicate is not replaced by model b's right one,
    whichever line comes last; the data file is named once (``data``)."""
    root = _suite(tmp_path, [
        {**SENTENCE, "id": "s1", "model": "a", "translation": "IsStriker(robertLewandowski)"},
        {**SENTENCE, "id": "s1", "model": "b", "translation": "Striker(robertLewandowski)"},
        {**SENTENCE, "id": "s2", "model": "a", "translation": "Striker(robertLewandowski)"},
    ], 'method = "nl2fol"\n[afcheck.options]\nlanguage = "folio"\ntheory = "none"\n'
       '[afcheck.defaults]\nfol_formaliser = "replay"\n')
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(root), "-q", "-p", "no:cacheprovider",
         "--cache-dir", str(tmp_path / "cache"), "--json", str(tmp_path / "run.json")],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    run = json.loads((tmp_path / "run.json").read_text("utf-8"))
    steps = _steps(run)
    assert {k: s["status"] for k, s in steps.items()} == {
        "a/s1": "failed", "b/s1": "passed", "s2": "passed"}
    assert steps["a/s1"]["output"] == "IsStriker(robertLewandowski)"
    # Each model its own row in the terminal table, as in the JSON.
    rows = [line.split()[0] for line in done.stdout.splitlines()
            if line.startswith("folio/")]
    assert rows == ["folio/a", "folio/b"], done.stdout


def test_a_recorded_chain_shared_by_two_models_is_two_items(tmp_path: Path) -> None:
    root = _suite(tmp_path, [{**BASE, "id": "x", "model": "m1", "source": "s"},
                             {**BASE, "id": "x", "model": "m2", "source": "s"},
                             {**BASE, "model": "m1", "source": "s"}])
    records = list(RecordedSuite().load(load_spec(root)))
    assert [(r.id, r.dataset) for r in records if isinstance(r, ChainRecord)] == [
        ("m1/x", "s/m1"), ("m2/x", "s/m2"), ("line3", "s/m1")]


def test_a_recorded_line_without_translation_is_told_what_it_lacks(tmp_path: Path) -> None:
    from afcheck_fol.formaliser import FolTask
    from afcheck_fol.formalisers import ReplayFormaliser

    path = tmp_path / "o.jsonl"
    path.write_text(json.dumps({**SENTENCE, "id": "s1", "model": "a"}) + "\n"
                    + json.dumps({"id": "s2", "outptu": "P(a)"}) + "\n", encoding="utf-8")
    first, second = ReplayFormaliser(path).formalise(
        [FolTask("s1", ("…",), "…"), FolTask("s2", ("…",), "…")])
    assert first.formulas is None and "no 'translation'" in first.error
    assert "expected {" not in first.error and f"{path}:1" in first.error
    assert 'expected {"id": …, "output": …}' in second.error and f"{path}:2" in second.error


PRONTO = {"premises": ["Each yumpus is a dumpus.", "Dumpuses are not sour.", "Max is a yumpus."],
          "conclusion": "Max is sour.", "label": "False", "model": "m", "source": "prontoqa"}


def test_recorded_chains_end_where_the_answer_ends_and_keep_what_the_model_wrote(
        tmp_path: Path) -> None:
    continued = ("Max is a yumpus. Each yumpus is a dumpus. So Max is a dumpus. Dumpuses are "
                 "not sour. So Max is not sour.\nThe correct option is: B\n------\n"
                 "Context: Wumpuses are red. Bob is a wumpus.\nQuestion: Is the following "
                 "statement true or false? Bob is red.\nOptions:\nA) True\nB) False\n"
                 "Reasoning: Bob is a wumpus. Wumpuses are not red. So Bob is not red.\n"
                 "The correct option is: A")
    root = _suite(tmp_path, [
        {**PRONTO, "id": "few-shot", "response": continued},
        {**PRONTO, "id": "bare", "response": "The correct option is: B"},
    ])
    run = _run(tmp_path, str(root), "--fol-formaliser", "rules", "--fol-prover", "z3-fol")
    steps = _steps(run)
    shot = steps["few-shot"]
    assert (shot["status"], shot["class"], shot["answer"]) == ("passed", "T1", "False")
    kept = shot["steps"]
    assert isinstance(kept, list) and kept[-1]["text"] == "Max is not sour."
    assert str(shot["answer_cut"]).startswith("after the answer line 2")
    assert shot["response"] == continued
    translation = shot["translation"]
    assert isinstance(translation, dict) and len(translation["steps"]) == len(shot["steps"])  # type: ignore[arg-type]
    assert translation["conclusion"] == "sour(max)"
    assert shot["raw_outputs"] == []  # the rule translator writes no text of its own
    bare = steps["bare"]
    assert (bare["status"], bare["analysis"], bare["class"]) == ("skipped", "no_reasoning", None)
    assert bare["answer_correct"] is True
    overall = run["methods"]["chains"]["details"]["overall"]  # type: ignore[index]
    assert overall["no_reasoning"]["count"] == 1
    assert overall["no_reasoning"]["total"] == 2
