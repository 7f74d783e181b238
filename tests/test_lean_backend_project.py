"""The Lake project on an install without the source checkout (a wheel): shipped as package
data, written to the user's data folder by ``afcheck lean setup``, checked by ``doctor``."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import afcheck_lean.lake_project as lake_project
import pytest
from afcheck_lean import commands
from afcheck_lean.commands import main as lean_command
from afcheck_lean.lake_project import TEMPLATE_FILES, create_project, template_text

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_project_is_the_checkouts_lean_folder() -> None:
    for name in TEMPLATE_FILES:
        assert template_text(name) == (ROOT / "lean" / name).read_text(encoding="utf-8"), name


def test_the_wheel_declares_the_project_as_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'afcheck_lean = ["project/*"]' in pyproject
    assert {p.name for p in (ROOT / "plugins/afcheck_lean/project").iterdir()} == set(
        TEMPLATE_FILES)


@pytest.fixture
def wheel_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No checkout ``lean/`` and a private data folder: where a wheel user stands."""
    monkeypatch.setattr(lake_project, "checkout_project", lambda: tmp_path / "site" / "lean")
    monkeypatch.delenv("AFCHECK_LEAN_PROJECT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform != "linux":
        pytest.skip("the data folder layout is checked on Linux")
    return tmp_path / "data" / "afcheck" / "lean-v4.9.0"


def _fake_lake(path: Path, log: Path) -> str:
    path.write_text(f"#!/bin/sh\necho \"$PWD $*\" >> {log}\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_setup_writes_the_project_to_the_data_folder_and_builds_there(
    wheel_install: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = tmp_path / "lake.log"
    lake = _fake_lake(tmp_path / "lake", log)
    monkeypatch.setattr(commands, "_build_repl", lambda settings: True)  # needs GitHub
    assert lean_command(["setup", "--lake", lake]) == 0
    assert sorted(p.name for p in wheel_install.iterdir()) == sorted(TEMPLATE_FILES)
    assert f"wrote afcheck's pinned Lake project to {wheel_install}" in capsys.readouterr().out
    assert log.read_text().splitlines() == [f"{wheel_install} exe cache get",
                                            f"{wheel_install} build",
                                            f"{wheel_install} build AfcheckKernel",
                                            f"{wheel_install} build afcheck_judge"]
    (wheel_install / "lakefile.lean").write_text("-- edited\n")
    assert lean_command(["setup", "--lake", lake]) == 0  # an existing project is kept
    assert (wheel_install / "lakefile.lean").read_text() == "-- edited\n"


def test_setup_refuses_a_folder_that_is_not_a_lake_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "todo.txt").write_text("x")
    assert lean_command(["setup", "--project", str(folder), "--lake", "true"]) == 1
    err = capsys.readouterr().err
    assert "is not a Lake project (no lakefile.lean or lakefile.toml) and is not empty" in err
    assert len(err.strip().splitlines()) == 1 and not (folder / "lakefile.lean").exists()


def test_doctor_on_a_fresh_wheel_install_says_what_is_missing(
    wheel_install: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lake = _fake_lake(tmp_path / "lake", tmp_path / "log")
    assert lean_command(["doctor", "--no-smoke", "--lake", lake]) == 1
    out = capsys.readouterr().out
    assert f"MISSING project: the project folder {wheel_install} does not exist" in out
    assert "run `afcheck lean setup` to create it" in out
    create_project(wheel_install)
    assert lean_command(["doctor", "--no-smoke", "--lake", lake]) == 1
    out = capsys.readouterr().out
    assert f"ok  project: {wheel_install}" in out
    assert "ok  pinned toolchain: leanprover/lean4:v4.9.0" in out
    assert f"MISSING Mathlib: not downloaded into {wheel_install / '.lake' / 'packages'}" in out


def test_doctor_names_a_missing_lake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no-lake")
    assert lean_command(["doctor", "--no-smoke", "--project", str(tmp_path), "--lake",
                         missing]) == 1
    out = capsys.readouterr().out
    assert f"MISSING lake: '{missing}' not found on PATH" in out
    assert f"MISSING project: {tmp_path} has no lakefile.lean or lakefile.toml" in out
    assert os.path.isdir(tmp_path)
