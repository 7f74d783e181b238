"""Equivalence figures on the valid splits of real data: miniF2F valid and ProofNet valid.

For each split (read from ``AFCHECK_DATA_DIR``, default ``../shared/data``):

- ``<split>_read``: share of its statements the front end reads (parse and round-trip);
- labelled pair sets built from its statements (:func:`afcheck_equivalence.suitegen.build`,
  plus each statement against itself, plus :func:`~afcheck_equivalence.suitegen.identities`:
  rewrites Lean reads as the very same statement): ``self``, ``rewrites`` and ``identities``
  are gold-equivalent, ``perturbations`` and ``unrelated`` gold-inequivalent;
- per criterion (``sae``, ``syntactic``): coverage (Eq rate) and the Noneq rate on each
  equivalent set (target 0: a Noneq there says a formaliser failed when it did not), the
  Noneq rate on each inequivalent set, the Noneq count on all equivalent pairs, and the
  false-positive count (Eq on a gold-inequivalent pair; target 0), with the pairs printed to
  standard error.

Then the same figures on the shipped labelled suite ``suites/equivalence-lean-identities``
(afcheck's own pairs in the style of a formaliser's predictions; no data needed).

Prints ``name value target`` lines. Usage: ``python bench/bench_equivalence_valid.py [--quick]``
(``--quick``: the first 40 statements of each split).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPLITS = (("minif2f", "minif2f/minif2f_valid.jsonl"), ("proofnet", "proofnet/proofnet_valid.jsonl"))


def main(argv: list[str] | None = None) -> int:
    from afcheck_equivalence.suite import Item
    from afcheck_equivalence.suitegen import build

    from afcheck.lean.coverage import measure
    from afcheck.plugins import get_plugins

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    data = Path(os.environ.get("AFCHECK_DATA_DIR", ROOT.parent / "shared" / "data"))
    plugins = get_plugins()
    for split, relative in SPLITS:
        path = data / relative
        if not path.is_file():
            print(f"# {path} is missing", file=sys.stderr)
            continue
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line][: 40 if args.quick else None]
        for row in rows:
            if not row["formal_statement"].rstrip().endswith("by"):
                row["formal_statement"] = row["formal_statement"].rstrip() + " by"
        coverage = measure((r["formal_statement"] + " sorry", r["header"]) for r in rows)
        print(f"{split}_statements {coverage.total} -")
        print(f"{split}_read {coverage.round_trip / max(1, coverage.total):.3f} -")
        print(f"{split}_in_smt_fragment {coverage.in_fragment / max(1, coverage.total):.3f} -")
        sets: dict[str, list[dict[str, Any]]] = {
            "self": [{"id": f"{r['name']}/self", "reference": r["formal_statement"] + " sorry",
                      "candidate": r["formal_statement"] + " sorry", "header": r["header"],
                      "gold": "equivalent"} for r in rows]}
        built = build(rows)
        sets["rewrites"] = built["equivalence-rewrites"]
        sets["identities"] = _identities(rows)
        sets["perturbations"] = built["equivalence-perturbations"]
        sets["unrelated"] = built["equivalence-unrelated"]
        items = {name: [Item(f"{name}:{d['id']}", d["reference"], d.get("header", ""),
                             candidate=d["candidate"], gold=d["gold"]) for d in rows_]
                 for name, rows_ in sets.items()}
        _measure(split, items, plugins)
    suite = ROOT / "suites" / "equivalence-lean-identities" / "items.jsonl"
    labelled = [json.loads(line) for line in suite.read_text(encoding="utf-8").splitlines()
                if line]
    groups: dict[str, list[Item]] = {}
    for d in labelled:
        name = f"{d['gold'][:3]}-{d['group']}"
        groups.setdefault(name, []).append(Item(
            f"{name}:{d['id']}", d["reference"], d["header"], candidate=d["candidate"],
            gold=d["gold"]))
    _measure("identities_suite", groups, plugins)
    return 0


def _identities(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each statement against every Lean-identical rewrite of it that applies."""
    from afcheck_equivalence.suitegen import _theorem, identities

    from afcheck.lean.printer import print_theorem

    out = []
    for row in rows:
        theorem = _theorem(row)
        if theorem is None:
            continue
        for kind, rewritten in identities(theorem):
            out.append({"id": f"{row['name']}/{kind}", "reference": print_theorem(theorem),
                        "candidate": print_theorem(rewritten), "header": row["header"],
                        "gold": "equivalent"})
    return out


def _measure(split: str, items: dict[str, list[Any]], plugins: Any) -> None:
    from afcheck_equivalence.decide import decide

    everything = [i for group in items.values() for i in group]
    for name in ("sae", "syntactic"):
        criterion = plugins.create("criterion", name, {} if name == "syntactic"
                                   else {"prover.jobs": "1"})
        start = time.perf_counter()
        by_id = {r.item.id: r for r in decide(everything, criterion)}
        elapsed = time.perf_counter() - start
        for group, members in items.items():
            kinds = [by_id[i.id].decision.kind.value for i in members]
            gold = members[0].gold if members else None
            if gold == "equivalent":
                print(f"{split}_{name}_coverage_{group} "
                      f"{kinds.count('Eq') / max(1, len(kinds)):.3f} (N={len(kinds)})")
                print(f"{split}_{name}_noneq_on_equivalent_{group} "
                      f"{kinds.count('Noneq') / max(1, len(kinds)):.3f} (N={len(kinds)})")
            else:
                print(f"{split}_{name}_noneq_{group} "
                      f"{kinds.count('Noneq') / max(1, len(kinds)):.3f} (N={len(kinds)})")
        missed = [i.id for i in everything
                  if i.gold == "equivalent" and by_id[i.id].decision.kind.value == "Noneq"]
        equivalent = sum(i.gold == "equivalent" for i in everything)
        print(f"{split}_{name}_noneq_on_equivalent {len(missed)} 0 (of {equivalent})")
        for item_id in missed:
            print(f"# {name} Noneq on an equivalent pair: {item_id}: "
                  f"{by_id[item_id].decision.reason[:300]}", file=sys.stderr)
        wrong = [i.id for i in everything
                 if i.gold == "inequivalent" and by_id[i.id].decision.kind.value == "Eq"]
        inequivalent = sum(i.gold == "inequivalent" for i in everything)
        print(f"{split}_{name}_false_positives {len(wrong)} 0 (of {inequivalent})")
        for item_id in wrong:
            print(f"# {name} false positive: {item_id}", file=sys.stderr)
        print(f"{split}_{name}_seconds {elapsed:.1f} -")
        close = getattr(getattr(criterion, "prover", None), "close", None)
        if close is not None:
            close()


if __name__ == "__main__":
    raise SystemExit(main())
