"""PrOntoQA-style items written for the chains tests (the released data is not shipped)."""

from __future__ import annotations

import json
from pathlib import Path

CLASSES = ["wumpus", "dumpus", "impus", "tumpus", "yumpus", "zumpus", "jompus"]
NAMES = ["Max", "Wren", "Sally", "Rex", "Polly", "Sam", "Alex", "Fae", "Stella"]
PROPERTIES = ["sour", "red", "shy", "cold", "bright"]


def plural(noun: str) -> str:
    return noun + "es"


def article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"


def item(n: int) -> dict[str, object]:
    """A chain of four classes ending in a property, with off-chain distractors."""
    name = NAMES[n % len(NAMES)]
    chain = [CLASSES[(n + k) % len(CLASSES)] for k in range(4)]
    prop = PROPERTIES[n % len(PROPERTIES)]
    other = PROPERTIES[(n + 1) % len(PROPERTIES)]
    negative = n % 2 == 0
    pairs = list(zip(chain, chain[1:], strict=False))
    rules = [f"{plural(a).capitalize()} are {plural(b)}." for a, b in pairs]
    last = f"{plural(chain[-1]).capitalize()} are {'not ' if negative else ''}{prop}."
    off = CLASSES[(n + 5) % len(CLASSES)]
    distractors = [f"{plural(off).capitalize()} are {'' if negative else 'not '}{prop}.",
                   f"Each {chain[0]} is {other}.", f"{plural(off).capitalize()} are {other}."]
    fact = f"{name} is {article(chain[0])} {chain[0]}."
    context = " ".join([rules[0], distractors[0], *rules[1:], last, *distractors[1:], fact])
    steps = [fact]
    for _a, b, rule in zip(chain, chain[1:], rules, strict=False):
        steps += [rule, f"{name} is {article(b)} {b}."]
    conclusion_true = n % 3 == 0
    stated = f"{name} is {'not ' if negative else ''}{prop}."
    steps += [last, stated]
    question = stated if conclusion_true else f"{name} is {'' if negative else 'not '}{prop}."
    return {
        "id": f"ProntoQA_{n + 1}", "context": context,
        "question": f"Is the following statement true or false? {question}",
        "options": ["A) True", "B) False"], "answer": "A" if conclusion_true else "B",
        "explanation": steps,
    }


def write(path: Path, count: int) -> Path:
    path.write_text(json.dumps([item(n) for n in range(count)], indent=1), encoding="utf-8")
    return path
