"""Starting REPL processes through lean-interact.

A REPL process is anything with lean-interact's ``LeanServer`` surface used here:
``run_dict(request, timeout=…) -> dict`` (raises ``TimeoutError`` after killing the process,
``ConnectionAbortedError`` / ``ChildProcessError`` / ``json.JSONDecodeError`` when it died),
``kill()``, ``is_alive()`` and ``get_memory_usage()`` (MB).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from afcheck.errors import MissingDependency
from afcheck_lean.settings import LeanSettings

SETUP_HINT = "afcheck lean setup"


class ReplProcess(Protocol):
    def run_dict(self, request: dict[str, Any], verbose: bool = ..., timeout: float | None = ...
                 ) -> dict[str, Any]: ...

    def kill(self) -> None: ...

    def is_alive(self) -> bool: ...

    def get_memory_usage(self) -> float: ...


StartRepl = Callable[[], ReplProcess]


def require_lean(settings: LeanSettings, component: str) -> None:
    """Fail in one line, naming the setup command, when Lean or lean-interact is missing."""
    try:
        import lean_interact  # noqa: F401
    except ImportError:
        raise MissingDependency(component, "lean-interact", "pip install 'afcheck[lean]'") from None
    if shutil.which(settings.lake) is None and not Path(settings.lake).is_file():
        raise MissingDependency(component, f"a Lean toolchain ('{settings.lake}' not found)",
                                SETUP_HINT)
    if not (settings.project / "lean-toolchain").is_file():
        raise MissingDependency(component, f"the Lean project {settings.project}", SETUP_HINT)
    if not (settings.project / ".lake" / "packages" / "mathlib").is_dir():
        raise MissingDependency(component, f"Mathlib in {settings.project}", SETUP_HINT)


def lean_interact_starter(settings: LeanSettings, *, build: bool = False) -> StartRepl:
    """A function that starts one REPL in the pinned project (the config is built once)."""
    from lean_interact import LeanREPLConfig, LeanServer, LocalProject

    extra: dict[str, Any] = {}
    if settings.cache_dir is not None:
        extra["cache_dir"] = str(settings.cache_dir)
    if settings.repl_dir is not None:
        extra["local_repl_path"] = str(settings.repl_dir)
    config = LeanREPLConfig(
        project=LocalProject(directory=str(settings.project), lake_path=settings.lake,
                             auto_build=build),
        lake_path=settings.lake,
        memory_hard_limit_mb=settings.memory_mb or None,
        # Elab.async and incrementality exist only in newer REPLs than the pinned Lean 4.9.
        enable_parallel_elaboration=False,
        enable_incremental_optimization=False,
        build_repl=build,
        **extra,
    )

    def start() -> ReplProcess:
        server: ReplProcess = LeanServer(config)
        return server

    return start
