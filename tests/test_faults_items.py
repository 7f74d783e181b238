"""One item's crash in a stage is that item's result (:mod:`afcheck.runtime.isolate`), and a
method that cannot judge one item fails that item alone (:func:`afcheck.decided.judged`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from afcheck.decided import judged
from afcheck.errors import UsageError
from afcheck.runtime.isolate import Isolated
from afcheck.types import Status

ROOT = Path(__file__).resolve().parent.parent


def _fragile(chunk: list[int]) -> list[int]:
    if any(n < 0 for n in chunk):
        raise ValueError(f"negative in {chunk}")
    return [n * 10 for n in chunk]


def _failed(n: int, reason: str) -> int:
    return -1000 - n


def test_a_crash_on_one_item_is_that_items_result_only() -> None:
    isolated = Isolated(_fragile, _failed, "tens at the x stage")
    assert isolated([1, -2, 3]) == [10, -998, 30]
    assert isolated([-5]) == [-995]  # once it has answered, a lone crash is the item's
    assert isolated([4, 5]) == [40, 50]


def test_a_component_that_never_answers_is_broken_and_stops_the_run() -> None:
    isolated = Isolated(_fragile, _failed, "tens at the x stage")
    with pytest.raises(ValueError, match=r"negative in \[-1, -2\]"):
        isolated([-1, -2])


def test_the_reason_names_the_component_stage_and_error() -> None:
    reasons: list[str] = []
    isolated = Isolated(_fragile, lambda n, r: reasons.append(r) or 0, "tens at the x stage")
    isolated([1, -1])
    assert reasons == ["tens at the x stage crashed on this item: ValueError: negative in [-1]"]


def test_an_error_about_the_run_still_stops_it() -> None:
    def refuses(chunk: list[int]) -> list[int]:
        raise UsageError("the server refused the key")

    with pytest.raises(UsageError):
        Isolated(refuses, _failed, "x")([1, 2])


def test_isolated_calls_can_be_shipped_to_a_worker() -> None:
    import cloudpickle

    isolated = Isolated(_fragile, _failed, "tens at the x stage")
    assert cloudpickle.loads(cloudpickle.dumps(isolated))([2, -1]) == [20, -999]


class _Picky:
    name = "picky"

    def outcome(self, result: object) -> object:
        raise KeyError("verdict")


def test_a_result_the_method_cannot_judge_fails_that_item() -> None:
    outcome = judged(_Picky(), object())  # type: ignore[arg-type]
    assert outcome.status is Status.FAILED
    assert outcome.message == "the picky method could not judge this item: KeyError: 'verdict'"


@pytest.mark.parametrize("perturber", ["regex", "given"])
def test_a_10000_digit_number_loses_only_its_own_step(tmp_path: Path, perturber: str) -> None:
    suite = tmp_path / "big"
    suite.mkdir()
    (suite / "suite.toml").write_text(
        '[afcheck]\nschema = 1\nname = "big"\nkind = "jsonl"\ndata = "steps.jsonl"\n'
        f'[afcheck.defaults]\nperturber = "{perturber}"\nformaliser = "literal"\n'
        'prover = "smt"\n')
    rows = [json.loads(line) for line in
            (ROOT / "suites" / "examples" / "steps.jsonl").read_text().splitlines()[:3]]
    big = dict(rows[0], node_id="9", step=f"So \\({'7' * 10_000} + 1 = {'7' * 9_999}8\\).")
    big.pop("lean", None)
    big.pop("perturbed", None)
    rows.append(big)
    (suite / "steps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--no-cache",
                           "--json", str(out), "-p", "no:cacheprovider"],
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert "internal error" not in done.stdout + done.stderr
    steps = json.loads(out.read_text())["steps"]
    assert len(steps) == 4


def test_a_bad_chains_record_with_junit_writes_every_file(tmp_path: Path) -> None:
    """A suite whose name is none of its datasets: the unreadable record's group has no
    metrics, and the JUnit file is still written with every item."""
    import shutil

    suite = tmp_path / "ch"
    shutil.copytree(ROOT / "suites" / "chains-examples", suite)
    with (suite / "chains.jsonl").open("a") as data:
        data.write('{"id": 5\n')
    junit = tmp_path / "r.xml"
    done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--no-cache",
                           "--junitxml", str(junit), "--json", str(tmp_path / "r.json"),
                           "-p", "no:cacheprovider"],
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in out, out
    assert junit.read_text().count("<testcase") == 8
    assert f"wrote junit results to {junit}" in out


def test_a_huge_gold_formula_fails_its_item_at_once(tmp_path: Path) -> None:
    """nl2fol's parse-size budget: a formula of millions of characters is refused before the
    parser starts (it would take gigabytes and minutes), and the other items are reported."""
    import shutil

    suite = tmp_path / "ta"
    shutil.copytree(ROOT / "suites" / "tarski", suite)
    toml = suite / "suite.toml"
    toml.write_text(toml.read_text().replace('name = "tarski"', 'name = "ta"'))
    rows = [json.loads(line) for line in
            (suite / "sentences.jsonl").read_text().splitlines()[:4]]
    rows.append(dict(rows[0], id="tw-big", gold=[" ∧ ".join(["Cube(a)"] * 400_000)]))
    (suite / "sentences.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    done = subprocess.run([sys.executable, "-m", "afcheck", str(suite), "--no-cache", "-rf",
                           "-p", "no:cacheprovider"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "1 failed, 4 passed" in out and "characters long (at most 100,000)" in out, out
    assert "MemoryError" not in out


def test_the_parser_refuses_a_long_text_before_starting() -> None:
    from afcheck_fol.language import TARSKI
    from afcheck_fol.syntax import MAX_CHARS, FolSyntaxError, parse

    with pytest.raises(FolSyntaxError, match="too-long"):
        parse("Cube(a) ∧ " * (MAX_CHARS // 8) + "Cube(a)", TARSKI)
    assert parse("Cube(a)", TARSKI) is not None
