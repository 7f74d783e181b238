"""``afcheck fol equiv A B``: are two formulas equivalent, and if not, where do they differ.

A and B are formulas, or paths of files holding one. Exit status: 0 equivalent, 1 not
equivalent or a syntax error, 3 undecided; 4 for bad usage (the core's convention).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from afcheck.errors import MissingDependency, UsageError

EXIT_EQUIVALENT = 0
EXIT_DIFFERENT = 1
EXIT_UNDECIDED = 3

INFERRED = ("tarski", "folio")
"""The languages ``fol equiv`` tries, in order, when ``--language`` is not given: the next
one only when a formula names a predicate the one before does not have."""


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add the ``fol`` subcommands to ``parser``; the returned handler runs the chosen one."""
    from afcheck_fol.equiv import DEFAULT_MAX_DOMAIN, DEFAULT_RLIMIT
    from afcheck_fol.language import LANGUAGES

    parser.description = "First-order logic tools."
    sub = parser.add_subparsers(dest="fol_command", metavar="COMMAND")
    sub.required = True
    equiv = sub.add_parser(
        "equiv", help="decide whether two formulas are equivalent",
        description="Decide whether two sentences are logically equivalent with z3 under a "
        "background theory; print the counter-model when they are not.",
    )
    equiv.add_argument("left", metavar="A", help="a formula, or a file holding one")
    equiv.add_argument("right", metavar="B", help="a formula, or a file holding one")
    equiv.add_argument("--language", choices=sorted(LANGUAGES), default=None,
                       help="surface syntax and signature (default: tarski, or folio when "
                       "a formula names a predicate Tarski's World does not have)")
    equiv.add_argument("--theory", default=None,
                       help="background theory (default: the language's; tarski: analytic)")
    equiv.add_argument("--rlimit", type=_whole(1), default=DEFAULT_RLIMIT,
                       help=f"z3 resource limit per solver call, 1 or more (default "
                       f"{DEFAULT_RLIMIT})")
    equiv.add_argument("--max-domain", type=_whole(0), default=DEFAULT_MAX_DOMAIN,
                       help="largest domain of the counter-model search "
                       f"(default {DEFAULT_MAX_DOMAIN})")
    equiv.add_argument("--json", action="store_true", help="print one JSON object")
    return _run


def _run(args: argparse.Namespace) -> int:
    return equiv_command(args)


def _whole(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``least`` (a z3 resource limit of 0 or
    less would leave every pair undecided without saying why)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number >= {least}")
        return value

    return parse


def _formula_text(argument: str) -> str:
    """The formula ``argument`` names: a file's text when it is a file's path, else itself. A
    formula is never tried as a path that cannot be one (a name component longer than the
    file system allows raised ``OSError: File name too long``)."""
    if not _could_be_path(argument):
        return argument
    path = Path(argument)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):
        return argument
    if is_file:
        try:
            return path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{argument}: cannot read: {exc}") from None
    return argument


def _could_be_path(text: str) -> bool:
    return (0 < len(text) < 4096 and "\n" not in text and "\0" not in text
            and all(len(part) <= 255 for part in text.split("/")))


def equiv_command(args: argparse.Namespace) -> int:
    try:
        import lark  # noqa: F401
        import z3  # noqa: F401
    except ImportError as exc:
        raise MissingDependency("fol", exc.name or "lark/z3-solver",
                                "pip install 'afcheck[fol]'") from None
    from afcheck_fol.equiv import check
    from afcheck_fol.formula import Formula
    from afcheck_fol.language import language_named
    from afcheck_fol.syntax import FolSyntaxError, parse
    from afcheck_fol.ted import rank
    from afcheck_fol.theory import TheoryError, theory_named

    texts = {"left": _formula_text(args.left), "right": _formula_text(args.right)}
    # Without --language: Tarski's World's, unless a formula names a predicate outside its
    # fixed signature; then FOLIO's open vocabulary. Any other error is the formula's own,
    # reported in the language that found it.
    names = [args.language] if args.language else list(INFERRED)
    for index, name in enumerate(names):
        language = language_named(name)
        formulas: dict[str, Formula] = {}
        failure: tuple[str, FolSyntaxError] | None = None
        for side, text in texts.items():
            try:
                formulas[side] = parse(text, language)
            except FolSyntaxError as exc:
                failure = (side, exc)
                break
        if (failure is None or index == len(names) - 1
                or failure[1].rule != "unknown-predicate"):
            break
    try:
        theory = theory_named(language, args.theory)
    except TheoryError as exc:
        raise UsageError(str(exc)) from None
    if failure is not None:
        side, problem = failure
        if args.json:
            print(json.dumps({
                "equivalent": None, "theory": theory.name, "counter_model": None,
                "syntax_error": {"formula": side, **problem.to_json()},
                "left": texts["left"], "right": texts["right"],
            }, ensure_ascii=False))
        else:
            start, end = problem.span
            print(f"{'A' if side == 'left' else 'B'} is not a sentence of {language.name}: "
                  f"{problem}")
            print(f"  {texts[side]}")
            print(f"  {' ' * start}{'^' * max(1, end - start)}")
        return EXIT_DIFFERENT
    verdict = check(formulas["left"], formulas["right"], language, theory.name,
                    rlimit=args.rlimit, max_domain=args.max_domain)
    if args.json:
        ranking = rank(formulas["left"], [formulas["right"]])
        print(json.dumps({
            **verdict.to_json(), "syntax_error": None,
            "distance": ranking.distances[0],
            **({"distance_skipped": ranking.skipped} if ranking.skipped else {}),
            "left": texts["left"], "right": texts["right"],
        }, ensure_ascii=False))
    elif verdict.equivalent:
        print(f"equivalent (decided under theory {verdict.theory})")
    elif verdict.equivalent is False:
        print(f"not equivalent under theory {verdict.theory} ({verdict.how})")
        if verdict.model is not None:
            print(verdict.model.render())
    else:
        print(f"undecided under theory {verdict.theory}: {verdict.how}")
    sys.stdout.flush()
    if verdict.equivalent is None:
        return EXIT_UNDECIDED
    return EXIT_EQUIVALENT if verdict.equivalent else EXIT_DIFFERENT
