"""The next steps a run prints are chosen for its suites and methods, and work as printed: each
is run, as written, on each shipped suite (on its first records, ``--limit 3``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from afcheck import cli
from afcheck.catalogue import named_suites
from afcheck.plugins import get_plugins

MODEL_URL = "http://127.0.0.1:8000/v1"
"""The server address the printed model runs name: a local OpenAI-compatible server."""

LIMIT = ["--limit", "3"]


def _suites() -> list[object]:
    params: list[object] = []
    for suite in named_suites(get_plugins()):
        external = suite.size == "external"
        params.append(pytest.param(suite.name, external, id=suite.name,
                                   marks=[pytest.mark.realdata] if external else []))
    return params


def _afcheck(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = cli.main([*argv, "-p", "no:cacheprovider"])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def _steps(out: str) -> dict[str, str]:
    """The ``next steps:`` block of a run's output: label → command."""
    lines = out.splitlines()
    if "next steps:" not in lines:
        return {}
    steps = {}
    for line in lines[lines.index("next steps:") + 1:]:
        match = re.fullmatch(r"  ([^:]+):\s+(afcheck .*)", line)
        if match is None:
            break
        steps[match[1]] = match[2]
    return steps


def _ran(status: int, out: str) -> bool:
    """Whether a run went through: cases passed or failed (0, 1), or a sample of three that
    decided nothing (6, with its own line: a hard suite's first records may all be
    Inconclusive)."""
    return status in (0, 1) or (status == 6 and "NOTHING DECIDED" in out)


@pytest.mark.parametrize(("suite", "external"), _suites())
def test_each_printed_next_step_works_as_printed(
        suite: str, external: bool, request: pytest.FixtureRequest, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    if external:
        request.getfixturevalue("data_dir")  # skips without AFCHECK_DATA_DIR
    monkeypatch.chdir(tmp_path)  # the gate steps write results.json and results.xml here
    status, out = _afcheck([suite, *LIMIT], capsys)
    if external and status in (2, 4) and "AFCHECK_DATA_DIR" in out:
        pytest.skip(f"the data of {suite} is not under AFCHECK_DATA_DIR")
    assert _ran(status, out), out[-3000:]
    steps = _steps(out)
    assert steps, out[-3000:]  # a first run always says where to go from there
    fake = FakeOpenAI()
    with fake.running() as url:
        for label, command in steps.items():
            argv = shlex.split(command)
            assert argv[:2] == ["afcheck", suite], command  # this suite, by its name
            if "--formaliser-opt" in argv:
                # A model run: the local server it names is this test's.
                assert f"model=NAME,base_url={MODEL_URL}" in command
                argv = [arg.replace("NAME", "fake-formaliser").replace(MODEL_URL, url)
                        for arg in argv]
            done, ran = _afcheck([*argv[1:], *LIMIT], capsys)
            # It runs: exit 0 or 1 (cases failed, a gate did not hold), or 6 when the sample
            # decided nothing, never a usage error.
            assert _ran(done, ran), (label, command, ran[-3000:])
            assert " passed" in ran or " failed" in ran or " skipped" in ran, ran[-3000:]
            if label == "oracle run":
                assert done == 0, ran[-3000:]  # the oracle decides every case it can
            if "gate" in label:
                assert "gate held:" in ran or "GATE FAILED:" in ran, ran[-3000:]
                assert (tmp_path / "results.json").is_file()


def test_a_run_of_several_methods_prints_each_methods_steps_with_its_own_suites(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    status, out = _afcheck(["examples", "chains-examples", *LIMIT], capsys)
    assert status == 1, out[-3000:]
    steps = _steps(out)
    assert steps["faithfulness oracle run"] == "afcheck examples --formaliser reference"
    assert steps["chains model run"].startswith("afcheck chains-examples --formaliser ")
    assert all("chains-examples" not in command for label, command in steps.items()
               if label.startswith("faithfulness"))


def test_the_oracle_is_offered_only_where_the_data_has_the_statements(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # `competition` has no Lean statements of its own: the reference formaliser would fail
    # every case, so its run does not offer it.
    monkeypatch.chdir(tmp_path)
    _, out = _afcheck(["competition", *LIMIT], capsys)
    assert "oracle run" not in _steps(out) and "model run" in _steps(out)
    _, out = _afcheck(["examples", "--perturber", "regex", *LIMIT], capsys)
    assert "oracle run" not in _steps(out)  # the statements are of the suite's perturbation
