"""The ``afcheck`` command.

``afcheck PATH... [options] [pytest options]`` runs suites through pytest with afcheck's
defaults: a one-line traceback style (pytest's full failure summary is quadratic in the number
of failures, and formalisers fail 10–30% of steps) and the short option spellings
(``--formaliser`` for ``--afcheck-formaliser``). Every pytest option keeps working
(``-k``, ``-x``, ``--lf``, ``--co``, ``-q``, ``-v``, ``-rs``).

``afcheck COMMAND …`` runs a subcommand: ``list``, ``cache`` and those plugins register
(``prove``, ``perturb``, ``lean``, ``dag``, ``report`` …). A command wins over a folder of the
same name (``afcheck ./lean`` runs the folder). ``afcheck --help`` is afcheck's help;
``afcheck --help-pytest`` is pytest's.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from afcheck import options as opts
from afcheck.errors import AfcheckError, UsageError
from afcheck.plugins import Plugins, get_plugins
from afcheck.registry import METHOD, SUITE, Handler

USAGE = """usage: afcheck PATH... [--formaliser NAME] [--prover NAME] [--perturber NAME] [...]
       afcheck COMMAND [ARGS...]     (afcheck help: every option and command)"""

_BUILTIN: dict[str, str] = {
    "list": "every registered component, method, reporter and command, with its plugin",
    "cache": "show or clear the result cache",
    "help": "this help",
}


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """The ``afcheck`` command's work; ``own_process``: the process ends with it (as under
    :func:`entry`), so nothing a run made needs to be collected as garbage afterwards."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in ("--version", "-V"):
            from afcheck import __version__

            print(f"afcheck {__version__}")
            return 0
        plugins = get_plugins()
        for module in _plugin_modules(args):
            plugins.register_module(module)
        # `afcheck --plugin M list provers`: the plugin is loaded; the command is what follows.
        rest = _without_plugins(args)
        if not rest or rest[0] in ("help", "-h", "--help") and not _paths(rest[1:]):
            if not rest:
                print(USAGE, file=sys.stderr)
                return 4
            print(help_text(plugins))
            return 0
        if rest[0] == "--help-pytest":
            return run(["--help"])
        command = _command(plugins, rest[0])
        if command is not None:
            return command(rest[1:])
        return run(args, own_process=own_process)
    except AfcheckError as exc:
        print(f"afcheck: error: {exc}", file=sys.stderr)
        return 4
    except KeyboardInterrupt as exc:  # before or after a run's session: no traceback
        from afcheck.runtime.interrupt import INTERRUPTED_EXIT, say, stop_line

        print(stop_line(exc, "outside the run's items (a result file is written whole or "
                             "not at all)"), file=sys.stderr)
        say()
        return INTERRUPTED_EXIT
    except BrokenPipeError:
        # `afcheck prove … | head`: the reader has gone, which is no error of the command's.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _paths(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _plugin_modules(args: list[str]) -> list[str]:
    found = []
    for index, arg in enumerate(args):
        for flag in ("--plugin", opts.PREFIX + "plugin"):
            if arg == flag and index + 1 < len(args):
                found.append(args[index + 1])
            elif arg.startswith(flag + "="):
                found.append(arg[len(flag) + 1:])
    return found


def _command(plugins: Plugins, name: str) -> Callable[[list[str]], int] | None:
    """The subcommand ``name``, or ``None`` when ``name`` is a path or an option."""
    if name.startswith("-"):
        return None
    builtin: dict[str, Callable[[argparse.ArgumentParser], Handler]] = {
        "list": _configure_list, "cache": _configure_cache}
    description = _BUILTIN.get(name, "")
    configure = builtin.get(name)
    if configure is None:
        entry = plugins.commands().get(name)
        if entry is None:
            return None
        configure, description = entry.configure, entry.description
    chosen = configure

    def call(rest: list[str]) -> int:
        parser = argparse.ArgumentParser(prog=f"afcheck {name}", description=description)
        handler = chosen(parser)
        return int(handler(parser.parse_args(_without_plugins(rest))))

    return call


def _without_plugins(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("--plugin", opts.PREFIX + "plugin"):
            skip = True
        elif not arg.startswith(("--plugin=", opts.PREFIX + "plugin=")):
            out.append(arg)
    return out


def run(args: list[str], *, own_process: bool = False) -> int:
    """Run suites through pytest with afcheck's defaults and short option names;
    ``own_process`` as in :func:`main`."""
    import pytest

    if not _paths(args) and "--help" not in args:
        print(USAGE, file=sys.stderr)
        return 4
    from afcheck.catalogue import places, resolve
    from afcheck.suggest import Spelling, check_paths

    specs = all_options(get_plugins())
    flags = frozenset(spec.short for spec in specs if not spec.takes_value)
    args = resolve(args, get_plugins(), flags)  # `afcheck examples`: a shipped suite by name
    # A misspelt suite, command or option is one line with the nearest name, before any work
    # (under --pyargs the arguments are module names, pytest's to find).
    if "--pyargs" not in args:
        check_paths([args[i] for i in places(args, flags)],
                    [*get_plugins().registry(SUITE).names(), *_BUILTIN,
                     *get_plugins().commands()])
    pytest_args = defaults(args) + translate(args)
    # A run keeps hundreds of thousands of long-lived objects (items, reports, records):
    # collecting the young generation less often saves a fifth of a large run's own time.
    gc.set_threshold(50_000, 20, 50)
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        pytest_args[:0] = ["-p", "afcheck.pytest_plugin"]
    from afcheck.pytest_plugin import hand_over

    class LongLived:
        """What collection made (items, cases, steps) lives until the process ends, so the
        collector stops walking it once collection is over: at 25,000 steps the walk took
        0.1-0.3 s of the run's collections. Only where the process is the command's own: in
        anyone else's the objects may become garbage while the process goes on."""

        @pytest.hookimpl(trylast=True)
        def pytest_collection_finish(self) -> None:
            gc.freeze()

    # The session uses the plugins this call already loaded, --plugin modules included.
    hand_over(get_plugins())
    spelling = Spelling(args, specs)
    from afcheck.runtime.interrupt import handled

    with handled():  # SIGTERM stops the run as Ctrl-C does
        code = int(pytest.main(pytest_args,
                               plugins=[spelling, LongLived()] if own_process else [spelling]))
    from afcheck.runtime.interrupt import unsaid_stop

    unsaid = unsaid_stop()  # a stop before pytest's reporter was there: afcheck's line
    if unsaid is not None:
        print(unsaid, file=sys.stderr)
    return code


def defaults(args: list[str]) -> list[str]:
    """pytest options the ``afcheck`` command adds unless the user chose otherwise.

    ``--tb=line``: pytest's full failure summary is quadratic in the number of failures.
    ``-rN``: each failure already has its line; the short summary would repeat them all.
    ``-s``: case items print nothing, and a backend's own log (vLLM loading a model) is
    better seen live than kept for the first item's report; capturing also costs time per item.
    ``-p no:logging``: per-item log capture, unused by case items, costs time per item.
    ``-p no:hypothesispytest``: hypothesis's pytest plugin, when installed, walks every item
    at the end of a run for statistics that case items never have.
    ``-p no:unraisableexception``: it runs full garbage collections over every item at the end
    of a run, looking for exceptions that case items do not leave behind.
    ``-p no:subtests``: pytest's ``subtests`` fixture, which case items never take; its
    report-status hook looks up every item's count of failed subtests.
    ``-p no:xdist``: pytest-xdist, when installed, costs a second at start-up, and afcheck
    refuses its ``-n`` anyway (a run decides and gates over all items at once).
    ``-p no:anyio``: anyio's pytest plugin, installed with the HTTP client, imports its
    asyncio and trio back ends at start-up (0.2 s) for async tests that case items are not;
    a session that also runs anyio tests gives ``-p anyio``.
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
    if not any("subtests" in a for a in args):
        added += ["-p", "no:subtests"]
    if not any(a in ("-n", "--dist") or a.startswith(("-n", "--numprocesses", "--dist"))
               for a in args):
        added += ["-p", "no:xdist"]
    if not any("anyio" in a for a in args):
        added += ["-p", "no:anyio"]
    return added


def translate(args: list[str]) -> list[str]:
    """Rewrite ``--formaliser X`` to ``--afcheck-formaliser=X`` for every afcheck option.

    Values are joined with ``=``: pytest decides its rootdir before plugin options are known,
    and would take a detached value that names an existing path (a cache folder, say) for a
    test path, which would change every test id.
    """
    specs = {spec.name: spec for spec in all_options(get_plugins())}
    out: list[str] = []
    rest = iter(args)
    for arg in rest:
        name = arg[2:].split("=", 1)[0] if arg.startswith("--") else ""
        spec = specs.get(name) if not arg.startswith(opts.PREFIX) else None
        if spec is None:
            out.append(arg)
        elif "=" in arg or not spec.takes_value:
            out.append(opts.PREFIX + arg[2:])
        else:
            value = next(rest, None)
            if value is None:
                raise UsageError(f"{spec.short} expects a value")
            out.append(f"{spec.long}={value}")
    return out


def all_options(plugins: Plugins) -> list[opts.OptionSpec]:
    """The core's options and those every loaded plugin adds."""
    group = opts.OptionGroup(add=lambda spec: None)
    plugins.pm.hook.afcheck_addoption.call_historic(kwargs={"group": group})
    return [*opts.component_options(plugins.kinds), *opts.CORE_OPTIONS, *group.specs]


# -- help ------------------------------------------------------------------------------------


def help_text(plugins: Plugins) -> str:
    """``afcheck --help``: usage, afcheck's options by section, the commands."""
    lines = [
        "usage: afcheck PATH... [options] [pytest options]",
        "       afcheck COMMAND [ARGS...]",
        "",
        "Run the suites in PATH (folders with a suite.toml) as tests of a formaliser: one test",
        "item per case, metrics at the end. A command wins over a folder of the same name",
        "(afcheck ./lean runs the folder lean/).",
    ]
    by_section: dict[str, list[opts.OptionSpec]] = {}
    for spec in all_options(plugins):
        by_section.setdefault(spec.section, []).append(spec)
    for section in opts.SECTIONS:
        specs = by_section.get(section, [])
        if not specs:
            continue
        lines += ["", f"{section}:"]
        for spec in specs:
            flag = spec.short + (f" {spec.kwargs.get('metavar', 'VALUE')}"
                                 if spec.takes_value else "")
            lines.append(_two_columns(flag, str(spec.kwargs.get("help", ""))))
    lines += ["", "commands (afcheck COMMAND --help for each):"]
    commands = {**_BUILTIN, **{name: entry.description
                               for name, entry in plugins.commands().items()}}
    for name in sorted(commands):
        lines.append(_two_columns(name, commands[name]))
    lines += ["", "pytest's own options (-k, -x, --lf, --co, -q, -v, -rs, --tb=…) work too;",
              "afcheck --help-pytest lists them all."]
    return "\n".join(lines)


def _two_columns(left: str, right: str, width: int = 30, total: int = 100) -> str:
    import textwrap

    lines = textwrap.wrap(right, total - width, break_on_hyphens=False) or [""]
    indent = " " * width
    if len(left) + 2 >= width:
        head = [f"  {left}"]
        body = [indent + line for line in lines]
    else:
        head = [f"  {left:<{width - 2}}{lines[0]}"]
        body = [indent + line for line in lines[1:]]
    return "\n".join(head + body)


# -- built-in commands -------------------------------------------------------------------------


def _configure_list(parser: argparse.ArgumentParser) -> Handler:
    parser.add_argument("kind", nargs="?", help="one kind: " + ", ".join(
        [*(k.plural for k in get_plugins().kinds), "kinds", "commands"]))
    return list_command


def list_command(args: argparse.Namespace) -> int:
    """``afcheck list [KIND]``: every registered plugin component with its origin."""
    from tabulate import tabulate

    from afcheck.install import fit

    plugins = get_plugins()

    def commands() -> None:
        rows = [[name, "afcheck (core)", description]
                for name, description in sorted(_BUILTIN.items())]
        rows += [[e.name, _origin(plugins, e.plugin), e.description]
                 for e in sorted(plugins.commands().values(), key=lambda e: e.name)]
        print("commands:")
        print(tabulate(sorted(rows), headers=("name", "plugin", "description"),
                       maxcolwidths=[None, None, 70]))

    def suites() -> None:
        from afcheck.catalogue import named_suites

        rows = [[s.name, s.method, s.size, s.data, str(s.folder)]
                for s in named_suites(plugins)]
        print("suites (afcheck NAME runs one):")
        print(tabulate(rows, headers=("name", "method", "size", "data", "folder"),
                       maxcolwidths=[None, None, None, 44, None]) if rows else "  (none)")

    if args.kind in ("command", "commands"):
        commands()
        return 0
    if args.kind in ("suite", "suites"):
        suites()
        return 0
    if args.kind == "kinds":
        models = plugins.kinds.models
        rows = [[kind.name, "yes" if kind.selectable else "",
                 (models[kind.name].follows if kind.name in models else None) or "",
                 kind.description] for kind in plugins.kinds]
        print("kinds:")
        print(tabulate(rows, headers=("name", "chosen with --NAME", "follows", "description"),
                       maxcolwidths=[None, None, None, 60]))
        return 0
    try:
        kinds = [plugins.kinds.get(args.kind)] if args.kind else list(plugins.kinds)
    except UsageError as exc:
        print(f"afcheck: error: {exc}", file=sys.stderr)
        return 4
    for kind in kinds:
        if kind.name == SUITE.name:
            suites()
            print()
            continue
        entries = plugins.registry(kind).entries()
        if not entries and not args.kind:
            continue
        # Install hints in details and descriptions fit how afcheck was installed.
        rows = [[e.name, _origin(plugins, e.plugin),
                 fit(", ".join(f"{k}={v}" for k, v in e.details.items())
                     + (_budgets(plugins, e.name) if kind.name == METHOD.name else "")),
                 fit(e.description)]
                for e in entries]
        print(f"{kind.plural}:")
        print(tabulate(rows, headers=("name", "plugin", "details", "description"),
                       maxcolwidths=[None, None, 40, 60]) if rows else "  (none)")
        print()
    if not args.kind:
        commands()
    for name, error in sorted(plugins.load_errors.items()):
        print(f"plugin '{name}' failed to load: {error}")
    return 0


def _budgets(plugins: Plugins, name: str) -> str:
    """A method's declared budgets, one ``stage: bounds`` line each (``afcheck list
    methods``); a method that cannot be built here says why instead."""
    from afcheck.budget import budgets_of

    try:
        method = plugins.create(METHOD, name)
    except AfcheckError as exc:
        return f"budgets not read: {exc}"
    budgets = budgets_of(method)
    if not budgets:
        return "budgets: none"
    return "budgets:\n" + "\n".join(f"{stage}: {budget.describe()}"
                                     for stage, budget in sorted(budgets.items()))


def _configure_cache(parser: argparse.ArgumentParser) -> Handler:
    parser.add_argument("action", choices=("info", "clear"))
    parser.add_argument("--cache-dir", default=os.environ.get("AFCHECK_CACHE_DIR"))
    parser.add_argument("--json", action="store_true")
    return cache_command


def cache_command(args: argparse.Namespace) -> int:
    """``afcheck cache info|clear [--cache-dir DIR]``."""
    import json

    from afcheck.runtime.cache import cache_path, clear, default_dir, open_cache

    directory = args.cache_dir or str(default_dir())
    if not cache_path(Path(directory)).exists():
        # A question about a cache creates none.
        if args.json:
            print(json.dumps({"path": str(cache_path(Path(directory))), "bytes": 0,
                              "entries": {}}))
        else:
            print(f"no result cache at {cache_path(Path(directory))}"
                  + ("; nothing to clear" if args.action == "clear" else ""))
        return 0
    if args.action == "clear":
        print(clear(Path(directory)))  # always leaves a usable cache
        return 0
    cache = open_cache(Path(directory))
    try:
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


def _origin(plugins: Plugins, plugin: str) -> str:
    origin = plugins.origins.get(plugin, "")
    return f"{plugin} ({origin})" if origin else plugin


def entry() -> None:
    """The ``afcheck`` command: :func:`main`, then the process ends without Python's shutdown.

    A large run leaves hundreds of thousands of objects, and tearing them down at exit (the
    final garbage collection, module by module) costs seconds and grows faster than the run.
    Once every file is written and flushed (the JSON results by pytest's session end, the
    standard streams here) and the exit handlers have run (temporary folders, logging, worker
    pools), nothing of that teardown is observable, so the process exits at once. With other
    threads still running the normal exit waits for them, so that path is kept then. Only the
    command does this; :func:`main` called in a process of someone else's returns.
    """
    from afcheck.runtime.interrupt import INTERRUPTED_EXIT, handled

    try:
        with handled():  # SIGTERM stops the command as Ctrl-C does, from its start
            code = main(own_process=True)
    except KeyboardInterrupt:  # a stop as the command returns: all was said and written
        code = INTERRUPTED_EXIT

    # A stopped run has written what finished; threads still in flight (a request a server
    # never answers) hold only work it gave up, and waiting for them would not stop.
    if threading.active_count() > 1 and code != INTERRUPTED_EXIT:
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be written
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
