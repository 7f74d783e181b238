"""Result paths are checked before any work (:mod:`afcheck.outputs`) and written without
replacing what is not theirs (:mod:`afcheck.fileio`)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from afcheck.errors import UsageError
from afcheck.fileio import write_atomic
from afcheck.outputs import Output, check

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "suites" / "tarski"


def test_an_empty_path_is_refused() -> None:
    for path in ("", "  "):
        with pytest.raises(UsageError, match="the file name is empty"):
            check([Output("json results", path)])


def test_a_folder_and_a_path_under_a_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is a folder"):
        check([Output("json results", str(tmp_path))])
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="is a file, so nothing can be written under it"):
        check([Output("json results", str(tmp_path / "f" / "r.json"))])


def test_two_results_at_one_file_are_refused_also_through_a_link(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="would both be written"):
        check([Output("json results", "same.out"), Output("junit results", "same.out")])
    (tmp_path / "real.out").write_text("")
    (tmp_path / "link.out").symlink_to(tmp_path / "real.out")
    with pytest.raises(UsageError, match="would both be written"):
        check([Output("json results", str(tmp_path / "real.out")),
               Output("junit results", str(tmp_path / "link.out"))])


def test_a_suites_own_file_and_the_baseline_read_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="is a file of the suite"):
        check([Output("json results", str(SUITE / "sentences.jsonl"))], [SUITE])
    (tmp_path / "link.jsonl").symlink_to(SUITE / "sentences.jsonl")
    with pytest.raises(UsageError, match="is a file of the suite"):
        check([Output("json results", str(tmp_path / "link.jsonl"))], [SUITE])
    with pytest.raises(UsageError, match="which this run reads"):
        check([Output("json results", "b.json")], [], [Output("the baseline", "b.json")])
    # A new file in a suite's folder replaces nothing.
    check([Output("json results", str(tmp_path / "new.json"))], [tmp_path])


def test_a_result_file_has_the_users_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "r.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "r.json").stat().st_mode) == 0o644


def test_a_link_is_written_through_and_a_fifo_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    write_atomic(fifo, "through the pipe")
    assert reader.communicate(timeout=10)[0] == "through the pipe"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def _afcheck(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "afcheck", "tarski", "--limit", "2", "--no-cache",
         "-p", "no:cacheprovider", *args],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)


@pytest.mark.parametrize(("args", "says"), [
    (("--json", ""), "the file name is empty"),
    (("--json", "same.out", "--junitxml", "same.out"), "would both be written"),
    (("--json", str(SUITE / "sentences.jsonl")), "is a file of the suite"),
    (("--json", "."), "is a folder"),
    (("--summary-md", "x.md", "--json", "x.md"), "would both be written"),
])
def test_a_bad_result_path_stops_the_run_before_any_work(tmp_path: Path, args: tuple[str, ...],
                                                         says: str) -> None:
    before = (SUITE / "sentences.jsonl").read_bytes()
    done = _afcheck(tmp_path, *args)
    assert done.returncode == 4, done.stdout + done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert (SUITE / "sentences.jsonl").read_bytes() == before


def test_json_to_standard_output_is_written_through(tmp_path: Path) -> None:
    done = _afcheck(tmp_path, "--json", "/dev/stdout", "-q")
    assert done.returncode == 0, done.stderr
    assert '"schema": "afcheck-results"' in done.stdout


def test_a_cache_dir_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", "tarski", "--limit", "1", "--cache-dir", "afile",
         "-p", "no:cacheprovider"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 4
    assert "the result cache's folder is a file" in done.stdout + done.stderr
    assert "INTERNALERROR" not in done.stdout + done.stderr
