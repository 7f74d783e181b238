"""The run options, declared once for both front doors.

Under plain ``pytest`` every option is spelled ``--afcheck-<name>`` so nothing collides with a
user's other plugins; the ``afcheck`` command accepts the short spelling ``--<name>`` and
translates it. Plugins add options through :func:`afcheck.hookspecs.afcheck_addoption`, which
receives an :class:`OptionGroup` that registers both spellings the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from afcheck.errors import UsageError

PREFIX = "--afcheck-"


@dataclass(frozen=True)
class OptionSpec:
    """One option: its short name (``formaliser``) and argparse keyword arguments."""

    name: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def long(self) -> str:
        return PREFIX + self.name

    @property
    def short(self) -> str:
        return "--" + self.name

    @property
    def dest(self) -> str:
        return "afcheck_" + self.name.replace("-", "_")


def _opt(name: str, **kwargs: Any) -> OptionSpec:
    return OptionSpec(name, kwargs)


CORE_OPTIONS: tuple[OptionSpec, ...] = (
    _opt("formaliser", metavar="NAME",
         help="formaliser plugin (default: the suite's, else literal)"),
    _opt("prover", metavar="NAME", help="prover plugin (default: the suite's, else smt)"),
    _opt("checker", metavar="NAME", help="type-checker plugin (default: the suite's, else none)"),
    _opt(
        "perturber",
        metavar="NAME[,NAME…]",
        help="perturber plugin(s); several parametrise each step "
        "(default: the suite's, else regex)",
    ),
    _opt("formaliser-opt", action="append", default=[], metavar="K=V[,K=V…]",
         help="formaliser option(s), repeatable"),
    _opt("prover-opt", action="append", default=[], metavar="K=V[,K=V…]",
         help="prover option(s), repeatable"),
    _opt("checker-opt", action="append", default=[], metavar="K=V[,K=V…]",
         help="checker option(s), repeatable"),
    _opt("perturber-opt", action="append", default=[], metavar="K=V[,K=V…]",
         help="perturber option(s), repeatable"),
    _opt("steps", metavar="MODE", help="step mode of ProcessBench suites: paragraph, claims, dag"),
    _opt("seed", type=int, metavar="N",
         help="seed of the perturbers (default: the suite's, else 0)"),
    _opt("limit", type=int, metavar="N", help="collect at most N steps per suite"),
    _opt("json", metavar="FILE", help="write the versioned JSON result file"),
    _opt("junitxml", metavar="FILE", help="write JUnit XML (one testsuite per dataset)"),
    _opt("max-uflb", type=float, metavar="X", help="gate: fail the run when UFLB > X"),
    _opt("max-fpr", type=float, metavar="X", help="gate: fail the run when FPR > X"),
    _opt("max-fnr", type=float, metavar="X", help="gate: fail the run when FNR > X"),
    _opt("max-affr", type=float, metavar="X", help="gate: fail the run when AFFR > X"),
    _opt("min-fi", type=float, metavar="X", help="gate: fail the run when FI < X"),
    _opt("baseline", metavar="FILE", help="steps failing in this baseline are expected failures"),
    _opt("update-baseline", action="store_true", help="write the current failures to --baseline"),
    _opt("keep-ineffective", action="store_true",
         help="keep perturbations known to be ineffective in FPR"),
    _opt("cache-dir", metavar="DIR",
         help="result cache folder (default: the user cache dir, or AFCHECK_CACHE_DIR)"),
    _opt("no-cache", action="store_true", help="neither read nor write the result cache"),
    _opt("chunk-size", type=int, default=256, metavar="N",
         help="items sent to a backend per call; each finished chunk is cached (default 256)"),
    _opt("full-protocol", action="store_true",
         help="run step items through pytest's full setup/call/teardown hooks (slower; for "
         "plugins that hook into setup or teardown)"),
    _opt("plugin", action="append", default=[], metavar="MODULE",
         help="register an extra plugin module, repeatable"),
)


@dataclass
class OptionGroup:
    """What :func:`afcheck_addoption` receives: ``addoption("--name", **argparse_kwargs)``."""

    add: Callable[[OptionSpec], None]
    specs: list[OptionSpec] = field(default_factory=list)

    def addoption(self, name: str, **kwargs: Any) -> None:
        if not name.startswith("--"):
            raise ValueError(f"afcheck options are long options, got {name!r}")
        spec = OptionSpec(name[2:], kwargs)
        self.specs.append(spec)
        self.add(spec)


def get(config: Any, name: str, default: Any = None) -> Any:
    """Read an afcheck option (short name, ``-`` or ``_``) from a ``pytest.Config``."""
    value = config.getoption("afcheck_" + name.replace("-", "_"), default=None)
    return default if value is None else value


def parse_kv(values: list[str] | tuple[str, ...] | None, what: str) -> dict[str, str]:
    """``["a=1,b=2", "c=3"]`` → ``{"a": "1", "b": "2", "c": "3"}``.

    A value may contain ``,`` when written as its own ``--x-opt k=v`` and the value holds an
    ``=``-free tail (URLs with query strings need separate flags).
    """
    result: dict[str, str] = {}
    for chunk in values or ():
        for part in _split_pairs(chunk):
            key, sep, val = part.partition("=")
            if not sep or not key.strip():
                raise UsageError(f"--{what}-opt expects KEY=VALUE, got {part!r}")
            result[key.strip()] = val.strip()
    return result


def _split_pairs(chunk: str) -> list[str]:
    # Split on commas that start a new KEY=; a comma inside a value (no '=' after it) stays.
    parts: list[str] = []
    for piece in chunk.split(","):
        if parts and "=" not in piece:
            parts[-1] += "," + piece
        else:
            parts.append(piece)
    return [p for p in parts if p.strip()]
