"""Reads ``lean.original`` / ``lean.perturbed`` from each step's data: the statement of
the side the request names (``metadata["side"]``, as the faithfulness method gives it; a
request that names none is an original)."""

from __future__ import annotations

from collections.abc import Sequence

from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest


class ReferenceFormaliser:
    name = "reference"
    version = "1"
    cacheable = False

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [self._one(request) for request in requests]

    def _one(self, request: FormaliseRequest) -> Formalisation:
        lean = dict(request.metadata.get("lean") or {})
        side = str(request.metadata.get("side") or "original")
        statement = lean.get(side)
        if side == "perturbed" and request.text != request.metadata.get("given_perturbation"):
            statement, why = None, ("the reference statement belongs to the suite's own "
                                    "perturbation, not to this one; use --perturber given")
        else:
            why = f"the suite has no reference statement for the {side} step"
        if not statement:
            return Formalisation(request.key, self.name, FormalisationStatus.AF_FAIL, reason=why)
        return Formalisation(request.key, self.name, FormalisationStatus.OK,
                             statement=statement, raw_output=statement)
