"""Sentence-level translation quality against the data's gold FOL, and statement identity.

The seed (§4.2.1) reports two sentence-level metrics from LogicLLaMA where gold logic
exists: **FOL-BLEU** (FB), BLEU over FOL tokens, and **logical equivalence** (LE), whether
the translation and the gold formula are equivalent. Here both compare each sentence of the
chain's first translation that parsed (the one the execution rate counts) with the gold
formula of the same sentence: premises when the translation has one formula per premise,
kept steps, the conclusion.

- FB: both formulas are printed in FOLIO's syntax by one printer (so spacing and connective
  spellings such as ``->`` and ``→`` do not count), split into symbols, parentheses, commas
  and names, and scored by BLEU with a maximum n-gram order of min(4, the shorter length),
  clipped precisions, no smoothing and the brevity penalty, as LogicLLaMA computes it with
  its FOL tokenizer;
- LE: :func:`afcheck_fol.equiv.check` in pure logic (z3 with a bounded model search); an
  undecided pair counts as compared but not equivalent, and is counted apart.

:func:`canonical` gives a formula's identity up to the names of its bound variables, so that
``∀x (P(x))`` and ``∀y (P(y))`` are one statement (repeated steps, a step that restates the
conclusion).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from afcheck_fol.formula import (
    And,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Term,
    Truth,
    Var,
    Xor,
)

from afcheck_chains.records import ChainRecord, SentenceQuality
from afcheck_chains.verify import FormalChain

_TOKEN = re.compile(r"[∀∃¬∧∨→↔⊕(),=]|[^\s∀∃¬∧∨→↔⊕(),=]+")


def fol_tokens(formula: Formula) -> list[str]:
    from afcheck_fol.printer import folio

    return _TOKEN.findall(folio(formula))


def bleu(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """Sentence BLEU of one candidate against one reference, LogicLLaMA's way: maximum order
    min(4, the shorter length), clipped n-gram precisions, geometric mean, brevity penalty,
    no smoothing (a zero precision makes the score 0)."""
    order = min(4, len(candidate), len(reference))
    if order == 0:
        return 0.0
    logs = []
    for n in range(1, order + 1):
        cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matched = sum(min(count, ref[gram]) for gram, count in cand.items())
        if matched == 0:
            return 0.0
        logs.append(math.log(matched / sum(cand.values())))
    penalty = 1.0 if len(candidate) > len(reference) else \
        math.exp(1 - len(reference) / len(candidate))
    return penalty * math.exp(sum(logs) / order)


def compare(record: ChainRecord, chain: FormalChain) -> tuple[SentenceQuality, ...]:
    """Each sentence of ``chain`` that has a gold formula in ``record`` (one that parses in
    FOLIO's syntax), scored by FB and LE."""
    from afcheck_fol.language import FOLIO
    from afcheck_fol.syntax import FolSyntaxError, parse

    gold = record.gold_fol
    if gold is None:
        return ()
    pairs: list[tuple[str, Formula, str]] = []
    if len(gold.premises) == len(chain.premises):
        pairs += [(f"premise {i}", f, g)
                  for i, (f, g) in enumerate(zip(chain.premises, gold.premises, strict=True), 1)]
    if len(gold.steps) == len(chain.steps):
        pairs += [(f"step {i}", f, g)
                  for i, (f, g) in enumerate(zip(chain.steps, gold.steps, strict=True), 1) if g]
    if gold.conclusion:
        pairs.append(("conclusion", chain.conclusion, gold.conclusion))
    out = []
    for role, formula, text in pairs:
        try:
            reference = parse(text, FOLIO)
        except FolSyntaxError:
            continue  # gold that does not parse compares with nothing
        out.append(SentenceQuality(role, bleu(fol_tokens(formula), fol_tokens(reference)),
                                   _equivalent(formula, reference)))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _equivalent(formula: Formula, reference: Formula) -> bool | None:
    """LE of one pair; one statement up to bound names needs no solver, and a story's
    premises recur in each of its chains, so pairs are remembered."""
    from afcheck_fol.equiv import check
    from afcheck_fol.language import FOLIO

    if canonical(formula) == canonical(reference):
        return True
    return check(formula, reference, FOLIO, "none").equivalent


def canonical(formula: Formula) -> Formula:
    """``formula`` with its bound variables renamed ``_0``, ``_1``, … in binding order and
    double negations removed: two formulas are one statement when their canonical forms are
    equal."""
    counter = [0]

    def term(t: Term, names: Mapping[str, str]) -> Term:
        return Var(names[t.name]) if isinstance(t, Var) and t.name in names else t

    def walk(node: Formula, names: Mapping[str, str]) -> Formula:
        if isinstance(node, Pred):
            return Pred(node.name, tuple(term(t, names) for t in node.args))
        if isinstance(node, Eq):
            return Eq(term(node.left, names), term(node.right, names))
        if isinstance(node, Truth):
            return node
        if isinstance(node, Not):
            if isinstance(node.body, Not):
                return walk(node.body.body, names)
            return Not(walk(node.body, names))
        if isinstance(node, And):
            return And(tuple(walk(i, names) for i in node.items))
        if isinstance(node, Or):
            return Or(tuple(walk(i, names) for i in node.items))
        if isinstance(node, Xor):
            return Xor(walk(node.left, names), walk(node.right, names))
        if isinstance(node, Implies):
            return Implies(walk(node.left, names), walk(node.right, names))
        if isinstance(node, Iff):
            return Iff(walk(node.left, names), walk(node.right, names))
        if isinstance(node, (Forall, Exists)):
            fresh = f"_{counter[0]}"
            counter[0] += 1
            body = walk(node.body, {**names, node.var.name: fresh})
            return Forall(Var(fresh), body) if isinstance(node, Forall) \
                else Exists(Var(fresh), body)
        raise TypeError(f"not a formula: {node!r}")

    return walk(formula, {})


def restates(step: Formula, conclusion: Formula) -> bool:
    """Whether ``step`` states the conclusion or its negation, alone or as one part of a
    conjunction (``Tumpuses are not sour, so Max is not sour``)."""
    targets = {canonical(conclusion), canonical(Not(conclusion))}
    parts = step.items if isinstance(step, And) else (step,)
    return any(canonical(part) in targets for part in parts)

