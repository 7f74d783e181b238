"""Admissible binder alignments between two normal forms (the seed's four conditions).

An alignment maps each candidate binder to one reference binder (a bijection) such that
aligned binders have the same quantifier kind, the same type once the candidate's earlier
binders are renamed to their counterparts (compared after :func:`canonical` normalisation, a
syntactic stand-in for definitional equality), every binder comes after the binders its type
mentions, and binders move only inside a maximal block of the same quantifier (``∀x ∀y`` ≡
``∀y ∀x``, never across ``∀``/``∃``). Enumeration stops at ``cap`` alignments and says so.
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


def alignments(reference: NormalForm, candidate: NormalForm, cap: int,
               names: dict[str, str] | None = None) -> Alignments:
    """Every admissible alignment, up to ``cap``."""
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

    def search(i: int, used: set[int], mapping: dict[str, str],
               pairs: list[tuple[str, str]]) -> None:
        nonlocal capped
        if capped:
            return
        if i == len(ref):
            if len(found) >= cap:
                capped = True
                return
            found.append(tuple(pairs))
            return
        target = ref[i]
        matched = False
        for j, bound in enumerate(cand):
            if j in used or cand_blocks[j] != ref_blocks[i]:
                continue
            needs = free_names(bound.type) & cand_names
            if not needs <= set(mapping):
                continue  # a binder its type mentions is not aligned yet (dependency order)
            if not _same_type(target.type, rename(bound.type, mapping), aliases):
                continue
            matched = True
            extra = {bound.name: target.name} if bound.name and target.name else {}
            search(i + 1, used | {j}, {**mapping, **extra},
                   pairs + ([(bound.name, target.name)] if extra else []))
        if not matched and not unmatched:
            unmatched.append(f"reference binder '{target.name} : {print_expr(target.type)}' "
                             "has no candidate binder of the same type in its block")

    search(0, set(), {}, [])
    if not found:
        reason = unmatched[0] if unmatched else "no admissible alignment"
        return Alignments((), False, reason)
    return Alignments(tuple(found), capped, "")
