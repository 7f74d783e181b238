"""Numbers a user writes as a component's options (``--prover-opt timeout_ms=500``).

Every component takes its options as text; these read the numbers among them the same way
for all, so that ``nan``, ``inf``, ``2.5`` workers or ``0`` seconds are one line naming the
option and what it takes, never a traceback from ``int()`` or a limit that means nothing.
``where`` names the option's flag or component in that line (``--prover-opt``,
``deepseek: option``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping

from afcheck.errors import UsageError


def seconds(options: Mapping[str, str], key: str, default: float, *, where: str) -> float:
    """``options[key]`` as a finite number of seconds above 0; ``default`` when absent."""
    return _above_zero(options, key, default, where, "a number of seconds above 0")


def positive(options: Mapping[str, str], key: str, default: float, *, where: str) -> float:
    """``options[key]`` as a finite number above 0 (a limit in seconds or megabytes that may
    be fractional); ``default`` when absent."""
    return _above_zero(options, key, default, where, "a number above 0")


def whole(options: Mapping[str, str], key: str, default: int, *, where: str,
          minimum: int = 1) -> int:
    """``options[key]`` as a whole number of at least ``minimum`` (workers, milliseconds,
    megabytes); ``default`` when absent. ``2.0`` is 2; ``2.5`` is refused, not cut to 2."""
    raw = options.get(key)
    if raw is None:
        return default
    value = _number(raw)
    if not math.isfinite(value) or value != int(value):
        raise UsageError(f"{where} {key}={raw}: expected a whole number")
    if value < minimum:
        raise UsageError(f"{where} {key}={raw}: must be at least {minimum}")
    return int(value)


def _above_zero(options: Mapping[str, str], key: str, default: float, where: str,
                what: str) -> float:
    raw = options.get(key)
    if raw is None:
        return default
    value = _number(raw)
    if not value > 0 or math.isinf(value):
        raise UsageError(f"{where} {key}={raw}: must be {what}")
    return value


def _number(raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        return math.nan


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` for a count of at least ``minimum``: ``--limit -1`` is refused by
    the parser, naming the option, instead of running nothing."""

    def read(text: str) -> int:
        wrong = argparse.ArgumentTypeError(
            f"expects a whole number of {minimum} or more, not {text!r}")
        try:
            value = int(text)
        except ValueError:
            raise wrong from None
        if value < minimum:
            raise wrong
        return value

    return read
