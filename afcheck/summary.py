"""The record of a finished run, the same for every evaluation method: what reporters read."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from afcheck import json_text
from afcheck.errors import LoadError
from afcheck.method import AnyMethod, ItemResult, JsonObject, MethodSummary
from afcheck.types import Status


@dataclass(frozen=True)
class Candidates:
    """Where a method's candidates came from in a run: which component (and model) wrote
    them for how many items, and how many items scored fixed candidates from their suite."""

    written: Mapping[str, int] = field(default_factory=dict)
    """``"fol formaliser llm (model=my-model, base_url=…)"`` → items."""
    fixed: int = 0
    about: Mapping[str, str] = field(default_factory=dict)
    """Per label, what the component is and what it can formalise (its registered
    description and ``fragment``), so that a first run says what it measured."""

    def line(self) -> str:
        parts = [f"{label} ({count} items)" if len(self.written) > 1 or self.fixed else label
                 for label, count in self.written.items()]
        if self.fixed:
            parts.append(f"fixed candidates from the suite ({self.fixed} items)")
        return "candidates: " + ("; ".join(parts) or "none")

    def described(self) -> list[str]:
        """One line per writer that says what it is: ``formaliser literal: rule-based: …``."""
        return [f"{label}: {self.about[label]}" for label in self.written if self.about.get(label)]

    def to_json(self) -> JsonObject:
        return {"written_by": dict(self.written), "fixed": self.fixed}


@dataclass(frozen=True)
class RunSummary:
    """Every item with its final status (unreadable records included, as failed items), each
    method's metrics, the gates, the configuration."""

    items: Sequence[ItemResult[object]]
    methods: Mapping[str, MethodSummary]
    """Each method's metrics, by method name, in the order the run met them."""
    config: Mapping[str, object] = field(default_factory=dict)
    gate_failures: tuple[str, ...] = ()
    """One line per gate that failed; empty when no gate was given or all held."""
    gates_held: tuple[str, ...] = ()
    """One line per gate that held."""
    timings: Mapping[str, float] = field(default_factory=dict)
    """Seconds spent inside each stage's backends."""
    implementations: Mapping[str, AnyMethod] = field(default_factory=dict)
    """The method objects that produced the items, to render their records."""
    rootdir: str = ""
    """The folder test paths are relative to (pytest's rootdir), for reports that show
    paths."""
    candidates: Mapping[str, Candidates] = field(default_factory=dict)
    """Per method, where the candidates it scored came from (a model, or the suite)."""
    metadata: Mapping[str, object] = field(default_factory=dict)
    """Where and when the run ran (:mod:`afcheck.metadata`): the result file's ``run``."""
    unreadable: int = 0
    """How many of :attr:`items` are records that could not be read (failed items whose
    result is their :class:`~afcheck.errors.LoadError`; no method's metrics count them)."""

    def record(self, item: ItemResult[object]) -> JsonObject:
        """The item's record in the JSON result file: its method's record, its method and its
        final status; its ``case_id`` (the test id) and ``group`` (dataset) unless the
        method's record names them, so that readers can pair and group items of any method."""
        if isinstance(item.result, LoadError):
            error = item.result
            data: JsonObject = {"unreadable": {"file": error.location.path,
                                               "line": error.location.line,
                                               "message": error.message}}
        else:
            data = self.implementations[item.case.method].to_json(item.result)
        data.setdefault("case_id", item.case.case_id)
        data.setdefault("group", item.case.group)
        data["method"] = item.case.method
        data["status"] = item.status.value
        return data

    def record_texts(self, *, utf8_safe: bool = True) -> Iterator[str]:
        """The JSON text of each item's :meth:`record`, in order: what
        ``json_text.encoder(ensure_ascii=False)`` writes for it, made UTF-8-safe
        (:func:`~afcheck.json_text.utf8_safe`) unless ``utf8_safe`` is false, for a writer that
        makes it so as it encodes (:func:`~afcheck.json_text.utf8`).

        A method's :meth:`~afcheck.method.Method.to_json_text` of a result, when it gives one,
        is the text of its ``to_json(result)``, a record with the same top-level keys for
        every result. Its items' texts are then that text with the keys :meth:`record` adds
        written after it; which of ``case_id`` and ``group`` those are is read once, from the
        method's record of its first item. A method whose record names ``method`` or
        ``status`` (which :meth:`record` overwrites in place) has its items written from
        :meth:`record`."""
        safe: Callable[[str], str] = json_text.utf8_safe if utf8_safe else str
        named: dict[str, tuple[bool, bool, str] | None] = {}
        """Per method with a text: whether its records name ``case_id`` and ``group``, and the
        text of its ``method`` member; ``None`` when its texts cannot be used."""
        for item in self.items:
            method = item.case.method
            text = None
            if not isinstance(item.result, LoadError) and named.get(method, ()) is not None:
                implementation = self.implementations[method]
                text = implementation.to_json_text(item.result)
                if text is not None and method not in named:
                    keys = implementation.to_json(item.result)
                    named[method] = (None if "method" in keys or "status" in keys
                                     else ("case_id" in keys, "group" in keys,
                                           f'"method": {_STRING(method)}'))
            names = named.get(method)
            if text is None or names is None:
                yield safe(_ENCODE(self.record(item)))
                continue
            # The members appended in place of the closing brace; "{}" has none before them.
            tail = [] if len(text) == 2 else [""]
            if not names[0]:
                tail.append(f'"case_id": {_STRING(item.case.case_id)}')
            if not names[1]:
                tail.append(f'"group": {_STRING(item.case.group)}')
            tail.append(names[2])
            tail.append(_STATUS[item.status])
            yield safe(text[:-1] + ", ".join(tail))

    def groups(self) -> dict[tuple[str, str], list[ItemResult[object]]]:
        """Items by (method, group), in order of first appearance."""
        out: dict[tuple[str, str], list[ItemResult[object]]] = {}
        for item in self.items:
            out.setdefault((item.case.method, item.case.group), []).append(item)
        return out


_ENCODE = json_text.encoder(ensure_ascii=False)
_STRING = json_text.string_text
_STATUS = {status: f'"status": {_STRING(status.value)}}}' for status in Status}
"""The last member of each record, with the record's closing brace."""
