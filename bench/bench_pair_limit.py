"""What the pair limit costs: ``sae`` with ``smt`` on ``suites/equivalence-*`` decided through
the limit's worker pool (the default) against the same criterion decided in this process (the
path without a limit).

Prints ``name value target``:

- ``pair_limit_wall_ratio``: wall seconds of every pair through the limit over in process,
  chunks of 256 as a run sends them (target ≤ 1.5: the limit must not make runs slower);
- ``pair_limit_one_pair_extra_s``: the extra seconds of a run of one pair (the workers'
  start: spawn, imports, building the criterion; information);
- ``pair_limit_decisions_differ``: pairs decided differently (target 0; z3's own 2 s timeout
  on a loaded machine can turn one of the slowest pairs Inconclusive on either side).

Usage: ``python bench/bench_pair_limit.py [--quick]`` (``--quick``: the first 20 items of
each suite).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from afcheck_equivalence.records import Decision, Pair

ROOT = Path(__file__).resolve().parent.parent
SUITES = ("equivalence-unrelated", "equivalence-perturbations", "equivalence-rewrites")
CHUNK = 256


def main(argv: list[str] | None = None) -> int:
    from afcheck_equivalence.kinds import CRITERION
    from afcheck_equivalence.limit import limit_for
    from afcheck_equivalence.method import Equivalence
    from afcheck_equivalence.records import Pair

    from afcheck.method import Choice
    from afcheck.plugins import get_plugins
    from afcheck.runtime import Components

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    pairs: list[Pair] = []
    for suite in SUITES:
        rows = [json.loads(line) for line in
                (ROOT / "suites" / suite / "items.jsonl").read_text().splitlines() if line]
        pairs += [Pair(r["id"], r["reference"], r["candidate"], r.get("header", ""))
                  for r in rows[: 20 if args.quick else None] if r.get("candidate")]
    components = Components(get_plugins())
    try:
        sae = components.get(CRITERION, Choice.of("sae", {"prover": "smt"})).component
        budget = Equivalence.budgets["pair"]

        def limited(batch: list[Pair]) -> list[Decision]:
            limit = limit_for(components, sae, "sae", budget)
            assert limit is not None
            try:
                out: list[Decision] = []
                for start in range(0, len(batch), CHUNK):
                    out += limit.decide(batch[start:start + CHUNK])
                return out
            finally:
                limit.close()

        def here(batch: list[Pair]) -> list[Decision]:
            out: list[Decision] = []
            for start in range(0, len(batch), CHUNK):
                out += sae.decide(batch[start:start + CHUNK])
            return out

        here(pairs[:1])  # z3 and the front end imported here, as a run has them already
        one_here, one_limited = _seconds(here, pairs[:1]), _seconds(limited, pairs[:1])
        started = time.perf_counter()
        in_process = here(pairs)
        in_process_s = time.perf_counter() - started
        started = time.perf_counter()
        through = limited(pairs)
        limited_s = time.perf_counter() - started
    finally:
        components.close()
    differ = sum(a.kind is not b.kind for a, b in zip(in_process, through, strict=True))
    for pair, a, b in zip(pairs, in_process, through, strict=True):
        if a.kind is not b.kind:
            print(f"# {pair.key}: in process {a.kind.value} ({a.reason[:120]}), through the "
                  f"limit {b.kind.value} ({b.reason[:120]})", file=sys.stderr)
    print(f"pair_limit_wall_ratio {limited_s / in_process_s:.2f} 1.5")
    print(f"pair_limit_one_pair_extra_s {one_limited - one_here:.2f} -")
    print(f"pair_limit_decisions_differ {differ} 0")
    return 0


def _seconds(decide: Callable[[list[Pair]], list[Decision]], batch: list[Pair]) -> float:
    started = time.perf_counter()
    decide(batch)
    return time.perf_counter() - started


if __name__ == "__main__":
    raise SystemExit(main())
