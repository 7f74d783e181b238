"""Prover ``deepseek``: DeepSeek-Prover-V2 at pass@k, every candidate verified in Lean.

Prompt and extraction follow the model card: the full file ending in ``:= by sorry`` inside
a ````lean4`` block, optionally followed by the chain-of-thought paragraph; the candidate
is the last ````lean4`` block of the completion. Only the proof body of the theorem with our
statement's name is kept and spliced under our statement (:mod:`afcheck_lean.statement`);
a completion whose statement differs is not a proof. The paper used k = 2 on the statement
and on its negation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from afcheck.types import ProofTask, Verdict, VerdictKind
from afcheck_lean.deadline import Deadlines
from afcheck_lean.judge import Judge, Trust
from afcheck_lean.kimina import pool_summary
from afcheck_lean.negation import Negate, NegationError
from afcheck_lean.pool import Breaker, LeanPool
from afcheck_lean.source import SourceError, header_lines
from afcheck_lean.statement import (
    Statement,
    StatementError,
    find_declaration,
    same_signature,
    split_statement,
)
from afcheck_lean.verify import Candidate, Check, judged, judged_version, verdict_of, verify

Generate = Callable[[Sequence[str], int], list[list[str]]]
"""``generate(prompts, k)``: ``k`` completions per prompt, in prompt order, in one batch."""

COT_SUFFIX = (
    "Before producing the Lean 4 code to formally prove the given theorem, provide a detailed "
    "proof plan outlining the main proof steps and strategies.\nThe plan should highlight key "
    "ideas, intermediate lemmas, and proof structures that will guide the construction of the "
    "final formal proof."
)
_BLOCKS = (
    re.compile(r"```lean4\n(.*?)\n```", re.DOTALL),
    re.compile(r"```lean4\n(.*?)```", re.DOTALL),
    re.compile(r"```lean\n(.*?)```", re.DOTALL),
)


def formal_statement(statement: str, header: str) -> str:
    """The file the model completes: header, then the statement ending in ``:= by\\n  sorry``."""
    body = re.sub(r":=\s*(?:by\s+)?sorry\s*$", ":= by\n  sorry", statement.strip())
    return f"{header.strip()}\n\n{body}" if header.strip() else body


def build_prompt(statement: str, header: str, *, cot: bool = True) -> str:
    prompt = (
        "Complete the following Lean 4 code:\n\n```lean4\n"
        f"{formal_statement(statement, header)}\n```\n"
    )
    return f"{prompt}\n{COT_SUFFIX}" if cot else prompt


def extract_code(completion: str) -> str | None:
    """The last ````lean4`` block (falling back as Goedel-Prover's extractor does)."""
    for pattern in _BLOCKS:
        blocks = pattern.findall(completion)
        if blocks:
            return str(blocks[-1])
    return None


def proof_body(completion: str, target: Statement) -> str:
    """The candidate's proof body for ``target``; raises :class:`ValueError` with the reason."""
    code = extract_code(completion)
    if code is None:
        raise ValueError("no ```lean4 block in the completion")
    found = find_declaration(code, target)
    if found is None:
        raise ValueError("the completion has no declaration of the statement")
    if not same_signature(found.signature, target.signature):
        raise ValueError("the prover changed the statement")
    return found.body


@dataclass(frozen=True)
class _Sample:
    task: int
    side: VerdictKind
    statement: str
    completion: str


class DeepSeekProver:
    """pass@k on the statement and on its negation, one batched model call per run."""

    name = "deepseek"
    version = "1"
    contained = True
    """Its statements run in the pool's REPLs under their timeout and memory cap, and each model
    call is bounded by its token budget (and a server's timeout); a model engine could not be
    started again in every pair worker anyway."""

    def __init__(self, pool: LeanPool, generate: Generate, negate: Negate, *, k: int = 2,
                 cot: bool = True, allow_native_decide: bool = False,
                 statement_s: float | None = None, judge: Judge | None = None,
                 trust: Trust = "judge") -> None:
        self.pool = pool
        self.judge = judge
        """Certifies what Lean's REPL accepted (:mod:`afcheck_lean.judge`); ``None``: no
        verdict is certified."""
        self.trust = trust
        self.version = judged_version("1", judge, trust)
        self.statement_s = statement_s
        """Wall clock of one statement across its samples' checks (the model's generation
        not included; :mod:`afcheck_lean.deadline`); ``None``: the pool's ``timeout_s`` per
        check, all checks in one batch."""
        self.generate = generate
        self.negate = negate
        self.k = k
        self.cot = cot
        self.allow_native_decide = allow_native_decide
        # Stops the run when Lean cannot start, rather than answering INCONCLUSIVE for all.
        self.breaker = Breaker(limit=None)
        self.resources: dict[str, float] = {}
        """What one cluster worker running it needs (set by its factory: the model's GPUs)."""

    def prove(self, tasks: Sequence[ProofTask]) -> list[Verdict]:
        sides = [self._sides(t) for t in tasks]
        jobs = [(i, side, stmt) for i, pairs in enumerate(sides) for side, stmt in pairs[0]]
        prompts = [build_prompt(stmt, _model_header(tasks[i].header), cot=self.cot)
                   for i, _, stmt in jobs]
        outputs = self.generate(prompts, self.k) if prompts else []
        samples = [_Sample(i, side, stmt, text)
                   for (i, side, stmt), texts in zip(jobs, outputs, strict=True)
                   for text in texts[: self.k]]
        clock = Deadlines(self.statement_s, self.pool.settings.timeout_s, len(tasks))
        prepared = self._prepare(tasks, samples)
        checks = self._verify(samples, prepared, clock)
        if self.judge is not None:
            checks = self._judge_first_accepted(self.judge, samples, prepared, checks)
        return [self._verdict(i, samples, checks, sides[i][1],
                              clock.reason(i) if clock.over(i) else "")
                for i in range(len(tasks))]

    def _sides(self, task: ProofTask) -> tuple[list[tuple[VerdictKind, str]], str]:
        pairs = [(VerdictKind.PROVED, task.statement)]
        try:
            pairs.append((VerdictKind.REFUTED, self.negate(task.statement)))
        except NegationError as exc:
            return pairs, str(exc)
        return pairs, ""

    @staticmethod
    def _prepare(tasks: Sequence[ProofTask],
                 samples: list[_Sample]) -> list[Candidate | Check]:
        """Each sample's candidate, or the check that it has none (no proof body of the
        statement in the completion)."""
        prepared: list[Candidate | Check] = []
        for s in samples:
            try:
                body = proof_body(s.completion, split_statement(s.statement))
            except (ValueError, StatementError) as exc:
                prepared.append(Check(False, str(exc)))
                continue
            prepared.append(Candidate(s.statement, tasks[s.task].header, body))
        return prepared

    def _verify(self, samples: list[_Sample], prepared: list[Candidate | Check],
                clock: Deadlines) -> list[Check]:
        if clock.seconds is None:
            candidates = [p for p in prepared if isinstance(p, Candidate)]
            verified = iter(self._checks(candidates, None))
            return [next(verified) if isinstance(p, Candidate) else p for p in prepared]
        return self._verify_within(samples, prepared, clock)

    def _verify_within(self, samples: list[_Sample], prepared: list[Candidate | Check],
                       clock: Deadlines) -> list[Check]:
        """The checks in rounds, one candidate of each statement a round, so that each is
        given what its statement has left; a statement over its budget checks no more."""
        out: list[Check | None] = [p if isinstance(p, Check) else None for p in prepared]
        queues: dict[int, list[int]] = {}
        for index, (sample, item) in enumerate(zip(samples, prepared, strict=True)):
            if isinstance(item, Candidate):
                queues.setdefault(sample.task, []).append(index)
        while True:
            picked = [queue.pop(0) for task, queue in queues.items()
                      if queue and not clock.over(task)]
            if not picked:
                break
            candidates = [prepared[i] for i in picked]
            checks = self._checks([c for c in candidates if isinstance(c, Candidate)],
                                  [clock.timeout(samples[i].task) for i in picked])
            for index, check in zip(picked, checks, strict=True):
                clock.charge(samples[index].task, check.seconds)
                out[index] = check
        return [check if check is not None else
                Check(False, f"not checked: {clock.reason(samples[i].task)}")
                for i, check in enumerate(out)]

    def _checks(self, candidates: list[Candidate], timeouts: list[float] | None) -> list[Check]:
        checks = verify(self.pool, candidates, allow_native_decide=self.allow_native_decide,
                        breaker=self.breaker, timeouts=timeouts)
        if self.breaker.tripped is not None:
            raise self.breaker.error(f"prover {self.name}")
        return checks

    def _judge_first_accepted(self, judge: Judge, samples: list[_Sample],
                              prepared: list[Candidate | Check],
                              checks: list[Check]) -> list[Check]:
        """The first sample the REPL accepted on each side of each statement judged; on a
        judge's rejection the side's next accepted sample, and so on. A judgement compiles
        the file and loads Mathlib: one certified proof settles a side, so the samples after
        it are never judged (they stay accepted, unjudged). A judgement that decided nothing
        (no isolation) would decide nothing for the next sample either."""
        out = list(checks)
        queues: dict[tuple[int, VerdictKind], list[int]] = {}
        for index, (sample, check) in enumerate(zip(samples, checks, strict=True)):
            if check.accepted:
                queues.setdefault((sample.task, sample.side), []).append(index)
        while True:
            picked = [queue.pop(0) for queue in queues.values() if queue]
            if not picked:
                return out
            candidates = [prepared[i] for i in picked]
            answered = judged(judge, [c for c in candidates if isinstance(c, Candidate)],
                              [out[i] for i in picked], self.pool.settings.header,
                              self.allow_native_decide)
            for index, check in zip(picked, answered, strict=True):
                out[index] = check
                if check.accepted:  # certified, or a judgement that decided nothing
                    queues[(samples[index].task, samples[index].side)].clear()

    def _verdict(self, task: int, samples: list[_Sample], checks: list[Check],
                 no_negation: str, over: str) -> Verdict:
        mine = [(s, c) for s, c in zip(samples, checks, strict=True) if s.task == task]
        won: dict[VerdictKind, Check] = {}
        for sample, check in mine:
            # Per side the first accepted sample: with a judge, the one it judged (those it
            # rejected are no longer accepted, those after it were never judged).
            if check.accepted:
                won.setdefault(sample.side, check)
        if len(won) == 2:
            return Verdict(VerdictKind.INCONCLUSIVE, self.name,
                           reason="both the statement and its negation were proved")
        for side, check in won.items():
            return verdict_of(check, side, self.name,
                              f"{'statement' if side is VerdictKind.PROVED else 'negation'}"
                              f" proved at pass@{self.k}", self.trust)
        reasons = sorted({c.reason for _, c in mine if not c.reason.startswith("not checked")})
        why = f"no verified proof in {len(mine)} sample(s)"
        if reasons:
            why += f" ({reasons[0]})"
        if over:
            why = f"{over}; {why}"
        if no_negation:
            why += f"; {no_negation}"
        # A sample whose check got no answer (a timeout, a crash) may verify on a machine
        # less loaded, and so may those a spent budget left unchecked: the verdict is this
        # run's, never cached.
        stalled = bool(over) or any(c.failure is not None for _, c in mine)
        return Verdict(VerdictKind.INCONCLUSIVE, self.name, reason=why, transient=stalled)

    def summary_lines(self) -> list[str]:
        """The pool's line for the end of the run, when it has one (a kimina-lean-server)."""
        return pool_summary(self.pool)

    def close(self) -> None:
        self.pool.close()


def _model_header(header: str) -> str:
    # The model was trained on files that start with the Mathlib header; it sees the same
    # imports the pool provides, plus the task's own lines.
    try:
        extra = header_lines(header, "import Mathlib")
    except SourceError:
        extra = ""
    base = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\n" \
           "open BigOperators Real Nat Topology Rat"
    return f"{base}\n\n{extra}".strip()
