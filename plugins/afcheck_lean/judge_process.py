"""``python -m afcheck_lean.judge_process --nonce N --result FILE --report HOW -- PROGRAM…``:
runs a judge that does not know afcheck's result file (Comparator, SafeVerify, lean4checker)
and writes that file from the judge's exit status.

It runs in the judge's process tree, after every process the candidate's code ran in has
ended, and reads only what the judge program itself produced: its exit status and, for
SafeVerify (whose version without a failing exit status reports a mismatch on stderr), the
absence of its ``Found a problem`` line. A candidate's text can only make that line appear,
never disappear, so it can only turn a judgement into a rejection.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from afcheck_lean.judge import write_result

REPORTS = ("exit-status", "safeverify")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="afcheck_lean.judge_process")
    parser.add_argument("--nonce", required=True)
    parser.add_argument("--result", required=True, type=Path)
    parser.add_argument("--report", choices=REPORTS, default="exit-status")
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("give the judge program after --")
    try:
        done = subprocess.run(program, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace", check=False)
    except OSError as exc:
        write_result(args.result, args.nonce, False, f"{program[0]} could not run ({exc})")
        return 0
    certified = done.returncode == 0
    reason = "certified" if certified else f"{Path(program[0]).name} rejects it (exit status " \
                                           f"{done.returncode})"
    if certified and args.report == "safeverify" and any(
            line.startswith("Found a problem") for line in done.stderr.splitlines()):
        certified, reason = False, "SafeVerify found a declaration that does not match"
    write_result(args.result, args.nonce, certified, reason)
    return 0


if __name__ == "__main__":
    sys.exit(main())
