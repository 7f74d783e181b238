"""The records the core's Lean kinds share, and the status of a test item.

Every Lean method (``faithfulness``, ``equivalence``) talks to the same components through
these records: a :class:`FormaliseRequest` → (formaliser) → :class:`Formalisation` →
(checker) → :class:`Formalisation` → a :class:`ProofTask` → (prover) → :class:`Verdict`. A
method's own item and result records are its package's (``afcheck_faithfulness.records``:
``Step``, ``Perturbation``, ``CaseResult``; ``afcheck_equivalence.records``: ``Pair``,
``Decision``). :class:`Status` is how any item shows as a test.

Every record is a frozen dataclass with no behaviour beyond small derived properties;
stages never mutate what they receive, they return new records (``dataclasses.replace``).
:func:`to_json` writes any of them, or any method's dataclass records, as plain JSON data;
:func:`to_json_text` writes the JSON text of that data without making it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from afcheck import json_text


@dataclass(frozen=True)
class Location:
    """Where a record came from, for error messages and reports."""

    path: str
    line: int = 0
    record: int | None = None
    """The record's number in its file (from 1), given when a line does not name it alone
    (records of a one-line JSON array)."""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return where if self.record is None else f"{where} (record {self.record})"


class FormalisationStatus(str, enum.Enum):
    """Result of formalising one input; both failures count as AF(x) = ∅ in the metrics."""

    OK = "ok"
    AF_FAIL = "af_fail"
    """Nothing extractable, prompt over budget, backend error."""
    TC_FAIL = "tc_fail"
    """Extracted, but does not type-check with ``by sorry``."""


@dataclass(frozen=True)
class FormaliseRequest:
    """One input to formalise. Formalisers receive all requests of a run in one batch.

    The record is the same for every method: what a request stands for in its method (a
    step's original or perturbed side, an item's candidate) is the method's to say, in
    :attr:`metadata`."""

    key: str
    """The method's name for the request, unique within a batch (``<item id>#<what of
    it>``: ``gsm8k/gsm8k-216/4#original``): a formaliser answers under it, and may seed its
    sampling from it."""
    text: str
    context: tuple[str, ...] = ()
    """Earlier or parent texts, in order, given with :attr:`text`."""
    problem: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """What the method knows of the input beyond its text, for the formalisers that read it
    (the faithfulness method: the step's data, its ``step_id`` and ``side``, ``original``
    or ``perturbed``)."""


@dataclass(frozen=True)
class Usage:
    """Token counts and cost of a model call, when the backend reports them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost_usd: float | None = None
    finish_reason: str = ""


@dataclass(frozen=True)
class Formalisation:
    """A formaliser's answer to one :class:`FormaliseRequest`."""

    key: str
    formaliser: str
    status: FormalisationStatus
    statement: str | None = None
    """The extracted Lean theorem statement (``theorem … : … := by sorry``)."""
    header: str = ""
    """Imports, ``open``, ``set_option`` and auxiliary definitions that came with it."""
    raw_output: str = ""
    reason: str = ""
    """Why it failed, in one line; empty when ``status`` is OK."""
    usage: Usage | None = None
    transient: bool = False
    """A backend error (HTTP error, timeout, malformed reply), not the model's answer: the
    result cache never keeps it, so the next run asks again."""

    @property
    def ok(self) -> bool:
        return self.status is FormalisationStatus.OK


class VerdictKind(str, enum.Enum):
    """⊤ / ⊥ / ∅ of the paper."""

    PROVED = "proved"
    REFUTED = "refuted"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class ProofTask:
    """One statement to prove or refute. Provers receive all tasks of a run in one batch."""

    key: str
    statement: str
    header: str = ""


@dataclass(frozen=True)
class Verdict:
    """A prover's decision on one statement, with its evidence."""

    kind: VerdictKind
    backend: str
    """Which backend decided (``smt``, ``lean-tactics``, ``deepseek`` …)."""
    certified: bool = False
    """True only when a judge certified the proof from its compiled module
    (:attr:`judged_by` names it); a Lean REPL's answer alone never certifies."""
    reason: str = ""
    evidence: str = ""
    """A proof text, or a rendering of the counterexample."""
    counterexample: Mapping[str, str] | None = None
    elapsed_s: float = 0.0
    transient: bool = False
    """INCONCLUSIVE because a limit stopped the prover (its time, a killed worker), not
    because of the statement: this run's answer, never cached for the next one."""
    judged_by: str = ""
    """The judge that certified it (``comparator``, ``afcheck`` …); empty when none did."""
    unjudged: VerdictKind | None = None
    """What a Lean REPL accepted a proof of when no judge certified it: under ``--trust
    judge`` (the default) the verdict is then INCONCLUSIVE and this keeps the claim."""

    @property
    def standing(self) -> str:
        """What stands behind the verdict, for reports: ``judged:NAME``, ``unjudged`` (a Lean
        REPL's proof no judge certified, whatever the trust counted it as), ``uncertified``
        (a decision without a judge: smt), or ``""`` for an INCONCLUSIVE that claims
        nothing."""
        if self.judged_by:
            return f"judged:{self.judged_by}"
        if self.unjudged is not None:
            return "unjudged"
        if self.kind is VerdictKind.INCONCLUSIVE:
            return ""
        return "uncertified"


class Status(str, enum.Enum):
    """How a test item shows: a method's outcome gives PASSED, FAILED or SKIPPED
    (:class:`afcheck.method.ItemOutcome`); the run turns a failure the baseline expects into
    XFAILED."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    XFAILED = "xfailed"
    """Failed, and listed as failing in the baseline (never a method's own outcome)."""


def to_json(record: Any) -> Any:
    """Plain JSON-ready data for a record: dataclasses by field, enums by value, mappings and
    sequences item by item."""
    kind = type(record)
    if kind in _PLAIN:
        return record
    convert = _CONVERTERS.get(kind)
    if (convert is None and hasattr(record, "__dataclass_fields__")
            and not isinstance(record, type)):  # a dataclass itself is no record
        convert = _CONVERTERS[kind] = _converter(tuple(f.name for f in fields(record)))
    if convert is not None:
        return convert(record)
    if isinstance(record, enum.Enum):
        return record.value
    if isinstance(record, Mapping):
        return {str(k): v if type(v) in _PLAIN else to_json(v) for k, v in record.items()}
    if isinstance(record, (list, tuple)):
        return [v if type(v) in _PLAIN else to_json(v) for v in record]
    return record


def _converter(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """:func:`to_json` of one dataclass with the fields ``names``, as one function made for
    it: a walk over the fields, not ``dataclasses.asdict`` (that deep-copies every value
    first), with each field read and tested in the function's own code rather than in a loop
    (a loop's getattr and stores cost more than the test). Most fields are plain (text,
    numbers) and are kept as they are without a call."""
    reads = "".join(f"    v{i} = record.{name}\n" for i, name in enumerate(names))
    items = ", ".join(f"{name!r}: v{i} if type(v{i}) in _PLAIN else to_json(v{i})"
                      for i, name in enumerate(names))
    source = f"def convert(record):\n{reads}    return {{{items}}}\n"
    scope: dict[str, Any] = {"_PLAIN": _PLAIN, "to_json": to_json}
    # Field names are identifiers (a dataclass checks them), so the source is only reads.
    exec(source, scope)
    converter: Callable[[Any], dict[str, Any]] = scope["convert"]
    return converter


_PLAIN = frozenset({str, int, float, bool, type(None)})
_CONVERTERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def to_json_text(record: Any) -> str:
    """The text ``json_text.encoder(ensure_ascii=False)`` writes for ``to_json(record)``, the
    same character for character (lone surrogates kept: see :func:`json_text.utf8_safe`).

    A dataclass is written by one function made for its fields, as :func:`to_json` converts
    it, but into text: the result file's step records hold about nine records each, and the
    dicts :func:`to_json` would make for them cost as much again as encoding them. Each
    field's text comes from a function looked up by the value's type: text, numbers, ``None``,
    booleans and ``str`` enums by C functions; other values (mappings, sequences, other
    enums) through :func:`to_json` and the C encoder."""
    return _TEXT[type(record)](record)


class _TextOfType(dict[type, Callable[[Any], str]]):
    """The text function of each type met, made on first use."""

    def __missing__(self, kind: type) -> Callable[[Any], str]:
        made = self[kind] = _text_function(kind)
        return made


def _text_function(kind: type) -> Callable[[Any], str]:
    if hasattr(kind, "__dataclass_fields__"):  # a record (a dataclass itself is a ``type``)
        return _text_converter(tuple(f.name for f in fields(kind)))
    if issubclass(kind, enum.Enum):
        if issubclass(kind, str) and all(str.__str__(m) == m.value for m in kind):
            # A str enum's member is a str holding its value: the C string encoder writes
            # that text directly, without the Python-level ``.value`` property.
            return json_text.string_text
        return lambda member: to_json_text(member.value)
    if kind is float:
        return _float_text
    return lambda value: _ENCODE(to_json(value))


def _float_text(value: float) -> str:
    """``json``'s text of a float: its ``repr``, except NaN and the infinities."""
    text = float.__repr__(value)
    return text if text[-1].isdigit() else _ENCODE(value)


def _text_converter(names: tuple[str, ...]) -> Callable[[Any], str]:
    """:func:`to_json_text` of one dataclass with the fields ``names``: one f-string (a
    single allocation, where ``+`` would copy the text so far once per field) of each
    field's key, written once here, and its value's text."""
    reads = "".join(f"    v{i} = record.{name}\n" for i, name in enumerate(names))
    # Field names are identifiers: their JSON text is themselves in quotes, with no brace
    # or quote to escape inside the f-string.
    members = ", ".join(f'"{name}": {{_TEXT[type(v{i})](v{i})}}' for i, name in enumerate(names))
    source = f"def convert(record):\n{reads}    return f'{{{{{members}}}}}'\n"
    scope: dict[str, Any] = {"_TEXT": _TEXT}
    exec(source, scope)
    converter: Callable[[Any], str] = scope["convert"]
    return converter


_ENCODE = json_text.encoder(ensure_ascii=False)
_TEXT = _TextOfType({
    str: json_text.string_text,
    int: int.__repr__,
    bool: {True: "true", False: "false"}.__getitem__,
    type(None): {None: "null"}.__getitem__,
})
"""The text function of each type; C functions for the plain ones (``bool`` before ``int``
is not needed: a dict looks up the exact type)."""
