"""Running an untrusted process (a Lean REPL, ``lake``) inside limits it cannot lift.

Lean elaborates what a model wrote, and elaboration runs code (``#eval``, ``run_tac``, tactic
frameworks, ``include_str``): the static audit refuses what it recognises, and this module
bounds what it does not. Every process started through a :class:`Sandbox` gets

- an environment cleared of everything but a short list of harmless variables (no API keys,
  no tokens, no proxy settings);
- CPU-time, address-space, file-size and core-dump limits (``setrlimit``, inherited by every
  child and not raisable by an unprivileged process);
- a wall-clock limit, after which its whole process group is killed;
- with bubblewrap (``bwrap``) where it can create namespaces: no network (a new network
  namespace with only a down loopback), a new PID namespace (no other process's
  ``/proc/PID/environ`` to read), a read-only view of the system, the toolchain and the
  project, and one private writable scratch directory; ``--die-with-parent`` so that nothing
  outlives afcheck.

Where bwrap is absent or cannot create namespaces (an unprivileged container), the limits,
the cleared environment and the timeout still hold and :func:`probe` says in one line why
the namespaces do not; ``mode="off"`` (``--lean-sandbox off``) turns the namespaces off on
purpose. The wrapper knows nothing about Lean: it is tested on ordinary processes.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal

Mode = Literal["auto", "on", "off"]
MODES: tuple[Mode, ...] = ("auto", "on", "off")

KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "ELAN_HOME", "ELAN_TOOLCHAIN",
                  "LEAN_PATH", "LEAN_SRC_PATH", "LEAN_SYSROOT", "LAKE_HOME")
"""The variables a sandboxed process may see (when set): what finds the toolchain and
reads text. Everything else, API keys included, is dropped. ``HOME`` and ``TMPDIR`` are set to
the scratch directory."""

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""Read-only in the namespace: programs and shared libraries."""


_default_mode: list[Mode] = ["auto"]


def default_mode() -> Mode:
    """The run-wide mode (``--lean-sandbox``), used where a component sets none."""
    return _default_mode[0]


def as_mode(text: str) -> Mode:
    """``text`` as a mode; :class:`ValueError` for anything but auto, on, off."""
    for mode in MODES:
        if text == mode:
            return mode
    raise ValueError(f"the Lean sandbox mode must be one of {', '.join(MODES)}, not {text!r}")


def set_default_mode(text: str) -> None:
    """Set the run-wide mode (``--lean-sandbox``)."""
    _default_mode[0] = as_mode(text)


class SandboxError(RuntimeError):
    """The sandbox was required (``mode="on"``) and cannot be set up."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed process (``None``: not limited)."""

    cpu_s: int | None = 3600
    """CPU seconds over the process's whole life (SIGXCPU, then SIGKILL one second later)."""
    memory_mb: int | None = None
    """Address space (RLIMIT_AS)."""
    file_mb: int | None = 1024
    """Largest file it may write (RLIMIT_FSIZE)."""


@dataclass(frozen=True)
class Policy:
    """What a sandboxed process may see and use."""

    scratch: Path
    """Its only writable directory (also its ``HOME`` and ``TMPDIR``)."""
    read_only: tuple[Path, ...] = ()
    """Directories it may read besides the system's: the toolchain, the project."""
    limits: Limits = field(default_factory=Limits)
    keep: tuple[str, ...] = KEPT_VARIABLES
    extra_env: tuple[tuple[str, str], ...] = ()
    """Variables set for it whatever the parent has."""


@dataclass(frozen=True)
class Probe:
    """Whether bwrap can isolate processes here, and why not."""

    usable: bool
    why: str = ""


@functools.cache
def probe(bwrap: str = "bwrap") -> Probe:
    """Try bwrap once with every namespace this module uses (the answer is cached)."""
    found = shutil.which(bwrap)
    if found is None:
        return Probe(False, "bubblewrap (bwrap) is not installed (Debian: apt-get install "
                     "bubblewrap)")
    try:
        done = subprocess.run(
            [found, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc",
             "/proc", "--dev", "/dev", "true"],
            capture_output=True, text=True, timeout=20, check=False, env={"PATH": "/usr/bin:/bin"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Probe(False, f"bwrap could not run ({exc})")
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return Probe(False, f"bwrap cannot create namespaces here ({reason})")
    return Probe(True)


@dataclass(frozen=True)
class Completed:
    """What a sandboxed run returned."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


class Sandbox:
    """Starts processes under a :class:`Policy`; see the module docstring for what holds."""

    def __init__(self, policy: Policy, mode: Mode = "auto", *, bwrap: str = "bwrap",
                 warn: IO[str] | None = None, warned: set[str] | None = None) -> None:
        """``warned``: the reasons already warned about by the sandboxes of one run (its
        REPLs share one set, so the run warns once); ``None``: this sandbox warns alone."""
        if mode not in MODES:
            raise ValueError(f"sandbox mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.policy = policy
        self.mode = mode
        found = probe(bwrap) if mode != "off" else Probe(False, "turned off (--lean-sandbox off)")
        if mode == "on" and not found.usable:
            raise SandboxError(f"the Lean sandbox is required but {found.why}")
        self.isolated = found.usable
        self.why = found.why
        self._bwrap = shutil.which(bwrap) or bwrap
        if not self.isolated and mode == "auto":
            _warn_once(found.why, warn, set() if warned is None else warned)

    def environment(self) -> dict[str, str]:
        """The environment of a sandboxed process: :attr:`Policy.keep` from ours, ``HOME`` and
        ``TMPDIR`` in the scratch directory, and :attr:`Policy.extra_env`."""
        env = {k: os.environ[k] for k in self.policy.keep if k in os.environ}
        env.setdefault("PATH", "/usr/bin:/bin")
        env["HOME"] = env["TMPDIR"] = str(self.policy.scratch)
        env.update(dict(self.policy.extra_env))
        return env

    def argv(self, command: Sequence[str], cwd: Path | None = None) -> list[str]:
        """``command`` as started in ``cwd`` (default: the scratch directory): behind bwrap
        when it isolates, else as it is."""
        if not self.isolated:
            return list(command)
        args = [self._bwrap, "--unshare-all", "--die-with-parent", "--new-session",
                "--clearenv"]
        for name, value in self.environment().items():
            args += ["--setenv", name, value]
        for system in SYSTEM_PATHS:
            if Path(system).exists():
                args += ["--ro-bind", system, system]
        for path in self._readable():
            args += ["--ro-bind", str(path), str(path)]
        scratch = str(self.policy.scratch)
        # The root bwrap builds is a tmpfs holding the mount points: read-only too, so that
        # the scratch bind is the one place a child can write.
        args += ["--proc", "/proc", "--dev", "/dev", "--bind", scratch, scratch,
                 "--remount-ro", "/", "--chdir", str(cwd or scratch), "--"]
        return args + list(command)

    def preexec(self) -> None:
        """Set the limits in the child before it runs (inherited by bwrap and all below)."""
        limits = self.policy.limits
        if limits.cpu_s is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
        if limits.memory_mb is not None:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if limits.file_mb is not None:
            size = limits.file_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def popen(self, command: Sequence[str], *, cwd: Path | None = None,
              **kwargs: object) -> subprocess.Popen[str]:
        """Start ``command`` sandboxed, in its own session (so that :func:`kill` reaches every
        process it starts). ``kwargs`` go to :class:`subprocess.Popen` (pipes, encoding)."""
        self.policy.scratch.mkdir(parents=True, exist_ok=True)
        return subprocess.Popen(  # type: ignore[call-overload]
            self.argv(command, cwd), cwd=str(cwd or self.policy.scratch), env=self.environment(),
            start_new_session=True, preexec_fn=self.preexec, text=True, **kwargs)

    def run(self, command: Sequence[str], *, timeout_s: float, stdin: str | None = None,
            cwd: Path | None = None) -> Completed:
        """Run ``command`` to its end or until ``timeout_s`` wall-clock seconds have passed,
        then kill its process group."""
        process = self.popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            out, err = process.communicate(stdin, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            kill(process)
            out, err = process.communicate()
            return Completed(process.returncode, out, err, timed_out=True)
        return Completed(process.returncode, out, err)

    def _readable(self) -> list[Path]:
        system = tuple(Path(p) for p in SYSTEM_PATHS)
        paths = []
        for path in self.policy.read_only:
            resolved = path.resolve()
            if resolved.exists() and not any(resolved.is_relative_to(s) for s in system):
                paths.append(resolved)
        return paths


def kill(process: subprocess.Popen[str]) -> None:
    """Kill ``process`` and everything in its session."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def python_paths() -> tuple[Path, ...]:
    """Where this Python interpreter and its libraries live (to run Python children)."""
    return tuple(dict.fromkeys(Path(p) for p in (sys.prefix, sys.base_prefix,
                                                 Path(sys.executable).resolve().parent.parent)))


def _warn_once(why: str, stream: IO[str] | None, warned: set[str]) -> None:
    if why in warned:
        return
    warned.add(why)
    print(f"afcheck: warning: Lean runs without namespace isolation: {why}; limits, a cleared "
          "environment and timeouts still apply, but no verdict is certified (--lean-sandbox "
          "off accepts that and hides this warning)",
          file=stream or sys.stderr)
