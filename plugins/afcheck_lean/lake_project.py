"""The Lake project the Lean components run in, wherever afcheck was installed from.

A source checkout has it at ``lean/``. A wheel cannot hold it there (and must not: building it
writes gigabytes next to the code), so the package carries the project's three source files
as data (``afcheck_lean/project/``) and ``afcheck lean setup`` writes them to the user's data
folder, where Lake then builds. ``AFCHECK_LEAN_PROJECT`` or ``project=DIR`` names any other
project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

TEMPLATE_FILES = ("lakefile.lean", "lean-toolchain", "AfcheckLean.lean", "AfcheckKernel.lean",
                  "AfcheckJudge.lean")
"""The files of the pinned project; the same as the checkout's ``lean/`` (a test keeps them so)."""
LAKEFILES = ("lakefile.lean", "lakefile.toml")


def checkout_project() -> Path:
    """``lean/`` of a source checkout (it exists only there)."""
    return Path(__file__).resolve().parents[2] / "lean"


def data_project() -> Path:
    """Where a wheel install keeps the project: the user's data folder, one per toolchain."""
    from platformdirs import user_data_dir

    toolchain = template_text("lean-toolchain").strip().rpartition(":")[2] or "lean"
    return Path(user_data_dir("afcheck")) / f"lean-{toolchain}"


def default_project() -> Path:
    """``AFCHECK_LEAN_PROJECT``, else the checkout's ``lean/``, else the data folder's."""
    env = os.environ.get("AFCHECK_LEAN_PROJECT")
    if env:
        return Path(env).expanduser()
    checkout = checkout_project()
    if (checkout / "lakefile.lean").is_file():
        return checkout
    return data_project()


def template_text(name: str) -> str:
    return (resources.files("afcheck_lean") / "project" / name).read_text(encoding="utf-8")


class ProjectError(Exception):
    """The folder cannot hold afcheck's project; ``str`` says why and what to do."""


def create_project(directory: Path) -> list[Path]:
    """Write the pinned project into ``directory`` when it is missing or empty; the files
    written (none when it already is a Lake project). Never overwrites a file."""
    if is_lake_project(directory):
        return []
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise ProjectError(
            f"{directory} is not a Lake project (no {' or '.join(LAKEFILES)}) and is not "
            "empty: pass --project with an empty or missing folder to create afcheck's "
            "pinned project there, or with an existing Lake project"
        )
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in TEMPLATE_FILES:
        target = directory / name
        target.write_text(template_text(name), encoding="utf-8")
        written.append(target)
    return written


def is_lake_project(directory: Path) -> bool:
    return any((directory / name).is_file() for name in LAKEFILES)


@dataclass(frozen=True)
class ProjectState:
    """What a project folder has, for ``afcheck lean doctor``."""

    directory: Path
    exists: bool
    lakefile: bool
    toolchain: str
    """The pinned toolchain (``leanprover/lean4:v4.9.0``), ``""`` when missing."""
    mathlib: bool

    def missing(self) -> list[str]:
        """What is missing, each as one phrase naming the path and the cure."""
        setup = "run `afcheck lean setup`"
        if not self.exists:
            return [f"the project folder {self.directory} does not exist ({setup} to create "
                    "it from afcheck's pinned project)"]
        out = []
        if not self.lakefile:
            out.append(f"{self.directory} has no lakefile.lean or lakefile.toml: it is not a "
                       f"Lake project ({setup} with an empty --project folder, or point "
                       "--project at a Lake project)")
        if not self.toolchain:
            out.append(f"{self.directory / 'lean-toolchain'} is missing: the project pins no "
                       "Lean version")
        if not self.mathlib:
            out.append(f"Mathlib is not downloaded into {self.directory / '.lake/packages'} "
                       f"({setup})")
        return out


def read_toolchain(directory: Path) -> str:
    """The toolchain ``directory``'s ``lean-toolchain`` pins, or ``""`` without one."""
    try:
        return (directory / "lean-toolchain").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def inspect_project(directory: Path) -> ProjectState:
    return ProjectState(
        directory=directory,
        exists=directory.is_dir(),
        lakefile=is_lake_project(directory),
        toolchain=read_toolchain(directory),
        mathlib=(directory / ".lake" / "packages" / "mathlib").is_dir(),
    )
