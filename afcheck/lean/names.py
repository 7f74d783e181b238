"""Which declaration a short name stands for under a header's ``open`` commands, as Lean
resolves it.

- ``open Real`` makes the public members of ``Real`` available by their short names, but not
  its ``protected`` ones: ``Real.pi``, ``Finset.sum`` and ``Finset.prod`` are protected, so a
  bare ``pi`` or ``sum`` is *not* them (under ``open Set`` a bare ``pi`` is ``Set.pi``).
- ``open scoped Real`` opens only the namespace's scoped notation (``π`` for ``Real.pi``); plain
  ``open Real`` opens it too.
- ``open Real (sqrt exp)`` opens only the names listed; ``open Real hiding pi`` all but those;
  ``open Real renaming sqrt → rt`` only the new names; ``open Real in`` (before a declaration)
  opens it for that declaration.
- A short name that two opened namespaces provide is ambiguous: Lean picks between them by
  type, which a table cannot, so it is not resolved at all.

:func:`short_names` gives what is certain; a name it leaves out is compared as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["MEMBERS", "ROOT", "SCOPED", "Opened", "opened", "short_names"]

MEMBERS: dict[str, tuple[str, ...]] = {
    "Real": ("sqrt", "exp", "log", "cos", "sin", "tan", "logb", "rpow", "arctan", "arcsin",
             "arccos", "sinh", "cosh", "tanh", "toNNReal", "nnabs"),
    "Nat": ("factorial", "choose", "gcd", "lcm", "succ", "Prime", "digits", "divisors", "sqrt",
            "log", "floor", "ceil", "card", "totient", "fib", "primeFactors", "properDivisors",
            "ModEq", "Coprime", "minFac", "pred", "dist", "find", "cast"),
    "Int": ("floor", "ceil", "natAbs", "toNat", "fract", "gcd", "lcm", "sqrt", "log", "emod",
            "ediv", "fdiv", "sign", "ModEq", "cast"),
    "Finset": ("range", "Icc", "Ico", "Ioc", "Ioo", "card", "filter", "image", "map", "univ",
               "sup", "inf", "max", "min", "powerset", "product", "erase", "insert", "Nonempty"),
    "Set": ("range", "image", "preimage", "univ", "Icc", "Ico", "Ioc", "Ioo", "Ici", "Iic", "Ioi",
            "Iio", "Finite", "Infinite", "Countable", "ncard", "encard", "Nonempty", "pi",
            "indicator", "InjOn", "SurjOn", "BijOn", "MapsTo"),
    "Complex": ("exp", "log", "cos", "sin", "tan", "abs", "I", "ofReal", "cpow", "arg", "normSq",
                "re", "im", "conj", "sinh", "cosh"),
    "Polynomial": ("X", "C", "eval", "degree", "natDegree", "roots", "derivative", "aeval",
                   "Monic", "leadingCoeff", "coeff", "rootSet", "map", "eval₂"),
    "Function": ("Injective", "Surjective", "Bijective", "comp", "Periodic", "invFun", "const"),
    "Filter": ("Tendsto", "atTop", "atBot", "Eventually", "Frequently", "map", "comap"),
    "Fintype": ("card",),
}
"""Public (not ``protected``) members of common namespaces, by short name: enough to tell
when a short name is ambiguous. ``Real.pi``, ``Finset.sum``, ``Finset.prod`` are protected and
therefore absent."""

ROOT = frozenset({"Prime", "gcd", "lcm", "abs", "min", "max", "id", "Finite", "Infinite",
                  "Countable", "Nonempty", "Irreducible", "Squarefree", "Even", "Odd", "Dense",
                  "Disjoint", "Monotone"})
"""Names declared at the root as well (``_root_.Prime``): ``open Nat`` makes ``Prime``
ambiguous between ``Prime`` and ``Nat.Prime``, so it is resolved to neither."""

SCOPED: dict[str, dict[str, str]] = {
    "Real": {"π": "Real.pi"},
    "Topology": {"𝓝": "nhds"},
}
"""Scoped notation a namespace opens (``open`` or ``open scoped``), as the name it stands for."""


@dataclass(frozen=True)
class Opened:
    """What one header opens: namespaces whose names are available (with the names a
    ``(…)``/``hiding``/``renaming`` clause restricts them to), and scoped notation."""

    names: tuple[tuple[str, Mapping[str, str] | None], ...]
    """``(namespace, only)``: ``only`` maps each available short name to its member when the
    command restricts them, ``None`` when every public member is available."""
    notation: tuple[str, ...]


def opened(header: str) -> Opened:
    """Read the ``open`` commands of ``header`` (one command a line)."""
    names: list[tuple[str, Mapping[str, str] | None]] = []
    notation: list[str] = []
    for line in header.splitlines():
        words = line.replace("(", " ( ").replace(")", " ) ").split()
        if words[:1] != ["open"]:
            continue
        words = words[1:]
        if words and words[-1] == "in":
            words = words[:-1]
        if words[:1] == ["scoped"]:
            notation.extend(words[1:])
            continue
        if "(" in words:
            space = words[0]
            listed = [w for w in words[words.index("(") + 1:] if w != ")"]
            names.append((space, {w: w for w in listed}))
            notation.append(space)
            continue
        if "hiding" in words:
            space = words[0]
            hidden = set(words[words.index("hiding") + 1:])
            names.append((space, {m: m for m in MEMBERS.get(space, ()) if m not in hidden}))
            notation.append(space)
            continue
        if "renaming" in words:
            space = words[0]
            rest = " ".join(words[words.index("renaming") + 1:]).replace("->", "→")
            pairs = [p.split("→") for p in rest.split(",")]
            names.append((space, {new.strip(): old.strip() for old, new in pairs
                                  if old.strip() and new.strip()}))
            notation.append(space)
            continue
        for space in words:
            names.append((space, None))
            notation.append(space)
    return Opened(tuple(names), tuple(notation))


def short_names(header: str, members: Mapping[str, tuple[str, ...]] | None = None,
                known: Mapping[str, tuple[str, ...]] = MEMBERS,
                roots: frozenset[str] = ROOT) -> dict[str, str]:
    """Short name → full name for every short name that ``header`` makes certain.

    ``members`` restricts the result to the names a caller models (default: all of
    :data:`known`); ambiguity is judged against :data:`known`, every public member Lean would
    see, so a name two opened namespaces provide is left out even when only one is modelled;
    so is one in ``roots``, declared at the root too.
    """
    state = opened(header)
    candidates: dict[str, set[str]] = {}
    for space, only in state.names:
        available = dict(only) if only is not None else {m: m for m in known.get(space, ())}
        for short, member in available.items():
            candidates.setdefault(short, set()).add(f"{space}.{member}")
    wanted = members if members is not None else known
    out: dict[str, str] = {}
    for short, fulls in candidates.items():
        if len(fulls) != 1 or short in roots:
            continue
        full = next(iter(fulls))
        space, _, member = full.rpartition(".")
        if member in wanted.get(space, ()):
            out[short] = full
    for space in state.notation:
        out.update(SCOPED.get(space, {}))
    return out
