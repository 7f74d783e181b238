"""Options of the Lean components (``--checker-opt`` / ``--prover-opt k=v``), parsed once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from afcheck.errors import UsageError

DEFAULT_HEADER = (
    "import Mathlib\nimport Aesop\nset_option maxHeartbeats 400000\n"
    "open BigOperators Real Nat Topology Rat"
)
"""The environment every check runs in: the DeepSeek-Prover / FaithformBench header with a
heartbeat bound (their ``maxHeartbeats 0`` leaves only the wall clock to stop a proof)."""


def default_project() -> Path:
    """``AFCHECK_LEAN_PROJECT``, else the checkout's ``lean/``, else the user's data folder
    (see :mod:`afcheck_lean.lake_project`)."""
    from afcheck_lean.lake_project import default_project as project

    return project()


@dataclass(frozen=True)
class LeanSettings:
    """How REPLs are started and used."""

    project: Path = field(default_factory=default_project)
    workers: int = 1
    timeout_s: float = 60.0
    """Wall-clock limit of one command; a command over it is INCONCLUSIVE, never a hang."""
    header_timeout_s: float = 300.0
    """Wall-clock limit for importing the header (``import Mathlib``) in a fresh REPL."""
    memory_mb: int = 12_000
    """Address-space cap of one REPL (RLIMIT_AS; Mathlib needs ≥ 9 GB)."""
    recycle_mb: int = 0
    """Restart a REPL whose resident memory exceeds this after a command (0: 80% of cap)."""
    max_commands: int = 200
    """Restart a REPL after this many commands: the REPL never frees environments."""
    header: str = DEFAULT_HEADER
    lake: str = "lake"
    allow_native_decide: bool = False
    cache_dir: Path | None = None
    """Where lean-interact keeps the REPL (default: lean-interact's own cache)."""
    repl_dir: Path | None = None
    """A REPL checkout already built for the project's Lean version (offline use)."""
    sandbox: str = ""
    """``auto``, ``on`` or ``off`` (:mod:`afcheck_lean.sandbox`); empty: the run's
    ``--lean-sandbox`` (default ``auto``)."""
    pass_env: tuple[str, ...] = ()
    """Variables passed to Lean processes besides the sandbox's short list (comma-separated
    as an option)."""
    readable: tuple[Path, ...] = ()
    """Directories Lean processes may read besides the project and the toolchain."""
    kernel_checks: str = "auto"
    """``on``, ``off`` or ``auto`` (on when ``AfcheckKernel`` is built in the project): the
    replay and statement comparison of :mod:`afcheck_lean.kernel`."""
    cpu_s: int = 0
    """CPU seconds a REPL may use over its life (0: its whole budget, ``max_commands`` ×
    ``timeout_s`` + ``header_timeout_s``)."""

    @property
    def cpu_limit_s(self) -> int:
        return self.cpu_s or int(self.max_commands * self.timeout_s + self.header_timeout_s)

    @property
    def recycle_limit_mb(self) -> float:
        limit = float(self.recycle_mb or 0.8 * self.memory_mb)
        return limit if limit > 0 else float("inf")


_INTS = {"workers", "memory_mb", "recycle_mb", "max_commands", "cpu_s"}
_FLOATS = {"timeout_s", "header_timeout_s"}
_PATHS = {"project", "cache_dir", "repl_dir"}
_STRINGS = {"header", "lake", "sandbox", "kernel_checks"}
_BOOLS = {"allow_native_decide"}
_LISTS = {"pass_env", "readable"}


def parse_settings(options: Mapping[str, str], component: str, extra: set[str]) -> LeanSettings:
    """Settings from string options; keys in ``extra`` belong to the component and are skipped.

    Raises :class:`UsageError` naming the option for anything unknown or malformed.
    """
    values: dict[str, object] = {}
    for key, raw in options.items():
        if key in extra:
            continue
        values[key] = _convert(component, key, raw)
    settings = LeanSettings(**values)  # type: ignore[arg-type]
    if settings.kernel_checks not in ("auto", "on", "off"):
        raise UsageError(f"{component}: option kernel_checks={settings.kernel_checks!r} must be "
                         "auto, on or off")
    if settings.sandbox not in ("", "auto", "on", "off"):
        raise UsageError(f"{component}: option sandbox={settings.sandbox!r} must be auto, on or "
                         "off")
    if settings.workers < 1 or settings.timeout_s <= 0 or settings.max_commands < 1:
        raise UsageError(
            f"{component}: workers, timeout_s and max_commands must be positive "
            f"(got workers={settings.workers}, timeout_s={settings.timeout_s}, "
            f"max_commands={settings.max_commands})"
        )
    return settings


def parse_bool(component: str, key: str, raw: str) -> bool:
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise UsageError(f"{component}: option {key}={raw!r} must be true or false")


def _convert(component: str, key: str, raw: str) -> object:
    try:
        if key in _INTS:
            return int(raw)
        if key in _FLOATS:
            return float(raw)
    except ValueError:
        raise UsageError(f"{component}: option {key}={raw!r} must be a number") from None
    if key in _PATHS:
        return Path(raw).expanduser()
    if key in _STRINGS:
        return raw.replace("\\n", "\n")
    if key in _BOOLS:
        return parse_bool(component, key, raw)
    if key in _LISTS:
        items = tuple(part.strip() for part in raw.split(",") if part.strip())
        return tuple(Path(i).expanduser() for i in items) if key == "readable" else items
    known = sorted(_INTS | _FLOATS | _PATHS | _STRINGS | _BOOLS | _LISTS)
    raise UsageError(f"{component}: unknown option '{key}'; known options: {', '.join(known)}")
