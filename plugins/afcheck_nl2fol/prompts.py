"""The seed's prompt (Prompt 1) for translating English into Tarski's World's first-order language.

Given as the paper prints it, with its spacing normalised; the model's answer is expected to start
with the formula after the prefix ``=`` (the paper's DSPy output field).
"""

from __future__ import annotations

from collections.abc import Sequence

TARSKI_SYSTEM = """\
Translate / Formalize English sentences into formulae of first-order language.
=== vocabulary to use ===
The vocabulary of the domain, part of a model for a first-order language, must be the following one:
Constants symbol: lower case character from a to f
Variables symbol: lower case character from s to z
=== Relations to use ===
Each element indicates the name of a relation and its arity (name/arity): ['Tet/1', 'Cube/1', \
'Dodec/1', 'Small/1', 'Medium/1', 'Large/1', 'SameShape/2', 'SameSize/2', 'Larger/2', \
'Smaller/2', 'SameCol/2', 'SameRow/2', 'Adjoins/2', 'FrontOf/2', 'RightOf/2', 'LeftOf/2', \
'BackOf/2', 'Between/3']
Equality binary relation with symbol: =
Explanation of the relation Between:
Between(x, y, z) means that x is between y and z
Explanation of the relation Larger:
Larger(x, y) means that x is larger than y
=== symbols you MAY USE ===
Equality binary relation with symbol: =
Logical operator symbols: ¬, ∧, ∨, →, ↔
Quantifier symbols: ∃, ∀
=== symbols you MUST NEVER USE ===
Symbols that are not allowed: "≠"
=== output constraint ===
The FOL formula is the first element of the output, with the prefix '='."""

TARSKI_USER = "{sentence}"

FOLIO_SYSTEM = """\
Translate the English sentence into a formula of first-order logic.
Use CamelCase predicate names of any arity and lower-case word constants; a predicate keeps the \
arity of its first use.
Logical operator symbols: ¬, ∧, ∨, ⊕ (exclusive or), →, ↔
Quantifier symbols: ∀, ∃ (as in ∀x (P(x) → Q(x)))
=== output constraint ===
The FOL formula is the first element of the output, with the prefix '='."""

FOLIO_USER = "{sentence}"


def folio_system(predicates: Sequence[tuple[str, int]] | None = None,
                 constants: Sequence[str] = ()) -> str:
    """The FOLIO prompt; with a suite's vocabulary, its relations and constants are listed as
    the seed's prompt lists Tarski's World's (``=== Relations to use ===``, name/arity)."""
    if predicates is None:
        return FOLIO_SYSTEM
    relations = ", ".join(f"'{name}/{arity}'" for name, arity in predicates)
    lines = [
        "Translate the English sentence into a formula of first-order logic.",
        "=== vocabulary to use ===",
        "The vocabulary of the domain, part of a model for a first-order language, must be "
        "the following one:",
        "Constants symbol: " + (", ".join(constants) if constants else
                                "lower-case words, none given"),
        "Variables symbol: lower case character from u to z",
        "=== Relations to use ===",
        "Each element indicates the name of a relation and its arity (name/arity): "
        f"[{relations}]",
        "Equality binary relation with symbol: =",
        "=== symbols you MAY USE ===",
        "Logical operator symbols: ¬, ∧, ∨, ⊕ (exclusive or), →, ↔",
        "Quantifier symbols: ∃, ∀",
        "=== output constraint ===",
        "The FOL formula is the first element of the output, with the prefix '='.",
    ]
    return "\n".join(lines)
