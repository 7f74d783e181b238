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

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from afcheck.errors import LoadError, SuiteError
from afcheck.suites import DATA_DIR_ENV, SuiteSpec, find_in_data_dir
from afcheck.types import Location, Step

HUB_REPO = "Qwen/ProcessBench"
SPLITS = ("gsm8k", "math", "olympiadbench", "omnimath")
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
        for row, where in _rows(path):
            if row.get("label") != -1:
                continue
            yield from _steps_of(row, where, spec, mode)


def resolve(spec: SuiteSpec) -> Path:
    """The local file of the suite's split: data file, data dir, or the hub."""
    if spec.data:
        return spec.data_path()
    split = spec.split or spec.name
    if split not in SPLITS:
        raise SuiteError(spec.manifest, f"unknown ProcessBench split '{split}'; "
                         f"use one of {', '.join(SPLITS)}")
    local = find_in_data_dir([f"processbench/{split}.json", f"{split}.json"])
    if local is not None:
        return local
    hub_error = _from_hub(split)
    if isinstance(hub_error, Path):
        return hub_error
    raise SuiteError(
        spec.manifest,
        f"ProcessBench split '{split}' not found: set {DATA_DIR_ENV} to a folder holding "
        f"processbench/{split}.json (a copy of {HUB_REPO}), or install huggingface_hub with "
        f"access to the hub ({hub_error})",
    )


def _from_hub(split: str) -> Path | str:
    try:
        from huggingface_hub import hf_hub_download
    except ImportError:
        return "huggingface_hub is not installed"
    try:
        return Path(hf_hub_download(HUB_REPO, f"{split}.json", repo_type="dataset"))
    except Exception as exc:  # noqa: BLE001 - any hub failure means "not reachable"
        return f"the hub answered: {type(exc).__name__}"


def _rows(path: Path) -> Iterator[tuple[dict[str, Any], Location]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SuiteError(path, f"cannot read ProcessBench JSON: {exc}") from None
    if not isinstance(data, list):
        raise SuiteError(path, "expected a JSON array of ProcessBench rows")
    for index, row in enumerate(data):
        yield row, Location(str(path), index + 1)


def _steps_of(row: dict[str, Any], where: Location, spec: SuiteSpec,
              mode: str) -> Iterator[Step | LoadError]:
    problem_id = str(row.get("id", ""))
    steps = row.get("steps")
    if not problem_id or not isinstance(steps, list):
        yield LoadError(where, "row needs 'id' and a list 'steps' (record number shown)")
        return
    dataset = problem_id.rsplit("-", 1)[0] if "-" in problem_id else spec.name
    for index, paragraph in enumerate(steps):
        earlier = tuple(str(s) for s in steps[:index])
        if mode == "paragraph":
            yield _step(spec, dataset, row, problem_id, str(index), str(paragraph), earlier,
                        where, {"paragraph": index})
            continue
        yield from _claim_steps(spec, dataset, row, problem_id, index, str(paragraph),
                                earlier, where)


def _claim_steps(spec: SuiteSpec, dataset: str, row: dict[str, Any], problem_id: str,
                 index: int, paragraph: str, earlier: tuple[str, ...],
                 where: Location) -> Iterator[Step]:
    from afcheck_suites.claims import split_claims

    declared: list[str] = []
    for claim in split_claims(paragraph):
        if claim.kind != "claim":
            if claim.kind == "declarative":
                declared.append(claim.text)
            continue
        yield _step(spec, dataset, row, problem_id, f"{index}.{claim.index}", claim.text,
                    earlier + tuple(declared), where,
                    {"paragraph": index, "paragraph_text": paragraph})


def _step(spec: SuiteSpec, dataset: str, row: dict[str, Any], problem_id: str, node_id: str,
          text: str, context: tuple[str, ...], where: Location,
          extra: dict[str, Any]) -> Step:
    return Step(
        id=f"{spec.name}/{problem_id}/{node_id}",
        suite=spec.name,
        dataset=dataset,
        problem_id=problem_id,
        node_id=node_id,
        text=text,
        problem=str(row.get("problem", "")),
        context=context,
        metadata={"generator": row.get("generator", ""), **extra},
        source=where,
    )
