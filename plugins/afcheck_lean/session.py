"""Starting REPL processes through lean-interact.

A REPL process is anything with lean-interact's ``LeanServer`` surface used here:
``run_dict(request, timeout=…) -> dict`` (raises ``TimeoutError`` after killing the process,
``ConnectionAbortedError`` / ``ChildProcessError`` / ``json.JSONDecodeError`` when it died),
``kill()``, ``is_alive()`` and ``get_memory_usage()`` (MB).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from afcheck.errors import MissingDependency
from afcheck_lean.sandbox import KEPT_VARIABLES, Limits, Policy, Sandbox, as_mode, default_mode
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

    warned: set[str] = set()  # the REPLs of this starter warn once about a missing sandbox

    class SandboxedServer(LeanServer):
        """lean-interact's server, its REPL started through :func:`repl_sandbox`."""

        def start(self) -> None:
            sandbox = repl_sandbox(settings, [Path(config._cache_repl_dir)], warned)
            self._scratch = sandbox.policy.scratch
            repl = os.path.join(config._cache_repl_dir, ".lake", "build", "bin", "repl")
            self._proc = sandbox.popen(
                [str(config.lake_path), "env", repl], cwd=Path(config.working_dir),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                encoding="utf-8", bufsize=1)
            if not self.is_alive():
                stdout, stderr = self.get_stdout_stderr()
                raise ChildProcessError(f"The Lean server could not be started:\nstdout: "
                                        f"{stdout}\nstderr: {stderr}")

        def kill(self) -> None:
            super().kill()
            shutil.rmtree(getattr(self, "_scratch", ""), ignore_errors=True)

    def start() -> ReplProcess:
        server: ReplProcess = SandboxedServer(config)
        return server

    return start


def repl_sandbox(settings: LeanSettings, readable: list[Path],
                 warned: set[str] | None = None) -> Sandbox:
    """The sandbox of one REPL: the project, the toolchain (elan's home and where ``lake``
    is) and ``readable`` read-only, a fresh scratch directory, the REPL's memory cap and its
    CPU budget; ``warned`` as for :class:`Sandbox`."""
    elan_home = Path(os.environ.get("ELAN_HOME", Path.home() / ".elan"))
    toolchain = toolchain_paths(settings)
    scratch = Path(tempfile.mkdtemp(prefix="afcheck-lean-"))
    policy = Policy(scratch=scratch,
                    read_only=(settings.project, *toolchain, *settings.readable, *readable),
                    limits=Limits(cpu_s=settings.cpu_limit_s, memory_mb=settings.memory_mb or None),
                    keep=(*KEPT_VARIABLES, *settings.pass_env),
                    # HOME becomes the scratch directory: elan must still find its toolchains.
                    extra_env=(("ELAN_HOME", str(elan_home)),))
    return Sandbox(policy, as_mode(settings.sandbox) if settings.sandbox else default_mode(),
                   warned=warned)


def toolchain_paths(settings: LeanSettings) -> tuple[Path, ...]:
    """Where the toolchain lives (elan's home, the folder above ``lake``'s): read-only for
    every Lean process."""
    lake = shutil.which(settings.lake) or settings.lake
    elan_home = Path(os.environ.get("ELAN_HOME", Path.home() / ".elan"))
    return (elan_home, Path(lake).resolve().parent.parent)
