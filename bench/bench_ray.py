"""The ``ray`` executor against the local process pool, on the same prove stage.

Work: the statements the ``literal`` formaliser makes of the ProcessBench gsm8k and math
claims (``--steps claims``; data from ``$AFCHECK_DATA_DIR``, default ``../shared/data``), each
proved once by the ``smt`` prover through :meth:`afcheck.runtime.Runtime.cached`, without a
cache, in chunks of ``--chunk-size``.

- local: the default executor, the ``smt`` prover with a process pool of ``--jobs`` workers
  (which it starts only for batches long enough to pay for it);
- ray: a two-node Ray cluster on loopback (``ray start`` twice, one CPU per node, started and
  stopped here), one ``smt`` actor per node (``jobs=1``), inside a network namespace with
  loopback only when run as root (:func:`ray_cluster.loopback_only`; stderr says which), so
  nothing the cluster opens is reachable from outside.

Prints ``name value target``:

- ``ray_local_wall_ratio``: ray wall time / local wall time (information: on one machine the
  cluster adds only its overhead; on several it divides the work);
- ``ray_chunk_overhead_ms``: per chunk, the ray path's time not spent proving
  ((wall × actors − prover seconds) / chunks), target ≤ 50 ms;
- ``ray_verdicts_equal``: 1 when both runs gave the same verdicts (target 1).

``--quick`` skips it: starting a cluster alone takes longer than the quick set allows.
Needs ``pip install 'afcheck[ray]'``; without ray it prints ``nan`` figures and says why.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def statements(limit: int) -> list[str]:
    """Distinct statements the literal formaliser makes of the ProcessBench claims."""
    from afcheck_faithfulness.records import Step

    from afcheck.plugins import Plugins
    from afcheck.registry import FORMALISER, SUITE_KIND
    from afcheck.suites import load_spec
    from afcheck.types import FormaliseRequest

    plugins = Plugins()
    formaliser = plugins.create(FORMALISER, "literal", {})
    found: dict[str, None] = {}
    for suite in ("gsm8k", "math"):
        spec = load_spec(ROOT / "suites" / suite)
        spec = replace(spec, settings={**spec.defaults, "steps": "claims"})
        kind = plugins.create(SUITE_KIND, spec.kind, {})
        steps = [r for r in kind.load(spec) if isinstance(r, Step)]
        requests = [FormaliseRequest(f"{s.id}#original", s.text, s.context,
                                     s.problem) for s in steps]
        for made in formaliser.formalise(requests):
            if made.ok and made.statement:
                found.setdefault(made.statement, None)
    return list(found)[:limit]


def prove(executor: object, options: dict[str, str], texts: list[str],
          chunk_size: int) -> tuple[float, list[str], float, int]:
    """Wall seconds, verdict kinds, prover seconds and chunks of one run of the stage."""
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.registry import PROVER
    from afcheck.runtime import Components, Runtime
    from afcheck.runtime import cache as codec
    from afcheck.types import ProofTask

    components = Components(Plugins())
    runtime = Runtime(components, chunk_size=chunk_size, executor=executor)  # type: ignore
    built = runtime.component(PROVER, Choice.of("smt", options))
    tasks = [ProofTask(str(i), text) for i, text in enumerate(texts)]
    # Warm the driver's copy (z3's first use) as the ray actors are warmed: only the
    # stage itself is timed.
    built.component.prove(tasks[:8])
    began = time.perf_counter()
    batch = runtime.cached("prove", built, tasks, key=lambda t: (t.statement, t.header),
                           call=lambda chunk: built.component.prove(chunk),
                           load=codec.load_verdict, dump=codec.dump)
    wall = time.perf_counter() - began
    components.close()
    chunks = -(-len(tasks) // chunk_size)
    return wall, [v.kind.value for v in batch.results], runtime.times.total, chunks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip (see the docstring)")
    parser.add_argument("--limit", type=int, default=4000, help="statements at most")
    parser.add_argument("--chunk-size", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=2, help="local process pool size")
    args = parser.parse_args()
    names = ("ray_local_wall_ratio", "ray_chunk_overhead_ms", "ray_verdicts_equal")
    targets = ("-", "50", "1")
    if args.quick:
        print("# skipped with --quick: starting a two-node Ray cluster takes too long")
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        for name, target in zip(names, targets, strict=True):
            print(f"{name} nan {target}")
        print("# ray is not installed: pip install 'afcheck[ray]'", file=sys.stderr)
        return
    os.environ.setdefault("AFCHECK_DATA_DIR", str(ROOT.parent / "shared" / "data"))
    import ray_cluster
    from afcheck_ray.executor import RayExecutor

    from afcheck.runtime.executor import LocalExecutor

    texts = statements(args.limit)
    print(f"# {len(texts)} statements, chunks of {args.chunk_size}", file=sys.stderr)
    local_wall, local_kinds, _, chunks = prove(LocalExecutor(), {"jobs": str(args.jobs)},
                                               texts, args.chunk_size)
    with ray_cluster.loopback_only() as network:
        print("# network: " + ("a namespace of its own, loopback only" if not network.why
                               else f"not isolated ({network.why})"), file=sys.stderr)
        os.environ.update(ray_cluster.ENVIRONMENT)
        cluster = ray_cluster.start(cpus_per_node=1, nodes=2)
        try:
            executor = RayExecutor({"address": cluster.address, "timeout_s": "120"})
            try:
                # Warm the actors first: their start is paid once per run, not per chunk.
                prove(executor, {"jobs": "1"}, texts[:2], 1)
                ready = executor.wait_ready(120)
                executor.chunks_by_node.clear()
                ray_wall, ray_kinds, busy, chunks = prove(executor, {"jobs": "1"}, texts,
                                                          args.chunk_size)
                actors = len(executor.chunks_by_node)
                print(f"# {ready} actors ready; {executor.describe()}", file=sys.stderr)
            finally:
                executor.close()
                ray.shutdown()
        finally:
            cluster.stop()
    overhead_ms = max(0.0, ray_wall * max(1, actors) - busy) / max(1, chunks) * 1000
    print(f"{names[0]} {ray_wall / local_wall:.3f} {targets[0]}")
    print(f"{names[1]} {overhead_ms:.1f} {targets[1]}")
    print(f"{names[2]} {int(ray_kinds == local_kinds)} {targets[2]}")
    print(f"# local {local_wall:.2f} s (jobs={args.jobs}); ray {ray_wall:.2f} s on {actors} "
          f"node(s), {chunks} chunks, {busy:.2f} prover-seconds", file=sys.stderr)


if __name__ == "__main__":
    main()
