"""The plugin surface: registration, one-line failures without Lean, ``afcheck lean doctor``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.commands import main as lean_command
from fake_repl.harness import FakeLean, make_fake_lean

from afcheck.budget import Budget, resolve
from afcheck.errors import MissingDependency, UsageError
from afcheck.method import Choice
from afcheck.plugins import get_plugins
from afcheck.registry import CHECKER, PROVER
from afcheck.runtime import Components, Runtime


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


def test_components_and_command_are_registered() -> None:
    plugins = get_plugins()
    assert "lean" in plugins.registry("checker")
    assert {"lean-tactics", "deepseek"} <= set(plugins.registry("prover").names())
    assert "lean" in plugins.commands()


@pytest.mark.parametrize("kind,name", [("checker", "lean"), ("prover", "lean-tactics"),
                                       ("prover", "deepseek")])
def test_without_lean_the_factory_fails_in_one_line_naming_setup(
        kind: str, name: str, tmp_path: Path) -> None:
    options = {"lake": str(tmp_path / "no-lake"), "project": str(tmp_path)}
    with pytest.raises(MissingDependency) as info:
        get_plugins().create(kind, name, options)
    message = str(info.value)
    assert "\n" not in message and "afcheck lean setup" in message


def test_bad_options_are_one_line_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown option 'timeout'"):
        get_plugins().create("checker", "lean", {"timeout": "3"})
    with pytest.raises(UsageError, match="workers='two' must be a number"):
        get_plugins().create("prover", "lean-tactics", {"workers": "two"})
    with pytest.raises(UsageError, match="smt='maybe'"):
        get_plugins().create("prover", "lean-tactics", {"smt": "maybe"})


def test_doctor_names_what_is_missing(fake: FakeLean, capsys: pytest.CaptureFixture[str]) -> None:
    settings = fake.settings
    code = lean_command(["doctor", "--project", str(settings.project), "--lake", settings.lake])
    out = capsys.readouterr().out
    assert code == 1
    assert "ok  pinned toolchain: leanprover/lean4:v4.9.0" in out
    assert "MISSING Mathlib" in out and "afcheck lean setup" in out


@pytest.mark.heavy
def test_doctor_smoke_check_runs_a_real_protocol_exchange(
        fake: FakeLean, capsys: pytest.CaptureFixture[str]) -> None:
    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    code = lean_command(["doctor", "--project", str(settings.project), "--lake", settings.lake,
                         "--repl-dir", str(settings.repl_dir), "--lean-sandbox", "off"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "ok  smoke check: ok" in out
    assert any("norm_num" in c for c in fake.commands())


@pytest.mark.heavy
def test_a_repl_the_sandbox_stops_is_one_line_that_names_the_way_out(
        fake: FakeLean, capsys: pytest.CaptureFixture[str]) -> None:
    from afcheck_lean.sandbox import probe

    if not probe().usable:
        pytest.skip(f"bubblewrap cannot isolate here: {probe().why}")
    # The fake REPL runs from the test tree, which the sandbox does not show: it cannot start.
    settings = fake.settings
    (settings.project / ".lake" / "packages" / "mathlib").mkdir(parents=True)
    code = lean_command(["doctor", "--project", str(settings.project), "--lake", settings.lake,
                         "--repl-dir", str(settings.repl_dir), "--lean-sandbox", "on"])
    out = capsys.readouterr().out
    assert code == 1
    (line,) = [x for x in out.splitlines() if "smoke check" in x]
    assert line.startswith("FAIL smoke check: ") and "--lean-sandbox off" in line


def test_doctor_tells_how_to_install_lean_interact_in_the_form_that_fits_this_install(
        fake: FakeLean, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.metadata

    from afcheck.install import install_command

    real = importlib.metadata.version

    def version(name: str) -> str:
        if name == "lean-interact":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    settings = fake.settings
    code = lean_command(["doctor", "--project", str(settings.project), "--lake", settings.lake])
    (line,) = [x for x in capsys.readouterr().out.splitlines() if "lean-interact" in x]
    assert code == 1
    assert line == f"MISSING lean-interact: not installed ({install_command('lean')})"


def _budgeted(change: str, options: dict[str, str]) -> Choice:
    budgets = resolve({"faithfulness": {"prove": Budget()}}, [change])
    runtime = Runtime(Components(get_plugins()), budgets=budgets)
    return runtime.budgeted(PROVER, Choice.of("lean-tactics", options), "faithfulness", "prove")


def test_a_prove_budget_reaches_the_lean_provers_as_their_options() -> None:
    assert dict(_budgeted("faithfulness.prove.seconds=30", {"workers": "2"}).options) == {
        "workers": "2", "statement_s": "30"}
    # The memory bound is the REPL's cap, which every statement it checks runs under.
    assert dict(_budgeted("faithfulness.prove.memory_mb=16000", {}).options) == {
        "memory_mb": "16000"}
    for name in ("lean-tactics", "deepseek"):
        entry = get_plugins().registry("prover").get(name)
        assert entry.budget is not None
        assert entry.budget(Budget(seconds=2.5), {}) == {"statement_s": "2.5"}


def test_the_statement_deadline_leaves_the_fingerprint() -> None:
    from afcheck_lean.factories import VOLATILE

    from afcheck.components import describe

    for name in ("lean-tactics", "deepseek"):
        entry = get_plugins().registry("prover").get(name)
        assert entry.volatile == VOLATILE == {"statement_s"}
        bounded = describe(object(), name, {"workers": "2", "statement_s": "30"},
                           entry.volatile)
        assert bounded.fingerprint == describe(object(), name, {"workers": "2"},
                                               entry.volatile).fingerprint
        assert bounded.fingerprint != describe(object(), name, {"workers": "3"},
                                               entry.volatile).fingerprint


def test_a_lean_budget_that_contradicts_an_option_or_cannot_hold_is_refused() -> None:
    with pytest.raises(UsageError, match=r"sets lean-tactics's option memory_mb=16000, and "
                       r"--prover-opt gives memory_mb=12000; keep one of them"):
        _budgeted("faithfulness.prove.memory_mb=16000", {"memory_mb": "12000"})
    # A kimina-lean-server's REPLs are not afcheck's to cap.
    with pytest.raises(UsageError, match="kimina-lean-server's, whose memory afcheck does not "
                       "set"):
        _budgeted("faithfulness.prove.memory_mb=16000", {"url": "http://127.0.0.1:9"})
    with pytest.raises(UsageError, match=r"statement_s='0' must be a number of seconds above 0"):
        get_plugins().create("prover", "lean-tactics", {"statement_s": "0"})


def test_a_check_budget_reaches_the_lean_checkers_as_their_options() -> None:
    budgets = resolve({"faithfulness": {"check": Budget()}}, ["faithfulness.check.seconds=20"])
    runtime = Runtime(Components(get_plugins()), budgets=budgets)
    kimina = {"url": "http://127.0.0.1:9"}
    assert dict(runtime.budgeted(CHECKER, Choice.of("lean", {"workers": "2"}), "faithfulness",
                                 "check").options) == {"workers": "2", "statement_s": "20"}
    assert dict(runtime.budgeted(CHECKER, Choice.of("kimina", kimina), "faithfulness",
                                 "check").options) == {**kimina, "statement_s": "20"}
    with pytest.raises(UsageError, match=r"^--budget faithfulness.check: the checker 'none' "
                       r"takes no budget"):
        runtime.budgeted(CHECKER, Choice.of("none"), "faithfulness", "check")
    with pytest.raises(UsageError, match=r"sets lean's option statement_s=20, and "
                       r"--checker-opt gives statement_s=5; keep one of them"):
        runtime.budgeted(CHECKER, Choice.of("lean", {"statement_s": "5"}), "faithfulness",
                         "check")
    memory = resolve({"faithfulness": {"check": Budget()}}, ["faithfulness.check.memory_mb=9000"])
    on_server = Runtime(Components(get_plugins()), budgets=memory)
    with pytest.raises(UsageError, match="kimina-lean-server's, whose memory afcheck does not"):
        on_server.budgeted(CHECKER, Choice.of("kimina", kimina), "faithfulness", "check")
