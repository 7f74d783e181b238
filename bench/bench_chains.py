"""The chains method with the rule-based translator: classification accuracy and gold labels.

Data: ``$AFCHECK_DATA_DIR`` (default ``../shared/data``): ``prontoqa/dev.json`` and
``proofwriter/dev.json`` in Logic-LLM's format. Prints ``name value target``:

- ``chains_classification_<T>_accuracy``: share of the rebuilt classification set's items of
  type T1–T4 (50 each, seed 0) that get their expected class (target 1);
- ``chains_<set>_label_reproduced``: share of items whose gold label the prover reproduces
  from the rule-based translation (target 0.99); for ProofWriter also on its True/False
  items only (the seed's selection: it leaves out Unknown-labelled items);
- ``chains_median_prover_ms_per_step``: median prover time to label one step (both
  queries of Algorithm 1), over the classification run with an empty cache.

``--prover z3-fol`` measures z3 instead of E; ``--quick`` uses 10 chains per type and the
first 200 ProofWriter items.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from afcheck_chains.classification import TYPES, generate
from afcheck_chains.formalise import FolChains, RuleFormaliser
from afcheck_chains.loaders import load_logic_llm
from afcheck_chains.pipeline import analyse, run_chains
from afcheck_chains.records import ChainRecord, ChainResult, Label
from afcheck_fol.provers import make_fol_prover

ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    value = os.environ.get("AFCHECK_DATA_DIR")
    return Path(value) if value else ROOT.parent.parent / "shared" / "data"


def records(items: Sequence[object]) -> list[ChainRecord]:
    return [item for item in items if isinstance(item, ChainRecord)]


def reproduced(results: Sequence[ChainResult]) -> float:
    return sum(1 for r in results if r.first_matched) / max(1, len(results))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prover", default="eprover")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    base = data_dir()
    pronto_path, proof_path = base / "prontoqa" / "dev.json", base / "proofwriter" / "dev.json"
    if not pronto_path.is_file() or not proof_path.is_file():
        print(f"# skipped: PrOntoQA/ProofWriter dev.json not under {base}; set AFCHECK_DATA_DIR",
              file=sys.stderr)
        for name in ("classification_T1_accuracy", "prontoqa_label_reproduced",
                     "proofwriter_label_reproduced"):
            print(f"chains_{name} nan -")
        return 0
    prover = make_fol_prover(args.prover)
    print(f"# prover: {prover.name} ({prover.version})", file=sys.stderr)
    formaliser = FolChains(RuleFormaliser())

    items = records(list(generate(pronto_path, per_type=10 if args.quick else 50)))
    started = time.perf_counter()
    analysed = analyse(items, formaliser, prover)
    wall = time.perf_counter() - started
    results = [r.verdict for r in analysed]
    for kind in TYPES:
        group = [r for r in analysed if r.record.expected_class == kind]
        right = sum(1 for r in group if r.chain_class == kind)
        print(f"chains_classification_{kind}_accuracy {right / max(1, len(group)):.3f} 1")
    step_ms = [v.seconds * 1000 for r in results if r for v in r.steps]
    print(f"chains_classification_items {len(results)} -")
    print(f"chains_classification_wall_s {wall:.1f} -")
    print(f"chains_median_prover_ms_per_step {statistics.median(step_ms):.2f} -")

    pronto = records(list(load_logic_llm(pronto_path, "prontoqa")))
    # The label check alone: conclusions only, no chains.
    bare = [ChainRecord(r.id, r.dataset, r.premises, r.conclusion, r.label, (), None,
                        r.location) for r in pronto]
    got = run_chains(bare, formaliser, prover)
    print(f"chains_prontoqa_label_reproduced {reproduced(got):.4f} 0.99")

    proof = records(list(load_logic_llm(proof_path, "proofwriter")))
    if args.quick:
        proof = proof[:200]
    got = run_chains(proof, formaliser, prover)
    print(f"chains_proofwriter_label_reproduced {reproduced(got):.4f} 0.99")
    decided = [r for r in got if r.gold_label is not Label.UNKNOWN]
    print(f"chains_proofwriter_true_false_label_reproduced {reproduced(decided):.4f} -")
    for r in got:
        if not r.first_matched:
            print(f"# not reproduced: {r.id}: {r.reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
