"""The nl2fol evaluator against its hand labels, its time per item, and FOLIO's gold parse rate.

Labels: ``suites/tarski/labelled.jsonl`` (each candidate decided against its item's gold
formulas of ``suites/tarski/sentences.jsonl`` under the language's default theory, one item
at a time, on one core). FOLIO: every distinct premise's gold FOL in
``$AFCHECK_DATA_DIR/folio/folio-train.jsonl``; the rejected ones are listed on stderr by class.
Prints ``name value target``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from afcheck_fol.language import TARSKI
from afcheck_nl2fol.decide import decide
from afcheck_nl2fol.labels import label_of, load_labels
from afcheck_nl2fol.records import Candidate
from afcheck_nl2fol.suite import folio_path, load_folio, load_jsonl

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "suites" / "tarski"


def labelled() -> None:
    items = {item.id: item for item in load_jsonl(SUITE / "sentences.jsonl", TARSKI).items}
    entries, _ = load_labels(SUITE / "labelled.jsonl")
    agree = 0
    seconds: list[float] = []
    for entry in entries:
        began = time.perf_counter()
        decision = decide(items[entry.item], Candidate(entry.item, entry.candidate))
        seconds.append(time.perf_counter() - began)
        found = label_of(decision)
        if found == entry.label:
            agree += 1
        else:
            print(f"# disagrees: {entry.id} {entry.candidate!r}: labelled {entry.label}, "
                  f"decided {found}", file=sys.stderr)
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(f"fol_labelled_candidates {len(entries)} -")
    print(f"fol_label_agreement {agree / max(1, len(entries)):.4f} 1")
    print(f"fol_item_median_ms {1000 * statistics.median(seconds):.1f} 200")
    print(f"fol_item_p99_ms {1000 * p99:.1f} 5000")
    print(f"fol_item_max_ms {1000 * ordered[-1]:.1f} -")


def folio() -> None:
    path = folio_path(os.environ.get("AFCHECK_DATA_DIR", str(ROOT.parent / "shared" / "data")))
    if path is None:
        print("# skipped: no folio/folio-train.jsonl under AFCHECK_DATA_DIR", file=sys.stderr)
        print("fol_folio_gold_parse_rate nan 0.97")
        return
    loaded = load_folio(path)
    # Every item is kept, those whose gold does not parse too (with the gold's error).
    total = len(loaded.items)
    parsed = sum(1 for item in loaded.items if item.gold_error is None)
    print(f"fol_folio_gold_formulas {total} -")
    print(f"fol_folio_gold_parse_rate {parsed / max(1, total):.4f} 0.97")
    by_class = Counter(r.error.error_class.value for r in loaded.rejections)
    for name, count in sorted(by_class.items()):
        print(f"# rejected, {name}: {count}", file=sys.stderr)
    for rejection in loaded.rejections:
        print(f"# {rejection.location} {rejection.item_id}: {rejection.text!r}: "
              f"{rejection.error}", file=sys.stderr)


if __name__ == "__main__":
    labelled()
    folio()
