"""Misreadings of the ``literal`` formaliser on all of ProcessBench gsm8k and math.

Runs ``afcheck suites/{gsm8k,math} --steps {paragraph,claims}`` with the ``regex`` perturber,
the ``literal`` formaliser and the ``smt`` prover (each suite's defaults), as a user runs it,
and reads the JSON results. Every original step of these suites is error-free, so a refuted
original (error induction) is a misreading; a perturbed step the regex judge found effective
that is proved (a silent correction) is one too. Prints ``name value target`` lines:

- ``literal_<suite>_<mode>_misread``: error inductions + silent corrections on effective
  perturbations (target 0);
- ``literal_<suite>_<mode>_decided``: share of the cases kept in the metrics whose outcome is
  decided (not inconclusive); information, compared with the figures in bench/README.md.

``--json-dir DIR`` reads existing ``<suite>-<mode>.json`` files instead of running afcheck.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = [(suite, mode) for suite in ("gsm8k", "math") for mode in ("paragraph", "claims")]


@dataclass(frozen=True)
class Figures:
    cases: int
    error_inductions: int
    silent_corrections_effective: int
    silent_corrections: int
    decided: int

    @property
    def misread(self) -> int:
        return self.error_inductions + self.silent_corrections_effective

    @property
    def decided_share(self) -> float:
        return self.decided / self.cases if self.cases else float("nan")


def figures(results: dict[str, object]) -> Figures:
    """The misreadings and the decided share of one afcheck JSON result file."""
    steps = results["steps"]
    assert isinstance(steps, list)
    kept = [s for s in steps if not s["excluded"]]
    refuted = [s for s in kept if (s["z"] or {}).get("kind") == "refuted"]
    corrected = [s for s in kept if (s["z_bar"] or {}).get("kind") == "proved"]
    effective = [s for s in corrected if s["perturbation"].get("effective") is True]
    decided = [s for s in kept if s["outcome"] != "inconclusive"]
    return Figures(len(kept), len(refuted), len(effective), len(corrected), len(decided))


def run(suite: str, mode: str, out: Path, cache: Path) -> Path:
    target = out / f"{suite}-{mode}.json"
    command = [
        sys.executable, "-m", "afcheck", str(ROOT / "suites" / suite), "--steps", mode, "-q",
        "--json", str(target), "--cache-dir", str(cache),
    ]
    env = {**os.environ, "AFCHECK_DATA_DIR": os.environ.get(
        "AFCHECK_DATA_DIR", str(ROOT.parent / "shared" / "data"))}
    subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-dir", type=Path, help="read <suite>-<mode>.json from here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for suite, mode in RUNS:
            if args.json_dir is not None:
                path = args.json_dir / f"{suite}-{mode}.json"
            else:
                path = run(suite, mode, Path(tmp), Path(tmp) / "cache")
            if not path.is_file():
                print(f"literal_{suite}_{mode}_misread nan 0")
                print(f"# {suite} {mode}: no results at {path}", file=sys.stderr)
                continue
            found = figures(json.loads(path.read_text(encoding="utf-8")))
            print(f"literal_{suite}_{mode}_misread {found.misread} 0")
            print(f"literal_{suite}_{mode}_decided {found.decided_share:.4f} -")
            print(
                f"# {suite} {mode}: {found.cases} cases, {found.error_inductions} error "
                f"inductions, {found.silent_corrections_effective} silent corrections on "
                f"effective perturbations ({found.silent_corrections} in all), "
                f"{found.decided} decided",
                file=sys.stderr,
            )


if __name__ == "__main__":
    main()
