"""The afcheck section and the failure summary of a run printed to a log (no terminal)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AFCHECK = str(Path(sys.executable).parent / "afcheck")


def _run(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AFCHECK_CACHE_DIR": str(cache)}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([AFCHECK, "suites/examples", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def _failure_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "suites/examples/steps.jsonl:" in line]


@pytest.mark.heavy
def test_a_log_shows_twenty_failures_then_the_count_of_the_rest(tmp_path: Path) -> None:
    done = _run(cache=tmp_path)
    assert len(_failure_lines(done.stdout)) == 20
    assert ("... and 33 more failed items not shown (--json FILE writes every one; "
            "--failure-lines N shows more)") in done.stdout
    assert "53 failed, 15 passed" in done.stdout  # the counts stay whole


@pytest.mark.heavy
def test_failure_lines_option_and_where_the_full_list_is(tmp_path: Path) -> None:
    done = _run("--failure-lines", "3", "--json", str(tmp_path / "r.json"), cache=tmp_path)
    assert len(_failure_lines(done.stdout)) == 3
    assert f"... and 50 more failed items not shown (every one is in --json {tmp_path}/r.json)" \
        in done.stdout
    none = _run("--failure-lines", "0", cache=tmp_path)
    assert _failure_lines(none.stdout) == []
    assert "... and 53 more failed items not shown" in none.stdout
    every = _run("--failure-lines", "100", cache=tmp_path)
    assert len(_failure_lines(every.stdout)) == 53
    assert "more failed items" not in every.stdout


@pytest.mark.heavy
def test_a_run_without_gates_ends_with_next_steps(tmp_path: Path) -> None:
    done = _run(cache=tmp_path)
    tail = done.stdout.splitlines()
    steps = tail[tail.index("next steps:") + 1:-1]
    assert [line.split(":", 1)[0].strip() for line in steps] == [
        "oracle run", "model run", "gate in CI"]
    assert steps[0].split(": ", 1)[1].strip() == "afcheck suites/examples --formaliser reference"
    assert "  formaliser literal: rule-based" in done.stdout
    assert "(formalises: arithmetic over ℚ/ℝ)" in done.stdout
    gated = _run("--max-uflb", "0.9", cache=tmp_path)
    assert "next steps:" not in gated.stdout
    assert "gate held: UFLB = 0.7647 ≤ 0.9 (--max-uflb)" in gated.stdout


@pytest.mark.heavy
def test_an_unreachable_model_server_is_afchecks_own_line(tmp_path: Path) -> None:
    from llm_server import free_port

    url = f"http://127.0.0.1:{free_port()}/v1"
    done = _run("--formaliser", "frontier", "--formaliser-opt", f"model=m,base_url={url}",
                "--limit", "2", cache=tmp_path)
    assert done.returncode == 4
    out = done.stdout + done.stderr
    assert f"afcheck: LLM server at {url}: cannot connect:" in done.stderr
    assert "retry 1 of 2" in done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == (
        f"afcheck: cannot reach the LLM server at {url}: cannot connect: [Errno 111] "
        "Connection refused (after 3 attempts)")
    assert "_pytest" not in out and "Exit:" not in out


def _interrupt(tmp_path: Path, *args: str) -> tuple[int, str]:
    """``afcheck suites/examples`` with a slow prover, sent SIGINT once proving has begun."""
    import signal

    env = {**os.environ, "AFCHECK_CACHE_DIR": str(tmp_path / "cache"),
           "AFCHECK_PROGRESS_INTERVAL": "0",
           "PYTHONPATH": str(ROOT / "tests" / "plugins_for_tests")}
    env.pop("PYTEST_ADDOPTS", None)
    process = subprocess.Popen(
        [AFCHECK, "suites/examples", "--plugin", "slowprove", "--prover", "slow-arith",
         "--prover-opt", "delay=0.2", "--chunk-size", "2", *args], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    seen = ""
    while "afcheck prove (slow-arith): " not in seen:
        char = process.stdout.read(1)
        assert char, seen
        seen += char
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=120)
    return process.returncode, seen + rest


@pytest.mark.heavy
def test_ctrl_c_is_one_line_exit_2_and_the_cache_resumes(tmp_path: Path) -> None:
    status, out = _interrupt(tmp_path, "--json", str(tmp_path / "r.json"))
    assert status == 2
    lines = out.rstrip().splitlines()
    assert lines[-1].startswith("=") and "no tests ran" in lines[-1]
    last = lines[-2]  # afcheck's line, then pytest's counts
    assert last.startswith("afcheck: interrupted (Ctrl-C) before any item finished, so no "
                           "result file is written; ")
    assert last.endswith("results of this run are kept in the result cache, and the same "
                         "command goes on from there; exit status 2")
    assert "KeyboardInterrupt" not in out and "Traceback" not in out
    assert not (tmp_path / "r.json").exists()
    again = _run("--no-cache", cache=tmp_path)  # the literal pipeline, not resumed: a control
    assert "53 failed, 15 passed" in again.stdout


@pytest.mark.heavy
def test_ctrl_c_while_items_report_writes_the_finished_ones(tmp_path: Path) -> None:
    """Ctrl-C after the batch (``interrupt_after`` raises it at the fifth item's report, as
    SIGINT's handler would): the JSON holds the five items that finished, one line says so."""
    import json

    env = {**os.environ, "AFCHECK_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": str(ROOT / "tests" / "plugins_for_tests")}
    env.pop("PYTEST_ADDOPTS", None)
    out = tmp_path / "r.json"
    done = subprocess.run([AFCHECK, "suites/examples", "-p", "interrupt_after", "--json",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2
    assert (f"afcheck: interrupted (Ctrl-C) after 5 finished items; wrote json results to "
            f"{out}; exit status 2") in done.stdout.splitlines()
    assert len(json.loads(out.read_text())["steps"]) == 5
    assert "KeyboardInterrupt" not in done.stdout + done.stderr


@pytest.mark.heavy
def test_a_plain_pytest_run_keeps_every_failure_line(tmp_path: Path) -> None:
    """The bridge is loaded in every pytest run; a session without afcheck items is left as
    pytest prints it."""
    (tmp_path / "test_many.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('i', range(30))\n"
        "def test_fails(i):\n    assert i < 0\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--tb=line", "-p",
                           "no:cacheprovider", "test_many.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert sum("test_many.py:5" in line for line in done.stdout.splitlines()) == 30
    assert "more failed items" not in done.stdout


def test_a_result_file_not_written_is_in_the_final_line(tmp_path: Path) -> None:
    # Every case passes, but --json cannot be written (the device is full): exit 1, and the
    # last line says so rather than reading as if all were well.
    done = _run("--formaliser", "reference", "--limit", "4", "--json", "/dev/full",
                cache=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "could not write json results to /dev/full" in done.stdout
    last = done.stdout.rstrip().splitlines()[-1]
    assert "4 passed" in last and "1 result file not written" in last, last
