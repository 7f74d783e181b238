"""The ``reference`` formaliser answers each request with the suite's statement of the side
the request names in its metadata."""

from __future__ import annotations

from afcheck_reference.reference import ReferenceFormaliser

from afcheck.types import FormalisationStatus, FormaliseRequest

LEAN = {"lean": {"original": "theorem t : 2 + 3 = 5 := by sorry",
                 "perturbed": "theorem t : 2 + 3 = 6 := by sorry"},
        "given_perturbation": "So 2 + 3 = 6."}


def _request(text: str, **metadata: object) -> FormaliseRequest:
    return FormaliseRequest("s/p/1#x", text, metadata={**LEAN, **metadata})


def test_each_side_gets_its_own_statement() -> None:
    original, perturbed, unnamed = ReferenceFormaliser().formalise([
        _request("So 2 + 3 = 5.", side="original"),
        _request("So 2 + 3 = 6.", side="perturbed"),
        _request("So 2 + 3 = 5."),  # a request that names no side is an original
    ])
    assert original.statement == unnamed.statement == LEAN["lean"]["original"]  # type: ignore[index]
    assert perturbed.statement == LEAN["lean"]["perturbed"]  # type: ignore[index]
    assert all(f.status is FormalisationStatus.OK for f in (original, perturbed, unnamed))


def test_the_suites_perturbed_statement_is_only_for_the_suites_own_perturbation() -> None:
    [other] = ReferenceFormaliser().formalise([_request("So 2 + 3 = 7.", side="perturbed")])
    assert other.status is FormalisationStatus.AF_FAIL and other.statement is None
    assert other.reason == ("the reference statement belongs to the suite's own perturbation, "
                            "not to this one; use --perturber given")
    [bare] = ReferenceFormaliser().formalise([FormaliseRequest("k", "x")])
    assert bare.reason == "the suite has no reference statement for the original step"
