"""``--steps dag`` on ProcessBench suites: where the DAG file is found, what it becomes, and
what the user is told when there is none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from afcheck_faithfulness.records import Step
from afcheck_suites.dag import default_out

from afcheck.errors import LoadError, SuiteError
from afcheck.plugins import get_plugins
from afcheck.suites import load_spec

ROOT = Path(__file__).resolve().parent.parent

RELEASED_ROW: dict[str, Any] = {
    "id": "gsm8k-7",
    "problem": "A box holds 4 rows of 6 eggs. 5 break. How many are whole?",
    "dags": {
        # Released files may key nodes by id; types come capitalised.
        "nodes": {
            "step_1": {"content": "A box holds 4 rows of 6 eggs.", "statement_type": "Declarative",
                       "dependencies": [], "inference_rule": "", "verification_note": ""},
            "step_2": {"content": "4 × 6 = 24 eggs", "statement_type": "Computation",
                       "dependencies": ["step_1"], "inference_rule": "multiplication",
                       "verification_note": "4 * 6 = 24"},
            "step_err_2": {"content": "glitch", "statement_type": "logical", "dependencies": []},
            "step_3": {"content": "5 eggs break.", "statement_type": "declarative",
                       "dependencies": []},
            "step_4": {"content": "24 - 5 = 19 eggs are whole.",
                       "statement_type": "Computation",
                       "dependencies": ["step_3", "step_2", "step_4", "step_9"],
                       "inference_rule": "subtraction", "verification_note": "24 - 5 = 19"},
        },
        "final_answer": "19",
        "metadata": {"notes": "", "difficulty": "easy"},
    },
    "split": "gsm8k",
    "generator": "Qwen2-7B-Instruct",
    "final_answer_correct": True,
}
MATH_ROW = {**RELEASED_ROW, "id": "math-3", "split": "math"}


def _suite(tmp_path: Path, options: str = "", name: str = "gsm8k") -> Path:
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "{name}"\nkind = "processbench"\nsource = "Qwen/ProcessBench"\n'
        f'split = "gsm8k"\n\n[afcheck.defaults]\nsteps = "dag"\n{options}', encoding="utf-8")
    return folder


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def _load(folder: Path) -> list[Step | LoadError]:
    spec = load_spec(folder).with_settings({})
    return list(get_plugins().create("suite_kind", spec.kind).load(spec))


def _steps(folder: Path) -> list[Step]:
    loaded = _load(folder)
    steps = [s for s in loaded if isinstance(s, Step)]
    assert len(steps) == len(loaded), [str(e) for e in loaded if isinstance(e, LoadError)]
    return steps


@pytest.fixture(autouse=True)
def _no_outside_dags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AFCHECK_DAGS", raising=False)
    monkeypatch.delenv("AFCHECK_DATA_DIR", raising=False)


def test_no_dag_file_says_exactly_what_to_run(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    folder = _suite(tmp_path)
    with pytest.raises(SuiteError) as info:
        _load(folder)
    message = str(info.value)
    assert message.startswith(f"{folder / 'suite.toml'}: step mode 'dag' needs the LLM split")
    assert "run `afcheck dag gsm8k --llm-opt base_url=…,model=…` first" in message
    assert "AFCHECK_DAGS=FILE" in message and "processbench/gsm8k.dags.json" in message


def test_released_rows_become_steps_with_parents_as_context(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFCHECK_DAGS", str(_write(tmp_path / "d.json", [RELEASED_ROW])))
    steps = _steps(_suite(tmp_path))
    assert [s.id for s in steps] == ["gsm8k/gsm8k-7/step_2", "gsm8k/gsm8k-7/step_4"]
    eggs, whole = steps
    assert eggs.context == ("A box holds 4 rows of 6 eggs.",)
    # Parents in chain order; itself and an unknown id are not parents.
    assert whole.context == ("4 × 6 = 24 eggs", "5 eggs break.")
    assert whole.metadata["dependencies"] == ["step_3", "step_2"]
    assert whole.metadata["statement_type"] == "computation"
    assert whole.metadata["generator"] == "Qwen2-7B-Instruct"
    assert whole.text == "24 - 5 = 19 eggs are whole." and whole.problem_id == "gsm8k-7"


def test_suite_option_wins_and_is_relative_to_the_suite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _suite(tmp_path, '\n[afcheck.options]\ndags = "mine.dags.json"\n')
    _write(folder / "mine.dags.json", [RELEASED_ROW])
    monkeypatch.setenv("AFCHECK_DAGS", str(_write(tmp_path / "other.json", [])))
    assert len(_load(folder)) == 2
    (folder / "mine.dags.json").unlink()
    with pytest.raises(SuiteError, match="mine.dags.json \\(from dags in \\[afcheck.options\\]"
                       "\\) not found; write it with `afcheck dag"):
        _load(folder)


def test_data_dir_then_the_one_cached_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _suite(tmp_path)
    cached = _write(default_out("gsm8k", "model-a"), [RELEASED_ROW])
    assert [s.problem_id for s in _steps(folder)] == ["gsm8k-7", "gsm8k-7"]
    data = tmp_path / "data"
    _write(data / "processbench" / "gsm8k.dags.json", [{**RELEASED_ROW, "id": "gsm8k-8"}])
    monkeypatch.setenv("AFCHECK_DATA_DIR", str(data))
    assert {s.problem_id for s in _steps(folder)} == {"gsm8k-8"}
    monkeypatch.delenv("AFCHECK_DATA_DIR")
    second = _write(default_out("gsm8k", "model-b"), [RELEASED_ROW])
    with pytest.raises(SuiteError, match="several DAG files for split 'gsm8k'") as info:
        _load(folder)
    assert str(cached) in str(info.value) and str(second) in str(info.value)


def test_rows_of_other_splits_are_left_out(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    mixed = _write(tmp_path / "all.json", [MATH_ROW, RELEASED_ROW])
    monkeypatch.setenv("AFCHECK_DAGS", str(mixed))
    assert {s.problem_id for s in _steps(_suite(tmp_path))} == {"gsm8k-7"}
    monkeypatch.setenv("AFCHECK_DAGS", str(_write(tmp_path / "math.json", [MATH_ROW])))
    with pytest.raises(SuiteError, match="no DAG rows for split 'gsm8k' \\(the file holds math\\)"):
        _load(_suite(tmp_path))


def test_bad_rows_are_load_errors_and_a_bad_file_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{**RELEASED_ROW, "id": ""}, {**RELEASED_ROW, "id": "gsm8k-9", "error": "no JSON"}]
    monkeypatch.setenv("AFCHECK_DAGS", str(_write(tmp_path / "d.json", rows)))
    first, second = _load(_suite(tmp_path))
    # Both records are on the file's one line: each is named by its number too.
    assert isinstance(first, LoadError) and "d.json:1 (record 1): DAG row has no 'id'" in str(
        first)
    assert isinstance(second, LoadError) and str(second).startswith(
        f"{tmp_path / 'd.json'}:1 (record 2):")
    assert "chain gsm8k-9 has no DAG: no JSON" in second.message
    (tmp_path / "d.json").write_text('{"id": 1}', encoding="utf-8")
    with pytest.raises(SuiteError, match="expected a JSON array of DAG rows"):
        _load(_suite(tmp_path))


def test_one_damaged_row_of_each_kind_loses_only_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def row(n: int) -> bytes:
        return json.dumps({**RELEASED_ROW, "id": f"gsm8k-{n}"}, ensure_ascii=False).encode()

    lines = [
        row(1),
        row(2).replace(b"A box", b"A b\xffx"),  # not UTF-8
        b'{"id": "gsm8k-3", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",  # nested too deep
        b'"gsm8k-4"',  # not an object
        row(5)[:-1] + b', "x": [1, 2',  # never ends
        row(6),
    ]
    path = tmp_path / "d.json"
    path.write_bytes(b"[\n" + b",\n".join(lines) + b"\n]\n")
    monkeypatch.setenv("AFCHECK_DAGS", str(path))
    loaded = _load(_suite(tmp_path))
    steps = {s.problem_id for s in loaded if isinstance(s, Step)}
    assert steps == {"gsm8k-1", "gsm8k-6"}
    bad = {e.location.line: e.message for e in loaded if isinstance(e, LoadError)}
    assert sorted(bad) == [3, 4, 5, 6]
    assert bad[3].startswith("not UTF-8 (byte 0xff)")
    assert bad[4].startswith("nested more than 256 levels deep")
    assert bad[5].startswith("a DAG row is a JSON object")
    assert bad[6].startswith("a record that never ends")
    # Each good row gives the steps it gives alone.
    assert len([s for s in loaded if isinstance(s, Step)]) == 2 * len(
        [s for s in loaded if isinstance(s, Step) and s.problem_id == "gsm8k-1"])


def test_afcheck_collects_dag_steps(tmp_path: Path) -> None:
    folder = _suite(tmp_path)
    _write(folder / "d.json", [RELEASED_ROW])
    env = {**os.environ, "AFCHECK_DAGS": str(folder / "d.json")}
    env.pop("AFCHECK_DATA_DIR", None)
    done = subprocess.run([sys.executable, "-m", "afcheck", str(folder), "--co", "-q"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "gsm8k::gsm8k-7/step_2" in done.stdout and "gsm8k::gsm8k-7/step_4" in done.stdout
    assert "step_1" not in done.stdout and "step_3" not in done.stdout
