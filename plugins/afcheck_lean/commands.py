"""``afcheck lean setup``, ``afcheck lean doctor`` and ``afcheck lean audit``."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.install import install_command
from afcheck_lean.judges import AFCHECK_JUDGE, PINS, judges_dir
from afcheck_lean.kernel import kernel_available
from afcheck_lean.lake_project import ProjectError, create_project, inspect_project
from afcheck_lean.sandbox import probe
from afcheck_lean.settings import LeanSettings, default_project

Handler = Callable[[argparse.Namespace], int]


def configure(parser: argparse.ArgumentParser) -> Handler:
    """Add the ``lean`` subcommands to ``parser``; return the handler of a parsed namespace."""
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, help_text in (("setup", "install Lean, Mathlib and the REPL (needs internet)"),
                            ("doctor", "say what is installed and run a smoke check")):
        sub = actions.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("--project", type=Path, default=default_project(),
                         help="the Lake project (default: afcheck's pinned project, in the "
                              "checkout's lean/ or the user data folder)")
        sub.add_argument("--lake", default="lake", help="the lake executable")
        sub.add_argument("--repl-dir", type=Path, default=None,
                         help="a REPL already built for the project's Lean version (offline)")
        sub.add_argument("--lean-sandbox", choices=("auto", "on", "off"), default="auto",
                         help="isolate Lean processes with bubblewrap (default: auto)")
        if name == "doctor":
            sub.add_argument("--no-smoke", action="store_true", help="skip the REPL check")
        else:
            sub.add_argument("--judges", action="store_true",
                             help="also check out and build Comparator at its pinned revision "
                             "(it serves only projects pinned to its own Lean)")
    audit = actions.add_parser(
        "audit", help="check complete Lean files against the proof-integrity rules",
        description="Check complete Lean files (header, theorem, proof) against afcheck's "
        "static proof-integrity rules, without Lean. Prints `FILE: accepted` or "
        "`FILE: rejected: RULE: LINE:COL: 'SPAN' (WHY)` per file; exits 0 when all are "
        "accepted, 1 when one is rejected, 2 when one cannot be read.")
    audit.add_argument("files", nargs="+", type=Path, metavar="FILE")
    audit.add_argument("--json", action="store_true", help="one JSON array on stdout")
    audit.add_argument("--allow-native-decide", action="store_true",
                       help="accept native_decide (trusts compiled code)")
    return _handle


def main(argv: list[str]) -> int:
    """``afcheck lean`` run from a list of arguments (for scripts and tests)."""
    parser = argparse.ArgumentParser(prog="afcheck lean", description="the Lean backend")
    return configure(parser)(parser.parse_args(argv))


def _handle(args: argparse.Namespace) -> int:
    if args.action == "audit":
        return audit(args.files, as_json=args.json,
                     allow_native_decide=args.allow_native_decide)
    settings = LeanSettings(project=args.project, lake=args.lake, repl_dir=args.repl_dir,
                            sandbox=args.lean_sandbox)
    try:
        if args.action == "setup":
            return setup(settings, judges=args.judges)
        return doctor(settings, smoke=not args.no_smoke)
    except AfcheckError as exc:
        print(f"afcheck lean {args.action}: {exc}", file=sys.stderr)
        return 1


def audit(files: Sequence[Path], *, as_json: bool = False,
          allow_native_decide: bool = False) -> int:
    """Audit each file; unreadable files are reported in one line each and do not stop the
    others."""
    from afcheck_lean.audit import audit_text

    records: list[dict[str, object]] = []
    status = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            print(f"afcheck lean audit: {path}: cannot read ({reason}); give a readable "
                  "UTF-8 Lean file", file=sys.stderr)
            status = 2
            continue
        result = audit_text(text, allow_native_decide=allow_native_decide)
        if not result.accepted and status == 0:
            status = 1
        if as_json:
            records.append({"file": str(path), **result.to_json()})
        else:
            print(f"{path}: {result.one_line()}")
    if as_json:
        print(json.dumps(records, indent=2, ensure_ascii=False))
    return status


def setup(settings: LeanSettings, *, judges: bool = False) -> int:
    """Install elan, fetch Mathlib's cache, build the project, afcheck's judge and the REPL
    (needs internet); with ``judges``, also Comparator at its pinned revision."""
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
        # The kernel-side checks are an extra layer: without the module they are skipped
        # (doctor says so), so a failure here does not stop the setup.
        ("kernel checks (AfcheckKernel)", lambda: _run([settings.lake, "build", "AfcheckKernel"],
                                                       settings.project, fatal=False)),
        # Without a judge nothing is certified, but Lean still runs: not fatal either.
        ("judge (afcheck_judge)", lambda: _run([settings.lake, "build", AFCHECK_JUDGE],
                                               settings.project, fatal=False)),
        ("REPL", lambda: _build_repl(settings)),
    ]
    if judges:
        steps.append(("Comparator (pinned)", lambda: _build_pinned(settings, "comparator")))
    for label, step in steps:
        print(f"-- {label}")
        if not step():
            print(f"afcheck lean setup: step '{label}' failed (see the output above)",
                  file=sys.stderr)
            return 1
    print("afcheck lean setup: done; check with `afcheck lean doctor`")
    return 0


def _build_pinned(settings: LeanSettings, name: str) -> bool:
    """Check out ``name`` at its pin under the project's judges folder and build it with its
    own toolchain; a failure is reported and does not stop the setup."""
    pin = PINS[name]
    checkout = judges_dir(settings.project) / name
    checkout.parent.mkdir(parents=True, exist_ok=True)
    if not checkout.is_dir() and not _run(["git", "clone", pin.repository, str(checkout)],
                                          checkout.parent):
        return True
    ok = _run(["git", "checkout", "--quiet", pin.revision], checkout) and _run(
        [settings.lake, "build", "lean4export", "comparator"], checkout)
    if not ok:
        print(f"afcheck lean setup: {name} at {pin.revision[:12]} did not build; the other "
              "judges still serve", file=sys.stderr)
    return True


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
        ("lean-interact", interact or f"not installed ({install_command('lean')})",
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
        # Informational: without them the other checks still hold (docs/trust-model.md).
        ("kernel checks", "on (AfcheckKernel is built)" if kernel_available(settings.project)
         else "off: AfcheckKernel is not built (afcheck lean setup builds it)", True),
        ("sandbox", _sandbox_fact(settings), True),
        ("judge", _judge_fact(settings), True),
    ]


def _judge_fact(settings: LeanSettings) -> str:
    from afcheck_lean.judge import JudgeUnavailable
    from afcheck_lean.judges import build, toolchain_for

    try:
        judge = build("auto", toolchain_for(settings))
    except JudgeUnavailable as exc:
        return f"none, so nothing is certified: {exc}"
    return f"{judge.name} (built with {judge.toolchain})"


def _sandbox_fact(settings: LeanSettings) -> str:
    if settings.sandbox == "off":
        return "namespaces off (--lean-sandbox off); limits and a cleared environment apply"
    found = probe()
    if found.usable:
        return "bubblewrap: no network, read-only system and project, private scratch"
    return f"limits and a cleared environment only: {found.why}"


def _smoke(settings: LeanSettings) -> str:
    from afcheck_lean.pool import Failure, ReplPool
    from afcheck_lean.session import lean_interact_starter

    with ReplPool(lean_interact_starter(settings), settings) as pool:
        result = pool.run(["example : (2 : ℕ) + 2 = 4 := by norm_num"])[0]
    if isinstance(result, Failure):
        hint = ""
        if settings.sandbox != "off" and probe().usable:
            # The REPL reads the project and the toolchain read-only; a Lake that wants to
            # write (a stale configuration cache) stops there.
            hint = (" (the REPL ran in the bubblewrap sandbox: if it starts with --lean-sandbox "
                    "off, run `afcheck lean setup` once more so that Lake needs to write "
                    "nothing)")
        return f"{result.kind}: {result.reason}{hint}"
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
        print(f"install-lean (from lean-interact) not found: {install_command('lean')}",
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
