"""Bad input in a suite is one clear line and loses nothing else: ids a terminal cannot show,
a byte-order mark, a suite.toml or data file that is not a regular file, a suite.toml nested
too deep."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from afcheck.printable import name_problem

ROOT = Path(__file__).resolve().parent.parent
SUITES = {"tarski": "sentences.jsonl", "chains-examples": "chains.jsonl",
          "equivalence-rewrites": "items.jsonl"}


def _copy(tmp_path: Path, suite: str, keep: int = 3) -> tuple[Path, Path]:
    folder = tmp_path / suite
    shutil.copytree(ROOT / "suites" / suite, folder)
    data = folder / SUITES[suite]
    lines = data.read_text(encoding="utf-8").splitlines()[:keep]
    data.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    toml = folder / "suite.toml"
    toml.write_text(toml.read_text().replace(f'name = "{suite}"', f'name = "my-{suite}"'))
    return folder, data


def _afcheck(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "afcheck", *args, "--no-cache", "-rf",
                           "-p", "no:cacheprovider"],
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)


@pytest.mark.parametrize("name", ["a\x00b", "a\x1b[31mred", "lone\ud800", "two\nlines",
                                  "rlo\u202ex"])
def test_an_unprintable_name_is_a_problem(name: str) -> None:
    problem = name_problem(name)
    assert problem is not None and "\x1b" not in problem and "\x00" not in problem


def test_a_printable_name_is_none() -> None:
    assert name_problem("tw-001/x[regex] é ∀") is None


@pytest.mark.parametrize("suite", list(SUITES))
@pytest.mark.parametrize("bad_id", ["nul\x00id", "esc\x1b[2Jid", "lone\ud800id"])
def test_an_id_a_terminal_cannot_show_is_a_bad_record(tmp_path: Path, suite: str,
                                                      bad_id: str) -> None:
    folder, data = _copy(tmp_path, suite)
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    rows[1]["id"] = bad_id
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = _afcheck(tmp_path, str(folder))
    out = done.stdout + done.stderr
    assert "\x1b[2J" not in out and "\x00" not in out
    assert "Traceback" not in out
    assert done.returncode in (1, 6), out  # the bad record fails; the others still run
    assert f"{data}:2" in out or f"{SUITES[suite]}:2" in out, out
    assert "1 failed" in out, out


@pytest.mark.parametrize("suite", list(SUITES))
def test_a_byte_order_mark_is_read_as_nothing(tmp_path: Path, suite: str) -> None:
    folder, data = _copy(tmp_path, suite)
    data.write_bytes(b"\xef\xbb\xbf" + data.read_bytes())
    with_bom = _afcheck(tmp_path, str(folder), "--json", str(tmp_path / "bom.json"))
    data.write_bytes(data.read_bytes()[3:])
    without = _afcheck(tmp_path, str(folder), "--json", str(tmp_path / "plain.json"))
    assert with_bom.returncode == without.returncode, with_bom.stdout
    counts = [line for line in with_bom.stdout.splitlines() if " in " in line and "==" in line]
    plain = [line for line in without.stdout.splitlines() if " in " in line and "==" in line]
    assert counts[-1].split(" in ")[0] == plain[-1].split(" in ")[0]


def test_a_suite_toml_that_is_a_folder_or_a_fifo_is_one_line(tmp_path: Path) -> None:
    for kind in ("folder", "fifo"):
        suite = tmp_path / kind
        suite.mkdir()
        if kind == "folder":
            (suite / "suite.toml").mkdir()
        else:
            os.mkfifo(suite / "suite.toml")
        done = _afcheck(tmp_path, str(suite))
        out = done.stdout + done.stderr
        assert done.returncode == 2, out  # a suite.toml that cannot be read: collection error
        assert f"{suite / 'suite.toml'}" in out and "not a regular file" in out, out
        assert "interrupted" not in out, out


def test_a_data_file_that_is_a_fifo_is_one_line(tmp_path: Path) -> None:
    folder, data = _copy(tmp_path, "tarski")
    data.unlink()
    os.mkfifo(data)
    done = _afcheck(tmp_path, str(folder))
    out = done.stdout + done.stderr
    assert done.returncode in (2, 4), out
    assert "not a regular file" in out and "not found" not in out, out


def test_a_deeply_nested_suite_toml_is_one_line_naming_it(tmp_path: Path) -> None:
    suite = tmp_path / "deep"
    suite.mkdir()
    (suite / "suite.toml").write_text("[afcheck]\nschema = 1\nx = " + "[" * 5000
                                      + "]" * 5000 + "\n")
    done = _afcheck(tmp_path, str(suite))
    out = done.stdout + done.stderr
    assert done.returncode in (2, 4), out
    assert "RecursionError" not in out and "Traceback" not in out, out
    assert str(suite / "suite.toml") in out, out


def test_a_duplicate_in_a_lean_replay_file_names_both_lines(tmp_path: Path) -> None:
    from afcheck_replay.replay import load_records

    from afcheck.errors import UsageError

    path = tmp_path / "outputs.jsonl"
    rows = [{"step_id": "s/1", "side": "original", "statement": "theorem a : 1 = 1 := by sorry"},
            {"step_id": "s/2", "side": "original", "statement": "theorem b : 2 = 2 := by sorry"},
            {"step_id": "s/1", "side": "original", "statement": "theorem c : 3 = 3 := by sorry"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(UsageError, match=rf"{path}:3: a second record .* first is at {path}:1"):
        load_records(path)
    # The same step's perturbed side is another record.
    rows[2]["side"] = "perturbed"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert len(load_records(path)[0]) == 3


def test_a_duplicate_in_a_fol_replay_file_names_both_lines(tmp_path: Path) -> None:
    from afcheck_fol.formalisers import ReplayFormaliser

    from afcheck.errors import UsageError

    path = tmp_path / "outputs.jsonl"
    path.write_text('{"id": "a", "output": "Cube(a)"}\n{"id": "b", "output": "Tet(b)"}\n'
                    '{"id": "a", "output": "Dodec(a)"}\n')
    with pytest.raises(UsageError, match=rf"{path}:3: a second output for a \(model and id\); "
                                         rf"the first is at {path}:1"):
        ReplayFormaliser(path)


@pytest.mark.parametrize("form", [(), ("--json",), ("--markdown",)])
def test_compare_never_prints_escape_codes_from_a_result_file(tmp_path: Path,
                                                              form: tuple[str, ...]) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from report_fixtures import case, run_document, write

    hostile = "p/\x1b]0;owned\x07\x1b[2J\u202e\x9b"
    base = [case(hostile, "P", "R")] + [case(f"p/{i}", "P", "R") for i in range(5)]
    new = [case(hostile, "P", "P")] + [case(f"p/{i}", "P", "R") for i in range(5)]
    a = write(tmp_path / "a.json", run_document(base, "old\x1b[31m"))
    b = write(tmp_path / "b.json", run_document(new, "new"))
    done = subprocess.run([sys.executable, "-m", "afcheck", "compare", str(a), str(b), *form],
                          capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode in (0, 1), out
    assert not any(c in out for c in "\x1b\x07\u202e\x9b"), repr(out)
    if form == ("--json",):
        json.loads(done.stdout)


def test_thousands_of_hypotheses_get_a_verdict_not_a_recursion_error(tmp_path: Path) -> None:
    suite = tmp_path / "eq"
    suite.mkdir()
    shutil.copy(ROOT / "suites" / "equivalence-rewrites" / "suite.toml", suite / "suite.toml")
    toml = suite / "suite.toml"
    toml.write_text(toml.read_text().replace('name = "equivalence-rewrites"', 'name = "eq"'))
    hypotheses = [f"(h{i} : x > {i})" for i in range(3000)]
    row = {"id": "many", "informal": "x", "header": "import Mathlib\n",
           "reference": f"theorem t (x : ℚ) {' '.join(hypotheses)} : x > 0 := by sorry",
           "candidate": f"theorem t (x : ℚ) {' '.join(reversed(hypotheses))} : x > 0 := by sorry",
           "gold": "equivalent", "group": "g", "fragment": True, "source": "s"}
    (suite / "items.jsonl").write_text(json.dumps(row) + "\n")
    for criterion in ("sae", "logical"):
        done = _afcheck(tmp_path, str(suite), "--criterion", criterion, "-rA")
        out = done.stdout + done.stderr
        assert "RecursionError" not in out and "Traceback" not in out, out
    assert "1 passed" in _afcheck(tmp_path, str(suite)).stdout


def test_the_printer_keeps_a_long_implication_chain_and_its_parentheses() -> None:
    from afcheck.lean import ast as A
    from afcheck.lean.printer import print_expr

    chain: A.Expr = A.Var("c")
    for i in range(5000):
        chain = A.BinOp("→", A.Var(f"h{i}"), chain)
    text = print_expr(chain)
    assert text.startswith("h4999 → h4998") and text.endswith("h0 → c")
    nested = A.BinOp("∧", A.BinOp("∨", A.Var("a"), A.Var("b")), A.BinOp("∨", A.Var("c"),
                                                                        A.Var("d")))
    assert print_expr(nested) == "(a ∨ b) ∧ (c ∨ d)"
