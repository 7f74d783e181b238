"""``afcheck lean setup`` and ``afcheck lean doctor``."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck_lean.lake_project import ProjectError, create_project, inspect_project
from afcheck_lean.settings import LeanSettings, default_project


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="afcheck lean", description="the Lean backend")
    parser.add_argument("action", choices=["setup", "doctor"])
    parser.add_argument("--project", type=Path, default=default_project(),
                        help="the Lake project (default: afcheck's pinned project, in the "
                             "checkout's lean/ or the user data folder)")
    parser.add_argument("--lake", default="lake", help="the lake executable")
    parser.add_argument("--repl-dir", type=Path, default=None,
                        help="a REPL already built for the project's Lean version (offline)")
    parser.add_argument("--no-smoke", action="store_true", help="doctor: skip the REPL check")
    args = parser.parse_args(argv)
    settings = LeanSettings(project=args.project, lake=args.lake, repl_dir=args.repl_dir)
    try:
        if args.action == "setup":
            return setup(settings)
        return doctor(settings, smoke=not args.no_smoke)
    except AfcheckError as exc:
        print(f"afcheck lean {args.action}: {exc}", file=sys.stderr)
        return 1


def setup(settings: LeanSettings) -> int:
    """Install elan, fetch Mathlib's cache, build the project and the REPL (needs internet)."""
    print("afcheck lean setup: downloads elan, Lean, Mathlib's cache and the REPL "
          "(needs internet, ~5 GB of disk, several minutes)")
    try:
        created = create_project(settings.project)
    except (ProjectError, OSError) as exc:
        raise AfcheckError(str(exc)) from None
    if created:
        print(f"-- project: wrote afcheck's pinned Lake project to {settings.project}")
    steps: list[tuple[str, Callable[[], bool]]] = [
        ("elan / lake", lambda: _ensure_lake(settings)),
        ("Mathlib cache", lambda: _run([settings.lake, "exe", "cache", "get"], settings.project,
                                       fatal=False)),
        ("lake build", lambda: _run([settings.lake, "build"], settings.project)),
        ("REPL", lambda: _build_repl(settings)),
    ]
    for label, step in steps:
        print(f"-- {label}")
        if not step():
            print(f"afcheck lean setup: step '{label}' failed (see the output above)",
                  file=sys.stderr)
            return 1
    print("afcheck lean setup: done; check with `afcheck lean doctor`")
    return 0


def doctor(settings: LeanSettings, *, smoke: bool = True) -> int:
    """Print what is installed; exit 0 only when a REPL answers the smoke check."""
    ok = True
    for label, value, good in _facts(settings):
        print(f"{'ok ' if good else 'MISSING'} {label}: {value}")
        ok = ok and good
    if not ok:
        print("afcheck lean doctor: something is missing; run `afcheck lean setup`")
        return 1
    if smoke:
        result = _smoke(settings)
        print(f"{'ok ' if result.startswith('ok') else 'FAIL'} smoke check: {result}")
        return 0 if result.startswith("ok") else 1
    return 0


def _facts(settings: LeanSettings) -> list[tuple[str, str, bool]]:
    lake = shutil.which(settings.lake) or ""
    project = inspect_project(settings.project)
    try:
        from importlib.metadata import version

        interact = version("lean-interact")
    except Exception:  # noqa: BLE001 - not installed
        interact = ""
    return [
        ("lean-interact", interact or "not installed (pip install 'afcheck[lean]')",
         bool(interact)),
        ("lake", _lake_version(lake) if lake else
         f"'{settings.lake}' not found on PATH (afcheck lean setup installs elan; then add "
         "~/.elan/bin to PATH)", bool(lake)),
        ("project", str(settings.project) if project.exists and project.lakefile
         else project.missing()[0], project.exists and project.lakefile),
        ("pinned toolchain", project.toolchain or f"{settings.project / 'lean-toolchain'} "
         "is missing", bool(project.toolchain)),
        ("Mathlib", "downloaded" if project.mathlib else
         f"not downloaded into {settings.project / '.lake' / 'packages'} "
         "(afcheck lean setup)", project.mathlib),
        ("memory per REPL", f"cap {settings.memory_mb} MB (RLIMIT_AS), recycled above "
         f"{settings.recycle_limit_mb:.0f} MB resident", True),
    ]


def _smoke(settings: LeanSettings) -> str:
    from afcheck_lean.pool import Failure, ReplPool
    from afcheck_lean.session import lean_interact_starter

    with ReplPool(lean_interact_starter(settings), settings) as pool:
        result = pool.run(["example : (2 : ℕ) + 2 = 4 := by norm_num"])[0]
    if isinstance(result, Failure):
        return f"{result.kind}: {result.reason}"
    if result.refusal or result.errors:
        return f"Lean rejected 2 + 2 = 4: {result.refusal or result.errors[0].one_line()}"
    return "ok, `example : (2 : ℕ) + 2 = 4 := by norm_num` checks under the Mathlib header"


def _lake_version(lake: str) -> str:
    try:
        out = subprocess.run([lake, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{lake} (version unknown: {exc})"
    return out.stdout.strip() or lake


def _ensure_lake(settings: LeanSettings) -> bool:
    if shutil.which(settings.lake):
        return True
    installer = shutil.which("install-lean")
    if installer is None:
        print("install-lean (from lean-interact) not found: pip install 'afcheck[lean]'",
              file=sys.stderr)
        return False
    if not _run([installer], Path.cwd()):
        return False
    print("elan installed in ~/.elan/bin; add it to PATH and run `afcheck lean setup` again")
    return shutil.which(settings.lake) is not None


def _build_repl(settings: LeanSettings) -> bool:
    from afcheck_lean.session import lean_interact_starter

    try:
        lean_interact_starter(settings, build=True)
    except Exception as exc:  # noqa: BLE001 - lean-interact raises plain exceptions
        print(f"building the REPL failed: {exc}", file=sys.stderr)
        return False
    return True


def _run(command: list[str], cwd: Path, *, fatal: bool = True) -> bool:
    try:
        done = subprocess.run(command, cwd=cwd, check=False)
    except OSError as exc:
        print(f"{command[0]}: {exc}", file=sys.stderr)
        return not fatal
    return done.returncode == 0 or not fatal
