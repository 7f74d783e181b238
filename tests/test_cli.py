"""The ``afcheck`` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from afcheck import cli


def test_short_options_become_afcheck_options() -> None:
    args = cli.translate(["suites/x", "--formaliser", "kimina", "--prover=smt", "-k", "p1",
                          "--formaliser-opt", "model=m", "--tb=short", "--json", "r.json"])
    assert args == ["suites/x", "--afcheck-formaliser=kimina", "--afcheck-prover=smt", "-k",
                    "p1", "--afcheck-formaliser-opt=model=m", "--tb=short",
                    "--afcheck-json=r.json"]
    assert cli.translate(["--no-cache", "x"]) == ["--afcheck-no-cache", "x"]


def test_list_shows_components_with_their_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "formalisers"]) == 0
    out = capsys.readouterr().out
    assert "reference" in out and "replay" in out
    assert "reference (afcheck 0.1.0)" in out


def test_list_all_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for heading in ("formalisers:", "perturbers:", "suite_kinds:", "reporters:"):
        assert heading in out


def test_list_unknown_kind_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "widgets"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown kind 'widgets'" in err[0]


def test_no_path_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 4
    assert "usage: afcheck PATH..." in capsys.readouterr().err


def test_bad_option_value_is_one_line() -> None:
    from afcheck.errors import UsageError
    from afcheck.options import parse_kv

    with pytest.raises(UsageError, match="--prover-opt expects KEY=VALUE"):
        parse_kv(["timeout"], "prover")
    assert parse_kv(["a=1,b=2", "url=http://h/x?y=1"], "f") == {
        "a": "1", "b": "2", "url": "http://h/x?y=1"}
    assert parse_kv(["stop=a,b,c=d"], "f") == {"stop": "a,b", "c": "d"}


def test_pytest_defaults_give_way_to_the_users_choices() -> None:
    hypothesis = ["-p", "no:hypothesispytest", "-p", "no:unraisableexception",
                  "-p", "no:subtests", "-p", "no:xdist", "-p", "no:anyio"]
    assert cli.defaults(["suites/x"]) == ["--tb=line", "-rN", "-s", "-p", "no:logging",
                                          *hypothesis]
    assert cli.defaults(["suites/x", "--tb=short", "--capture=fd", "--log-level=INFO"]) == (
        hypothesis)
    assert cli.defaults(["suites/x", "-rs"]) == ["--tb=line", "-s", "-p", "no:logging",
                                                 *hypothesis]
    assert "no:xdist" not in cli.defaults(["suites/x", "-n", "2"])  # refused with one line
    assert "no:anyio" not in cli.defaults(["suites/x", "tests/test_async.py", "-p", "anyio"])


def test_help_is_afchecks_own(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["help"], ["-h"]):
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert out.startswith("usage: afcheck PATH...")
        assert "pytest.main()" not in out and "--afcheck-" not in out
        for section in ("components:", "steps and perturbation:", "outputs:",
                        "gates and baseline:", "cache and execution:"):
            assert section in out
        assert "--formaliser NAME" in out and "--json FILE" in out and "--max-uflb X" in out
        for command in ("list", "cache", "prove", "perturb", "lean", "dag"):
            assert f"\n  {command} " in out
        assert "afcheck --help-pytest" in out


def test_a_command_wins_over_a_folder_of_the_same_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cache").mkdir()
    monkeypatch.chdir(tmp_path)
    assert cli.main(["cache", "info", "--cache-dir", str(tmp_path / "c")]) == 0
    assert "result cache at" in capsys.readouterr().out  # the command answered
    assert cli.main(["./cache", "-q", "-p", "no:cacheprovider"]) == 5  # the folder: no tests


def test_subcommands_share_the_runs_option_parser(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["prove", "--prover-opt", "jobs=1,timeout_ms=500",
                     "theorem t : (2 : ℕ) + 2 = 4 := by sorry"]) == 0
    assert "verdict:   proved" in capsys.readouterr().out


def test_list_methods_and_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "methods"]) == 0
    out = capsys.readouterr().out
    assert "faithfulness" in out
    # Each method's budgets, stage by stage, as --budget names them.
    assert "ted: size=150 (nodes)" in out and "search: seconds=10 size=200000 (nodes)" in out
    assert "prove: the prover's own limits (eprover:" in out
    assert "pair: seconds=60 memory_mb=4096" in out
    assert cli.main(["list", "commands"]) == 0
    out = capsys.readouterr().out
    assert "lean" in out and "dag" in out


def test_version_prints_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    from afcheck import __version__
    from afcheck.cli import main

    for flag in ("--version", "-V"):
        assert main([flag]) == 0
        assert capsys.readouterr().out.strip() == f"afcheck {__version__}"


def test_cache_info_on_a_missing_folder_creates_nothing(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    missing = tmp_path / "no" / "cache"
    assert cli.main(["cache", "info", "--cache-dir", str(missing)]) == 0
    assert "no result cache at" in capsys.readouterr().out
    assert not (tmp_path / "no").exists()


def test_list_without_a_kind_shows_the_commands_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "commands:" in out and "fol_formalisers:" in out and "executors:" in out


def test_the_command_exits_with_the_runs_status_and_every_file_written(tmp_path: Path) -> None:
    # The command ends without Python's shutdown: the exit status, the flushed output and
    # the JSON results must be those of a normal exit.
    import json
    import os
    import subprocess
    import sys

    from conftest import TEST_PLUGINS, write_suite

    rows = [{"problem_id": f"p{i}", "node_id": "1", "step": f"So: {i} + 1 = {i + 1}",
             "perturbed": f"So: {i} + 1 = {i + 1 + (i % 2)}"} for i in range(6)]
    write_suite(tmp_path, "demo", rows,
                {"perturber": "given", "formaliser": "arith", "prover": "arith"})
    out = tmp_path / "r.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck.cli", str(tmp_path / "demo"), "--plugin", "arith",
         "--no-cache", "--json", str(out), "-p", "no:cacheprovider"],
        env={**os.environ, "PYTHONPATH": str(TEST_PLUGINS)}, capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr  # the unperturbed steps fail
    assert "3 failed, 3 passed" in done.stdout
    assert len(json.loads(out.read_text(encoding="utf-8"))["steps"]) == 6


FREEZE_PROBE = '''
import gc


def pytest_runtestloop(session):
    print(f"frozen after collection: {gc.get_freeze_count() > 0}")
'''


def test_the_command_freezes_what_collection_made_and_main_in_process_does_not(
        tmp_path: Path) -> None:
    # The collector stops walking the items only where the process ends with the run: a
    # process that calls main() goes on, and what it froze could never be collected.
    import gc
    import os
    import subprocess
    import sys

    from conftest import ROOT

    (tmp_path / "freeze_probe.py").write_text(FREEZE_PROBE, encoding="utf-8")
    args = [str(ROOT / "suites" / "examples"), "--formaliser", "reference", "--no-cache",
            "-p", "no:cacheprovider", "-p", "freeze_probe", "-k", "gsm8k"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path),
                                                         os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", "from afcheck.cli import entry; entry()",
                           *args], env=env, capture_output=True, text=True, timeout=120)
    assert "frozen after collection: True" in done.stdout, done.stdout + done.stderr

    before = gc.get_freeze_count()
    sys.path.insert(0, str(tmp_path))
    try:
        cli.main(args)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("freeze_probe", None)
    assert gc.get_freeze_count() == before
