"""The ``afcheck`` command.

``afcheck PATH... [options] [pytest options]`` runs suites through pytest with afcheck's
defaults: a one-line traceback style (pytest's full failure summary is quadratic in the number
of failures, and formalisers fail 10–30% of steps) and the short option spellings
(``--formaliser`` for ``--afcheck-formaliser``). Every pytest option keeps working
(``-k``, ``-x``, ``--lf``, ``--co``, ``-q``, ``-v``, ``-rs``).

Subcommands: ``afcheck list [KIND]``, ``afcheck prove``, ``afcheck perturb`` and those that
plugins register (``afcheck lean setup`` …).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from afcheck import options as opts
from afcheck.errors import AfcheckError, UsageError
from afcheck.registry import KINDS

USAGE = """usage: afcheck PATH... [--formaliser NAME] [--prover NAME] [--perturber NAME] [...]
       afcheck list [formalisers|provers|checkers|perturbers|criteria|suite_kinds|reporters]
       afcheck prove STATEMENT|FILE|- [--prover NAME] [--json]
       afcheck perturb TEXT [--perturber NAME] [--seed N] [--json]
       afcheck cache info|clear [--cache-dir DIR]
       afcheck dag SUITE_DIR --llm-opt base_url=…,model=… [--out FILE]
       afcheck lean setup|doctor

Run `afcheck --help` for every option (afcheck's and pytest's)."""

_PLURAL = {
    "formalisers": "formaliser", "provers": "prover", "checkers": "checker",
    "perturbers": "perturber", "criteria": "criterion", "suite_kinds": "suite_kind",
    "suite-kinds": "suite_kind", "reporters": "reporter", "commands": "command",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        command = _subcommand(args)
        if command is not None:
            return command(args[1:])
        return run(args)
    except AfcheckError as exc:
        print(f"afcheck: error: {exc}", file=sys.stderr)
        return 4


def _subcommand(args: list[str]) -> Callable[[list[str]], int] | None:
    if not args or args[0].startswith("-") or os.path.exists(args[0]):
        return None
    name = args[0]
    builtin: dict[str, Callable[[list[str]], int]] = {
        "list": list_command, "prove": _lazy("afcheck.prove"), "perturb": _lazy("afcheck.perturb"),
        "cache": cache_command,
    }
    if name in builtin:
        return builtin[name]
    from afcheck.plugins import get_plugins

    commands = get_plugins().registry("command")
    if name in commands:
        factory = commands.get(name).factory
        return lambda rest: int(factory(rest))
    return None


def _lazy(module: str) -> Callable[[list[str]], int]:
    def call(rest: list[str]) -> int:
        import importlib

        return int(importlib.import_module(module).main(rest))

    return call


def run(args: list[str]) -> int:
    """Run suites through pytest with afcheck's defaults and short option names."""
    import pytest

    if not any(not a.startswith("-") for a in args) and not _asks_help(args):
        print(USAGE, file=sys.stderr)
        return 4
    pytest_args = defaults(args) + translate(args)
    # A run keeps hundreds of thousands of long-lived objects (items, reports, records):
    # collecting the young generation less often saves a fifth of a large run's own time.
    gc.set_threshold(50_000, 20, 50)
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        pytest_args[:0] = ["-p", "afcheck.pytest_plugin"]
    return int(pytest.main(pytest_args))


def defaults(args: list[str]) -> list[str]:
    """pytest options the ``afcheck`` command adds unless the user chose otherwise.

    ``--tb=line``: pytest's full failure summary is quadratic in the number of failures.
    ``-rN``: each failure already has its line; the short summary would repeat them all.
    ``-s``: step items print nothing, and a backend's own log (vLLM loading a model) is
    better seen live than kept for the first item's report; capturing also costs time per item.
    ``-p no:logging``: per-item log capture, unused by step items, costs time per item.
    ``-p no:hypothesispytest``: hypothesis's pytest plugin, when installed, walks every item
    at the end of a run for statistics that step items never have.
    ``-p no:unraisableexception``: it runs full garbage collections over every item at the end
    of a run, looking for exceptions that step items do not leave behind.
    Options given later on the command line win.
    """
    added = []
    if not any(a.startswith("--tb") for a in args):
        added.append("--tb=line")
        if not any(a.startswith("-r") for a in args):
            added.append("-rN")
    if not any(a in ("-s", "--capture") or a.startswith("--capture=") for a in args):
        added.append("-s")
    if not any(a.startswith("--log") or "logging" in a for a in args):
        added += ["-p", "no:logging"]
    if not any(a.startswith("--hypothesis") for a in args):
        added += ["-p", "no:hypothesispytest"]
    if not any("unraisable" in a for a in args):
        added += ["-p", "no:unraisableexception"]
    return added


def _asks_help(args: list[str]) -> bool:
    return "-h" in args or "--help" in args


def translate(args: list[str]) -> list[str]:
    """Rewrite ``--formaliser X`` to ``--afcheck-formaliser=X`` for every afcheck option.

    Values are joined with ``=``: pytest decides its rootdir before plugin options are known,
    and would take a detached value that names an existing path (a cache folder, say) for a
    test path, which would change every test id.
    """
    specs = {spec.name: spec for spec in (*opts.CORE_OPTIONS, *_plugin_options())}
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        name = arg[2:].split("=", 1)[0] if arg.startswith("--") else ""
        spec = specs.get(name) if not arg.startswith(opts.PREFIX) else None
        if spec is None:
            out.append(arg)
        elif "=" in arg or not _takes_value(spec):
            out.append(opts.PREFIX + arg[2:])
        else:
            value = next(rest, None)
            if value is None:
                raise UsageError(f"{spec.short} expects a value")
            out.append(f"{spec.long}={value}")
    return out


def _takes_value(spec: opts.OptionSpec) -> bool:
    return spec.kwargs.get("action") not in ("store_true", "store_false", "count")


def _plugin_options() -> list[opts.OptionSpec]:
    from afcheck.plugins import get_plugins

    group = opts.OptionGroup(add=lambda spec: None)
    get_plugins().pm.hook.afcheck_addoption.call_historic(kwargs={"group": group})
    return group.specs


def list_command(argv: list[str]) -> int:
    """``afcheck list [KIND]``: every registered plugin component with its origin."""
    from tabulate import tabulate

    from afcheck.plugins import get_plugins

    plugins = get_plugins()
    kinds = list(KINDS)
    if argv:
        kind = _PLURAL.get(argv[0], argv[0])
        if kind not in KINDS:
            print(f"afcheck: error: unknown kind '{argv[0]}'; use one of "
                  f"{', '.join(sorted(_PLURAL))}", file=sys.stderr)
            return 4
        kinds = [kind]
    for kind in kinds:
        entries = plugins.registry(kind).entries()
        if not entries and argv == []:
            continue
        rows = [[e.name, _origin(plugins, e.plugin),
                 ", ".join(f"{k}={v}" for k, v in e.details.items()), e.description]
                for e in entries]
        print(f"{kind}s:" if not kind.endswith("s") else f"{kind}:")
        print(tabulate(rows, headers=("name", "plugin", "details", "description"),
                       maxcolwidths=[None, None, 40, 60]) if rows else "  (none)")
        print()
    for name, error in sorted(plugins.load_errors.items()):
        print(f"plugin '{name}' failed to load: {error}")
    return 0


def cache_command(argv: list[str]) -> int:
    """``afcheck cache info|clear [--cache-dir DIR]``."""
    import argparse
    import json

    from afcheck.cache import default_dir, open_cache

    parser = argparse.ArgumentParser(prog="afcheck cache")
    parser.add_argument("action", choices=("info", "clear"))
    parser.add_argument("--cache-dir", default=os.environ.get("AFCHECK_CACHE_DIR"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    directory = args.cache_dir or str(default_dir())
    cache = open_cache(Path(directory))
    try:
        if args.action == "clear":
            print(f"removed {cache.clear()} cached results from {cache.path}")
            return 0
        info = cache.info()
    finally:
        cache.close()
    if args.json:
        print(json.dumps(info))
        return 0
    print(f"cache: {info['path']} ({info['bytes'] / 1e6:.1f} MB)")
    for stage, count in info["entries"].items():
        print(f"  {stage:<10} {count} results")
    if not info["entries"]:
        print("  (empty)")
    return 0


def _origin(plugins: object, plugin: str) -> str:
    origin = getattr(plugins, "origins", {}).get(plugin, "")
    return f"{plugin} ({origin})" if origin else plugin


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
