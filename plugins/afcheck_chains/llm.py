"""The seed's NL2FOL formaliser (Fig. 3): one prompt per chain, any chat model.

Premises go under ``Premises:``; the kept steps and then the conclusion under
``Conclusions:`` (the seed translates them in one pass, so names agree). The model answers one
line per sentence, ``formula ::: (index) sentence``, in FOLIO's Unicode syntax; a line per
sentence is required, in order. Retries (a new seed per attempt, no feedback, as in the seed)
are the method's business: :meth:`LlmChainFormaliser.formalise` takes the attempt number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck_fol.formula import Formula

from afcheck.errors import UsageError
from afcheck.llm import LLMClient, Options, Prompt, Sampling, chat, derive_seed, make_client
from afcheck.llm import sampling_from as _sampling_from
from afcheck_chains.formalise import Formalised
from afcheck_chains.records import ChainRecord
from afcheck_chains.verify import FormalChain

TASK = "Parse the given premises and conclusions into first-order logic formulas."

RULES = """### Rules
1. Each sentence must be converted into a single FOL formula.
2. Use the following FOL syntax: logical conjunction of expr1 and expr2: expr1 ∧ expr2; \
logical disjunction of expr1 and expr2: expr1 ∨ expr2; logical exclusive disjunction of expr1 \
and expr2: expr1 ⊕ expr2; logical negation of expr1: ¬expr1; expr1 implies expr2: \
expr1 → expr2; expr1 if and only if expr2: expr1 ↔ expr2; logical universal quantification: \
∀x; logical existential quantification: ∃x.
3. Every formula must explicitly include quantifiers (∀x or ∃x) where applicable; put \
parentheses around the scope of every quantifier and around complex sub-formulas.
4. When an existential entity reappears with new properties, all properties (both old and \
new) should be conjoined within the scope of a single existential quantifier into the later \
formula.
5. Reuse the predicates and constants already introduced before introducing new ones; the \
same word always gets the same name. Predicates are CamelCase, constants lower-case.
6. "Either A or B" means A ⊕ B only when the sentence says that not both hold; otherwise \
it is A ∨ B."""

OUTPUT_FORMAT = """### Output Format
Premises:
fol-formula ::: (index) reference sentence
Conclusions:
fol-formula ::: (index) reference sentence"""

EXAMPLE = """### Examples
Premises:
(1) The cow is cold.
(2) The cow is not round.
(3) If something is cold then it needs the mouse.
Conclusions:
(1) The mouse needs the cow.
(2) The cow needs the mouse.
###
Premises:
Cold(cow) ::: (1) The cow is cold.
¬Round(cow) ::: (2) The cow is not round.
∀x (Cold(x) → Needs(x, mouse)) ::: (3) If something is cold then it needs the mouse.
Conclusions:
Needs(mouse, cow) ::: (1) The mouse needs the cow.
Needs(cow, mouse) ::: (2) The cow needs the mouse."""

TASK_TEMPLATE = """### Your Task
Return first-order logic formulas with NO other texts.
Premises:
{premises}
Conclusions:
{conclusions}"""


def prompt_text(record: ChainRecord) -> str:
    premises = "\n".join(f"({i}) {s}" for i, s in enumerate(record.premises, 1))
    conclusions = "\n".join(
        f"({i}) {s}" for i, s in enumerate((*record.steps, record.conclusion), 1))
    return "\n".join((TASK, RULES, OUTPUT_FORMAT, EXAMPLE,
                      TASK_TEMPLATE.format(premises=premises, conclusions=conclusions)))


_LINE = re.compile(r"^\s*(?P<formula>.+?)\s*:::\s*\((?P<index>\d+)\)")


def read_output(text: str, record: ChainRecord) -> Formalised:
    """The chain in FOL from the model's text, or why it cannot be read."""
    from afcheck_fol.language import FOLIO
    from afcheck_fol.syntax import FolSyntaxError, parse

    body = re.sub(r"<think>.*?</think>", "", text, flags=re.DOTALL)
    sections: dict[str, dict[int, str]] = {"premises": {}, "conclusions": {}}
    current: str | None = None
    for line in body.splitlines():
        head = line.strip().strip("#*` ").lower().rstrip(":")
        if head in sections:
            current = head
            continue
        match = _LINE.match(line)
        if match and current is not None:
            sections[current].setdefault(int(match.group("index")), match.group("formula"))
    wanted = {"premises": len(record.premises), "conclusions": len(record.steps) + 1}
    parsed: dict[str, list[Formula]] = {}
    for section, count in wanted.items():
        found = sections[section]
        missing = [i for i in range(1, count + 1) if i not in found]
        if missing:
            return Formalised(None, f"no formula for {section} {missing[:5]}", text)
        formulas: list[Formula] = []
        for i in range(1, count + 1):
            try:
                formulas.append(parse(found[i], FOLIO))
            except FolSyntaxError as exc:
                return Formalised(None, f"{section} ({i}): {exc}", text)
        parsed[section] = formulas
    conclusions = parsed["conclusions"]
    chain = FormalChain(tuple(parsed["premises"]), conclusions[-1], tuple(conclusions[:-1]))
    return Formalised(chain, "", text)


@dataclass(frozen=True)
class ModelAnswer:
    text: str
    error: str = ""
    """Why the backend gave no text (a failed request); empty otherwise."""


class LlmChainFormaliser:
    """The seed's prompt to a chat model through :mod:`afcheck.llm`."""

    name = "llm"
    deterministic = False

    def __init__(self, client: LLMClient, sampling: Sampling) -> None:
        self.client = client
        self.sampling = sampling
        self.version = f"{client.backend}:{client.model}:t={sampling.temperature:g}"
        self.fingerprint = f"llm/1|{self.version}|seed={sampling.seed}|max={sampling.max_tokens}"

    def prompts(self, records: Sequence[ChainRecord], attempt: int) -> list[Prompt]:
        return [chat(None, prompt_text(r),
                     seed=derive_seed(self.sampling.seed, f"{r.id}#{attempt}"))
                for r in records]

    def answers(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[ModelAnswer]:
        """The model's raw answer to each record's prompt (what a result cache keeps)."""
        outputs = self.client.generate(self.prompts(records, attempt), self.sampling)
        out: list[ModelAnswer] = []
        for samples in outputs:
            sample = samples[0] if samples else None
            if sample is None or not sample.ok:
                out.append(ModelAnswer("", sample.error if sample is not None else "no answer"))
            else:
                out.append(ModelAnswer(sample.text))
        return out

    @staticmethod
    def read(record: ChainRecord, answer: ModelAnswer) -> Formalised:
        if answer.error:
            return Formalised(None, f"model call failed: {answer.error}")
        return read_output(answer.text, record)

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        answers = self.answers(records, attempt)
        return [self.read(r, a) for r, a in zip(records, answers, strict=True)]


def make_llm_formaliser(options: Mapping[str, str]) -> LlmChainFormaliser:
    """``--chain-formaliser llm`` with ``model=…`` and, for a server, ``base_url=…``."""
    opts = Options("chain formaliser 'llm'", dict(options))
    opts.check_known()
    if not opts.text("model"):
        raise UsageError("chain formaliser 'llm': pass model=NAME (and base_url=URL)")
    client = make_client(opts, model=opts.text("model"))
    # Greedy, as the seed (temperature 0); retries still differ by seed on sampling servers.
    sampling = _sampling_from(opts, Sampling(max_tokens=4096, temperature=0.0))
    return LlmChainFormaliser(client, sampling)
