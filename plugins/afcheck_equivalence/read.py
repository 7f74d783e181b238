"""Read a Lean statement (with or without its header, preamble and proof) for a criterion.

What the statement needs before it is read too, as Lean would:

- ``variable`` lines: the variables the statement mentions (and those their types mention,
  and the instance variables whose types mention only included ones — Lean 4's inclusion
  rule) become its leading binders, so ``variable {G : Type*} [Group G]`` then
  ``theorem t (x : G) : x * 1 = x`` is read as ``theorem t {G : Type*} [Group G] (x : G) …``;
- ``def``/``abbrev`` declarations: a constant without parameters is unfolded into the
  statement (:mod:`afcheck_equivalence.unfold`: ``abbrev I := Icc 0 1`` then ``(x : I)`` is
  ``(x : Icc 0 1)``, as Lean unfolds it) and dropped; any other is kept, one line each, after
  the header, so a prover that runs Lean sees it, and the name it defines is a constant of the
  statement. Two statements are compared only when every name either keeps means the same on
  both sides (:func:`shared_header`).

Other declarations before the statement (``notation``, ``instance``, ``structure`` …) change
how the statement reads in ways the front end does not model: :class:`ReadError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck.lean import ast as A
from afcheck_equivalence.unfold import body_of, unfold

__all__ = ["PairRead", "Read", "ReadError", "read_pair", "read_statement", "shared_header"]


class ReadError(ValueError):
    """The text is not a statement the front end reads; ``str(error)`` is one line."""


@dataclass(frozen=True)
class Read:
    theorem: A.Theorem
    statement: str
    """The statement as extracted, ``:= by sorry``."""
    header: str
    """The pair's header and the statement's own header lines (``variable`` lines are read
    into the theorem instead), then its definitions, one line each."""
    definitions: tuple[tuple[str, str], ...] = ()
    """``(name, declaration on one line)`` of each ``def``/``abbrev`` before the statement."""


@dataclass(frozen=True)
class PairRead:
    """Both statements of a pair as the front end read them, each side read whatever became
    of the other, so a run counts what the front end reads without reading again."""

    reference: Read | ReadError
    candidate: Read | ReadError

    @property
    def read(self) -> tuple[bool, bool]:
        """Whether the reference and the candidate were read."""
        return isinstance(self.reference, Read), isinstance(self.candidate, Read)

    def sides(self) -> tuple[Read, Read]:
        """The two statements; the first side's :class:`ReadError` when one was not read."""
        for side in (self.reference, self.candidate):
            if isinstance(side, ReadError):
                raise side
        assert isinstance(self.reference, Read) and isinstance(self.candidate, Read)
        return self.reference, self.candidate


def read_pair(reference: str, candidate: str, header: str = "") -> PairRead:
    """Both statements under ``header``; a statement nested too deeply for the reader is not
    read (:class:`ReadError`), as any other it cannot read."""
    return PairRead(_attempt(reference, header), _attempt(candidate, header))


def _attempt(text: str, header: str) -> Read | ReadError:
    try:
        return read_statement(text, header)
    except ReadError as error:
        return error
    except RecursionError:
        return ReadError("the statement is too deeply nested to read")


_DEFINITION = re.compile(
    r"^(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable|partial|unsafe)\s+)*"
    r"(def|abbrev)\s+([^\s(\[{⦃:]+)")
_VARIABLE = re.compile(r"^variables?\s+")


def read_statement(text: str, header: str = "") -> Read:
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_theorem

    try:
        extracted = extract_statement(text)
        theorem = parse_theorem(extracted.statement)
        lines = [line for h in (header, extracted.header) for line in h.splitlines() if line]
        variables = [line for line in lines if _VARIABLE.match(line)]
        lines = [line for line in lines if not _VARIABLE.match(line)]
        theorem = _with_variables(theorem, variables)
    except (ExtractionError, ParseError) as error:
        raise ReadError(f"cannot read the statement: {error}") from None
    declared: list[tuple[str, str]] = []
    for declaration in extracted.auxiliary:
        match = _DEFINITION.match(declaration)
        if match is None:
            kind = declaration.split(None, 1)[0] if declaration.split() else "?"
            raise ReadError(f"the statement depends on a '{kind}' declaration, which is not "
                            "compared (only def and abbrev are)")
        declared.append((match.group(2), " ".join(declaration.split())))
    definitions: list[tuple[str, str]] = []
    for name, line in declared:
        constant = body_of(line)
        # Unfolded only when no other declaration mentions it: those stay in the header.
        others = " ".join(d for n, d in declared if n != name)
        unfolded = None
        if constant is not None and not re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'])",
                                                  others):
            unfolded = unfold(theorem, *constant)
        if unfolded is not None:
            theorem = unfolded
            continue
        definitions.append((name, line))
    full = "\n".join([*dict.fromkeys(lines), *(d for _, d in definitions)])
    return Read(theorem, extracted.statement, full, tuple(definitions))


def shared_header(reference: Read, candidate: Read) -> str:
    """The header both statements are read under: their lines, each once, in order.

    Raises :class:`ReadError` when a name is defined differently on the two sides, or
    defined on one side and used, undefined, on the other (it would mean two things in one
    obligation)."""
    ours, theirs = dict(reference.definitions), dict(candidate.definitions)
    for name in sorted(set(ours) | set(theirs)):
        if name in ours and name in theirs:
            if ours[name] != theirs[name]:
                raise ReadError(f"'{name}' is defined differently by the two statements")
            continue
        other = candidate if name in ours else reference
        if name in _names(other.theorem):
            side = "reference" if name in ours else "candidate"
            raise ReadError(f"'{name}' is defined by the {side} only, and the other statement "
                            "uses the name")
    return "\n".join(dict.fromkeys(
        line for h in (reference.header, candidate.header) for line in h.splitlines()))


def _names(theorem: A.Theorem) -> set[str]:
    """Every name the statement mentions (bound or not: a binder of the name is a use too)."""
    from afcheck.lean.rename import free_names

    out = {b.name for b in theorem.binders}
    for binder in theorem.binders:
        for part in (binder.type, binder.default):
            if part is not None:
                out |= free_names(part)
    return out | free_names(theorem.conclusion)


def _with_variables(theorem: A.Theorem, lines: list[str]) -> A.Theorem:
    """``theorem`` with the ``variable`` binders Lean 4 includes in it, in front."""
    from afcheck.lean.parser import parse_theorem
    from afcheck.lean.rename import free_names

    if not lines:
        return theorem
    declared: list[A.Binder] = []
    for line in lines:
        rest = _VARIABLE.sub("", line, count=1)
        declared.extend(parse_theorem(f"theorem variables {rest} : True").binders)
    used: set[str] = set()
    bound: set[str] = set()
    for binder in theorem.binders:
        for part in (binder.type, binder.default):
            if part is not None:
                used |= free_names(part) - bound
        bound.add(binder.name)
    used |= free_names(theorem.conclusion) - bound
    names = {b.name for b in declared if b.name}
    included = {b.name for b in declared if b.name in used}
    changed = True
    while changed:
        changed = False
        for binder in declared:
            mentions = (free_names(binder.type) if binder.type is not None else set()) & names
            if binder.name in included and not mentions <= included:
                included |= mentions
                changed = True
    kept = [b for b in declared if b.name in included or (
        b.kind == "instance" and b.type is not None
        and (free_names(b.type) & names) and (free_names(b.type) & names) <= included)]
    return A.Theorem(theorem.keyword, theorem.name, (*kept, *theorem.binders),
                     theorem.conclusion)
