"""Throughput and latency of the ``smt`` prover, one statement at a time on one core.

Statements: the reference Lean statements of ``suites/examples/steps.jsonl`` when it exists,
else a generated set in the style of the offline formaliser. Prints ``name value target``.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from afcheck_smt.prover import SmtProver

from afcheck.types import ProofTask

ROOT = Path(__file__).resolve().parent.parent


def _examples() -> list[str]:
    path = ROOT / "suites" / "examples" / "steps.jsonl"
    found: list[str] = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line) if line.strip() else {}
            stack: list[object] = [record]
            while stack:
                value = stack.pop()
                if isinstance(value, dict):
                    stack.extend(value.values())
                elif isinstance(value, list):
                    stack.extend(value)
                elif isinstance(value, str) and value.lstrip().startswith(("theorem", "lemma")):
                    found.append(value)
    return found


def _generated() -> list[str]:
    out = []
    for i in range(1, 101):
        out += [
            f"theorem s : ({i * 2} : ℚ) / 2 = {i} := by sorry",
            f"theorem s (c : ℚ) (h₀ : c = {i * 4} / 2) : c + {i} = {i * 3} := by sorry",
            f"theorem s (n : ℕ) (h : n % 2 = 1) : (n + {i}) % 2 = {(1 + i) % 2} := by sorry",
            f"theorem s (x : ℝ) (h : 2 * x + {i} = {i + 8}) : x = 4 := by sorry",
            f"theorem s : Real.sqrt {i * i} = ({i} : ℝ) := by sorry",
        ]
    return out


def main() -> None:
    statements = _examples() or _generated()
    prover = SmtProver()
    latencies = []
    start = time.perf_counter()
    for i, statement in enumerate(statements):
        t0 = time.perf_counter()
        prover.prove([ProofTask(str(i), statement)])
        latencies.append((time.perf_counter() - t0) * 1000)
    total = time.perf_counter() - start
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    print(f"smt_statements {len(statements)} -")
    print(f"smt_statements_per_s {len(statements) / total:.1f} -")
    print(f"smt_median_ms {statistics.median(latencies):.2f} 20")
    print(f"smt_p99_ms {p99:.2f} -")


if __name__ == "__main__":
    main()
