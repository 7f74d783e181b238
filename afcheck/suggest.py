"""The nearest right spelling of a command-line mistake, in one line, before any work.

``afcheck exampels`` names no folder, suite or command: ``did you mean 'examples'?``. An
option pytest does not know (``--limt 5``), a value an option refuses (``--limit -1``) and
every other usage error of pytest's own parser are one ``afcheck: error:`` line in the
afcheck spelling (``--limit``, never ``--afcheck-limit``), not pytest's usage text.
Suggestions come from :func:`difflib.get_close_matches`, as for component names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path

import pytest

from afcheck import options as opts
from afcheck.errors import UsageError


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known spelling closest to ``word``, or ``None`` when none is close."""
    close = difflib.get_close_matches(word, sorted(set(known)), n=1)
    return close[0] if close else None


def hint(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"``, or nothing when no known spelling is close."""
    close = nearest(word, known)
    return f"; did you mean '{close}'?" if close else ""


def check_paths(places: Iterable[str], names: Iterable[str]) -> None:
    """Refuse a path argument that names nothing: no file or folder and none of ``names``
    (the shipped suites and the commands). ``places`` are the arguments in a path's place,
    after suite names became folders; a test id's ``::`` part is left to pytest."""
    known = list(names)
    for arg in places:
        path = arg.split("::", 1)[0]
        if not path or Path(path).exists():
            continue
        parent = Path(path).parent
        if str(parent) != "." and parent.is_dir():
            near = nearest(Path(path).name, (p.name for p in parent.iterdir()))
            advice = f"; did you mean '{parent / near}'?" if near else ""
            raise UsageError(f"{path}: no such file or folder{advice}")
        raise UsageError(f"{path}: no such file, folder, suite or command{hint(path, known)} "
                         "(afcheck list suites shows the suites, afcheck help the commands)")


class Spelling:
    """A pytest plugin of the ``afcheck`` command: a usage error of pytest's parser (an
    unknown option, a value an option refuses) leaves ``pytest.main`` as one afcheck line."""

    def __init__(self, args: Sequence[str], specs: Sequence[opts.OptionSpec]) -> None:
        self.args = list(args)
        self.specs = list(specs)

    @pytest.hookimpl(wrapper=True)
    def pytest_cmdline_parse(self, pluginmanager: pytest.PytestPluginManager,
                             args: list[str]) -> Generator[None, pytest.Config, pytest.Config]:
        try:
            return (yield)
        except pytest.UsageError as exc:
            config = pluginmanager.get_plugin("pytestconfig")
            parser = getattr(config, "_parser", None)
            raise self.explain(str(exc), _option_names(parser)) from None

    def explain(self, message: str, pytest_names: set[str]) -> UsageError:
        """The afcheck line for pytest's usage error ``message``, given the option names
        pytest's parser knows."""
        ours = {spec.short for spec in self.specs}
        theirs = {name for name in pytest_names if not name.startswith(opts.PREFIX)}
        for arg in self.args:
            if arg == "--" or not arg.startswith("--"):
                continue
            name = arg.split("=", 1)[0]
            if name in ours or name in pytest_names:
                continue
            close = nearest(name, ours | {n for n in theirs if n.startswith("--")})
            advice = f"; did you mean {close}?" if close else ""
            return UsageError(f"{name}: no such option{advice} (afcheck help lists afcheck's "
                              "options, afcheck --help-pytest pytest's)")
        # Another error of pytest's parser (a refused value): its own words, in one line,
        # in the spelling the command takes.
        lines = [line for line in message.splitlines() if " error: " in line] or [message]
        text = lines[0].split(" error: ", 1)[-1].strip()
        text = text.replace(opts.PREFIX, "--")
        match = re.fullmatch(r"argument (\S+?)(?:/\S+)?: (.*)", text)
        return UsageError(f"{match[1]}: {match[2]}" if match else text)


def _option_names(parser: object) -> set[str]:
    """Every option string pytest's parser (with its plugins' options) accepts."""
    names: set[str] = set()
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    for group in groups:
        for option in getattr(group, "options", []):
            names.update(option.names())
    return names
