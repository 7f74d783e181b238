"""The seed's Algorithms 1–3 over a batch of formalised chains, with batched prover calls.

Algorithm 1 (one statement ``s`` under axioms ``P``): ``P ⊢ s`` and ``P ⊢ ¬s`` are two
problems. Proved alone: True / False; both: Error (``P`` is inconsistent); neither, both
answered: Unknown. A limit on a query that matters gives ``Limit``; a refused input gives
``Invalid``. E reports inconsistent axioms as ``ContradictoryAxioms`` on both queries, which
reads as Error here too.

Algorithm 2 labels the conclusion and every step under the premises; Algorithm 3 builds the
proof path: in chain order, a True step joins the path when the path so far neither proves
nor refutes it (it adds a fact); the path is valid when the conclusion's label under the path
alone equals the gold label. The path is checked without the premises: premises restated as
steps count as path facts, and a chain that skips a needed fact has no valid path.

The path-dependence diagnostic: when path steps state the conclusion (or its negation), the
conclusion is decided once more under the path without them; a valid path that fails then
was valid only because a step restated the conclusion.

Every query of a stage goes to the prover in one call: stage 1 holds the conclusion and all
steps of every chain; the path is built in rounds (round ``k`` decides step ``k`` of every
chain), then one call decides every path's conclusion. Identical problems of a call are asked
once; the run's prover keeps its answers in the run's result cache
(:class:`afcheck_chains.backends.RuntimeProver`), by TPTP text. A query the algorithm has
already decided is not asked again: a step that states the conclusion has the conclusion's
verdict, and the path's conclusion is the verdict of the round that found a step stating it
already decided, when no later step joined the path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from afcheck_fol.formula import Formula, Not
from afcheck_fol.provers import FolProver, ProverResult
from afcheck_fol.tptp import Problem, SymbolMap, TptpError, problem

from afcheck_chains.records import Label


@dataclass(frozen=True)
class Query:
    """One statement to label under some axioms (both problems of Algorithm 1)."""

    axioms: tuple[Formula, ...]
    statement: Formula
    symbols: SymbolMap = field(compare=False, hash=False)


@dataclass(frozen=True)
class Verdict:
    """Algorithm 1's answer for one query, with the two prover results behind it."""

    label: Label
    positive: ProverResult | None
    negative: ProverResult | None
    detail: str = ""

    @property
    def seconds(self) -> float:
        """Prover time of both queries (as first measured, for answers read from a cache)."""
        return sum(r.seconds for r in (self.positive, self.negative) if r is not None)

    @property
    def fresh_seconds(self) -> float:
        """Prover time spent in this run (answers read from a cache cost nothing)."""
        return sum(r.seconds for r in (self.positive, self.negative)
                   if r is not None and not r.cached)


def combine(positive: ProverResult, negative: ProverResult) -> Label:
    """Algorithm 1 from the statuses of ``P ⊢ s`` and ``P ⊢ ¬s``."""
    pos, neg = positive.status, negative.status
    if pos.failed or neg.failed:
        return Label.INVALID
    if pos.proved and neg.proved:
        return Label.ERROR
    if pos.proved:
        return Label.TRUE
    if neg.proved:
        return Label.FALSE
    if pos.disproved and neg.disproved:
        return Label.UNKNOWN
    return Label.LIMIT


def decide(queries: Sequence[Query], prover: FolProver) -> list[Verdict]:
    """Algorithm 1 for every query, in one prover call that asks each distinct problem (by
    TPTP text) once."""
    problems: list[Problem] = []
    slots: list[int | str] = []
    for query in queries:
        try:
            pos = problem(query.axioms, query.statement, query.symbols)
            neg = problem(query.axioms, Not(query.statement), query.symbols)
        except TptpError as exc:
            slots.append(str(exc))
            continue
        slots.append(len(problems))
        problems.extend((pos, neg))
    results = prove_once(prover, problems)
    verdicts: list[Verdict] = []
    for slot in slots:
        if isinstance(slot, str):
            verdicts.append(Verdict(Label.INVALID, None, None, slot))
            continue
        positive, negative = results[slot], results[slot + 1]
        label = combine(positive, negative)
        # Both queries stopped at one limit say it once.
        detail = "; ".join(dict.fromkeys(r.detail for r in (positive, negative) if r.detail))
        verdicts.append(Verdict(label, positive, negative, detail))
    return verdicts


def prove_once(prover: FolProver, problems: Sequence[Problem]) -> list[ProverResult]:
    """The prover's result of each problem, asking it each distinct TPTP text once: chains
    built from one source share premises and steps, so a stage repeats many problems."""
    unique: dict[str, int] = {}
    asked: list[Problem] = []
    slots: list[int] = []
    for item in problems:
        slot = unique.get(item.text)
        if slot is None:
            slot = unique[item.text] = len(asked)
            asked.append(item)
        slots.append(slot)
    if not asked:
        return []
    answers = prover.prove(asked)
    return [answers[slot] for slot in slots]


def again(verdict: Verdict) -> Verdict:
    """The verdict of a query asked again, the same problem: its answers cost no more prover
    time (marked ``cached``, as answers read back are)."""
    return replace(verdict, positive=_again(verdict.positive),
                   negative=_again(verdict.negative))


def _again(result: ProverResult | None) -> ProverResult | None:
    return None if result is None else replace(result, cached=True)


@dataclass(frozen=True)
class FormalChain:
    """A chain in FOL: premises, conclusion and kept steps, in one vocabulary."""

    premises: tuple[Formula, ...]
    conclusion: Formula
    steps: tuple[Formula, ...]


@dataclass(frozen=True)
class ChainVerdict:
    """Algorithms 2 and 3 for one chain."""

    conclusion: Verdict
    steps: tuple[Verdict, ...]
    path: tuple[int, ...]
    """Indices of the steps in the proof path, in chain order."""
    path_conclusion: Verdict | None
    """The conclusion's label under the path alone."""
    restating: tuple[int, ...] = ()
    """Indices of the path's steps that state the conclusion or its negation."""
    path_without_restating: Verdict | None = None
    """The conclusion's label under the path without those steps (``None`` when there are
    none): the path-dependence diagnostic."""

    @property
    def step_labels(self) -> tuple[Label, ...]:
        return tuple(v.label for v in self.steps)

    @property
    def seconds(self) -> float:
        """Prover time of the conclusion's and the steps' labels (path checks excluded)."""
        return self.conclusion.seconds + sum(v.seconds for v in self.steps)

    @property
    def fresh_seconds(self) -> float:
        """Prover time this run spent labelling the chain and its path's conclusion."""
        verdicts = (self.conclusion, *self.steps,
                    *((self.path_conclusion,) if self.path_conclusion else ()))
        return sum(v.fresh_seconds for v in verdicts)


def check_conclusions(chains: Sequence[FormalChain], prover: FolProver) -> list[Verdict]:
    """P ⊢ C for each chain (the gate of Algorithm 2 and of the formaliser's retries)."""
    queries = [Query(c.premises, c.conclusion, SymbolMap()) for c in chains]
    return decide(queries, prover)


def verify_chains(
    chains: Sequence[FormalChain], gold: Sequence[Label], prover: FolProver,
    conclusions: Sequence[Verdict] | None = None,
) -> list[ChainVerdict]:
    """Algorithms 2 and 3 for every chain; ``conclusions`` reuses a P ⊢ C already decided.

    The steps and path of a chain whose conclusion label differs from its gold label are
    still computed (Algorithm 2 would stop there; the caller decides what the mismatch means).
    """
    symbols = [SymbolMap() for _ in chains]
    if conclusions is None:
        conclusions = decide(
            [Query(c.premises, c.conclusion, s)
             for c, s in zip(chains, symbols, strict=True)], prover)
    # A step that states the conclusion asks P ⊢ C again: it gets the conclusion's verdict.
    step_queries = [Query(c.premises, step, s)
                    for c, s in zip(chains, symbols, strict=True) for step in c.steps
                    if step != c.conclusion]
    answers = iter(decide(step_queries, prover))
    step_verdicts = [tuple(again(conclusion) if step == chain.conclusion else next(answers)
                           for step in chain.steps)
                     for chain, conclusion in zip(chains, conclusions, strict=True)]

    paths: list[list[int]] = [[] for _ in chains]
    settled: dict[int, tuple[int, Verdict]] = {}
    """Per chain, the round in which the path decided a step stating the conclusion: the
    path's length then and that verdict, which is the path's conclusion while the path
    does not grow."""
    longest = max((len(c.steps) for c in chains), default=0)
    for k in range(longest):
        asked: list[int] = []
        queries: list[Query] = []
        for n, chain in enumerate(chains):
            if k < len(chain.steps) and step_verdicts[n][k].label is Label.TRUE:
                asked.append(n)
                path_axioms = tuple(chain.steps[i] for i in paths[n])
                queries.append(Query(path_axioms, chain.steps[k], symbols[n]))
        for n, verdict in zip(asked, decide(queries, prover), strict=True):
            # A step the path already decides adds no fact. A limit here cannot change the
            # path's consequences (the step follows from the premises either way), so the
            # step joins the path.
            if verdict.label not in (Label.TRUE, Label.FALSE):
                paths[n].append(k)
            elif chains[n].steps[k] == chains[n].conclusion:
                settled[n] = (len(paths[n]), verdict)

    pending = [n for n in range(len(chains))
             if n not in settled or settled[n][0] != len(paths[n])]
    decided = dict(zip(pending, decide(
        [Query(tuple(chains[n].steps[i] for i in paths[n]), chains[n].conclusion, symbols[n])
         for n in pending], prover), strict=True))
    final = [decided[n] if n in decided else again(settled[n][1]) for n in range(len(chains))]
    # The path-dependence diagnostic: is the path still valid without the steps that merely
    # restate the conclusion? (Algorithm 3 lets such a step make any path valid.)
    from afcheck_chains.quality import restates

    restating = [tuple(i for i in p if restates(c.steps[i], c.conclusion))
                 for c, p in zip(chains, paths, strict=True)]
    asked = [n for n, r in enumerate(restating) if r]
    reduced = dict(zip(asked, decide(
        [Query(tuple(chains[n].steps[i] for i in paths[n] if i not in restating[n]),
               chains[n].conclusion, symbols[n]) for n in asked], prover),
        strict=True)) if asked else {}
    return [
        ChainVerdict(conclusion, steps, tuple(path), path_verdict, restating[n],
                     reduced.get(n))
        for n, (conclusion, steps, path, path_verdict)
        in enumerate(zip(conclusions, step_verdicts, paths, final, strict=True))
    ]
