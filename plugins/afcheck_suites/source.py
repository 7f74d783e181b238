"""ProcessBench's released files: where a split is found, its rows, and a step of a row.

Shared by the ``processbench`` suite kind and the ``afcheck dag`` command, which both read
the same rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import named_by_line, read_json_array
from afcheck.suites import DATA_DIR_ENV, SuiteSpec, find_in_data_dir
from afcheck.types import Location

HUB_REPO = "Qwen/ProcessBench"
SPLITS = ("gsm8k", "math", "olympiadbench", "omnimath")


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


def rows(path: Path) -> Iterator[tuple[object, Location]]:
    """Each element of the file's JSON array with the line it starts on, so that a report
    points at the record itself; an element that cannot be read (bad bytes, nested too deep,
    not JSON) is a :class:`LoadError` in its place, and the elements after it still read."""
    try:
        elements = list(read_json_array(path))
    except OSError as exc:
        raise SuiteError(path, f"cannot read ProcessBench JSON: {exc.strerror}") from None
    for element in named_by_line(elements):
        if element.fatal:  # not an array at all: the whole file
            raise SuiteError(element.location, f"{element.problem} (ProcessBench rows); "
                             "download the split again")
        where = element.location
        if element.ok:
            yield element.value, where
        else:
            yield LoadError(where, element.problem), where


@dataclass(frozen=True)
class RowSteps:
    """What every step made of one row shares, worked out once for the row rather than once
    per step: a ProcessBench row makes a dozen steps or more."""

    suite: str
    dataset: str
    problem_id: str
    problem: str
    generator: object
    where: Location

    @classmethod
    def of(cls, spec: SuiteSpec, row: Mapping[str, Any], problem_id: str,
           where: Location) -> RowSteps:
        """The row's shared fields; its dataset is the problem id's part before its last
        ``-`` (``gsm8k-12`` → ``gsm8k``), else the suite's name."""
        dataset = problem_id.rsplit("-", 1)[0] if "-" in problem_id else spec.name
        return cls(spec.name, dataset, problem_id, str(row.get("problem", "")),
                   row.get("generator", ""), where)

    def step(self, node_id: str, text: str, context: tuple[str, ...],
             extra: Mapping[str, Any]) -> Step:
        """The step ``node_id`` of the row; its metadata is the row's generator and
        ``extra``."""
        return Step(
            id=f"{self.suite}/{self.problem_id}/{node_id}",
            suite=self.suite,
            dataset=self.dataset,
            problem_id=self.problem_id,
            node_id=node_id,
            text=text,
            problem=self.problem,
            context=context,
            metadata={"generator": self.generator, **extra},
            source=self.where,
        )
