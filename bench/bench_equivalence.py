"""Equivalence criteria on the project's diagnostics and rewrites (``suites/equivalence-*``).

Prints ``name value target``:

- ``sae_accept_unrelated`` / ``sae_accept_perturbations``: Eq rate of ``sae`` on the unrelated
  shared-provability pairs and on the localized perturbations (target 0);
- ``logical_accept_unrelated``: Eq rate of ``logical`` there (expected: most — the seed's point);
- ``sae_coverage_rewrites_fragment``: Eq rate of ``sae`` on equivalent rewrites inside the SMT
  fragment (information: as high as the fragment allows), and on all rewrites;
- ``sae_noneq_unrelated`` / ``sae_noneq_perturbations``: Noneq rate there (the rest is
  Inconclusive; the seed's ACE: 74 % Noneq on its perturbations);
- ``sae_false_positive_rate``: Eq rate on every gold-inequivalent item (target ≤ 0.002);
- ``syntactic_*`` likewise, and the seconds each criterion took.

Usage: ``python bench/bench_equivalence.py [--quick]`` (``--quick``: the first 20 items of each
suite).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = ("equivalence-unrelated", "equivalence-perturbations", "equivalence-rewrites")


def main(argv: list[str] | None = None) -> int:
    from afcheck_equivalence.decide import decide
    from afcheck_equivalence.suite import Item

    from afcheck.errors import LoadError
    from afcheck.plugins import get_plugins

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    items: dict[str, list[Item]] = {}
    for suite in SUITES:
        loaded = [i for i in _load(ROOT / "suites" / suite / "items.jsonl")]
        bad = [i for i in loaded if isinstance(i, LoadError)]
        for error in bad:
            print(f"# {error}", file=sys.stderr)
        items[suite] = [i for i in loaded if isinstance(i, Item)][: 20 if args.quick else None]
    everything = [i for suite in SUITES for i in items[suite]]
    fragment = {i.id for i in items["equivalence-rewrites"] if _fragment(i)}
    plugins = get_plugins()
    for name in ("sae", "logical", "syntactic"):
        criterion = plugins.create("criterion", name, {"prover.jobs": "1"} if name != "syntactic"
                                   else {})
        start = time.perf_counter()
        results = decide(everything, criterion)
        elapsed = time.perf_counter() - start
        by_id = {r.item.id: r for r in results}

        def eq_rate(ids: list[str], by: dict = by_id) -> float:  # type: ignore[type-arg]
            return sum(by[i].decision.kind.value == "Eq" for i in ids) / max(1, len(ids))

        def noneq_rate(ids: list[str], by: dict = by_id) -> float:  # type: ignore[type-arg]
            return sum(by[i].decision.kind.value == "Noneq" for i in ids) / max(1, len(ids))

        unrelated = [i.id for i in items["equivalence-unrelated"]]
        perturbed = [i.id for i in items["equivalence-perturbations"]]
        rewrites = [i.id for i in items["equivalence-rewrites"]]
        inequivalent = [i.id for i in everything if i.gold == "inequivalent"]
        target = {"sae": "0", "syntactic": "0", "logical": "most"}[name]
        print(f"{name}_accept_unrelated {eq_rate(unrelated):.3f} {target}")
        print(f"{name}_accept_perturbations {eq_rate(perturbed):.3f} "
              f"{'0' if name != 'logical' else '-'}")
        print(f"{name}_noneq_unrelated {noneq_rate(unrelated):.3f} -")
        print(f"{name}_noneq_perturbations {noneq_rate(perturbed):.3f} -")
        print(f"{name}_coverage_rewrites_fragment {eq_rate(sorted(fragment)):.3f} -")
        print(f"{name}_coverage_rewrites_all {eq_rate(rewrites):.3f} -")
        print(f"{name}_false_positive_rate {eq_rate(inequivalent):.4f} "
              f"{'0.002' if name != 'logical' else '-'}")
        print(f"{name}_seconds {elapsed:.1f} -")
        for item_id in inequivalent:
            if by_id[item_id].decision.kind.value == "Eq" and name != "logical":
                print(f"# {name} false positive: {item_id}", file=sys.stderr)
        close = getattr(getattr(criterion, "prover", None), "close", None)
        if close is not None:
            close()
    return 0


def _load(path: Path) -> list[object]:
    from afcheck_equivalence.suite import load

    return list(load(path))


def _fragment(item: object) -> bool:
    import json

    source = item.source  # type: ignore[attr-defined]
    line = Path(source.path).read_text(encoding="utf-8").splitlines()[source.line - 1]
    return bool(json.loads(line).get("fragment"))


if __name__ == "__main__":
    raise SystemExit(main())
