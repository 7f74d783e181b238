"""When the pytest plugin becomes afcheck's run: a command line that names a suite or an
afcheck option, or a suite met in collection; any other session builds nothing of afcheck's
(``tests/test_layering_pytest.py``)."""

from __future__ import annotations

import pytest
from conftest import write_suite
from test_runner import ROWS

BUILT_IN = {"perturber": "given", "formaliser": "literal", "prover": "smt"}


def outcomes(result: pytest.RunResult) -> int:
    counts = result.parseoutcomes()
    return sum(counts.get(key, 0) for key in ("passed", "failed", "skipped"))


def test_a_suite_named_on_the_command_line_runs_without_afcheck_options(
        pytester: pytest.Pytester) -> None:
    write_suite(pytester.path, "demo", ROWS, BUILT_IN)
    result = pytester.runpytest("demo", "-p", "no:cacheprovider")
    assert outcomes(result) == len(ROWS)
    assert "afcheck" in result.stdout.str() and "result cache:" in result.stdout.str()


def test_a_suite_met_in_collection_starts_the_run(pytester: pytest.Pytester) -> None:
    """A suite two folders down, under a plain ``pytest``: nothing on the command line names
    it, and it runs as it would if named, with the options' defaults."""
    write_suite(pytester.path / "suites" / "deep", "demo", ROWS, BUILT_IN)
    pytester.makepyfile(test_plain="def test_one():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert outcomes(result) == len(ROWS) + 1
    assert "result cache:" in result.stdout.str()
    named = pytester.runpytest("suites/deep/demo", "-p", "no:cacheprovider")
    assert outcomes(named) == len(ROWS)
    assert named.parseoutcomes() == {
        key: value for key, value in result.parseoutcomes().items()
        if key != "passed"} | {"passed": result.parseoutcomes().get("passed", 0) - 1}


def test_an_afcheck_option_on_the_command_line_is_read(pytester: pytest.Pytester) -> None:
    write_suite(pytester.path, "demo", ROWS, BUILT_IN)
    result = pytester.runpytest("demo", "-p", "no:cacheprovider", "--afcheck-limit", "2",
                                "--afcheck-formaliser", "literal")
    assert 0 < outcomes(result) < len(ROWS)
    assert "formaliser literal" in result.stdout.str()
    bad = pytester.runpytest("demo", "-p", "no:cacheprovider", "--afcheck-formaliser",
                             "no-such-formaliser")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "no-such-formaliser" in bad.stderr.str() + bad.stdout.str()
