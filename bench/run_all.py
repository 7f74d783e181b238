"""Run every benchmark in ``bench/`` and print each figure as ``name value target``.

Usage::

    python bench/run_all.py            # every bench/bench_*.py, full scale
    python bench/run_all.py --quick    # smaller scales where a benchmark offers --quick
    python bench/run_all.py --only runner,smt

Each ``bench/bench_*.py`` runs in its own process, one after the other (they measure time, so
they must not compete for the CPUs). Lines of three fields from a benchmark's stdout are
figures and are printed on stdout, in order; its other stdout lines go to stderr, prefixed by
the benchmark's name, and its stderr passes through as it comes. ``--quick`` is passed to the
benchmarks whose source mentions ``--quick``.
A benchmark skips what cannot run here itself and says why (``bench_llm_client.py`` prints
``# skipped llama.cpp part: …`` without llama-cpp-python and the SmolLM2 GGUF, and still
measures its stub part); such lines are shown on stderr. A benchmark that fails or overruns
its time limit is reported on stderr and the others still run. Exits 0: the figures are
information, not tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
TIME_LIMIT_S = 900.0


def benchmarks(only: Sequence[str]) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"))
    if only:
        wanted = {name.removeprefix("bench_").removesuffix(".py") for name in only}
        found = [p for p in found if p.stem.removeprefix("bench_") in wanted]
    return found


def is_figure(line: str) -> bool:
    parts = line.split()
    return len(parts) == 3 and not line.startswith(("#", " "))


def run_one(script: Path, quick: bool, limit_s: float) -> None:
    command = [sys.executable, str(script)]
    if quick and "--quick" in script.read_text(encoding="utf-8"):
        command.append("--quick")
    began = time.perf_counter()
    try:
        # stderr passes straight through, so a long benchmark's progress shows as it goes.
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, timeout=limit_s,
                              cwd=HERE.parent, env=os.environ.copy())
    except subprocess.TimeoutExpired:
        note(script, f"stopped after {limit_s:.0f} s (time limit)")
        return
    for line in done.stdout.splitlines():
        if is_figure(line):
            print(line, flush=True)
        elif line.strip():
            note(script, line)
    status = "ok" if done.returncode == 0 else f"exited {done.returncode}"
    note(script, f"{status} in {time.perf_counter() - began:.0f} s")


def note(script: Path, message: str) -> None:
    print(f"[{script.stem}] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run every benchmark in bench/.")
    parser.add_argument("--quick", action="store_true", help="smaller scales (about 2 minutes)")
    parser.add_argument("--only", default="", help="comma-separated names, e.g. runner,smt")
    parser.add_argument("--limit-s", type=float, default=TIME_LIMIT_S,
                        help=f"time limit per benchmark (default {TIME_LIMIT_S:.0f} s)")
    args = parser.parse_args(argv)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    for script in benchmarks(only):
        run_one(script, args.quick, args.limit_s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
