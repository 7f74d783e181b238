"""A run's steps taken by hand, without the pytest bridge: the toy method's claims suite
collected, planned and executed in this process (the tests of plan, execution and finish)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from afcheck.chooser import Chooser
from afcheck.collect import Collector
from afcheck.execution import Results, close_runtime, execute, open_runtime
from afcheck.method import BadRecord, Case
from afcheck.plan import Plan, plan
from afcheck.plugins import Plugins
from afcheck.runtime import Components, StageTimes
from afcheck.runtime.progress import Progress

CLAIMS = [
    {"id": "c1", "claim": "2 + 3 = 5", "expected": "proved", "group": "easy"},
    {"id": "c2", "claim": "2 + 3 = 6", "expected": "refuted", "group": "easy"},
    {"id": "c3", "claim": "2 * 3 = 7", "expected": "proved", "group": "hard"},
    {"id": "c4", "claim": "? = 1", "expected": "inconclusive", "group": "hard"},
]


def claims_suite(root: Path, name: str = "claims", rows: Sequence[object] = CLAIMS,
                 defaults: str = "") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "{name}"\nkind = "claims"\ndata = "claims.jsonl"\n'
        + (f"\n[afcheck.defaults]\n{defaults}\n" if defaults else ""))
    (folder / "claims.jsonl").write_text(
        "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return folder


class Steps:
    """One run's plugins (the test plugins ``arith`` and ``toymethod``), options and the
    objects its steps share."""

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        self.plugins = Plugins(autoload=False)
        self.plugins.register_module("arith")
        self.plugins.register_module("toymethod")
        self.options = dict(options or {})
        self.chooser = Chooser(self.plugins, self.options.get)
        self.collector = Collector(self.plugins, self.options.get, self.chooser)
        self.components = Components(self.plugins)

    def collect(self, *folders: Path) -> tuple[list[Case[object]], list[BadRecord]]:
        cases: list[Case[object]] = []
        bad: list[BadRecord] = []
        for folder in folders:
            for made in self.collector.collect(folder, folder.name):
                if isinstance(made, BadRecord):
                    bad.append(made)
                else:
                    cases.append(made)
        return cases, bad

    def plan(self, *folders: Path, build: bool = True) -> Plan:
        cases, bad = self.collect(*folders)
        return plan(cases, plugins=self.plugins, option=self.options.get, chooser=self.chooser,
                    methods=self.collector.methods, method=self.collector.method,
                    specs=self.collector.specs,
                    suites=self.collector.settings,
                    components=self.components if build else None, unreadable=bad)

    def execute(self, planned: Plan) -> Results:
        runtime = open_runtime(planned, self.plugins, self.components, cache=None,
                               chunk_size=8, progress=Progress(enabled=False),
                               times=StageTimes())
        try:
            return execute(planned, runtime)
        finally:
            close_runtime(runtime, self.components)
            if runtime.spool is not None:
                runtime.spool.close()
