"""The seed's classification set (§4.3), rebuilt deterministically from PrOntoQA gold chains.

A PrOntoQA gold chain walks the ontology from the one fact about the entity to the
conclusion: ``Max is a yumpus. Each yumpus is a dumpus. Max is a dumpus. … Tumpuses are not
sour. Max is not sour.`` Every step follows from the premises, and the chain is a proof, so
the gold chain is T1. The mutations:

- T2: insert a step that negates one of the chain's premises (``Each yumpus is not a
  dumpus.``). The entity belongs to every class on the chain, so the negated premise is
  refuted by the premises: a False step, and the path is unchanged.
- T3: remove the key steps — the last rule and the conclusion it yields — and inject
  irrelevant content: premises off the chain that never mention the conclusion's property.
  Every step stays True, but no step says anything about the property, so the path cannot
  decide the conclusion.
- T4: both mutations.

Chains are drawn with a fixed seed, ``per_type`` distinct chains for each type (fewer when the
file has fewer than ``4 × per_type`` usable chains); the predicted answer is the gold label.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from afcheck.errors import LoadError
from afcheck_chains.loaders import Loaded, load_logic_llm
from afcheck_chains.records import ChainRecord

TYPES = ("T1", "T2", "T3", "T4")
DEFAULT_SEED = 0
DEFAULT_PER_TYPE = 50


def negate_sentence(sentence: str) -> str | None:
    """The sentence with its copula's polarity flipped, or ``None`` when it has none."""
    body = sentence.rstrip(".")
    for positive, negative in ((" is ", " is not "), (" are ", " are not ")):
        if negative in body:
            return body.replace(negative, positive, 1) + "."
    for positive, negative in ((" is ", " is not "), (" are ", " are not ")):
        if positive in body:
            return body.replace(positive, negative, 1) + "."
    return None


def _property_word(conclusion: str) -> str:
    return conclusion.rstrip(".").split()[-1].lower()


def _usable(record: ChainRecord) -> bool:
    premises = set(record.premises)
    return (
        len(record.steps) >= 3
        and any(s in premises for s in record.steps[:-1])
        and record.steps[-2] in premises
    )


def mutate(record: ChainRecord, kind: str, rng: random.Random) -> ChainRecord:
    """The ``kind`` variant of a gold chain (``T1`` is the chain itself)."""
    steps = list(record.steps)
    notes: dict[str, str] = {"source": record.id, "type": kind}
    if kind in ("T3", "T4"):
        # The last rule and the conclusion it yields are the chain's key steps.
        removed = steps[-2:]
        steps = steps[:-2]
        notes["removed"] = " | ".join(removed)
        used = set(record.steps)
        word = _property_word(record.conclusion)
        candidates = [p for p in record.premises
                      if p not in used and word not in p.lower().rstrip(".").split()]
        injected = rng.sample(candidates, min(2, len(candidates)))
        for sentence in injected:
            steps.insert(rng.randrange(len(steps) + 1), sentence)
        notes["injected"] = " | ".join(injected)
    if kind in ("T2", "T4"):
        premises = set(record.premises)
        flippable = [s for s in record.steps if s in premises and negate_sentence(s)]
        target = rng.choice(flippable)
        negated = negate_sentence(target)
        assert negated is not None
        steps.insert(rng.randrange(len(steps) + 1), negated)
        notes["negated"] = f"{target} -> {negated}"
    return replace(
        record, id=f"{kind}/{record.id}", steps=tuple(steps), raw_steps=tuple(steps),
        answer=record.label, expected_class=kind, metadata=notes,
    )


def build(loaded: Iterable[Loaded], seed: int = DEFAULT_SEED,
          per_type: int = DEFAULT_PER_TYPE) -> Iterator[Loaded]:
    """The classification items from PrOntoQA records; load errors pass through."""
    chains: list[ChainRecord] = []
    for item in loaded:
        if isinstance(item, LoadError):
            yield item
        elif _usable(item):
            chains.append(item)
    chains.sort(key=lambda r: r.id)
    rng = random.Random(seed)
    rng.shuffle(chains)
    count = min(per_type, len(chains) // len(TYPES))
    for position, kind in enumerate(TYPES):
        for record in chains[position * count:(position + 1) * count]:
            # One generator per item: an item does not change when others are added.
            yield mutate(record, kind, random.Random(f"{seed}:{kind}:{record.id}"))


def generate(path: Path, seed: int = DEFAULT_SEED,
             per_type: int = DEFAULT_PER_TYPE) -> Iterator[Loaded]:
    return build(load_logic_llm(path, "prontoqa"), seed, per_type)


def to_json_line(record: ChainRecord) -> str:
    """The item in the recorded-responses format (so ``kind = "chains"`` reads it back)."""
    return json.dumps({
        "id": record.id, "dataset": "prontoqa-classification",
        "premises": list(record.premises), "conclusion": record.conclusion,
        "label": record.label.value, "steps": list(record.steps),
        "answer": record.answer.value if record.answer else None,
        "expected_class": record.expected_class, "mutation": record.metadata,
    }, ensure_ascii=False)


# -- command -----------------------------------------------------------------------------------


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """``afcheck chains generate``: write the classification set as JSON Lines."""
    sub = parser.add_subparsers(dest="action", required=True)
    gen = sub.add_parser("generate", help="rebuild the T1–T4 classification set from PrOntoQA")
    gen.add_argument("data", nargs="?", type=Path,
                     help="PrOntoQA dev.json in Logic-LLM's format "
                          "(default: $AFCHECK_DATA_DIR/prontoqa/dev.json)")
    gen.add_argument("--seed", type=int, default=DEFAULT_SEED,
                     help=f"seed of the draw and the mutations (default {DEFAULT_SEED})")
    gen.add_argument("--per-type", type=int, default=DEFAULT_PER_TYPE,
                     help=f"chains per type T1–T4 (default {DEFAULT_PER_TYPE}; fewer when the "
                          "file has fewer usable chains)")
    gen.add_argument("--out", type=Path, help="output file (default: standard output)")
    return _handle


def _handle(args: argparse.Namespace) -> int:
    from afcheck.errors import SuiteError
    from afcheck_chains.loaders import find_data

    try:
        path = args.data or find_data("prontoqa")
    except SuiteError as exc:
        print(f"afcheck chains generate: {exc}", file=sys.stderr)
        return 2
    if not path.is_file():
        print(f"afcheck chains generate: {path}: no such file", file=sys.stderr)
        return 2
    if args.per_type < 1:
        print("afcheck chains generate: --per-type must be at least 1", file=sys.stderr)
        return 2
    lines: list[str] = []
    errors = 0
    for item in generate(path, args.seed, args.per_type):
        if isinstance(item, LoadError):
            print(str(item), file=sys.stderr)
            errors += 1
        else:
            lines.append(to_json_line(item))
    text = "".join(line + "\n" for line in lines)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {len(lines)} chains to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 1 if errors and not lines else 0


def command(argv: Sequence[str]) -> int:
    """The old command API: ``factory(argv) -> int``."""
    parser = argparse.ArgumentParser(prog="afcheck chains")
    return configure(parser)(parser.parse_args(list(argv)))
