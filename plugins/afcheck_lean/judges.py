"""The built-in judges (:mod:`afcheck_lean.judge`), how each is found, and which Lean it serves.

A judge is a Lean program and reads ``.olean`` files only of the Lean it was built with, so
each serves only projects pinned to its own toolchain (the ``lean-toolchain`` of the
checkout it was built in). In the order ``judge=auto`` tries them:

- ``comparator``: the Lean FRO's Comparator (``comparator`` on ``PATH``, or built by
  ``afcheck lean setup --judges`` at :data:`PINS`), with ``lean4export`` and ``landrun`` (on
  ``PATH`` or named by ``COMPARATOR_LEAN4EXPORT`` / ``COMPARATOR_LANDRUN``); nanoda as a
  second kernel where ``nanoda_bin`` is found. It compiles both modules itself, in landrun.
- ``safeverify``: SafeVerify (``safe_verify``), ``Environment.replay`` of the compiled
  solution against the compiled challenge, the three standard axioms only.
- ``lean4checker``: lean4checker's replay of the compiled solution, then afcheck's own
  comparison of the statement and the axioms.
- ``afcheck``: afcheck's own small judge (``AfcheckJudge.lean`` in the pinned project, built
  by ``afcheck lean setup``), always built with the project's Lean: the judge of last resort.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from afcheck_lean.judge import (
    CHALLENGE_MODULE,
    SOLUTION_MODULE,
    Challenge,
    JudgeUnavailable,
    ProcessJudge,
    Step,
    Toolchain,
    Workspace,
)
from afcheck_lean.lake_project import read_toolchain
from afcheck_lean.sandbox import as_mode, default_mode
from afcheck_lean.settings import LeanSettings, parse_settings

PREFERENCE = ("comparator", "safeverify", "lean4checker", "afcheck")
"""The order in which ``judge=auto`` tries the built-in judges."""


@dataclass(frozen=True)
class Pin:
    repository: str
    revision: str


PINS: Mapping[str, Pin] = {
    "comparator": Pin("https://github.com/leanprover/comparator",
                      "04398414043d3d872304efb7b4ec49dd059d9ac8"),
}
"""What ``afcheck lean setup --judges`` checks out and builds (``lake build lean4export
comparator`` in the checkout, with its own toolchain); ``landrun`` is a Go program and is
taken from ``PATH``."""

AFCHECK_JUDGE = "afcheck_judge"
"""The executable of afcheck's own judge (``lean_exe`` of the pinned project)."""


def judges_dir(project: Path) -> Path:
    """Where ``afcheck lean setup --judges`` checks out and builds the external judges."""
    return project / ".lake" / "afcheck-judges"


def toolchain_of(program: Path) -> str:
    """The ``lean-toolchain`` of the checkout ``program`` was built in, or ``""``."""
    for parent in program.resolve().parents:
        found = read_toolchain(parent)
        if found:
            return found
    return ""


def find_program(names: tuple[str, ...], checkout: Path) -> Path | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return Path(found)
        built = checkout / ".lake" / "build" / "bin" / name
        if built.is_file() and os.access(built, os.X_OK):
            return built
    return None


def toolchain_for(settings: LeanSettings, *, compile_s: float = 600.0) -> Toolchain:
    from afcheck_lean.session import toolchain_paths

    return Toolchain(lake=settings.lake, project=settings.project,
                     readable=(*toolchain_paths(settings), *settings.readable),
                     sandbox=as_mode(settings.sandbox) if settings.sandbox else default_mode(),
                     compile_s=compile_s, memory_mb=settings.memory_mb or None,
                     pass_env=settings.pass_env, workers=settings.workers,
                     env=(("ELAN_HOME", str(toolchain_paths(settings)[0])),))


def _serving(name: str, program: Path | None, missing: str, lean: Toolchain,
             toolchain: str | None = None) -> tuple[Path, str]:
    if program is None:
        raise JudgeUnavailable(f"judge {name}: {missing}")
    built = toolchain if toolchain is not None else toolchain_of(program)
    pinned = lean.version
    if not built:
        raise JudgeUnavailable(f"judge {name}: cannot tell which Lean {program} was built "
                               "with (no lean-toolchain in its checkout)")
    if built != pinned:
        raise JudgeUnavailable(f"judge {name}: built with {built}, the project is pinned to "
                               f"{pinned or 'no toolchain'}; it serves only projects pinned "
                               "to its own Lean")
    return program, built


def afcheck_judge(lean: Toolchain) -> ProcessJudge:
    program = lean.project / ".lake" / "build" / "bin" / AFCHECK_JUDGE
    found = program if program.is_file() and os.access(program, os.X_OK) else None
    program, built = _serving("afcheck", found, f"{AFCHECK_JUDGE} is not built in "
                              f"{lean.project} (afcheck lean setup builds it)", lean,
                              toolchain=lean.version)
    step = Step((str(program), "{challenge}", "{solution}", "{theorem}", "{axioms}", "{nonce}",
                 "{result}"), writes_result=True)
    return ProcessJudge("afcheck", built, lean, (step,))


def safeverify(lean: Toolchain) -> ProcessJudge:
    checkout = judges_dir(lean.project) / "SafeVerify"
    program, built = _serving("safeverify", find_program(("safe_verify", "safeverify"),
                                                         checkout),
                              "safe_verify is not on PATH", lean)
    step = Step((str(program), "{challenge}", "{solution}"), report="safeverify")
    return ProcessJudge("safeverify", built, lean, (step,))


def lean4checker(lean: Toolchain) -> ProcessJudge:
    checkout = judges_dir(lean.project) / "lean4checker"
    program, built = _serving("lean4checker", find_program(("lean4checker",), checkout),
                              "lean4checker is not on PATH", lean)
    # lean4checker replays a module found on the search path: the solution's build folder
    # goes first on it. The comparison of the statement is afcheck's own judge's.
    replay = Step(("sh", "-c", 'LEAN_PATH="$1/build:$LEAN_PATH" exec "$2" "$3"', "sh",
                   "{solution_dir}", str(program), SOLUTION_MODULE))
    compare = afcheck_judge(lean).steps[0]
    return ProcessJudge("lean4checker", built, lean, (replay, compare))


def comparator(lean: Toolchain) -> ProcessJudge:
    checkout = judges_dir(lean.project) / "comparator"
    program = find_program(("comparator",), checkout)
    # What `afcheck lean setup --judges` built next to Comparator, when nothing is named.
    exported = checkout / ".lake" / "packages" / "lean4export" / ".lake" / "build" / "bin" / \
        "lean4export"
    env = dict(lean.env)
    if not os.environ.get("COMPARATOR_LEAN4EXPORT") and shutil.which("lean4export") is None \
            and exported.is_file():
        env["COMPARATOR_LEAN4EXPORT"] = str(exported)
    if program is not None:
        for tool, variable in (("lean4export", "COMPARATOR_LEAN4EXPORT"),
                               ("landrun", "COMPARATOR_LANDRUN")):
            if not (os.environ.get(variable) or env.get(variable) or shutil.which(tool)):
                raise JudgeUnavailable(f"judge comparator: {tool} is not on PATH (nor named "
                                       f"by {variable})")
    program, built = _serving("comparator", program, "comparator is not on PATH", lean)
    step = Step((str(program), "{judge_dir}/config.json"))
    nanoda = bool(os.environ.get("COMPARATOR_NANODA") or shutil.which("nanoda_bin"))
    keep = ("COMPARATOR_LEAN4EXPORT", "COMPARATOR_LANDRUN", "COMPARATOR_NANODA")
    return ProcessJudge("comparator", built, replace(lean, pass_env=(*lean.pass_env, *keep),
                                                     env=tuple(env.items())),
                        (step,), compiles=False, prepare=_comparator_project(lean, nanoda))


def _comparator_project(lean: Toolchain,
                        nanoda: bool) -> Callable[[Workspace, Challenge, Path], Path]:
    """Comparator builds ``Challenge`` and ``Solution`` with Lake in the directory it runs in:
    a Lake project holding both, requiring the pinned project's Mathlib."""
    import json

    def prepare(space: Workspace, challenge: Challenge, directory: Path) -> Path:
        project = directory / "project"
        project.mkdir()
        for source in (space.challenge / f"{CHALLENGE_MODULE}.lean",
                       space.solution / f"{SOLUTION_MODULE}.lean"):
            shutil.copyfile(source, project / source.name)
        mathlib = lean.project / ".lake" / "packages" / "mathlib"
        (project / "lakefile.toml").write_text(
            f'name = "afcheck_judged"\n\n[[lean_lib]]\nname = "{CHALLENGE_MODULE}"\n\n'
            f'[[lean_lib]]\nname = "{SOLUTION_MODULE}"\n\n[[require]]\nname = "mathlib"\n'
            f"path = {json.dumps(str(mathlib))}\n", encoding="utf-8")
        (project / "lean-toolchain").write_text(lean.version + "\n", encoding="utf-8")
        config = {"challenge_module": CHALLENGE_MODULE, "solution_module": SOLUTION_MODULE,
                  "theorem_names": [challenge.name],
                  "permitted_axioms": sorted(challenge.axioms), "enable_nanoda": nanoda}
        (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
        return project

    return prepare


BUILDERS: Mapping[str, Callable[[Toolchain], ProcessJudge]] = {
    "comparator": comparator, "safeverify": safeverify, "lean4checker": lean4checker,
    "afcheck": afcheck_judge,
}


def build(name: str, lean: Toolchain) -> ProcessJudge:
    """The judge called ``name`` (or the first available, for ``auto``); raises
    :class:`JudgeUnavailable` with every reason in one line."""
    if name != "auto":
        if name not in BUILDERS:
            raise JudgeUnavailable(f"unknown judge {name!r}; use one of auto, "
                                   f"{', '.join(PREFERENCE)}, none")
        return BUILDERS[name](lean)
    reasons = []
    for candidate in PREFERENCE:
        try:
            return BUILDERS[candidate](lean)
        except JudgeUnavailable as exc:
            reasons.append(str(exc))
    raise JudgeUnavailable("no judge serves this project: " + "; ".join(reasons))


def make(name: str) -> Callable[[Mapping[str, str]], ProcessJudge]:
    """The registered factory of judge ``name``: the Lean options of
    :mod:`afcheck_lean.settings` (``project``, ``lake``, ``sandbox`` …)."""

    def factory(options: Mapping[str, str]) -> ProcessJudge:
        from afcheck.errors import UsageError

        settings = parse_settings(options, f"judge {name}", set())
        try:
            return build(name, toolchain_for(settings))
        except JudgeUnavailable as exc:
            raise UsageError(str(exc)) from None

    return factory
