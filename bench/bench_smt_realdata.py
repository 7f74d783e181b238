"""What the ``smt`` prover decides on true statements nobody here wrote.

Corpora (from ``AFCHECK_DATA_DIR``, default ``../shared/data``), every statement true but one:

- ``minif2f``: the 244 miniF2F valid statements (``induction_sum_odd`` is false as written:
  ``(∑ k in Finset.range n, 2 * k) + 1 = n ^ 2``, the body stopping before ``+``);
- ``prover_v2``: the statements of the 221 miniF2F valid proofs DeepSeek-Prover-V2 published
  (kernel-checked; a few fix a miniF2F formalisation).

Per corpus: ``<corpus>_statements``, ``_decided``, ``_proved``, ``_refuted`` (target 0 but that one:
any other refutation is a wrong verdict), ``_inconclusive`` and
``<corpus>_inconclusive_<reason>`` for each kind of reason (the statement's own names and
numbers left out of the reason). The names of refuted statements go to standard error.

Usage: ``python bench/bench_smt_realdata.py [--quick] [--timeout-ms N]`` (``--quick``: the
first 60 statements of each corpus).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _minif2f(data: Path) -> Iterator[tuple[str, str, str]]:
    path = data / "minif2f" / "minif2f_valid.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            yield row["name"], row["formal_statement"], row["header"]


def _prover_v2(data: Path) -> Iterator[tuple[str, str, str]]:
    for path in sorted((data / "prover_v2_minif2f").glob("*.lean")):
        yield path.stem, path.read_text(encoding="utf-8"), ""


def reason_kind(reason: str) -> str:
    """A reason without the statement's own names and numbers: ``parameter '…' has type
    '…'`` keeps the shape of the type (``ℝ → ℝ``), since that is what stopped it."""
    kind = reason.split(";")[0].removeprefix("outside the SMT fragment: ")
    kind = re.sub(r"(, )?(is )?outside the fragment.*", "", kind)
    kind = re.sub(r"has type '([^']*)'", lambda m: "has type " + _shape(m.group(1)), kind)
    kind = re.sub(r"'[^']*'", "…", kind)
    kind = re.sub(r"\d+(\.\d+)?", "N", kind)
    return re.sub(r"[^\w…→ℕℤℚℝℂ]+", "_", kind).strip("_")


def _shape(type_text: str) -> str:
    if "→" in type_text:
        return "function"
    return re.sub(r"\s.*", "", type_text)


def main(argv: list[str] | None = None) -> int:
    from afcheck_smt.prover import decide

    from afcheck.types import ProofTask, VerdictKind

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--timeout-ms", type=int, default=1000)
    args = parser.parse_args(argv)
    data = Path(os.environ.get("AFCHECK_DATA_DIR", ROOT.parent / "shared" / "data"))
    for corpus, read in (("minif2f", _minif2f), ("prover_v2", _prover_v2)):
        try:
            items = list(read(data))[: 60 if args.quick else None]
        except FileNotFoundError as error:
            print(f"# {corpus}: {error}", file=sys.stderr)
            continue
        kinds: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        for name, statement, header in items:
            verdict = decide(ProofTask(name, statement, header), args.timeout_ms)
            kinds[verdict.kind] += 1
            if verdict.kind is VerdictKind.INCONCLUSIVE:
                reasons[reason_kind(verdict.reason)] += 1
            elif verdict.kind is VerdictKind.REFUTED:
                print(f"# {corpus}: {name} REFUTED ({verdict.evidence})", file=sys.stderr)
        decided = kinds[VerdictKind.PROVED] + kinds[VerdictKind.REFUTED]
        print(f"{corpus}_statements {len(items)} -")
        print(f"{corpus}_decided {decided} -")
        print(f"{corpus}_proved {kinds[VerdictKind.PROVED]} -")
        print(f"{corpus}_refuted {kinds[VerdictKind.REFUTED]} 0")
        print(f"{corpus}_inconclusive {kinds[VerdictKind.INCONCLUSIVE]} -")
        for reason, count in reasons.most_common():
            print(f"{corpus}_inconclusive_{reason} {count} -")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
