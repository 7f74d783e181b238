"""Write the project's equivalence suites from miniF2F's valid split (MIT).

    python -m afcheck_equivalence.suitegen MINIF2F_VALID_JSONL OUT_DIR

Three suites, each a folder with ``suite.toml`` and ``items.jsonl``; every item names the
miniF2F problem its statements come from. The pairs are derived here, deterministically:

- ``equivalence-unrelated``: two unrelated statements that the ``smt`` prover proves both
  (the seed's unrelated shared-provability set); gold ``inequivalent``.
- ``equivalence-perturbations``: one localized meaning-changing edit of a statement — a
  constant, a relation, a binder type, an exponent, a dropped hypothesis, a swapped
  quantifier; gold ``inequivalent``. An edit the ``smt`` prover shows to change nothing (a
  dropped hypothesis the others imply; an edited conclusion equivalent to the old one at
  every point) is left out.
- ``equivalence-rewrites``: meaning-preserving rewrites — hypotheses reordered, binders
  renamed, hypotheses moved into the conclusion, a relation written the other way round — and
  hand-written hard cases (``n % 2 = 1`` vs ``Odd n``); gold ``equivalent``.

Items record ``fragment``: whether both statements are inside the SMT fragment.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from afcheck.components import Prover
from afcheck.lean import ast as A
from afcheck.lean.parser import parse_theorem
from afcheck.lean.printer import print_theorem
from afcheck.lean.rename import free_names, rename
from afcheck_equivalence.normal import is_type

PER_KIND = 15
"""Pairs of each kind from statements inside the SMT fragment …"""
OUTSIDE_PER_KIND = 5
"""… and from statements outside it, where the smt prover decides less."""
UNRELATED = 60
LICENSE = "miniF2F (MIT, github.com/openai/miniF2F)"

_RELATION_SWAP = {"=": "≤", "<": "≤", "≤": "<", "≠": "=", ">": "≥", "≥": ">"}
_TYPE_SWAP = {"ℝ": "ℤ", "ℕ": "ℤ", "ℤ": "ℕ", "ℚ": "ℝ", "ℂ": "ℝ"}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _theorem(row: dict[str, Any]) -> A.Theorem | None:
    from afcheck.lean.extract import ExtractionError, extract_statement
    from afcheck.lean.lexer import ParseError

    try:
        return parse_theorem(extract_statement(row["formal_statement"] + " sorry").statement)
    except (ExtractionError, ParseError):
        return None


def _informal(row: dict[str, Any]) -> str:
    text = str(row.get("informal_prefix", "")).strip()
    return text.removeprefix("/--").removesuffix("-/").strip()


def _in_fragment(theorem: A.Theorem, header: str) -> bool:
    from afcheck.lean.elaborate import Unsupported, elaborate

    try:
        elaborate(theorem, header)
    except (Unsupported, RecursionError):
        return False
    return True


def _hyps(theorem: A.Theorem) -> list[int]:
    return [i for i, b in enumerate(theorem.binders)
            if b.kind != "instance" and b.type is not None and not is_type(b.type)]


# --- perturbations ----------------------------------------------------------------------------
def _replace_first(expr: A.Expr, edit: Callable[[A.Expr], A.Expr | None]) -> A.Expr | None:
    """``expr`` with the first subterm (parents first) that ``edit`` changes, changed."""
    changed = edit(expr)
    if changed is not None:
        return changed
    import dataclasses

    node: Any = expr
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple) and value and not isinstance(value[0], (str, A.Binder)):
            for k, child in enumerate(value):
                new = _replace_first(child, edit)
                if new is not None:
                    changed_node: A.Expr = dataclasses.replace(
                        node, **{f.name: value[:k] + (new,) + value[k + 1:]})
                    return changed_node
        elif dataclasses.is_dataclass(value) and not isinstance(value, A.Binder):
            new = _replace_first(value, edit)  # type: ignore[arg-type]
            if new is not None:
                replaced: A.Expr = dataclasses.replace(node, **{f.name: new})
                return replaced
    return None


def _constant(e: A.Expr) -> A.Expr | None:
    if isinstance(e, A.Num) and e.is_natural_literal:
        return A.Num(str(int(e.text) + 1))
    return None


def _relation(e: A.Expr) -> A.Expr | None:
    if isinstance(e, A.BinOp) and e.op in _RELATION_SWAP:
        return A.BinOp(_RELATION_SWAP[e.op], e.left, e.right)
    return None


def _exponent(e: A.Expr) -> A.Expr | None:
    if isinstance(e, A.BinOp) and e.op == "^" and isinstance(e.right, A.Num) \
            and e.right.is_natural_literal:
        return A.BinOp("^", e.left, A.Num(str(int(e.right.text) + 1)))
    return None


def _quantifier(e: A.Expr) -> A.Expr | None:
    if isinstance(e, A.Quant) and e.q in ("∀", "∃"):
        return replace(e, q="∃" if e.q == "∀" else "∀")
    return None


def perturbations(theorem: A.Theorem) -> Iterator[tuple[str, A.Theorem]]:
    """``(kind, perturbed statement)`` for each kind that applies."""
    for kind, edit in (("constant", _constant), ("relation", _relation),
                       ("exponent", _exponent)):
        new = _replace_first(theorem.conclusion, edit)
        if new is not None:
            yield kind, replace(theorem, conclusion=new)
    for i, binder in enumerate(theorem.binders):
        if isinstance(binder.type, A.Var) and binder.type.name in _TYPE_SWAP:
            binders = list(theorem.binders)
            binders[i] = replace(binder, type=A.Var(_TYPE_SWAP[binder.type.name]))
            yield "binder-type", replace(theorem, binders=tuple(binders))
            break
    hyps = _hyps(theorem)
    if hyps:
        drop = hyps[-1]
        yield "dropped-hypothesis", replace(
            theorem, binders=theorem.binders[:drop] + theorem.binders[drop + 1:])
    swapped = _replace_first(theorem.conclusion, _quantifier)
    if swapped is not None:
        yield "swapped-quantifier", replace(theorem, conclusion=swapped)
        return
    for i in hyps:
        new_type = _replace_first(theorem.binders[i].type, _quantifier)  # type: ignore[arg-type]
        if new_type is not None:
            binders = list(theorem.binders)
            binders[i] = replace(binders[i], type=new_type)
            yield "swapped-quantifier", replace(theorem, binders=tuple(binders))
            return
    objects = [i for i, b in enumerate(theorem.binders)
               if b.kind != "instance" and b.type is not None and is_type(b.type)]
    if objects:
        last = objects[-1]
        target = theorem.binders[last]
        moved = [theorem.binders[i] for i in hyps if i > last]
        body = theorem.conclusion
        for hyp in reversed(moved):
            assert hyp.type is not None
            body = A.BinOp("→", hyp.type, body)
        keep = tuple(b for i, b in enumerate(theorem.binders) if i != last and
                     not (i in hyps and i > last))
        quantified = A.Quant("∃", (A.Binder(target.name, target.type),), body)
        yield "swapped-quantifier", replace(theorem, binders=keep, conclusion=quantified)


# --- rewrites -------------------------------------------------------------------------------
def rewrites(theorem: A.Theorem) -> Iterator[tuple[str, A.Theorem]]:
    hyps = _hyps(theorem)
    if len(hyps) >= 2:
        objects = [b for i, b in enumerate(theorem.binders) if i not in hyps]
        moved = [theorem.binders[i] for i in reversed(hyps)]
        yield "reordered-hypotheses", replace(theorem, binders=tuple(objects + moved))
    names = [b.name for b in theorem.binders if b.name]
    used = set(names) | free_names(theorem.conclusion)
    mapping: dict[str, str] = {}
    for k, name in enumerate(names):
        new = f"v{k}"
        while new in used:
            new += "'"
        mapping[name] = new
    binders: list[A.Binder] = []
    current: dict[str, str] = {}
    for binder in theorem.binders:
        type_ = rename(binder.type, current) if binder.type is not None else None
        if binder.name:
            current[binder.name] = mapping[binder.name]
        binders.append(replace(binder, name=mapping.get(binder.name, binder.name), type=type_))
    yield "renamed-binders", replace(theorem, binders=tuple(binders),
                                     conclusion=rename(theorem.conclusion, current))
    if hyps:
        body = theorem.conclusion
        for i in reversed(hyps):
            hyp_type = theorem.binders[i].type
            assert hyp_type is not None
            body = A.BinOp("→", hyp_type, body)
        # Only when nothing after a hypothesis is an object binder (else the order changes).
        if max(hyps) == len(theorem.binders) - 1 and hyps == list(
                range(min(hyps), len(theorem.binders))):
            keep = tuple(b for i, b in enumerate(theorem.binders) if i not in hyps)
            yield "hypotheses-into-conclusion", replace(theorem, binders=keep, conclusion=body)
    concl = theorem.conclusion
    flips = {"=": "=", "<": ">", "≤": "≥", ">": "<", "≥": "≤", "≠": "≠"}
    if isinstance(concl, A.BinOp) and concl.op in flips:
        yield "flipped-relation", replace(theorem, conclusion=A.BinOp(flips[concl.op],
                                                                      concl.right, concl.left))


def identities(theorem: A.Theorem) -> Iterator[tuple[str, A.Theorem]]:
    """``(kind, statement)`` for each rewrite that Lean reads as the very same statement and
    that applies: an instance binder of a proposition as a named hypothesis, implicit binders
    written explicit, a trailing hypothesis as a named arrow in the conclusion, a negated
    quantifier of the conclusion moved in or out, a conclusion's equation, ``∧`` or ``∨``
    swapped. (A formaliser writes these freely; none changes the meaning.)"""
    from afcheck.lean.sorts import is_prop
    from afcheck_equivalence.normal import push_negation

    binders = theorem.binders
    if any(b.kind == "instance" and b.type is not None and is_prop(b.type) for b in binders):
        yield "instance-as-hypothesis", replace(theorem, binders=tuple(
            replace(b, name=f"inst{i}", kind="explicit")
            if b.kind == "instance" and b.type is not None and is_prop(b.type) else b
            for i, b in enumerate(binders)))
    if any(b.kind in ("implicit", "strict") for b in binders):
        yield "implicit-as-explicit", replace(theorem, binders=tuple(
            replace(b, kind="explicit") if b.kind in ("implicit", "strict") else b
            for b in binders))
    if binders and binders[-1].kind == "explicit" and binders[-1].type is not None \
            and is_prop(binders[-1].type) and binders[-1].name:
        last = binders[-1]
        assert last.type is not None
        yield "named-arrow", replace(theorem, binders=binders[:-1], conclusion=A.BinOp(
            "→", A.Ascription(A.Var(last.name), last.type), theorem.conclusion))
    concl = theorem.conclusion
    pushed = push_negation(concl)
    if pushed is not concl:
        yield "prenex-negation", replace(theorem, conclusion=pushed)
    elif isinstance(concl, A.Quant) and concl.q in ("∀", "∃") and isinstance(concl.body, A.UnOp) \
            and concl.body.op == "¬" and all(b.kind != "instance" for b in concl.binders):
        outer = A.Quant("∃" if concl.q == "∀" else "∀", concl.binders, concl.body.operand,
                        concl.bound)
        yield "prenex-negation", replace(theorem, conclusion=A.UnOp("¬", outer))
    if isinstance(concl, A.BinOp) and concl.op in ("=", "≠", "∧", "∨", "↔"):
        yield "swapped-symmetric", replace(theorem, conclusion=A.BinOp(concl.op, concl.right,
                                                                       concl.left))


HARD_CASES: tuple[tuple[str, str, str], ...] = (
    ("odd-mod", "theorem odd_sq (n : ℕ) (h₀ : n % 2 = 1) : n ^ 2 % 2 = 1 := by sorry",
     "theorem odd_sq (n : ℕ) (h₀ : Odd n) : n ^ 2 % 2 = 1 := by sorry"),
    ("even-mod", "theorem even_sq (n : ℤ) (h₀ : n % 2 = 0) : n ^ 2 % 4 = 0 := by sorry",
     "theorem even_sq (n : ℤ) (h₀ : Even n) : n ^ 2 % 4 = 0 := by sorry"),
    ("odd-mod-conclusion", "theorem odd_succ (n : ℕ) (h₀ : n % 2 = 0) : (n + 1) % 2 = 1 := by "
     "sorry", "theorem odd_succ (n : ℕ) (h₀ : Even n) : Odd (n + 1) := by sorry"),
    ("not-lt", "theorem nlt (x : ℝ) (h₀ : ¬ x < 3) : x ^ 2 ≥ 9 := by sorry",
     "theorem nlt (x : ℝ) (h₀ : 3 ≤ x) : 9 ≤ x ^ 2 := by sorry"),
    ("and-curried", "theorem curry (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b := by sorry",
     "theorem curry (a b : ℝ) : 0 < a → 0 < b → 0 < a * b := by sorry"),
    ("forall-pulled", "theorem pull (a : ℝ) (h : 0 < a) : ∀ b : ℝ, 0 < b → 0 < a * b := by sorry",
     "theorem pull (a b : ℝ) (h₀ : 0 < b) (h₁ : 0 < a) : 0 < b * a := by sorry"),
)


def _item(id_: str, row: dict[str, Any], reference: str, candidate: str, gold: str,
          group: str, fragment: bool) -> dict[str, Any]:
    return {"id": id_, "informal": _informal(row) if row else "",
            "header": row.get("header", "") if row else "import Mathlib\n",
            "reference": reference, "candidate": candidate, "gold": gold, "group": group,
            "fragment": fragment,
            "source": f"{LICENSE}, valid/{row['name']}" if row else "written for afcheck"}


def smt_prover() -> Prover:
    """The ``smt`` prover, built through the registry as a run builds it, with a generous
    limit (which statements count as provable must not depend on the load), in this process."""
    from afcheck.plugins import get_plugins

    return cast(Prover, get_plugins().create(
        "prover", "smt", {"timeout_ms": "5000", "jobs": "1", "deadline_s": "30"}))


def build(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    from afcheck.types import ProofTask, VerdictKind

    parsed = [(row, th) for row in rows if (th := _theorem(row)) is not None]
    parsed.sort(key=lambda p: p[0]["name"])
    prover = smt_prover()
    fragment = [(row, th) for row, th in parsed if _in_fragment(th, row["header"])]
    verdicts = prover.prove([ProofTask(row["name"], print_theorem(th), row["header"])
                             for row, th in fragment])
    provable = [p for p, v in zip(fragment, verdicts, strict=True)
                if v.kind is VerdictKind.PROVED]
    unrelated = []
    half = len(provable) // 2
    for k in range(min(UNRELATED, len(provable))):
        (ra, ta), (rb, tb) = provable[k % len(provable)], provable[(k + half + k // half) %
                                                                 len(provable)]
        if ra["name"] == rb["name"]:
            continue
        unrelated.append(_item(f"{ra['name']}~{rb['name']}", ra, print_theorem(ta),
                               print_theorem(replace(tb, name=ta.name)), "inequivalent",
                               "unrelated", True))
    outside = [p for p in parsed if p not in fragment]
    perturbed: list[dict[str, Any]] = []
    rewritten: list[dict[str, Any]] = []
    for make, gold, out, prefix in ((perturbations, "inequivalent", perturbed, "perturbation"),
                                    (rewrites, "equivalent", rewritten, "rewrite")):
        for pool, cap, inside in ((fragment, PER_KIND, True), (outside, OUTSIDE_PER_KIND, False)):
            counts: dict[str, int] = {}
            for row, th in pool:
                for kind, new in make(th):
                    if counts.get(kind, 0) >= cap or new == th:
                        continue
                    if gold == "inequivalent" and _pointwise_same(th, new, row["header"],
                                                                  prover):
                        continue  # e.g. a dropped hypothesis the others imply
                    counts[kind] = counts.get(kind, 0) + 1
                    out.append(_item(f"{row['name']}/{kind}", row, print_theorem(th),
                                     print_theorem(new), gold, f"{prefix}:{kind}",
                                     inside and _in_fragment(new, row["header"])))
    for kind, reference, candidate in HARD_CASES:
        rewritten.append(_item(f"hard/{kind}", {}, reference, candidate, "equivalent",
                               f"rewrite:hard:{kind}", all(
                                   _in_fragment(parse_theorem(s), "") for s in
                                   (reference, candidate))))
    return {"equivalence-unrelated": unrelated, "equivalence-perturbations": perturbed,
            "equivalence-rewrites": rewritten}


def _pointwise_same(old: A.Theorem, new: A.Theorem, header: str, prover: Prover) -> bool:
    """Whether the prover shows the edit changed nothing: same binders, and every component
    the edit touched still equivalent at every point — ``⋀Γ ↔ ⋀Γ'`` for an edited premise (a
    dropped hypothesis the others imply), ``C ↔ C'`` for an edited conclusion. Such an edit is
    not meaning-changing."""
    from afcheck.types import ProofTask, VerdictKind
    from afcheck_equivalence.normal import NotNormalisable, normalise

    try:
        left, right = normalise(old, header), normalise(new, header)
    except NotNormalisable:
        return False
    if left.prefix != right.prefix:
        return False

    def conj(parts: tuple[A.Expr, ...]) -> A.Expr:
        out: A.Expr = A.Var("True")
        for part in reversed(parts):
            out = part if out == A.Var("True") else A.BinOp("∧", part, out)
        return out

    claims = []
    if left.premises != right.premises:
        claims.append(A.BinOp("↔", conj(left.premises), conj(right.premises)))
    if left.conclusion != right.conclusion:
        claims.append(A.BinOp("↔", left.conclusion, right.conclusion))
    tasks = [ProofTask(f"same-{i}", print_theorem(A.Theorem("theorem", "same", left.binders(),
                                                            claim)), header)
             for i, claim in enumerate(claims)]
    verdicts = prover.prove(tasks)
    return bool(tasks) and all(v.kind is VerdictKind.PROVED for v in verdicts)


_DESCRIPTION = {
    "equivalence-unrelated": "Pairs of unrelated miniF2F statements that the smt prover proves "
    "both: whole-statement equivalence accepts them, a translation criterion must not.",
    "equivalence-perturbations": "A miniF2F statement and a localized meaning-changing edit of "
    "it (constant, relation, binder type, exponent, dropped hypothesis, swapped quantifier).",
    "equivalence-rewrites": "A miniF2F statement and a meaning-preserving rewrite of it, plus "
    "hand-written hard cases such as n % 2 = 1 vs Odd n.",
}


def write(out: Path, suites: dict[str, list[dict[str, Any]]]) -> None:
    for name, items in suites.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "items.jsonl").write_text(
            "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items),
            encoding="utf-8")
        (folder / "suite.toml").write_text(
            f'[afcheck]\nschema = 1\nname = "{name}"\nkind = "equivalence"\n'
            f'data = "items.jsonl"\ndescription = """{_DESCRIPTION[name]} Statements from '
            f'{LICENSE}; the pairs are afcheck\'s own (written by '
            f'afcheck_equivalence.suitegen)."""\n\n[afcheck.defaults]\ncriterion = "sae"\n'
            f'prover = "smt"\n', encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m afcheck_equivalence.suitegen MINIF2F_VALID_JSONL OUT_DIR",
              file=sys.stderr)
        return 2
    suites = build(_rows(Path(argv[0])))
    write(Path(argv[1]), suites)
    for name, items in suites.items():
        print(f"{name}: {len(items)} items")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
