"""A JSON record's fields read back as typed values: what every method's codec uses when it
reads a result file, written by another version of the method or damaged.

Each reader gives the value when it has the expected type and a neutral one otherwise (an
empty text, ``None``, ``0.0``, an empty list), and never raises: a record with a missing or
mistyped field reads as "nothing recorded there", which the method's codec then decides
about, in one place."""

from __future__ import annotations

from collections.abc import Mapping


def text(data: Mapping[str, object], *keys: str) -> str:
    """The first non-empty text among ``data``'s ``keys``; ``""`` when none is one."""
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def maybe_text(data: Mapping[str, object], key: str) -> str | None:
    """``data[key]`` when it is a text (empty included), else ``None``."""
    value = data.get(key)
    return value if isinstance(value, str) else None


def whole(value: object) -> int | None:
    """``value`` when it is a whole number (``True`` is not one), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def wholes(value: object) -> tuple[int, ...]:
    """The whole numbers of a JSON list, in order; the rest of it, and a non-list, skipped."""
    items = value if isinstance(value, list) else ()
    return tuple(i for i in items if isinstance(i, int) and not isinstance(i, bool))


def number(value: object) -> float:
    """``value`` as a float when it is a number (``True`` is not one), else ``0.0``."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else 0.0


def flag(value: object) -> bool | None:
    """``value`` when it is ``true`` or ``false``, else ``None``."""
    return value if isinstance(value, bool) else None


def listed(value: object) -> list[object]:
    """``value`` when it is a JSON list, else an empty one."""
    return value if isinstance(value, list) else []
