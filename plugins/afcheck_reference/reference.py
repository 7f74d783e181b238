"""Reads ``lean.original`` / ``lean.perturbed`` from each step's data."""

from __future__ import annotations

from collections.abc import Sequence

from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    Side,
)


class ReferenceFormaliser:
    name = "reference"
    version = "1"
    cacheable = False

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [self._one(request) for request in requests]

    def _one(self, request: FormaliseRequest) -> Formalisation:
        lean = dict(request.metadata.get("lean") or {})
        statement = lean.get(request.side.value)
        if request.side is Side.PERTURBED and request.text != request.metadata.get(
            "given_perturbation"
        ):
            statement, why = None, ("the reference statement belongs to the suite's own "
                                    "perturbation, not to this one; use --perturber given")
        else:
            why = f"the suite has no reference statement for the {request.side.value} step"
        if not statement:
            return Formalisation(request.key, self.name, FormalisationStatus.AF_FAIL, reason=why)
        return Formalisation(request.key, self.name, FormalisationStatus.OK,
                             statement=statement, raw_output=statement)
