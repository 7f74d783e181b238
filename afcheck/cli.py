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

import os
import sys
from collections.abc import Callable, Sequence

from afcheck import options as opts
from afcheck.errors import AfcheckError
from afcheck.registry import KINDS

USAGE = """usage: afcheck PATH... [--formaliser NAME] [--prover NAME] [--perturber NAME] [...]
       afcheck list [formalisers|provers|checkers|perturbers|criteria|suite_kinds|reporters]
       afcheck prove STATEMENT|FILE|- [--prover NAME] [--json]
       afcheck perturb TEXT [--perturber NAME] [--seed N] [--json]

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
    pytest_args = translate(args)
    if not any(a.startswith("--tb") for a in pytest_args):
        pytest_args.insert(0, "--tb=line")
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        pytest_args[:0] = ["-p", "afcheck.pytest_plugin"]
    return int(pytest.main(pytest_args))


def _asks_help(args: list[str]) -> bool:
    return "-h" in args or "--help" in args


def translate(args: list[str]) -> list[str]:
    """Rewrite ``--formaliser X`` to ``--afcheck-formaliser X`` for every afcheck option."""
    names = {spec.name for spec in opts.CORE_OPTIONS} | _plugin_option_names()
    out = []
    for arg in args:
        if arg.startswith("--") and not arg.startswith(opts.PREFIX):
            name = arg[2:].split("=", 1)[0]
            if name in names:
                arg = opts.PREFIX + arg[2:]
        out.append(arg)
    return out


def _plugin_option_names() -> set[str]:
    from afcheck.plugins import get_plugins

    group = opts.OptionGroup(add=lambda spec: None)
    get_plugins().pm.hook.afcheck_addoption.call_historic(kwargs={"group": group})
    return {spec.name for spec in group.specs}


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


def _origin(plugins: object, plugin: str) -> str:
    origin = getattr(plugins, "origins", {}).get(plugin, "")
    return f"{plugin} ({origin})" if origin else plugin


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
