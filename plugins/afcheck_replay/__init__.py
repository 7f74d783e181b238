"""The ``replay`` formaliser: re-scores recorded formaliser outputs."""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register


@hookimpl
def afcheck_register_formalisers(register: Register) -> None:
    from afcheck_replay.replay import make_replay

    register("replay", make_replay,
             description="recorded outputs from a JSONL file (--formaliser-opt path=FILE)",
             details={"backend": "file"})
