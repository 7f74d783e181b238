"""``afcheck lean audit`` over the published DeepSeek-Prover-V2 miniF2F proofs.

Prints ``name value target`` lines: the share of the 221 honest files accepted (target 1),
the share of red-team bodies and of red-team files (by mechanism) rejected (target 1), the
share of the unusual honest files accepted (target 1) and the audit's throughput in files per
second (target 50: a Lean check of one file takes seconds). Data:
``$AFCHECK_DATA_DIR/prover_v2_minif2f`` (default ``../shared/data``); without it the honest
figures are ``nan``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "plugins"), str(ROOT / "tests")]

from afcheck_lean.audit import audit_text  # noqa: E402
from afcheck_lean.integrity import find_proof_violation  # noqa: E402
from redteam.corpus import CHEATS, EVASIONS  # noqa: E402
from redteam.honest import HONEST_FILES  # noqa: E402
from redteam.mechanisms import ALL as MECHANISMS  # noqa: E402


def main() -> int:
    data = Path(os.environ.get("AFCHECK_DATA_DIR", ROOT.parent / "shared" / "data"))
    files = sorted((data / "prover_v2_minif2f").glob("*.lean"))
    cheats = CHEATS + EVASIONS
    rejected = sum(find_proof_violation(c.body) is not None for c in cheats)
    print(f"audit_redteam_rejected_share {rejected / len(cheats):.3f} 1")
    files_rejected = sum(not audit_text(c.text).accepted for c in MECHANISMS)
    print(f"audit_redteam_files_rejected_share {files_rejected / len(MECHANISMS):.3f} 1")
    unusual = sum(audit_text(text).accepted for _, text in HONEST_FILES)
    print(f"audit_unusual_honest_accepted_share {unusual / len(HONEST_FILES):.3f} 1")
    if not files:
        print("audit_honest_accepted_share nan 1")
        print("audit_files_per_s nan 50")
        return 0
    texts = [f.read_text(encoding="utf-8") for f in files]
    began = time.perf_counter()
    accepted = sum(audit_text(t).accepted for t in texts)
    spent = time.perf_counter() - began
    print(f"audit_honest_accepted_share {accepted / len(texts):.3f} 1")
    print(f"audit_files_per_s {len(texts) / spent:.0f} 50")
    return 0


if __name__ == "__main__":
    sys.exit(main())
