"""Admissible binder alignments between two normal forms (the seed's four conditions).

An alignment maps each candidate binder to one reference binder (a bijection) such that
aligned binders have the same quantifier kind, the same type once the candidate's earlier
binders are renamed to their counterparts (compared after :func:`canonical` normalisation, a
syntactic stand-in for definitional equality), every binder comes after the binders its type
mentions, and binders move only inside a maximal block of the same quantifier (``∀x ∀y`` ≡
``∀y ∀x``, never across ``∀``/``∃``). Enumeration stops at ``cap`` alignments, or after
``max_steps`` partial ones (dead ends can be exponential), and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from afcheck.lean import ast as A
from afcheck.lean.printer import print_expr
from afcheck.lean.rename import free_names, rename
from afcheck_equivalence.normal import Bound, NormalForm
from afcheck_equivalence.syntactic import canonical

__all__ = ["Alignments", "alignments", "blocks"]


@dataclass(frozen=True)
class Alignments:
    found: tuple[tuple[tuple[str, str], ...], ...]
    """Each alignment as ``(candidate name, reference name)`` pairs in reference order."""
    capped: bool
    mismatch: str
    """Why there is none (empty when some were found)."""


def blocks(prefix: tuple[Bound, ...]) -> list[int]:
    """The block index of each binder: maximal runs of the same quantifier kind."""
    out: list[int] = []
    for i, bound in enumerate(prefix):
        if i == 0:
            out.append(0)
        else:
            out.append(out[-1] + (bound.q != prefix[i - 1].q))
    return out


def _shape(prefix: tuple[Bound, ...]) -> str:
    if not prefix:
        return "no binders"
    runs: list[list[str]] = []
    for bound in prefix:
        if runs and runs[-1][0] == bound.q:
            runs[-1].append(bound.q)
        else:
            runs.append([bound.q])
    return " ".join(f"{r[0]}×{len(r)}" for r in runs)


def _same_type(left: A.Expr, right: A.Expr, names: dict[str, str]) -> bool:
    return canonical(left, names) == canonical(right, names)


MAX_STEPS = 200_000
"""Search steps (partial alignments extended) before the enumeration stops as capped."""


def alignments(reference: NormalForm, candidate: NormalForm, cap: int,
               names: dict[str, str] | None = None, max_steps: int = MAX_STEPS) -> Alignments:
    """Every admissible alignment, up to ``cap`` alignments and ``max_steps`` search steps
    (either stops the enumeration with ``capped``)."""
    ref, cand = reference.prefix, candidate.prefix
    ref_blocks, cand_blocks = blocks(ref), blocks(cand)
    if len(ref) != len(cand) or [b.q for b in ref] != [b.q for b in cand]:
        return Alignments((), False, f"quantifier prefixes differ: reference {_shape(ref)}, "
                          f"candidate {_shape(cand)}")
    aliases = dict(names or {})
    cand_names = {b.name for b in cand if b.name}
    found: list[tuple[tuple[str, str], ...]] = []
    capped = False
    unmatched: list[str] = []
    # Depth-first with an explicit stack of frames, each trying the candidate binders for one
    # reference binder in order (so alignments come in the order a recursive search finds
    # them, and memory is one path): thousands of binders must not reach Python's recursion
    # limit. A frame: next reference binder, candidate binders used, the renaming so far,
    # the pairs so far, the next candidate binder to try, whether one fitted.
    Frame = tuple[int, frozenset[int], dict[str, str], tuple[tuple[str, str], ...]]
    stack: list[tuple[Frame, list[int]]] = [((0, frozenset(), {}, ()), [0, 0])] if ref else []
    if not ref:
        found.append(())
    steps = 0
    while stack and not capped:
        (i, used, mapping, pairs), cursor = stack[-1]
        child: Frame | None = None
        target = ref[i]
        while cursor[0] < len(cand) and child is None:
            j = cursor[0]
            cursor[0] += 1
            bound = cand[j]
            if j in used or cand_blocks[j] != ref_blocks[i]:
                continue
            needs = free_names(bound.type) & cand_names
            if not needs <= set(mapping):
                continue  # a binder its type mentions is not aligned yet (dependency order)
            if not _same_type(target.type, rename(bound.type, mapping), aliases):
                continue
            cursor[1] = 1
            extra = {bound.name: target.name} if bound.name and target.name else {}
            child = (i + 1, used | {j}, {**mapping, **extra},
                     pairs + (((bound.name, target.name),) if extra else ()))
        if child is None:
            stack.pop()
            if not cursor[1] and not unmatched:
                unmatched.append(f"reference binder '{target.name} : "
                                 f"{print_expr(target.type)}' has no candidate binder of the "
                                 "same type in its block")
            continue
        if child[0] == len(ref):
            if len(found) >= cap:
                capped = True
            else:
                found.append(child[3])
            continue
        steps += 1
        if steps > max_steps:
            # Dead ends can be exponential in a block of same-typed binders: stop, and say
            # so as a cap does (a criterion then never claims Noneq from what was not seen).
            capped = True
            break
        stack.append((child, [0, 0]))
    if not found:
        reason = unmatched[0] if unmatched else "no admissible alignment"
        return Alignments((), False, reason)
    return Alignments(tuple(found), capped, "")
