"""``afcheck report RUN.json… --html OUT.html``: one self-contained HTML page for one run or
several side by side (see :mod:`afcheck_report.page`).

The command reads views from the process's plugins (:func:`afcheck.plugins.get_plugins`: the
installed ones and those ``--plugin`` names, which ``afcheck`` registers there before it runs
a command). Each method's view may add options of its own and prepare its items by them
before the page is drawn.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace

from afcheck.errors import UsageError
from afcheck.fileio import atomic_writer
from afcheck_report.page import build
from afcheck_report.runfile import RunFile, load, method_of, unique_labels
from afcheck_report.view import Record
from afcheck_report.views import Views


def configure(parser: argparse.ArgumentParser,
              views: Views | None = None) -> Callable[[argparse.Namespace], int]:
    """Add ``afcheck report``'s arguments, and those of every registered view, to ``parser``;
    return its handler."""
    views = views if views is not None else Views()
    parser.description = ("Write an HTML report of afcheck result files: each method's "
                          "charts and metric tables with intervals, and a step browser.")
    parser.add_argument("runs", nargs="+", metavar="RUN.json",
                        help="result files written by `afcheck … --json FILE`")
    parser.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    parser.add_argument("--label", action="append", default=[], metavar="NAME",
                        help="a name per run, in order (default: its formalisers)")
    parser.add_argument("--title", default="afcheck report", help="the page title")
    parser.add_argument("--no-raw", action="store_true",
                        help="leave raw model outputs out (a smaller page)")
    parser.add_argument("--raw-limit", type=int, default=20_000, metavar="CHARS",
                        help="keep at most this many characters of each raw output "
                        "(default 20000; 0: no limit)")
    for view in views.registered():
        view.add_arguments(parser)

    def handle(args: argparse.Namespace) -> int:
        return report(args, views)

    return handle


def report(args: argparse.Namespace, views: Views) -> int:
    if args.label and len(args.label) != len(args.runs):
        raise UsageError(f"--label given {len(args.label)} times for {len(args.runs)} runs: "
                         "give one per run, in order, or none")
    labels = args.label or [None] * len(args.runs)
    runs = unique_labels([prepared(load(path, label), views, args)
                          for path, label in zip(args.runs, labels, strict=True)])
    page = build(runs, title=args.title, raw_outputs=not args.no_raw,
                 raw_limit=args.raw_limit, views=views)
    try:
        with atomic_writer(args.html) as handle_:
            handle_.write(page)
    except OSError as error:
        raise UsageError(f"{args.html}: cannot write: {error.strerror or error}") from None
    steps = sum(len(run.steps) for run in runs)
    print(f"wrote {args.html}: {len(runs)} run(s), {steps} steps, "
          f"{len(page.encode('utf-8')) / 1e6:.1f} MB", file=sys.stderr)
    return 0


def prepared(run: RunFile, views: Views, args: argparse.Namespace) -> RunFile:
    """``run`` with each method's items as its view prepares them (``view.prepare``), in the
    file's order."""
    by_method: dict[str, list[Record]] = {}
    for method in run.methods:
        steps = run.steps_of(method)
        ready = list(views(method).prepare(steps, args))
        if len(ready) != len(steps):
            raise UsageError(f"the {method} report view returned {len(ready)} items for "
                             f"{len(steps)}; a view's prepare() keeps every item")
        by_method[method] = ready
    order = {method: iter(steps) for method, steps in by_method.items()}
    return replace(run, steps=tuple(next(order[method_of(step)]) for step in run.steps))
