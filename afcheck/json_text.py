"""JSON text of plain data, from an encoder set up once, and read back by a scanner set up
once.

``json.dumps`` with options builds a :class:`json.JSONEncoder` per call, and even a kept
encoder's ``encode`` sets up a new C encoder on every call (``iterencode``). For the records
a run writes by the hundred thousand (result cache values, cache key parts, the result file's
step records) that setup is a third of the cost: 9 of 32 µs for a 2.2 KB step record,
measured on CPython 3.11. :func:`encoder` sets up the C encoder once and calls it directly,
with the very arguments ``iterencode`` gives it, so the text is the same, character for
character.

The C encoder is CPython's private ``json.encoder.c_make_encoder``: where it is missing, or
gives another text than the pure-Python encoder for a sample of every kind of value, the
encoder is the kept :class:`json.JSONEncoder`'s ``encode``, as before.

:func:`decoder` is ``json.loads`` without the three Python calls and two whitespace matches
``loads`` makes around the C scanner (``json.scanner.c_make_scanner``, private too): 5.7
instead of 7.6 µs for a 400-byte cached record. A text the scanner does not read whole (space
around the value, a byte-order mark, anything that is not JSON) goes to ``json.loads``, which
reads it or raises its own error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json import encoder as _json_encoder
from json import scanner as _json_scanner
from typing import Any

_SAMPLE = {"text": "a\\b \"q\" é ⊤ \n", "n": [1, -2.5, 1e100, 0.1, True, None],
           "nested": {"b": [], "a": {}}, "empty": "", "nan": float("nan"),
           "int keys": {2: "two", 1: "one"}, "tuple": (1, "x")}
"""One of each kind of value a record holds, with keys out of order (for ``sort_keys``)."""
_TEXTS = (json.dumps(_SAMPLE, ensure_ascii=False), json.dumps(_SAMPLE), "[]", '"x"', "1.5")
"""The decoder's check: texts of every kind of value, as the encoder writes them."""


def encoder(*, ensure_ascii: bool = True, sort_keys: bool = False,
            default: Callable[[Any], Any] | None = None) -> Callable[[Any], str]:
    """A function that gives ``json.dumps(value, ensure_ascii=…, sort_keys=…,
    default=…)``'s text for ``value``. It does not check for circular references: a value
    that contains itself raises :class:`RecursionError` instead of :class:`ValueError` (the
    records written through it are trees)."""
    kept = json.JSONEncoder(ensure_ascii=ensure_ascii, sort_keys=sort_keys, default=default)
    make = getattr(_json_encoder, "c_make_encoder", None)
    if make is None:
        return kept.encode
    strings = (_json_encoder.encode_basestring_ascii if ensure_ascii
               else _json_encoder.encode_basestring)
    try:
        once = make(None, kept.default, strings, None, kept.key_separator,
                    kept.item_separator, sort_keys, kept.skipkeys, kept.allow_nan)
    except TypeError:  # another signature than CPython 3.10-3.13's
        return kept.encode

    def encode(value: Any) -> str:
        return "".join(once(value, 0))

    try:
        # Against the pure-Python encoder (``iterencode`` when not one-shot), which shares
        # nothing with the C one.
        same = all(encode(v) == "".join(kept.iterencode(v))
                   for v in (_SAMPLE, *_SAMPLE.values()))
    except Exception:  # noqa: BLE001 - any failure of the private encoder means: do not use it
        same = False
    return encode if same else kept.encode


string_text: Callable[[str], str] = _json_encoder.encode_basestring
"""The JSON text of a string as :func:`encoder` with ``ensure_ascii=False`` writes it (the
C function the C encoder calls for each string; lone surrogates kept)."""


def decoder() -> Callable[[str], Any]:
    """A function that gives ``json.loads(text)`` for ``text`` (see the module docstring)."""
    make = getattr(_json_scanner, "c_make_scanner", None)
    if make is None:
        return json.loads
    try:
        scan = make(json.JSONDecoder())
    except TypeError:  # another signature than CPython 3.10-3.13's
        return json.loads

    def decode(text: str) -> Any:
        if type(text) is not str:  # bytes and the like: json.loads reads them
            return json.loads(text)
        try:
            value, end = scan(text, 0)
        except StopIteration:
            return json.loads(text)
        return value if end == len(text) else json.loads(text)

    try:
        # Compared as text again: NaN is not equal to itself.
        same = all(json.dumps(decode(text)) == json.dumps(json.loads(text)) for text in _TEXTS)
    except Exception:  # noqa: BLE001 - any failure of the private scanner means: do not use it
        same = False
    return decode if same else json.loads


def utf8_safe(text: str) -> str:
    """JSON ``text`` with each lone surrogate (a model's reply can decode to one) written as
    a ``\\uXXXX`` escape, which reads back to the same value: UTF-8, which files and SQLite
    hold, cannot hold one. Outside strings JSON has only ASCII, so each is in a string."""
    # isascii() reads a flag of the string, where a search reads all of it: most records are
    # ASCII, and a search of the others finds nothing but costs as much.
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def utf8(text: str) -> bytes:
    """JSON ``text`` as UTF-8, each lone surrogate written as :func:`utf8_safe` writes it: one
    encode where none is in it (nearly always), rather than a search and then an encode."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which UTF-8 cannot hold
        return utf8_safe(text).encode("utf-8")


_SURROGATE = re.compile("[\ud800-\udfff]")
