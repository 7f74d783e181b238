"""The runner's own cost at ProcessBench scale: overhead, collection, cached re-run, memory.

The ProcessBench gsm8k and math error-free chains (``label == -1``, read from
``$AFCHECK_DATA_DIR/processbench/``), split with ``--steps claims``, are repeated under
distinct problem ids (``gsm8k-12`` → ``gsm8k-12x3``, so the per-dataset metrics keep their
dataset) into one temporary ``processbench`` suite, cut to exactly ``--scale`` steps with
``--limit``. The suite lives in a temporary folder that is removed afterwards.

Every figure comes from the ``afcheck`` command run as a subprocess, the way a user runs it,
with the ``regex`` perturber, the ``literal`` formaliser and the ``smt`` prover:

- ``runner_overhead``: (wall time − seconds inside the backends) / wall time of a run with an
  empty cache; the backend seconds are the ``timings`` of the ``--json`` result file. The
  same seconds unshared: ``runner_own_s`` and ``runner_own_ms_per_step`` (information only: a
  share falls with slower backends and rises with faster ones, these do not);
- ``collection_s``: wall time of ``afcheck SUITE --co -q``;
- ``cached_steps_per_s``: steps / wall time of the same command again on the filled cache;
- ``peak_rss_mb``: the largest resident set of the first run (``wait4`` of that process; with
  the prover's pool the workers are counted one at a time, not summed);
- ``runner_own_over_pytest_floor`` (information): ``runner_own_s`` over the wall of pytest's
  own run of as many no-op parametrised tests.

The ``smt`` prover runs with its own default of one worker process per CPU (a batch too small
to pay for a pool stays in the process) unless ``--jobs`` says otherwise. ``--executor NAME``
runs every command under that executor (``processes``: the stages in worker processes); the
backend seconds of chunks that ran side by side add up to more than the time they took, so
under any executor but ``local`` the share and the runner's own seconds are not printed, and
``first_wall_s`` is the figure to compare.

Prints ``name value target`` lines (``-`` where a figure is information only) and exits 0 even
when a target is missed: the figures are information, not tests. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SPLITS = ("gsm8k", "math")
SUITE = "pb"
SCALE = 25_000
QUICK_SCALE = 5_000
SECONDS_PER_STEP_LIMIT = 0.03
"""A command is stopped after 60 s plus this per step: several times a normal run here."""

TARGETS = {
    "runner_overhead": "<=0.05",
    "collection_s": "<=5",
    "cached_steps_per_s": ">=2000",
    "peak_rss_mb": "<=1024",
    "cached_over_pytest_floor": "<=1.10",
}


@dataclass(frozen=True)
class Timed:
    """One finished ``afcheck`` command."""

    returncode: int
    wall_s: float
    peak_rss_mb: float
    stdout: str
    stderr: str
    cpu_s: float = 0.0
    """User + system seconds of the process (its own, from ``wait4``): on a machine shared
    with other work, a fairer measure of what it costs than its wall time."""


@dataclass(frozen=True)
class Figure:
    name: str
    value: float | int | None
    target: str = "-"

    def line(self) -> str:
        if self.value is None:
            shown = "nan"
        elif isinstance(self.value, int):
            shown = str(self.value)
        else:
            shown = f"{self.value:.3f}" if abs(self.value) < 100 else f"{self.value:.0f}"
        return f"{self.name} {shown} {self.target}"


# -- the scaled suite ------------------------------------------------------------------------


def error_free_rows(data_dir: Path, exclude: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The error-free chains of the gsm8k and math splits, in file order, less ``exclude``."""
    rows: list[dict[str, Any]] = []
    for split in SPLITS:
        path = data_dir / "processbench" / f"{split}.json"
        if not path.is_file():
            raise SystemExit(f"bench_runner: {path} not found; set AFCHECK_DATA_DIR to a folder "
                             "holding processbench/gsm8k.json and math.json")
        rows += [row for row in json.loads(path.read_text(encoding="utf-8"))
                 if row.get("label") == -1 and str(row.get("id")) not in exclude]
    return rows


def repeated(rows: Sequence[dict[str, Any]], times: int) -> Iterator[dict[str, Any]]:
    """``rows`` ``times`` over, each copy under ids of its own; the dataset prefix is kept."""
    for copy in range(times):
        for row in rows:
            yield {**row, "id": f"{row['id']}x{copy}"}


def claim_steps(rows: Sequence[dict[str, Any]]) -> int:
    """How many test items ``--steps claims`` makes of ``rows`` (the suite loader's count)."""
    from afcheck_suites.claims import split_claims

    return sum(1 for row in rows for paragraph in row["steps"]
               for claim in split_claims(str(paragraph)) if claim.kind == "claim")


def write_suite(folder: Path, rows: Sequence[dict[str, Any]], scale: int) -> int:
    """A ``processbench`` suite of at least ``scale`` claim steps; returns the repetitions."""
    per_copy = claim_steps(rows)
    if per_copy == 0:
        raise SystemExit("bench_runner: the claims splitter found no claim in the data")
    times = math.ceil(scale / per_copy)
    folder.mkdir(parents=True)
    with (folder / "chains.json").open("w", encoding="utf-8") as handle:
        json.dump(list(repeated(rows, times)), handle)
    (folder / "suite.toml").write_text(
        "[afcheck]\nschema = 1\n"
        f'name = "{SUITE}"\nkind = "processbench"\ndata = "chains.json"\n'
        'description = "ProcessBench gsm8k + math error-free chains, repeated"\n\n'
        "[afcheck.defaults]\n"
        'perturber = "regex"\nformaliser = "literal"\nprover = "smt"\nchecker = "none"\n'
        f'steps = "claims"\nseed = 0\nlimit = {scale}\n',
        encoding="utf-8",
    )
    return times


# -- running afcheck -------------------------------------------------------------------------


def afcheck_command() -> list[str]:
    script = Path(sys.executable).parent / "afcheck"
    if script.is_file():
        return [str(script)]
    found = shutil.which("afcheck")
    if found is None:
        raise SystemExit("bench_runner: the afcheck command is not installed; run "
                         "pip install -e . in the repository")
    return [found]


def timed(args: Sequence[str], cwd: Path, env: dict[str, str], timeout_s: float,
          command: Sequence[str] | None = None) -> Timed:
    """Run ``afcheck ARGS`` (or ``command ARGS``): wall time, CPU time and peak RSS; killed
    after ``timeout_s``."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        proc = subprocess.Popen([*(command or afcheck_command()), *args], cwd=cwd, env=env,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        # wait4 gives this child's own rusage; RUSAGE_CHILDREN would mix in earlier runs.
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        while pid == 0:
            if time.perf_counter() - began > timeout_s:
                proc.kill()
            time.sleep(0.02)
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        wall = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Timed(proc.returncode, wall, usage.ru_maxrss / 1024, out.read(), err.read(),
                     usage.ru_utime + usage.ru_stime)


def run_args(suite: Path, result: Path, cache_dir: Path, jobs: int | None,
             executor: str | None = None) -> list[str]:
    args = [str(suite.name), "-q", "--json", str(result), "--cache-dir", str(cache_dir)]
    if jobs is not None:
        args += ["--prover-opt", f"jobs={jobs}"]
    if executor is not None:
        args += ["--executor", executor]
    return args


def ran(name: str, run: Timed, ok: Sequence[int] = (0, 1)) -> bool:
    """True when ``run`` finished as a run with results (1: some cases failed)."""
    if run.returncode in ok:
        return True
    if run.returncode == -9:
        log(f"{name}: stopped after {run.wall_s:.0f} s (time limit); to see why, rerun with "
            f"--keep and run `afcheck {SUITE} -x --tb=short` in the kept folder")
        return False
    tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
    log(f"{name}: afcheck exited {run.returncode}: {' | '.join(tail)}")
    return False


def collected(run: Timed) -> int | None:
    found = re.search(r"(\d+) tests? collected", run.stdout)
    return int(found.group(1)) if found else None


def log(message: str) -> None:
    print(f"bench_runner: {message}", file=sys.stderr, flush=True)


# -- the figures ------------------------------------------------------------------------------


def measure(work: Path, scale: int, jobs: int | None, env: dict[str, str],
            exclude: frozenset[str] = frozenset(), limit_s: float | None = None,
            executor: str | None = None) -> list[Figure]:
    suite = work / SUITE
    limit_s = limit_s or 60 + SECONDS_PER_STEP_LIMIT * scale
    rows = error_free_rows(Path(env["AFCHECK_DATA_DIR"]), exclude)
    times = write_suite(suite, rows, scale)
    log(f"suite: {len(rows)} error-free chains x {times} copies, cut to {scale} claim steps")
    figures = [Figure("runner_steps", scale)]

    log("collecting ...")
    co = timed([SUITE, "--co", "-q"], work, env, limit_s)
    items = collected(co) if ran("collection", co, ok=(0,)) else None
    figures.append(Figure("collection_s", co.wall_s if items else None,
                          TARGETS["collection_s"]))
    figures.append(Figure("collected_items", items))
    if items is not None and items != scale:
        log(f"collected {items} items, expected {scale}")

    log("first run (empty cache) ...")
    first_json, second_json = work / "first.json", work / "second.json"
    first = timed(run_args(suite, first_json, work / "cache", jobs, executor), work, env,
                  limit_s)
    if ran("first run", first):
        figures += first_run_figures(first, json.loads(first_json.read_text("utf-8")),
                                     side_by_side=executor not in (None, "local"))
    else:
        figures += [Figure("runner_overhead", None, TARGETS["runner_overhead"]),
                    Figure("peak_rss_mb", None, TARGETS["peak_rss_mb"])]

    log("second run (filled cache) ...")
    second = timed(run_args(suite, second_json, work / "cache", jobs, executor), work, env,
                   limit_s)
    ok = ran("cached run", second) and first_json.is_file()
    figures.append(Figure("cached_steps_per_s", scale / second.wall_s if ok else None,
                          TARGETS["cached_steps_per_s"]))
    figures.append(Figure("cached_wall_s", second.wall_s if ok else None))
    if ok:
        same = _metrics(first_json) == _metrics(second_json)
        figures.append(Figure("cached_same_metrics", int(same), "1"))
        figures += pytest_floor(work, suite, scale, jobs, env, limit_s, second, executor)
    figures += own_over_floor(figures)
    return figures


def own_over_floor(figures: Sequence[Figure]) -> list[Figure]:
    """The runner's own seconds of the first run over pytest's own wall for as many no-op
    tests: what the runner adds to the backends, against what pytest alone spends on that
    many test items (information: unlike ``runner_overhead`` it does not move with the
    backends' speed)."""
    values = {figure.name: figure.value for figure in figures}
    own, floor = values.get("runner_own_s"), values.get("pytest_floor_wall_s")
    if not isinstance(own, (int, float)) or not isinstance(floor, (int, float)) or not floor:
        return []
    return [Figure("runner_own_over_pytest_floor", own / floor)]


def pytest_floor(work: Path, suite: Path, scale: int, jobs: int | None, env: dict[str, str],
                 limit_s: float, cached: Timed, executor: str | None = None) -> list[Figure]:
    """The cached run against pytest's own run of as many no-op parametrised tests (with the
    pytest plugins the ``afcheck`` command leaves out left out too), alternated in this
    window: floor, cached again, floor. The ratio is of CPU seconds, the fastest of each side,
    so that other work on the machine weighs on neither."""
    floor_dir = work / "floor"
    floor_dir.mkdir()
    (floor_dir / "test_floor.py").write_text(
        "import pytest\n\n\n"
        f"@pytest.mark.parametrize('i', range({scale}))\n"
        "def test_step(i):\n    pass\n", encoding="utf-8")
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:afcheck", "-p",
                   "no:hypothesispytest", "-p", "no:xdist", "-p", "no:logging", "-s",
                   "test_floor.py"]
    floors: list[Timed] = []
    runs = [cached]
    for round_ in range(2):
        floor = timed(pytest_args, floor_dir, env, limit_s, command=[sys.executable])
        if floor.returncode != 0:
            log(f"pytest floor: exited {floor.returncode}")
            return [Figure("cached_over_pytest_floor", None,
                           TARGETS["cached_over_pytest_floor"])]
        floors.append(floor)
        if round_ == 0:
            again = timed(run_args(suite, work / "third.json", work / "cache", jobs, executor),
                          work, env, limit_s)
            if ran("cached run again", again):
                runs.append(again)
    floor_cpu = min(f.cpu_s for f in floors)
    return [Figure("pytest_floor_wall_s", min(f.wall_s for f in floors)),
            Figure("pytest_floor_cpu_s", floor_cpu),
            Figure("cached_cpu_s", min(r.cpu_s for r in runs)),
            Figure("cached_over_pytest_floor", min(r.cpu_s for r in runs) / floor_cpu,
                   TARGETS["cached_over_pytest_floor"])]


def first_run_figures(run: Timed, result: dict[str, Any],
                      side_by_side: bool = False) -> list[Figure]:
    """``side_by_side``: chunks ran at the same time (an executor of several workers), so
    their backend seconds add up to more than the wall time they took: no share."""
    timings: dict[str, float] = result.get("timings", {})
    inside = sum(timings.values())
    own = None if side_by_side else run.wall_s - inside
    steps = len(result.get("steps", []))
    figures = [
        Figure("runner_overhead", None if own is None else own / run.wall_s,
               TARGETS["runner_overhead"]),
        Figure("runner_own_s", own),
        Figure("runner_own_ms_per_step", 1000 * own / steps if steps and own is not None
               else None),
        Figure("first_wall_s", run.wall_s),
        Figure("first_cpu_s", run.cpu_s),
        Figure("backend_s", inside),
    ]
    figures += [Figure(f"backend_{stage}_s", seconds) for stage, seconds in timings.items()]
    figures.append(Figure("cases_in_json", steps))
    figures.append(Figure("peak_rss_mb", run.peak_rss_mb, TARGETS["peak_rss_mb"]))
    return figures


def _metrics(path: Path) -> Any:
    return json.loads(path.read_text("utf-8")).get("metrics")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scale", type=int, default=SCALE, help=f"steps (default {SCALE})")
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_SCALE} steps instead of {SCALE}")
    parser.add_argument("--jobs", type=int, default=None,
                        help="smt prover processes (default: the prover's own, one per CPU)")
    parser.add_argument("--executor", default=None,
                        help="run every command under this executor (e.g. processes)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--limit-s", type=float, default=None,
                        help="time limit per command (default 60 s + 0.03 s per step; "
                             "more on a machine shared with other work)")
    parser.add_argument("--exclude", action="append", default=[], metavar="PROBLEM_ID",
                        help="leave out a chain (e.g. one a component crashes on); repeatable")
    args = parser.parse_args(argv)
    scale = QUICK_SCALE if args.quick else args.scale
    env = dict(os.environ)
    env.setdefault("AFCHECK_DATA_DIR", str(DEFAULT_DATA))
    work = Path(tempfile.mkdtemp(prefix="afcheck-bench-"))
    try:
        for figure in measure(work, scale, args.jobs, env, frozenset(args.exclude),
                              args.limit_s, args.executor):
            print(figure.line(), flush=True)
    finally:
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
