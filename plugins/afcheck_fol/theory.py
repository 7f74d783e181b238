"""Background theories, named and selectable, read from ``theories/<language>.toml``.

A theory is a list of axioms written as sentences of its language, the axioms of the theories it
includes, and optionally an interpretation: ``grid`` gives every predicate of Tarski's World its
meaning on the 8×8 board (see :mod:`afcheck_fol.grid`) instead of leaving it uninterpreted.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from afcheck_fol.formula import Formula
from afcheck_fol.language import Language

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

THEORIES_DIR = Path(__file__).parent / "theories"
INTERPRETATIONS = ("grid",)


class TheoryError(ValueError):
    """An unknown theory name, or a theory file that cannot be used (one line)."""


@dataclass(frozen=True)
class Theory:
    name: str
    description: str
    axioms: tuple[Formula, ...]
    interpretation: str | None = None


@lru_cache(maxsize=8)
def theories(language: Language) -> dict[str, Theory]:
    """Every theory of ``language`` that its language file lists, by name."""
    from afcheck_fol.syntax import FolSyntaxError, parse

    path = THEORIES_DIR / f"{language.name}.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8")).get("theory", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TheoryError(f"{path}: cannot read: {exc}") from None
    built: dict[str, Theory] = {}

    def build(name: str, seen: tuple[str, ...]) -> Theory:
        if name in built:
            return built[name]
        if name in seen:
            raise TheoryError(f"{path}: theory {name} includes itself")
        entry = raw.get(name)
        if entry is None:
            raise TheoryError(f"{path}: no theory {name!r}")
        axioms: list[Formula] = []
        interpretation = entry.get("interpretation")
        if interpretation is not None and interpretation not in INTERPRETATIONS:
            raise TheoryError(f"{path}: theory {name}: unknown interpretation {interpretation!r}")
        for included in entry.get("includes", []):
            parent = build(included, (*seen, name))
            axioms.extend(parent.axioms)
            interpretation = interpretation or parent.interpretation
        for text in entry.get("axioms", []):
            try:
                axioms.append(parse(text, language))
            except FolSyntaxError as exc:
                raise TheoryError(f"{path}: theory {name}: axiom {text!r}: {exc}") from None
        theory = Theory(name, entry.get("description", ""), tuple(axioms), interpretation)
        built[name] = theory
        return theory

    for name in language.theories:
        build(name, ())
    return {name: built[name] for name in language.theories}


def theory_named(language: Language, name: str | None) -> Theory:
    """``name`` (the language's default when ``None``), or :class:`TheoryError` listing them."""
    known = theories(language)
    chosen = language.default_theory if name is None else name
    if chosen not in known:
        raise TheoryError(
            f"language {language.name} has no theory {chosen!r}; "
            f"known: {', '.join(known)}"
        )
    return known[chosen]
