"""The ``processbench`` suite kind: ProcessBench chains whose every step is correct.

FaithformBench uses only the error-free chains (``label == -1``). Three step modes:

``paragraph``
    each released paragraph is a step; earlier paragraphs are its context.
``claims``
    each paragraph is split into the mathematical claims it asserts (``claims.split_claims``);
    declarative claims ("Let x = 5") stay context, the others are steps.
``dag``
    the paper's LLM re-split into a DAG of atomic statements, read from the file that
    ``afcheck dag SUITE_DIR --llm-opt …`` writes (``dag.py``): each non-declarative node is a
    step, its parents' contents its context. Collection reads that file and never calls a
    model.

Data is looked up in ``$AFCHECK_DATA_DIR`` (``processbench/<split>.json`` or
``<split>.json``), then on the Hugging Face hub when ``huggingface_hub`` is installed and the
hub is reachable.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import place_name
from afcheck.suites import SuiteSpec
from afcheck.types import Location
from afcheck_suites.claims import split_claims
from afcheck_suites.fields import id_problem
from afcheck_suites.source import HUB_REPO, SPLITS, RowSteps, resolve, rows

__all__ = ["HUB_REPO", "SPLITS", "ProcessBenchSuite"]

MODES = ("paragraph", "claims", "dag")


class ProcessBenchSuite:
    name = "processbench"
    method = "faithfulness"

    def load(self, spec: SuiteSpec) -> Iterator[Step | LoadError]:
        mode = spec.setting("steps") or "paragraph"
        if mode not in MODES:
            raise SuiteError(spec.manifest, f"unknown step mode '{mode}'; use one of "
                             f"{', '.join(MODES)} (--steps)")
        if mode == "dag":
            from afcheck_suites.dag import load_steps

            yield from load_steps(spec)
            return
        path = resolve(spec)
        for row, where in rows(path):
            if isinstance(row, LoadError):
                yield row
                continue
            if not isinstance(row, dict):
                yield LoadError(where, f"a ProcessBench row is a JSON object, not "
                                f"{type(row).__name__}; fix or remove the record")
                continue
            if row.get("label") != -1:
                continue
            yield from _steps_of(row, where, spec, mode)


def _steps_of(row: dict[str, Any], where: Location, spec: SuiteSpec,
              mode: str) -> Iterator[Step | LoadError]:
    # A row without an id is named by its place in the file (``line12``).
    problem_id = str(row.get("id", "")) or place_name(where)
    steps = row.get("steps")
    if not isinstance(steps, list):
        yield LoadError(where, "row needs a list 'steps'")
        return
    problem = id_problem("id", row["id"]) if "id" in row else None
    if problem is not None:
        yield LoadError(where, problem)
        return
    shared = RowSteps.of(spec, row, problem_id, where)
    paragraphs = [str(paragraph) for paragraph in steps]
    for index, paragraph in enumerate(paragraphs):
        earlier = tuple(paragraphs[:index])
        if mode == "paragraph":
            yield shared.step(str(index), paragraph, earlier, {"paragraph": index})
            continue
        yield from _claim_steps(shared, index, paragraph, earlier)


def _claim_steps(shared: RowSteps, index: int, paragraph: str,
                 earlier: tuple[str, ...]) -> Iterator[Step]:
    """The claim steps of one paragraph; each has the earlier paragraphs and the
    paragraph's declaratives before it as its context."""
    context = earlier
    for claim in split_claims(paragraph):
        if claim.kind != "claim":
            if claim.kind == "declarative":
                context += (claim.text,)
            continue
        yield shared.step(f"{index}.{claim.index}", claim.text, context,
                          {"paragraph": index, "paragraph_text": paragraph})
