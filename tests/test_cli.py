"""The ``afcheck`` command line."""

from __future__ import annotations

import pytest

from afcheck import cli


def test_short_options_become_afcheck_options() -> None:
    args = cli.translate(["suites/x", "--formaliser", "kimina", "--prover=smt", "-k", "p1",
                          "--formaliser-opt", "model=m", "--tb=short", "--json", "r.json"])
    assert args == ["suites/x", "--afcheck-formaliser=kimina", "--afcheck-prover=smt", "-k",
                    "p1", "--afcheck-formaliser-opt=model=m", "--tb=short",
                    "--afcheck-json=r.json"]
    assert cli.translate(["--no-cache", "x"]) == ["--afcheck-no-cache", "x"]


def test_list_shows_components_with_their_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "formalisers"]) == 0
    out = capsys.readouterr().out
    assert "reference" in out and "replay" in out
    assert "reference (afcheck 0.1.0)" in out


def test_list_all_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for heading in ("formalisers:", "perturbers:", "suite_kinds:", "reporters:"):
        assert heading in out


def test_list_unknown_kind_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "widgets"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown kind 'widgets'" in err[0]


def test_no_path_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 4
    assert "usage: afcheck PATH..." in capsys.readouterr().err


def test_bad_option_value_is_one_line() -> None:
    from afcheck.errors import UsageError
    from afcheck.options import parse_kv

    with pytest.raises(UsageError, match="--prover-opt expects KEY=VALUE"):
        parse_kv(["timeout"], "prover")
    assert parse_kv(["a=1,b=2", "url=http://h/x?y=1"], "f") == {
        "a": "1", "b": "2", "url": "http://h/x?y=1"}
    assert parse_kv(["stop=a,b,c=d"], "f") == {"stop": "a,b", "c": "d"}


def test_pytest_defaults_give_way_to_the_users_choices() -> None:
    hypothesis = ["-p", "no:hypothesispytest", "-p", "no:unraisableexception"]
    assert cli.defaults(["suites/x"]) == ["--tb=line", "-rN", "-s", "-p", "no:logging",
                                          *hypothesis]
    assert cli.defaults(["suites/x", "--tb=short", "--capture=fd", "--log-level=INFO"]) == (
        hypothesis)
    assert cli.defaults(["suites/x", "-rs"]) == ["--tb=line", "-s", "-p", "no:logging",
                                                 *hypothesis]
