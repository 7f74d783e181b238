"""The ``regex`` perturber: templated edits that make a valid step invalid.

Per step, in order of preference:

1. ``number`` or ``operator``: shift the rightmost numeric literal by a non-zero offset of at most
   half its magnitude (:mod:`afcheck_regex.shift`), or swap an arithmetic or comparison
   operator, chosen with weights that double from left to right so the rightmost is most likely
   (:mod:`afcheck_regex.operators`). When both apply, one is picked at random (``prefer`` option).
2. ``negation``: only when neither applies, remove an existing "not", else insert "not" after
   the first modal or copular verb.
3. ``prefix``: prepend "It is false that ".

Each step gets its own :class:`random.Random`, seeded from a SHA-256 of ``(seed, step.id)``, so
the result depends only on the seed and the step, not on the order of the batch or on Python's
salted ``hash()``. Exactly one contiguous edit is made and recorded as
:class:`afcheck_faithfulness.records.Edit`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck_faithfulness.records import Edit, Perturbation, Step

from afcheck.errors import UsageError
from afcheck_regex.judge import effectiveness
from afcheck_regex.negation import negation_edit
from afcheck_regex.operators import find_operators, replacement
from afcheck_regex.shift import editable_numerals, shifted

PREFIX = "It is false that "
_PREFERENCES = ("random", "number", "operator")
_MAX_OPERATORS = 32
"""Only the rightmost operators are weighed; further left the weight is negligible anyway."""


def step_rng(seed: int, step_id: str) -> random.Random:
    """A generator that depends only on ``seed`` and ``step_id``, stable across processes."""
    digest = hashlib.sha256(f"{seed}\x00{step_id}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass(frozen=True)
class RegexPerturber:
    """App. C of FaithformBench, without editing inside words, numerals or LaTeX commands."""

    prefer: str = "random"
    """``random`` (pick between a number and an operator edit), ``number`` or ``operator``:
    which of the two to make when both apply."""
    judge: bool = True
    """Set ``Perturbation.effective`` from :func:`afcheck_regex.judge.effectiveness`."""
    name: str = "regex"
    version: str = "1"

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        return [self.perturb_text(step.text, seed, step.id) for step in steps]

    def perturb_text(self, text: str, seed: int, step_id: str) -> Perturbation:
        """The perturbation of one text, as :meth:`perturb` makes it for step ``step_id``."""
        if not text.strip():
            return Perturbation(step_id, self.name, None, "none", reason="empty step")
        rule, edit = self._edit(text, step_rng(seed, step_id))
        new_text = text[: edit.start] + edit.new + text[edit.end :]
        return Perturbation(
            step_id=step_id,
            perturber=self.name,
            text=new_text,
            rule=rule,
            edit=edit,
            reason=f"{rule}: {edit.old!r} -> {edit.new!r} at {edit.start}",
            effective=self._effective(text, new_text),
        )

    def _edit(self, text: str, rng: random.Random) -> tuple[str, Edit]:
        numerals = editable_numerals(text)
        operators = find_operators(text)[-_MAX_OPERATORS:]
        use_number = bool(numerals) and (not operators or self._pick_number(rng))
        if use_number:
            numeral = numerals[-1]
            return "number", Edit(numeral.start, numeral.end, numeral.text, shifted(numeral, rng))
        if operators:
            weights = [2.0**i for i in range(len(operators))]
            op = rng.choices(operators, weights=weights)[0]
            new = replacement(text, op, rng.choice(op.alternatives))
            return "operator", Edit(op.start, op.end, op.text, new)
        negation = negation_edit(text)
        if negation is not None:
            return "negation", negation
        return "prefix", Edit(0, 0, "", PREFIX)

    def _pick_number(self, rng: random.Random) -> bool:
        if self.prefer == "random":
            return rng.random() < 0.5
        return self.prefer == "number"

    def _effective(self, original: str, perturbed: str) -> bool | None:
        if not self.judge:
            return None
        return {"effective": True, "ineffective": False}.get(effectiveness(original, perturbed))


def make_perturber(options: Mapping[str, str]) -> RegexPerturber:
    """Build from ``--perturber-opt`` strings: ``prefer=random|number|operator``,
    ``judge=true|false``."""
    unknown = sorted(set(options) - {"prefer", "judge"})
    if unknown:
        raise UsageError(
            f"regex perturber: unknown option '{unknown[0]}'; known options: prefer, judge."
        )
    prefer = options.get("prefer", "random")
    if prefer not in _PREFERENCES:
        raise UsageError(
            f"regex perturber: prefer={prefer!r} is not one of {', '.join(_PREFERENCES)}."
        )
    judge = options.get("judge", "true").lower()
    if judge not in ("true", "false", "1", "0", "yes", "no"):
        raise UsageError(f"regex perturber: judge={judge!r} must be true or false.")
    return RegexPerturber(prefer=prefer, judge=judge in ("true", "1", "yes"))
