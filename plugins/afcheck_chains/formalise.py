"""Chain formalisers: premises, conclusion and kept steps into FOL, in one vocabulary.

- ``rules``: the controlled-English translator (PrOntoQA, ProofWriter); deterministic.
- ``reference``: the FOL given with the data (FOLIO's ``premises-FOL``, or ``*_fol`` fields of
  recorded responses); deterministic.
- ``llm``: the seed's NL2FOL prompt to a chat model (see :mod:`afcheck_chains.llm`).

A formaliser returns, per chain, either a :class:`FormalChain` or the reason it has none (a
sentence outside its reach, FOL that does not parse). ``deterministic`` formalisers are asked
once: regenerating cannot change their answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from afcheck_fol.formula import Formula

from afcheck_chains.controlled import Untranslatable, translate
from afcheck_chains.records import ChainRecord
from afcheck_chains.verify import FormalChain


@dataclass(frozen=True)
class Formalised:
    chain: FormalChain | None
    failure: str = ""
    """Why there is no chain (empty when there is one)."""
    raw: str = ""
    """The model's output, when a model wrote it."""


class ChainFormaliser(Protocol):
    name: str
    version: str
    fingerprint: str
    deterministic: bool

    def formalise(self, records: Sequence[ChainRecord], attempt: int) -> list[Formalised]:
        """One answer per record; ``attempt`` (0, 1, …) varies a sampling formaliser's seed."""
        ...


class RuleFormaliser:
    """The controlled-English translator over every sentence of the chain."""

    name = "rules"
    version = "1"
    fingerprint = "rules/1"
    deterministic = True

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        return [self._one(record) for record in records]

    @staticmethod
    def _one(record: ChainRecord) -> Formalised:
        try:
            premises = tuple(translate(s) for s in record.premises)
            conclusion = translate(record.conclusion)
            steps = tuple(translate(s) for s in record.steps)
        except Untranslatable as exc:
            return Formalised(None, str(exc))
        return Formalised(FormalChain(premises, conclusion, steps))


class ReferenceFormaliser:
    """The reference FOL that came with the data, parsed in FOLIO's syntax."""

    name = "reference"
    version = "1"
    fingerprint = "reference/1"
    deterministic = True

    def formalise(self, records: Sequence[ChainRecord], attempt: int = 0) -> list[Formalised]:
        return [self._one(record) for record in records]

    @staticmethod
    def _one(record: ChainRecord) -> Formalised:
        from afcheck_fol.language import FOLIO
        from afcheck_fol.syntax import FolSyntaxError, parse

        gold = record.gold_fol
        if gold is None:
            return Formalised(None, "no reference FOL in the data for this chain")
        if gold.conclusion is None:
            return Formalised(None, "no reference FOL for the conclusion (FOLIO's training "
                                    "split has none); use a model formaliser")
        if len(gold.steps) != len(record.steps) or any(s is None for s in gold.steps):
            return Formalised(None, f"reference FOL for {len(gold.steps)} of "
                                    f"{len(record.steps)} kept steps")

        def read(text: str, where: str) -> Formula:
            try:
                return parse(text, FOLIO)
            except FolSyntaxError as exc:
                raise ValueError(f"{where}: {exc}") from None

        try:
            premises = tuple(read(t, f"premise {i}") for i, t in enumerate(gold.premises, 1))
            conclusion = read(gold.conclusion, "conclusion")
            steps = tuple(read(t or "", f"step {i}") for i, t in enumerate(gold.steps, 1))
        except ValueError as exc:
            return Formalised(None, str(exc))
        return Formalised(FormalChain(premises, conclusion, steps))



FORMALISERS = {
    "rules": "controlled-English translator of PrOntoQA and ProofWriter sentences (offline)",
    "reference": "the reference FOL that comes with the data (FOLIO's premises-FOL, *_fol fields)",
    "llm": "the seed's NL2FOL prompt to a chat model: model=NAME[,base_url=URL]",
}


def make_chain_formaliser(name: str, options: Mapping[str, str] | None = None
                          ) -> ChainFormaliser:
    """The chain formaliser called ``name`` (``--chain-formaliser``) with its options."""
    options = dict(options or {})
    if name == "llm":
        from afcheck_chains.llm import make_llm_formaliser

        return make_llm_formaliser(options)
    if name not in FORMALISERS:
        from afcheck.errors import UnknownComponent

        raise UnknownComponent("chain formaliser", name, sorted(FORMALISERS))
    if options:
        from afcheck.errors import UsageError

        raise UsageError(f"chain formaliser {name} takes no options, got "
                         f"{', '.join(sorted(options))}")
    return RuleFormaliser() if name == "rules" else ReferenceFormaliser()
