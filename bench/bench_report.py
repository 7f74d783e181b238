"""Size and load time of the HTML report of a 25,000-step run.

Usage::

    python bench/bench_report.py [--steps N | --quick] [--loads K]

A synthetic result file of ``--steps`` cases (default 25,000; ``--quick``: 5,000) is written
by the JSON reporter's own functions (:mod:`afcheck_faithfulness.synthetic`: ProcessBench-like
chains, Lean statements, about a kilobyte of model output per formalisation), then
``afcheck report`` turns it into a page, as a user runs it. The page is opened ``--loads``
times in one fresh headless Chromium; a load time is the time from navigation start until
the step browser has drawn its first page (the page's own ``performance.now()``). Without
Chromium or websocket-client the load figures are ``nan`` and a ``#`` line says why.

Figures (``name value target``):

| figure | target |
|---|---|
| ``report_load_s`` | ≤ 3 (the first load, in a browser that never saw the page) |
| ``report_reload_s`` | - (median of the other loads) |
| ``report_size_mb`` | - |
| ``report_write_s`` | - (``afcheck report`` wall time, process start included) |
| ``report_result_mb`` | - (the JSON result file it reads) |
| ``report_load_errors`` | 0 (console errors and uncaught exceptions while loading) |
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=25_000)
    parser.add_argument("--quick", action="store_true", help="5,000 steps")
    parser.add_argument("--loads", type=int, default=3)
    args = parser.parse_args(argv)
    steps = 5_000 if args.quick else args.steps

    from afcheck_faithfulness.synthetic import document

    with tempfile.TemporaryDirectory(prefix="afcheck-bench-report-") as folder:
        result = Path(folder) / "run.json"
        page = Path(folder) / "report.html"
        with result.open("w", encoding="utf-8") as handle:
            json.dump(document(steps, seed=1, formaliser="synthetic"), handle,
                      ensure_ascii=False)
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "afcheck", "report", str(result),
                               "--html", str(page)], capture_output=True, text=True, cwd=ROOT)
        write_s = time.perf_counter() - began
        if done.returncode != 0:
            print(f"# afcheck report failed: {done.stderr.strip()}")
            return 0
        print(f"report_steps {steps} -")
        print(f"report_result_mb {result.stat().st_size / 1e6:.1f} -")
        print(f"report_size_mb {page.stat().st_size / 1e6:.1f} -")
        print(f"report_write_s {write_s:.1f} -")
        times, errors = measure(page, args.loads)
        print(f"report_load_s {times[0]:.2f} 3" if times else "report_load_s nan 3")
        reload = f"{statistics.median(times[1:]):.2f}" if len(times) > 1 else "nan"
        print(f"report_reload_s {reload} -")
        print(f"report_load_errors {errors} 0")
    return 0


def measure(page: Path, loads: int) -> tuple[list[float], int | str]:
    """Load times in seconds, in order, and the number of errors; none without a browser."""
    try:
        import websocket  # noqa: F401
        from afcheck_report.headless import browser, chromium_path
    except ImportError:
        print("# skipped the load time: websocket-client is not installed")
        return [], "nan"
    if chromium_path() is None:
        print("# skipped the load time: no chromium (apt-get install -y chromium)")
        return [], "nan"
    times: list[float] = []
    errors = 0
    with browser() as session:
        for _ in range(max(1, loads)):
            load = session.open(page, timeout_s=60)
            errors += len(load.errors)
            if load.ready_ms is None:
                print("# the page never became ready within 60 s")
                return times, errors
            times.append(load.ready_ms / 1000)
    print(f"# load times (s): {', '.join(f'{t:.2f}' for t in times)}")
    return times, errors


if __name__ == "__main__":
    sys.exit(main())
