"""The run options, declared once for both front doors.

Under plain ``pytest`` every option is spelled ``--afcheck-<name>`` so nothing collides with a
user's other plugins; the ``afcheck`` command accepts the short spelling ``--<name>`` and
translates it. Plugins add options through :func:`afcheck.hookspecs.afcheck_addoption`, which
receives an :class:`OptionGroup` that registers both spellings the same way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from afcheck.errors import UsageError
from afcheck.model import ModelAdapter
from afcheck.option_values import whole_number
from afcheck.registry import Kind, Kinds

PREFIX = "--afcheck-"


SECTIONS = ("components", "steps and perturbation", "outputs", "gates and baseline",
            "cache and execution", "plugins")
"""The headings of ``afcheck --help``, in order; options a plugin adds without a section go
under "plugins"."""


@dataclass(frozen=True)
class OptionSpec:
    """One option: its short name (``formaliser``), its help section, argparse arguments."""

    name: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    section: str = "plugins"

    @property
    def long(self) -> str:
        return PREFIX + self.name

    @property
    def short(self) -> str:
        return "--" + self.name

    @property
    def dest(self) -> str:
        return "afcheck_" + self.name.replace("-", "_")

    @property
    def takes_value(self) -> bool:
        return self.kwargs.get("action") not in ("store_true", "store_false", "count")


def _opt(section: str, name: str, **kwargs: Any) -> OptionSpec:
    return OptionSpec(name, kwargs, section)


def kind_options(kind: Kind[object], model: ModelAdapter | None = None
                 ) -> tuple[OptionSpec, OptionSpec]:
    """``--<kind> NAME`` and ``--<kind>-opt K=V`` of a selectable kind; ``model`` is how it
    takes the model under test, if it does."""
    words = kind.name.replace("_", " ")
    if model is not None and model.follows is not None:
        default = f"the model of --{model.follows.replace('_', '-')}, else the suite's"
    else:
        default = "the suite's, else its method's"
    return (
        _opt("components", kind.option, metavar="NAME[,NAME…]" if kind.many else "NAME",
             help=(f"{kind.description or words}"
                   + ("; several parametrise each item" if kind.many else "")
                   + f" (afcheck list {kind.plural}; default: {default})")),
        _opt("components", f"{kind.option}-opt", action="append", default=[],
             metavar="K=V[,K=V…]", help=f"{words} option(s), repeatable"),
    )


def component_options(kinds: Sequence[Kind[object]] | Kinds) -> tuple[OptionSpec, ...]:
    """The options of every selectable kind among ``kinds``, in order (given the declared
    :class:`~afcheck.registry.Kinds`, a kind that follows the model under test says so)."""
    models = kinds.models if isinstance(kinds, Kinds) else {}
    return tuple(spec for kind in kinds if kind.selectable
                 for spec in kind_options(kind, models.get(kind.name)))


CORE_OPTIONS: tuple[OptionSpec, ...] = (
    _opt("steps and perturbation", "limit", type=whole_number(1), metavar="N",
         help="collect at most N records per suite: the items its data holds (a step, a "
         "sentence, a chain, a pair), before a method parametrises them"),
    _opt("outputs", "failure-lines", type=whole_number(0), metavar="N",
         help="print at most N failed items in the failure summary, then how many more and "
         "where the full list is (default: all on a terminal, 20 in a log; 0: none)"),
    _opt("gates and baseline", "gate", action="append", default=[], metavar="[METHOD.]METRIC<=X",
         help="fail the run unless the metric holds (e.g. UFLB<=0.35, "
         "equivalence.coverage>=0.5); repeatable"),
    _opt("gates and baseline", "baseline", metavar="FILE",
         help="items failing in this baseline are expected failures"),
    _opt("gates and baseline", "update-baseline", action="store_true",
         help="write the current failures to --baseline"),
    _opt("cache and execution", "cache-dir", metavar="DIR",
         help="result cache folder (default: the user cache dir, or AFCHECK_CACHE_DIR)"),
    _opt("cache and execution", "no-cache", action="store_true",
         help="neither read nor write the result cache"),
    _opt("cache and execution", "chunk-size", type=whole_number(1), default=256, metavar="N",
         help="items sent to a backend per call; each finished chunk is cached (default 256)"),
    _opt("cache and execution", "budget", action="append", default=[],
         metavar="METHOD.STAGE.KEY=VALUE",
         help="change what one item may spend in a stage (KEY: seconds, memory_mb, size), "
         "repeatable, e.g. nl2fol.ted.size=5000 (docs/budgets.md lists them)"),
    _opt("cache and execution", "executor", metavar="NAME",
         help="where batched stages run (afcheck list executors; default local)"),
    _opt("cache and execution", "executor-opt", action="append", default=[],
         metavar="K=V[,K=V…]",
         help="options of the chosen executor, repeatable (afcheck list executors shows "
         "each executor's)"),
    _opt("cache and execution", "full-protocol", action="store_true",
         help="run every item through pytest's full setup/call/teardown hooks (slower; a "
         "plugin or conftest that hooks into them, or a skip/xfail mark, gets them anyway)"),
    _opt("plugins", "plugin", action="append", default=[], metavar="MODULE",
         help="register an extra plugin module, repeatable (loaded before options are read)"),
)


@dataclass
class OptionGroup:
    """What :func:`afcheck_addoption` receives:
    ``addoption("--name", section="outputs", **argparse_kwargs)``."""

    add: Callable[[OptionSpec], None]
    specs: list[OptionSpec] = field(default_factory=list)

    def addoption(self, name: str, *, section: str = "plugins", **kwargs: Any) -> None:
        if not name.startswith("--"):
            raise ValueError(f"afcheck options are long options, got {name!r}")
        spec = OptionSpec(name[2:], kwargs, section if section in SECTIONS else "plugins")
        self.specs.append(spec)
        self.add(spec)


def get(config: Any, name: str, default: Any = None) -> Any:
    """Read an afcheck option (short name, ``-`` or ``_``) from a ``pytest.Config``."""
    value = config.getoption("afcheck_" + name.replace("-", "_"), default=None)
    return default if value is None else value


def add_component_options(parser: argparse.ArgumentParser, kind: str, default: str | None,
                          *, help: str = "") -> None:
    """Add ``--<kind> NAME`` and ``--<kind>-opt K=V[,K=V]`` to a subcommand's parser, read
    the way a run reads them (``args.<kind>_opt`` is a ``dict[str, str]``)."""
    flag = kind.replace("_", "-")
    parser.add_argument(f"--{flag}", default=default, metavar="NAME",
                        help=help or f"the {kind.replace('_', ' ')} (default: {default})")
    parser.add_argument(f"--{flag}-opt", action=KeyValues, default={}, metavar="K=V[,K=V…]",
                        help=f"{kind.replace('_', ' ')} option(s), repeatable")


class KeyValues(argparse.Action):
    """An argparse action that merges repeated ``K=V[,K=V]`` values into one dict."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option: str | None = None) -> None:
        merged = dict(getattr(namespace, self.dest, None) or {})
        what = (option or "--opt").lstrip("-").removesuffix("-opt")
        merged.update(parse_kv([str(values)], what))
        setattr(namespace, self.dest, merged)


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
