"""The ``equivalence`` suite kind: pairs of Lean statements in JSON lines (see
:mod:`afcheck_equivalence.method` for the fields)."""

from __future__ import annotations

from collections.abc import Iterator

from afcheck.errors import LoadError
from afcheck.suites import SuiteSpec
from afcheck_equivalence.method import Item, load


class EquivalenceSuite:
    name = "equivalence"
    method = "equivalence"

    def load(self, spec: SuiteSpec) -> Iterator[Item | LoadError]:
        yield from load(spec.data_path())
