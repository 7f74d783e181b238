"""Reading the JSON result files that ``afcheck … --json FILE`` writes.

The reader checks only what the report and ``compare`` need (``schema``, ``version``, a list
of ``steps`` with a ``case_id``, or a method's own ``id``, and its ``method`` each, and each
method's typed ``metrics``, :class:`afcheck.metrics.Metrics`) and keeps every record as
written, so keys added later pass through untouched. A file written before records named
their method or before metrics were typed is refused with one line: re-run afcheck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from afcheck.errors import AfcheckError
from afcheck.jsonlines import read_json_document
from afcheck.metrics import Metrics

SCHEMA = "afcheck-results"
VERSIONS = (1,)

Record = Mapping[str, object]
"""One item's record as the result file holds it: its method's JSON object, with the run's
``case_id``, ``group``, ``method`` and ``status``."""


class RunFileError(AfcheckError):
    """A result file that cannot be used; ``str(error)`` is one line naming the file."""


@dataclass(frozen=True)
class RunFile:
    """One result file: where it came from, its header and its step records in file order."""

    path: Path
    label: str
    """A short name for the run in tables and charts (its formalisers, else the file stem)."""
    header: Mapping[str, object]
    """Every top-level key except ``steps``, as written."""
    steps: Sequence[Record] = field(default_factory=tuple)
    named: bool = False
    """Whether the label was given (``--label``); else each method's section names the run
    by that method's own formalisers (:func:`method_label`)."""
    metrics: Mapping[str, Metrics] = field(default_factory=dict)
    """Each method's typed metrics as the run wrote them (``methods.<name>.metrics``)."""

    @property
    def methods(self) -> list[str]:
        """The methods of the run's steps, in order of first appearance."""
        return list(dict.fromkeys(method_of(step) for step in self.steps))

    def steps_of(self, method: str) -> list[Record]:
        return [step for step in self.steps if method_of(step) == method]


def method_of(step: Record) -> str:
    """The step's method (:func:`parse` refuses a file with a step that names none)."""
    return str(step.get("method") or "")


def case_id_of(step: Record) -> str:
    """The step's case id: ``case_id``, else (files written before the run record named it
    for every method) the method's own ``id``."""
    for key in ("case_id", "id"):
        value = step.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def dataset_of(step: Record) -> str:
    """The step's dataset: its method's ``dataset``, else the run's ``group``."""
    for key in ("dataset", "group"):
        value = step.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def load(path: str | Path, label: str | None = None) -> RunFile:
    """Read one result file; raises :class:`RunFileError` with a one-line reason."""
    path = Path(path)
    try:
        if path.is_dir():
            raise RunFileError(f"{path}: is a directory, expected a JSON result file")
        # Bounded in size and depth: a damaged file is one line, never a RecursionError.
        document = read_json_document(path)
    except FileNotFoundError:
        raise RunFileError(f"{path}: no such file") from None
    except OSError as error:
        raise RunFileError(f"{path}: cannot read: {error.strerror or error}") from None
    if not document.ok:
        raise RunFileError(f"{document.location}: {document.problem}; expected the file "
                           "`afcheck --json FILE` writes (was the run interrupted while "
                           "writing it?)")
    return parse(document.value, path, label)


def parse(data: object, path: Path, label: str | None = None) -> RunFile:
    """Check and wrap a decoded result document (see :func:`load`)."""
    if not isinstance(data, dict):
        raise RunFileError(f"{path}: expected a JSON object, found {type(data).__name__}")
    schema = data.get("schema")
    if schema != SCHEMA:
        raise RunFileError(f"{path}: schema is {schema!r}, expected {SCHEMA!r} "
                           "(write it with `afcheck SUITE --json FILE`)")
    version = data.get("version")
    if version not in VERSIONS:
        known = ", ".join(map(str, VERSIONS))
        raise RunFileError(f"{path}: result file version {version!r} is not one this afcheck "
                           f"reads ({known}); upgrade afcheck or rewrite the file")
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise RunFileError(f"{path}: 'steps' is missing or not a list")
    for index, step in enumerate(steps):
        if not isinstance(step, dict) or not case_id_of(step):
            raise RunFileError(f"{path}: step {index} has no 'case_id' (or 'id') string")
        method = step.get("method")
        if not isinstance(method, str) or not method:
            raise RunFileError(f"{path}: step {index} names no 'method': the file was written "
                               f"by an older afcheck; re-run afcheck to write it again")
    header = {key: value for key, value in data.items() if key != "steps"}
    return RunFile(path, label or run_label(header, path), header, tuple(steps),
                   named=bool(label), metrics=typed_metrics(header, path))


def typed_metrics(header: Mapping[str, object], path: Path) -> dict[str, Metrics]:
    """Each method's typed metrics (``methods.<name>.metrics``); :class:`RunFileError` when
    one (or the top-level copy of a one-method run's) is not typed metrics."""
    methods = header.get("methods", {})
    if not isinstance(methods, dict):
        raise RunFileError(f"{path}: 'methods' is not an object of methods")
    found = {str(name): (f"methods.{name}.metrics", entry.get("metrics"))
             for name, entry in methods.items() if isinstance(entry, dict)}
    out: dict[str, Metrics] = {}
    for name, (where, data) in [*found.items(), ("", ("metrics", header.get("metrics")))]:
        if data is None:
            continue
        try:
            if not isinstance(data, dict) or not isinstance(data.get("overall"), dict):
                raise ValueError("no 'overall' object")
            metrics = Metrics.from_json(data)
        except ValueError:
            raise RunFileError(f"{path}: {where} are not typed metrics (rates, counts and "
                               "scores, each with its 'type'): the file was written by an "
                               "older afcheck; re-run afcheck to write it again") from None
        if name:
            out[name] = metrics
    return out


def run_label(header: Mapping[str, object], path: Path) -> str:
    """The run's formalisers (``literal``; ``kimina+herald``) or, without them, the file stem."""
    config = header.get("config")
    suites = config.get("suites") if isinstance(config, dict) else None
    names: list[str] = []
    if isinstance(suites, dict):
        for settings in suites.values():
            formaliser = settings.get("formaliser") if isinstance(settings, dict) else None
            if isinstance(formaliser, str):
                names.append(formaliser)
    names = list(dict.fromkeys(names))
    return "+".join(names) if names else path.stem


def unique_labels(runs: Sequence[RunFile]) -> list[RunFile]:
    """The runs with distinct labels: a repeated label gets its file stem added."""
    counts: dict[str, int] = {}
    for run in runs:
        counts[run.label] = counts.get(run.label, 0) + 1
    out: list[RunFile] = []
    seen: set[str] = set()
    for run in runs:
        label = run.label if counts[run.label] == 1 else f"{run.label} ({run.path.stem})"
        while label in seen:
            label += "'"
        seen.add(label)
        out.append(RunFile(run.path, label, run.header, run.steps, run.named, run.metrics))
    return out


def method_label(run: RunFile, method: str) -> str:
    """How one method's section names the run: the components that wrote that method's
    candidates (``reference`` for an nl2fol run whose faithfulness suites used ``literal``),
    from the file's ``methods.<method>.candidates``; the run's label when the file does not
    say, or when the label was given."""
    if run.named:
        return run.label
    methods = run.header.get("methods")
    entry = methods.get(method) if isinstance(methods, dict) else None
    candidates = entry.get("candidates") if isinstance(entry, dict) else None
    written = candidates.get("written_by") if isinstance(candidates, dict) else None
    if not isinstance(written, dict) or not written:
        return run.label
    # A writer's label reads "<kind words> <name>[ (model=…, …)]": the name is its last word
    # before the parenthesis.
    names = [str(label).split(" (", 1)[0].rsplit(" ", 1)[-1] for label in written]
    return "+".join(dict.fromkeys(names))
