"""The chain classes T1–T4 / F1–F2 of the seed (§3.4), as a table.

A step is erroneous when the prover labels it False or Unknown. A correct answer gives
T1 (no erroneous step, valid proof path), T2 (erroneous steps, valid path), T3 (no erroneous
step, no valid path) or T4 (both faults); a wrong answer gives F1 (no erroneous step) or F2.
The table is data so that a corrected reading of the paper is a one-row change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from afcheck_chains.records import Label


@dataclass(frozen=True)
class ClassRule:
    name: str
    answer_correct: bool
    erroneous_steps: bool
    valid_path: bool | None
    """``None``: the class does not depend on the proof path."""
    meaning: str


CLASS_TABLE: tuple[ClassRule, ...] = (
    ClassRule("T1", True, False, True, "correct answer, every step correct, valid proof path"),
    ClassRule("T2", True, True, True, "correct answer, some erroneous step, valid proof path"),
    ClassRule("T3", True, False, False, "correct answer, every step correct, no valid path"),
    ClassRule("T4", True, True, False, "correct answer, erroneous steps and no valid path"),
    ClassRule("F1", False, False, None, "wrong answer, every step correct"),
    ClassRule("F2", False, True, None, "wrong answer, some erroneous step"),
)

CLASS_NAMES = tuple(rule.name for rule in CLASS_TABLE)
ERRONEOUS = frozenset({Label.FALSE, Label.UNKNOWN})


def erroneous(labels: Sequence[Label]) -> bool:
    return any(label in ERRONEOUS for label in labels)


def classify(
    answer_correct: bool,
    step_labels: Sequence[Label],
    valid_path: bool,
    table: Sequence[ClassRule] = CLASS_TABLE,
) -> str:
    """The class of a chain whose steps and path were all decided."""
    faulty = erroneous(step_labels)
    for rule in table:
        if (rule.answer_correct == answer_correct and rule.erroneous_steps == faulty
                and rule.valid_path in (None, valid_path)):
            return rule.name
    raise ValueError(
        f"no class for answer_correct={answer_correct}, erroneous={faulty}, path={valid_path}"
    )


def meaning(name: str, table: Sequence[ClassRule] = CLASS_TABLE) -> str:
    for rule in table:
        if rule.name == name:
            return rule.meaning
    return name
