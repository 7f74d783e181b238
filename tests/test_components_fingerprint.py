"""Every option that can change a component's answer decides its cache hits.

The fingerprint a component is built with (:func:`afcheck.components.describe`) is the first
part of every key of the result cache. These tests enumerate the options each registered
component takes (from the line it gives for an option it does not know, the one place every
component names them) and change them one at a time: each change must change the
fingerprint, except for the options in :data:`NOT_ANSWERS`, which change no answer the cache
keeps and which every registration that takes them must call ``volatile``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator, Mapping

import pytest

from afcheck.components import describe
from afcheck.errors import AfcheckError
from afcheck.method import Choice
from afcheck.plugins import Plugins, get_plugins
from afcheck.registry import Kind
from afcheck.runtime import Components

# Building with api_key_env=a warns that the variable is unset; the warning is not the point.
pytestmark = pytest.mark.filterwarnings("ignore:.*api_key_env.*:UserWarning")

NOT_ANSWERS: Mapping[str, str] = {
    "deadline_s": "a request stopped at its deadline is a transient backend error, never kept",
    "timeout_s": "the same for one attempt's timeout (an LLM client's)",
    "max_retries": "a request given up after its retries is transient, never kept",
    "backoff_s": "the wait between retries",
    "backoff_cap_s": "the longest wait between retries",
    "fail_streak": "when a run stops asking a failing server",
    "concurrency": "how many requests are in flight at once",
    "api_key_env": "which variable holds the key, not which model answers",
    "statement_s": "a Lean statement over its wall clock is transient INCONCLUSIVE, never kept",
    "jobs": "how many provers run at once, each on its own problem",
    "isolate": "whether a prover's batch runs in its worker pool or in the run's process",
}
"""Options that change no answer the result cache keeps, and why."""

UNKNOWN = "zz_not_an_option"
_LISTS = (r"[Kk]nown options: ([^.;]+)", r"known: ([^.;]+)", r"it takes ([^.;]+)")
_VALUES = (("1", "2"), ("0.5", "0.25"), ("http://127.0.0.1:9/v1", "http://127.0.0.1:10/v1"),
           ("a", "b"), ("true", "false"), ("max_tokens", "max_completion_tokens"),
           ("http", "vllm"), ("auto", "bfloat16"))
_BASES: tuple[Mapping[str, str], ...] = (
    {}, {"base_url": "http://127.0.0.1:9/v1", "model": "m"})


def known_options(plugins: Plugins, kind: Kind[object], name: str) -> list[str]:
    """The options ``name`` names when given one it does not know; [] when it takes any."""
    try:
        plugins.create(kind, name, {UNKNOWN: "1"}, lambda *a: None)
    except AfcheckError as exc:
        for pattern in _LISTS:
            found = re.search(pattern, str(exc))
            if found:
                names = [n.strip() for n in found.group(1).split(",")]
                return [n for n in names if re.fullmatch(r"[a-z_]+", n)]
    return []


def fingerprint(plugins: Plugins, kind: Kind[object], name: str,
                options: Mapping[str, str]) -> str | None:
    """The fingerprint the runtime gives ``name`` built with ``options``, or None when it
    cannot be built with them here."""
    try:
        return Components(plugins).get(kind, Choice.of(name, options)).fingerprint
    except (AfcheckError, ValueError, OSError):
        return None


def components(plugins: Plugins) -> Iterator[tuple[Kind[object], str, list[str]]]:
    for kind in plugins.kinds:
        if not kind.selectable:
            continue
        for entry in plugins.registry(kind).entries():
            names = known_options(plugins, kind, entry.name)
            if names:
                yield kind, entry.name, names


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    return get_plugins()


def test_every_answer_changing_option_changes_the_fingerprint(plugins: Plugins) -> None:
    checked: set[tuple[str, str, str]] = set()
    worked: dict[str, tuple[str, str]] = {}
    """The values that built for an option before: most components share their options."""
    for kind, name, names in components(plugins):
        entry = plugins.registry(kind).get(name)
        base = next((b for b in _BASES if fingerprint(plugins, kind, name, b) is not None),
                    None)
        if base is None:
            continue  # needs a resource this machine lacks (a Lean project, a binary)
        for option in names:
            pair = None
            tried = [worked[option]] if option in worked else []
            for first, second in [*tried, *_VALUES]:
                a = fingerprint(plugins, kind, name, {**base, option: first})
                b = fingerprint(plugins, kind, name, {**base, option: second})
                if a is not None and b is not None:
                    pair, worked[option] = (a, b), (first, second)
                    break
            if pair is None:
                continue
            checked.add((kind.name, name, option))
            if option in NOT_ANSWERS:
                assert option in entry.volatile, (
                    f"{kind.name} {name}: {option} changes no answer; register it volatile")
                assert pair[0] == pair[1], f"{kind.name} {name}: {option} is volatile"
            else:
                assert pair[0] != pair[1], (
                    f"{kind.name} {name}: changing {option} keeps the fingerprint, so "
                    "results of another setting would be reused")
    options = {option for _, _, option in checked}
    # The model's server and id, sampling and a prover's limits were all reached.
    assert {"base_url", "model", "temperature", "max_tokens", "seed", "timeout_ms"} <= options
    kinds = {kind for kind, _, _ in checked}
    assert {"formaliser", "fol_formaliser", "perturber", "fol_prover"} <= kinds


def test_volatile_options_are_documented_as_changing_no_answer(plugins: Plugins) -> None:
    for kind in plugins.kinds:
        for entry in plugins.registry(kind).entries():
            undocumented = set(entry.volatile) - set(NOT_ANSWERS)
            assert not undocumented, f"{kind.name} {entry.name}: {sorted(undocumented)}"


@pytest.mark.parametrize("name", ["frontier", "kimina"])
def test_two_servers_under_one_model_name_never_share_an_fol_answer(
        plugins: Plugins, name: str) -> None:
    """``--formaliser NAME --formaliser-opt base_url=…,model=…`` reaches the FOL methods as
    the ``llm`` FOL formaliser; its fingerprint names the server."""
    from afcheck.model import ModelAdapter, adopt

    kind = plugins.kinds.get("fol_formaliser")
    followed = plugins.kinds.get("formaliser")
    prints = set()
    for url in ("http://127.0.0.1:9/v1", "http://127.0.0.1:10/v1"):
        chosen, options = adopt(kind, plugins.kinds.model(kind.name) or ModelAdapter(),
                                plugins.registry(kind), plugins.registry(followed), name,
                                {"base_url": url, "model": "smollm2"}, "nl2fol")
        prints.add(fingerprint(plugins, kind, chosen, options))
    assert None not in prints and len(prints) == 2


def test_own_fingerprint_keeps_its_options() -> None:
    class Own:
        fingerprint = "model-x"

    a = describe(Own(), "own", {"base_url": "u1"}).fingerprint
    b = describe(Own(), "own", {"base_url": "u2"}).fingerprint
    c = describe(Own(), "own", {"base_url": "u1", "deadline_s": "3"},
                 frozenset({"deadline_s"})).fingerprint
    assert a != b and a == c
    assert describe(Own(), "own", {}).fingerprint == "model-x"  # no option: as it was


def test_a_second_server_under_one_model_name_reuses_nothing(tmp_path) -> None:
    """The run the issue describes: tarski through ``frontier`` at one server, then at
    another serving the same model name: the second asks its own server."""
    from fake_openai import FakeOpenAI

    first, second = (FakeOpenAI(content=lambda prompt: "all x. Cube(x)") for _ in range(2))
    with first.running() as url:
        done = _afcheck(tmp_path, url)
    assert "0 results reused" in done.stdout, done.stdout + done.stderr
    with second.running() as url:
        again = _afcheck(tmp_path, url)
    # Every request of the first run is asked again (what is decided from the same
    # answers, the formulas' check, may still be reused).
    assert second.completions == first.completions > 0, again.stdout + again.stderr


def _afcheck(tmp_path, base_url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "afcheck", "tarski", "--limit", "2", "--formaliser", "frontier",
         "--formaliser-opt", f"base_url={base_url},model=smollm2,max_retries=0",
         "--cache-dir", str(tmp_path / "cache"), "-p", "no:cacheprovider"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
