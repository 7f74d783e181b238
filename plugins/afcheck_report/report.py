"""``afcheck report RUN.json… --html OUT.html``: one self-contained HTML page for one run or
several side by side (see :mod:`afcheck_report.page`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import Any

from afcheck.errors import UsageError
from afcheck.fileio import atomic_writer
from afcheck_report.page import build
from afcheck_report.runfile import DEFAULT_METHOD, RunFile, load, method_of, unique_labels


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add ``afcheck report``'s arguments to ``parser``; return its handler."""
    parser.description = ("Write an HTML report of afcheck result files: the FaithformBench "
                          "charts, metric tables with intervals and a step browser.")
    parser.add_argument("runs", nargs="+", metavar="RUN.json",
                        help="result files written by `afcheck … --json FILE`")
    parser.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    parser.add_argument("--label", action="append", default=[], metavar="NAME",
                        help="a name per run, in order (default: its formalisers)")
    parser.add_argument("--title", default="afcheck report", help="the page title")
    parser.add_argument("--no-raw", action="store_true",
                        help="leave raw model outputs out (a smaller page)")
    parser.add_argument("--drift", action="store_true",
                        help="run the semantic-drift detectors on steps whose record has no "
                        "warnings yet (needs z3)")
    parser.add_argument("--raw-limit", type=int, default=20_000, metavar="CHARS",
                        help="keep at most this many characters of each raw output "
                        "(default 20000; 0: no limit)")
    return handle


def handle(args: argparse.Namespace) -> int:
    if args.label and len(args.label) != len(args.runs):
        raise UsageError(f"--label given {len(args.label)} times for {len(args.runs)} runs: "
                         "give one per run, in order, or none")
    labels = args.label or [None] * len(args.runs)
    runs = unique_labels([load(path, label) for path, label in zip(args.runs, labels,
                                                                     strict=True)])
    if args.drift:
        runs = [with_drift_warnings(run) for run in runs]
    page = build(runs, title=args.title, raw_outputs=not args.no_raw,
                 raw_limit=args.raw_limit)
    try:
        with atomic_writer(args.html) as handle_:
            handle_.write(page)
    except OSError as error:
        raise UsageError(f"{args.html}: cannot write: {error.strerror or error}") from None
    steps = sum(len(run.steps) for run in runs)
    print(f"wrote {args.html}: {len(runs)} run(s), {steps} steps, "
          f"{len(page.encode('utf-8')) / 1e6:.1f} MB", file=sys.stderr)
    return 0


def with_drift_warnings(run: RunFile) -> RunFile:
    """``run`` with the drift detectors' warnings added to each faithfulness step that has
    none recorded (a file written before detectors ran, or by a run with ``--detectors
    none``): for each side whose formalisation succeeded, the detectors read that side's text
    (the step, or its perturbation) and statement. Running them again where a run found
    nothing finds nothing again."""
    from afcheck_drift.detectors import detect_all

    steps: list[Mapping[str, Any]] = []
    for step in run.steps:
        if method_of(step) != DEFAULT_METHOD or step.get("warnings"):
            steps.append(step)
            continue
        warnings = []
        perturbation = step.get("perturbation")
        texts = {"original": step.get("text"),
                 "perturbed": perturbation.get("text") if isinstance(perturbation, dict)
                 else None}
        for side, text in texts.items():
            formal = step.get(side)
            if not isinstance(text, str) or not isinstance(formal, dict):
                continue
            statement = formal.get("statement")
            if formal.get("status") != "ok" or not isinstance(statement, str):
                continue
            for warning in detect_all(text, statement, str(formal.get("header") or "")):
                warnings.append({**warning.to_json(), "side": side})
        steps.append({**step, "warnings": warnings})
    return RunFile(run.path, run.label, run.header, tuple(steps))
