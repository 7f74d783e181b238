"""First-order languages as data: a signature, a surface syntax, and the theories that go with it.

A language is read from ``languages/<name>.toml`` next to this module. The file names the Lark
grammar of its surface syntax (``grammars/<grammar>.lark``), the spellings of each connective
(the grammar's connective terminals are built from them), what the lexer reads as a predicate
name and as a term name, and the signature: which predicates exist with which arity (``fixed``),
or that any predicate may be used with the arity of its first use (``first-use``), and which
names are constants and which variables. It also names the background theories that can decide
equivalence in it and the default one.

``TARSKI`` and ``FOLIO`` are the two built-in languages; :func:`load_language` reads any other
file of the same form.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LANGUAGES_DIR = Path(__file__).parent / "languages"

CONNECTIVES = (
    "not", "and", "or", "xor", "implies", "iff", "forall", "exists", "bottom", "eq", "neq",
)
"""Every symbol a language may spell, in the order of the grammar's terminals."""

ARITY_MODES = ("fixed", "first-use")


class LanguageError(ValueError):
    """A language file that cannot be used (one line: the file and what is wrong)."""


@dataclass(frozen=True, eq=False)
class Language:
    """One first-order language: signature, surface syntax and theories.

    Compared and hashed by identity: a language is loaded once and parsers are cached per
    language.
    """

    name: str
    description: str
    grammar: str
    """Name of the Lark grammar in ``grammars/``."""
    arity: str
    """``fixed`` (only :attr:`predicates`, with their arities) or ``first-use``."""
    predicates: Mapping[str, int]
    constants: str
    """Regular expression a constant's name matches in full."""
    variables: str
    """Regular expression a variable's name matches in full."""
    predicate_token: str
    name_token: str
    spellings: Mapping[str, tuple[str, ...]]
    default_theory: str
    theories: tuple[str, ...]
    path: Path = field(default=Path(), compare=False)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Pickled by reference (for worker processes): the other side loads the same file.
        if LANGUAGES.get(self.name) is self:
            return (language_named, (self.name,))
        return (load_language, (self.path,))

    def is_constant(self, name: str) -> bool:
        return re.fullmatch(self.constants, name) is not None

    def is_variable(self, name: str) -> bool:
        return re.fullmatch(self.variables, name) is not None

    def spelled(self, symbol: str) -> tuple[str, ...]:
        """The accepted spellings of one of :data:`CONNECTIVES` (empty: not in the language)."""
        return self.spellings.get(symbol, ())

    def all_spellings(self) -> frozenset[str]:
        return frozenset(s for spellings in self.spellings.values() for s in spellings)


def _fail(path: Path, message: str) -> LanguageError:
    return LanguageError(f"{path}: {message}")


def _regex(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(path, f"{key} must be a non-empty regular expression")
    try:
        re.compile(value)
    except re.error as exc:
        raise _fail(path, f"{key}: {exc}") from None
    return value


def load_language(path: Path) -> Language:
    """Read a language file; a bad one raises :class:`LanguageError` naming the file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise _fail(path, f"cannot read: {exc}") from None
    signature = data.get("signature", {})
    tokens = data.get("tokens", {})
    raw_spellings = data.get("spellings", {})
    arity = signature.get("arity", "fixed")
    if arity not in ARITY_MODES:
        raise _fail(path, f"signature.arity is {arity!r}; use one of {', '.join(ARITY_MODES)}")
    predicates = signature.get("predicates", {})
    if not all(isinstance(v, int) and v >= 0 for v in predicates.values()):
        raise _fail(path, "signature.predicates: every arity must be a whole number >= 0")
    if arity == "fixed" and not predicates:
        raise _fail(path, "a fixed signature needs [signature.predicates]")
    unknown = set(raw_spellings) - set(CONNECTIVES)
    if unknown:
        raise _fail(path, f"spellings: unknown symbol(s) {', '.join(sorted(unknown))}")
    spellings = {
        key: tuple(value) for key, value in raw_spellings.items() if value
    }
    for needed in ("not", "and", "or", "implies", "iff", "forall", "exists"):
        if needed not in spellings:
            raise _fail(path, f"spellings.{needed} is missing")
    theories = tuple(data.get("theories", ["none"]))
    default_theory = data.get("default_theory", "none")
    if default_theory not in theories:
        raise _fail(path, f"default_theory {default_theory!r} is not among theories")
    grammar = data.get("grammar", "")
    if not (Path(__file__).parent / "grammars" / f"{grammar}.lark").is_file():
        raise _fail(path, f"grammar {grammar!r}: no grammars/{grammar}.lark")
    return Language(
        name=data.get("name", path.stem),
        description=data.get("description", ""),
        grammar=grammar,
        arity=arity,
        predicates=MappingProxyType(dict(predicates)),
        constants=_regex(path, "signature.constants", signature.get("constants")),
        variables=_regex(path, "signature.variables", signature.get("variables")),
        predicate_token=_regex(path, "tokens.predicate", tokens.get("predicate")),
        name_token=_regex(path, "tokens.name", tokens.get("name")),
        spellings=MappingProxyType(spellings),
        default_theory=default_theory,
        theories=theories,
        path=path,
    )


TARSKI = load_language(LANGUAGES_DIR / "tarski.toml")
FOLIO = load_language(LANGUAGES_DIR / "folio.toml")
LANGUAGES: Mapping[str, Language] = MappingProxyType({TARSKI.name: TARSKI, FOLIO.name: FOLIO})


def language_named(name: str) -> Language:
    """A built-in language by name; ``KeyError`` listing the known ones otherwise."""
    try:
        return LANGUAGES[name]
    except KeyError:
        raise KeyError(
            f"unknown language {name!r}; known: {', '.join(sorted(LANGUAGES))}"
        ) from None
