"""The component kind only the equivalence method uses, declared by its plugin."""

from __future__ import annotations

from afcheck.components import EquivalenceCriterion
from afcheck.registry import Kind

CRITERION: Kind[EquivalenceCriterion] = Kind(
    "criterion", "criteria", "afcheck_register_criteria", True, protocol=EquivalenceCriterion,
    description="decide whether two Lean statements mean the same: Eq, Noneq or Inconclusive")
