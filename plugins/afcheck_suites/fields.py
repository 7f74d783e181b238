"""Checks of a record's fields shared by the suite kinds that read JSON rows.

Each returns the message of a :class:`~afcheck.errors.LoadError` (what is wrong and what to
do), or ``None`` when the field is good.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from afcheck.printable import printable

_SURROGATE = re.compile("[\ud800-\udfff]")


def type_name(value: object) -> str:
    """A JSON value's type in words: ``an object``, ``a list``, ``null`` …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else f"a {type(value).__name__}"


def is_id(value: object) -> bool:
    """A string or an integer (not a boolean, which JSON's ``true`` would make ``True``)."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def printable_id(value: object) -> bool:
    """Whether ``value`` can name a test: an id whose text has no control, bidirectional or
    surrogate character (test names are printed on the terminal)."""
    return is_id(value) and value != "" and printable(str(value), newlines=False) == str(value)


def id_problem(key: str, value: object) -> str | None:
    """What is wrong with the id ``value`` of field ``key``."""
    if not is_id(value):
        return f"'{key}' must be a string or an integer, not {type_name(value)}"
    shown = printable(str(value), newlines=False)
    if shown != str(value):
        return (f"'{key}' holds control or bidirectional characters ({shown}); ids are printed "
                "as test names: remove them")
    return None


def surrogate_problem(row: Mapping[str, object]) -> str | None:
    """A lone surrogate anywhere in ``row`` (a ``\\ud800`` escape without its pair decodes to
    one), which no UTF-8 file, cache or XML report can hold."""
    for key, value in row.items():
        if _holds_surrogate(key) or _holds_surrogate(value):
            return (f"'{printable(key)}' holds a lone surrogate (a \\ud800-\\udfff escape "
                    "without its pair); write the character itself or both halves of its pair")
    return None


def _holds_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_surrogate(v) for v in value)
    return False
