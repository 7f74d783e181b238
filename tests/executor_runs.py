"""What the executors' tests run: a batch of statements proved through a runtime with a given
executor, and a short run of ``suites/examples`` as a user runs it (its JSON results, its
output, what each step came to)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from conftest import ROOT

from afcheck.components import Built, Prover
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import PROVER
from afcheck.runtime import Batch, Components, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.executor import Executor
from afcheck.types import ProofTask, Verdict, VerdictKind


def examples_json(tmp_path: Path, name: str, *options: str, limit: int = 12,
                  env: dict[str, str] | None = None) -> tuple[dict[str, object], str]:
    """``afcheck suites/examples`` on its first ``limit`` steps in chunks of 4, without the
    cache, with ``options``: the JSON results and the output."""
    target = tmp_path / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(ROOT / "suites" / "examples"), "--limit",
         str(limit), "--chunk-size", "4", "--no-cache", "-q", "--json", str(target), *options],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, **(env or {})})
    assert target.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(target.read_text(encoding="utf-8")), done.stdout


def outcomes(results: dict[str, object]) -> list[tuple[object, ...]]:
    """Each step's case, outcome and the verdicts on its two statements."""
    steps = results["steps"]
    assert isinstance(steps, list)
    return [(s["case_id"], s["outcome"], (s["z"] or {}).get("kind"),
             (s["z_bar"] or {}).get("kind")) for s in steps]


def slowprove_plugins() -> Plugins:
    """The installed plugins and ``slowprove`` (its ``slow-arith`` prover), which a worker
    process or a Ray worker imports by name."""
    plugins = Plugins()
    plugins.register_module("slowprove")
    return plugins


def numbered(statements: list[str]) -> list[ProofTask]:
    return [ProofTask(str(i), s) for i, s in enumerate(statements)]


Call = Callable[[list[ProofTask]], Sequence[Verdict]]


def prove(executor: Executor, choice: Choice, batch: list[ProofTask], *,
          plugins: Plugins | None = None, cache_dir: Path | None = None,
          chunk_size: int = 4, call: Callable[[Prover], Call] | None = None) -> Batch[Verdict]:
    """``batch`` proved by ``choice`` through a runtime with ``executor``, in chunks of
    ``chunk_size``, through the cache in ``cache_dir`` when given; the stage's call is
    ``call(prover)`` when given, the prover's ``prove`` otherwise."""
    components = Components(plugins or slowprove_plugins())
    cache = codec.open_cache(cache_dir) if cache_dir is not None else None
    runtime = Runtime(components, cache=cache, chunk_size=chunk_size, executor=executor)
    built = runtime.component(PROVER, choice)
    stage_call: Call = (call(built.component) if call is not None
                        else lambda chunk: built.component.prove(chunk))
    try:
        return runtime.cached("prove", cast("Built[object]", built), batch,
                              key=lambda t: (t.statement, t.header), call=stage_call,
                              load=codec.load_verdict, dump=codec.dump)
    finally:
        components.close()
        if cache is not None:
            cache.close()


def kinds(batch: Batch[Verdict]) -> list[tuple[VerdictKind, str]]:
    return [(v.kind, v.evidence) for v in batch.results]
