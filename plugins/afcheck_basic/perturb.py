"""``afcheck perturb``: perturb one step with any registered perturber and show the edit.

    afcheck perturb 'Tue = 4 + 1.' --perturber regex --seed 0
    afcheck perturb 'Tue = 4 + 1.' --json
    echo 'Tue = 4 + 1.' | afcheck perturb -

The step id (``--step-id``) enters the seed exactly as it does in a suite run, so the output
here is the perturbation that step gets there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from afcheck_faithfulness.kinds import PERTURBER
from afcheck_faithfulness.records import Perturbation, Step

from afcheck.errors import AfcheckError, UsageError
from afcheck.fileio import stdin_bytes
from afcheck.options import add_component_options
from afcheck.printable import printable, printable_json

DEFAULT_STEP_ID = "cli/step/0"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `afcheck perturb --help`)")


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add the command's arguments to ``parser``; returns the handler."""
    parser.description = "Perturb one reasoning step and print the perturbed text and the edit."
    parser.add_argument("text", help="the step text; '-' reads it from standard input")
    add_component_options(parser, "perturber", "regex")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--step-id", default=DEFAULT_STEP_ID, help="step id the seed derives from")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return handle


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with its arguments as a list; 0 on success, 2 on bad input."""
    parser = _Parser(prog="afcheck perturb")
    handler = configure(parser)
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except AfcheckError as exc:
        print(f"afcheck perturb: error: {printable(str(exc), newlines=False)}", file=sys.stderr)
        return 2
    return handler(args)


def handle(args: argparse.Namespace) -> int:
    """Run the command; 0 on success, 2 on bad input, 3 when the perturber breaks (one line
    on stderr). Text from the step is printed with its control characters escaped."""
    try:
        text = _read_text(args.text)
        perturbation = _perturb(args.perturber, args.perturber_opt, text, args.seed,
                                args.step_id)
    except AfcheckError as exc:
        print(f"afcheck perturb: error: {printable(str(exc), newlines=False)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a plugin's bug is still one line
        print(f"afcheck perturb: error: the perturber failed: {type(exc).__name__}: "
              f"{printable(str(exc), newlines=False)[:300]}", file=sys.stderr)
        return 3
    if args.json:
        print(printable_json(as_json(text, perturbation, args.seed)))
    else:
        print(printable(as_text(perturbation)))
    return 0


def _read_text(value: str) -> str:
    if value == "-":
        data = stdin_bytes()
        try:
            text = data.decode("utf-8").rstrip("\n")
        except UnicodeDecodeError as exc:
            raise UsageError(f"standard input is not UTF-8 text (invalid byte at offset "
                             f"{exc.start})") from None
    else:
        text = value
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise UsageError("the step text is not valid UTF-8; pass UTF-8 text")
    if not text.strip():
        raise UsageError("the step text is empty; pass the step as the first argument")
    return text


def _perturb(
    name: str, options: dict[str, str], text: str, seed: int, step_id: str
) -> Perturbation:
    from afcheck.plugins import get_plugins

    perturber = get_plugins().create(PERTURBER, name, options)
    suite, _, rest = step_id.partition("/")
    problem_id, _, node_id = rest.partition("/")
    step = Step(
        id=step_id, suite=suite, dataset=suite, problem_id=problem_id, node_id=node_id, text=text
    )
    results = perturber.perturb([step], seed)
    if len(results) != 1:
        raise UsageError(f"perturber '{name}' returned {len(results)} results for one step")
    result: Perturbation = results[0]
    return result


def as_json(original: str, perturbation: Perturbation, seed: int) -> dict[str, Any]:
    """The JSON object ``--json`` prints."""
    edit = perturbation.edit
    return {
        "original": original,
        "text": perturbation.text,
        "rule": perturbation.rule,
        "start": edit.start if edit else None,
        "end": edit.end if edit else None,
        "old": edit.old if edit else None,
        "new": edit.new if edit else None,
        "effective": perturbation.effective,
        "perturber": perturbation.perturber,
        "step_id": perturbation.step_id,
        "seed": seed,
        "reason": perturbation.reason,
    }


def as_text(perturbation: Perturbation) -> str:
    """Two lines: the perturbed text, then the rule and the edit."""
    edit = perturbation.edit
    effective = {True: "yes", False: "no", None: "unknown"}[perturbation.effective]
    if perturbation.text is None or edit is None:
        return f"(not perturbed)\nrule: {perturbation.rule}  reason: {perturbation.reason}"
    return (
        f"{perturbation.text}\n"
        f"rule: {perturbation.rule}  edit: [{edit.start}:{edit.end}] "
        f"{edit.old!r} -> {edit.new!r}  effective: {effective}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
