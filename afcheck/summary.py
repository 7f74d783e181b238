"""The record of a finished run, the same for every evaluation method: what reporters read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from afcheck.method import AnyMethod, ItemResult, JsonObject, MethodSummary


@dataclass(frozen=True)
class RunSummary:
    """Every item with its final status, each method's metrics, the gates, the configuration."""

    items: Sequence[ItemResult[object]]
    methods: Mapping[str, MethodSummary]
    """Each method's metrics, by method name, in the order the run met them."""
    config: Mapping[str, object] = field(default_factory=dict)
    gate_failures: tuple[str, ...] = ()
    """One line per gate that failed; empty when no gate was given or all held."""
    timings: Mapping[str, float] = field(default_factory=dict)
    """Seconds spent inside each stage's backends."""
    implementations: Mapping[str, AnyMethod] = field(default_factory=dict)
    """The method objects that produced the items, to render their records."""
    rootdir: str = ""
    """The folder test paths are relative to (pytest's rootdir), for reports that show
    paths."""

    def record(self, item: ItemResult[object]) -> JsonObject:
        """The item's record in the JSON result file: its method's record, its method and its
        final status; its ``case_id`` (the test id) and ``group`` (dataset) unless the
        method's record names them, so that readers can pair and group items of any method."""
        method = self.implementations[item.case.method]
        data = method.to_json(item.result)
        data.setdefault("case_id", item.case.case_id)
        data.setdefault("group", item.case.group)
        data["method"] = item.case.method
        data["status"] = item.status.value
        return data

    def groups(self) -> dict[tuple[str, str], list[ItemResult[object]]]:
        """Items by (method, group), in order of first appearance."""
        out: dict[tuple[str, str], list[ItemResult[object]]] = {}
        for item in self.items:
            out.setdefault((item.case.method, item.case.group), []).append(item)
        return out
