"""The shipped suites: found in a checkout, carried by a built wheel, runnable by name from
an installed wheel (marker ``install`` for what needs a build or an index)."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from afcheck_suites import builtin
from test_readme import _clean_env, _copy_checkout

ROOT = Path(__file__).resolve().parent.parent


def test_a_checkout_ships_its_suites_folder() -> None:
    found = builtin.suites()
    assert builtin.folder() == ROOT / "suites"
    assert set(found) == {p.name for p in (ROOT / "suites").iterdir()
                          if (p / "suite.toml").is_file()}
    assert found["examples"] == ROOT / "suites" / "examples"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the checkout, as ``pip wheel --no-deps`` builds one."""
    base = tmp_path_factory.mktemp("wheel")
    checkout = _copy_checkout(base / "afcheck")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(base / "dist"), str(checkout)], check=True, timeout=600)
    (made,) = (base / "dist").glob("afcheck-*.whl")
    return made


@pytest.mark.install
def test_the_wheel_carries_every_suite(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for suite in (ROOT / "suites").iterdir():
        for path in suite.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                inside = f"afcheck_suites/builtin/{path.relative_to(ROOT / 'suites')}"
                assert inside in names, inside


@pytest.mark.install
def test_an_installed_wheel_runs_a_suite_by_name(wheel: Path, tmp_path: Path) -> None:
    """From the wheel, in a folder with no suites: ``afcheck list suites`` lists the shipped
    ones inside the installed package, ``afcheck examples`` runs one, and install hints name
    the package, not a checkout."""
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    env = _clean_env(tmp_path / "cache")
    subprocess.run([str(bin_dir / "pip"), "install", "-q", f"{wheel}[smt]"], check=True,
                   env=env, timeout=900)
    work = tmp_path / "elsewhere"
    work.mkdir()
    listed = subprocess.run([str(bin_dir / "afcheck"), "list", "suites"], cwd=work, env=env,
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if line.startswith("examples "))
    assert "faithfulness" in row and "68 records" in row
    assert "site-packages" in row and "afcheck_suites/builtin/examples" in row
    ran = subprocess.run([str(bin_dir / "afcheck"), "examples"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 1, ran.stdout[-2000:] + ran.stderr[-2000:]
    assert "53 failed, 15 passed" in ran.stdout
    hint = subprocess.run([str(bin_dir / "python"), "-c",
                           "from afcheck.install import install_command as c; print(c('vllm'))"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert hint.stdout.strip() == "pip install 'afcheck[vllm]'"
