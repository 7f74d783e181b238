"""``afcheck lean audit``: complete Lean files through the static integrity rules."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from afcheck_lean.audit import audit_text, split_file
from afcheck_lean.commands import main as lean_command
from redteam.corpus import CHEATS, EVASIONS, HEADER_CHEATS
from redteam.honest import HONEST_FILES
from redteam.mechanisms import ALL as MECHANISMS
from redteam.mechanisms import FileCheat

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real\n\n"
HONEST = HEADER + (
    "/-- The sum is 6. Show that it is 6 (no sorry: this lemma is easy). -/\n"
    "theorem sum_is_six (a b : ℝ) (h₀ : a + b = 10) (h₁ : a - b = 2) : a = 6 := by\n"
    "  -- add the two equations; `hint` would be a search tactic, this is prose\n"
    "  have hint : 2 * a = 12 := by linarith\n"
    "  linarith [Matrix.trace_zero (Fin 2) ℚ]\n"
)


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_honest_file_is_accepted() -> None:
    assert audit_text(HONEST).accepted
    (declaration,) = split_file(HONEST) or []
    # The doc comment belongs to the declaration it documents.
    assert HONEST[declaration.start :].startswith("/-- The sum is 6.")
    assert HONEST[declaration.body_start :].startswith(" by\n  -- add")


@pytest.mark.parametrize("cheat", [c for c in CHEATS + EVASIONS if c.body.startswith("by\n")],
                         ids=lambda c: c.name)
def test_a_cheating_proof_in_a_file_is_rejected_with_its_rule(cheat: object) -> None:
    body = cheat.body  # type: ignore[attr-defined]
    text = HEADER + "theorem t (a : ℝ) (h : a = 1) : a = 2 := " + body + "\n"
    result = audit_text(text)
    assert not result.accepted
    assert result.rule == cheat.rule  # type: ignore[attr-defined]


@pytest.mark.parametrize("cheat", HEADER_CHEATS, ids=lambda c: c.name)
def test_a_cheating_header_is_rejected_with_its_rule(cheat: object) -> None:
    text = HEADER + cheat.body + "\n\ntheorem t : (1 : ℕ) = 1 := by rfl\n"  # type: ignore[attr-defined]
    result = audit_text(text)
    assert result.rule == cheat.rule  # type: ignore[attr-defined]


def test_a_command_between_two_theorems_is_rejected() -> None:
    text = HONEST + "end\ntheorem extra : True := trivial\n"
    result = audit_text(text)
    assert result.rule == "command" and result.span == "end"
    assert result.line == HONEST.count("\n") + 1


def test_an_unavailable_import_and_a_file_without_theorem_are_rejected() -> None:
    assert audit_text("import MyLib\n" + HONEST.split("\n", 1)[1]).rule == "import"
    assert audit_text(HEADER + "def f : ℕ := 3\n").rule == "structure"


def test_the_command_prints_one_line_per_file_and_exits_by_the_worst(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _file(tmp_path, "good.lean", HONEST)
    bad = _file(tmp_path, "bad.lean", HONEST.replace("  linarith [", "  exact?\n  linarith ["))
    assert lean_command(["audit", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: accepted\n"
    assert lean_command(["audit", str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    line = HONEST.count("\n")
    assert out == [f"{good}: accepted",
                   f"{bad}: rejected: search-tactic: {line}:3: 'exact?' (uses a proof-search "
                   "or suggestion tactic ('exact?'))"]


def test_an_unreadable_file_is_one_line_and_loses_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _file(tmp_path, "good.lean", HONEST)
    binary = tmp_path / "binary.lean"
    binary.write_bytes(b"\xff\xfe theorem")
    code = lean_command(["audit", str(tmp_path / "missing.lean"), str(binary), str(good)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == f"{good}: accepted\n"
    errors = captured.err.splitlines()
    assert len(errors) == 2 and "missing.lean: cannot read" in errors[0]
    assert "binary.lean: cannot read" in errors[1]


def test_json_output_holds_the_rule_and_the_place(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = _file(tmp_path, "bad.lean", HEADER + "theorem t : (1 : ℕ) = 2 := by\n"
                "  set_option «debug».skipKernelTC true in\n  rfl\n")
    assert lean_command(["audit", "--json", str(bad)]) == 1
    (record,) = json.loads(capsys.readouterr().out)
    assert record["file"] == str(bad) and record["accepted"] is False
    assert record["rule"] == "option" and record["line"] == 9 and record["column"] == 3
    assert record["span"] == "set_option «debug».skipKernelTC true"


def test_native_decide_only_when_allowed(tmp_path: Path) -> None:
    path = _file(tmp_path, "native.lean", HEADER + "theorem t : 2 ^ 10 = 1024 := by\n"
                 "  native_decide\n")
    assert lean_command(["audit", str(path)]) == 1
    assert lean_command(["audit", "--allow-native-decide", str(path)]) == 0


def test_the_installed_command_runs_end_to_end(tmp_path: Path) -> None:
    exe = shutil.which("afcheck")
    if exe is None:
        pytest.skip("the afcheck script is not installed in this environment")
    good = _file(tmp_path, "good.lean", HONEST)
    bad = _file(tmp_path, "bad.lean", HONEST.replace("by linarith", "by\n    sorry"))
    done = subprocess.run([exe, "lean", "audit", str(good), str(bad)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == f"{good}: accepted"
    assert done.stdout.splitlines()[1].startswith(f"{bad}: rejected: hole: ")


def test_the_command_is_wired_through_the_afcheck_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from afcheck.cli import main as afcheck_main

    good = _file(tmp_path, "good.lean", HONEST)
    assert afcheck_main(["lean", "audit", "--json", str(good)]) == 0
    assert json.loads(capsys.readouterr().out) == [{"file": str(good), "accepted": True}]
    assert afcheck_main(["lean", "audit", str(tmp_path / "none.lean")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("cheat", MECHANISMS, ids=lambda c: f"{c.mechanism}/{c.name}")
def test_every_cheating_file_of_every_mechanism_is_rejected_by_its_rule(cheat: FileCheat) -> None:
    result = audit_text(cheat.text)
    assert not result.accepted, cheat.reason
    assert result.rule == cheat.rule, result.one_line()
    if cheat.where:
        assert f"{result.line}:{result.column}" == cheat.where, result.one_line()


def test_the_red_team_corpus_has_several_encodings_of_every_mechanism() -> None:
    counts = Counter(c.mechanism for c in MECHANISMS)
    assert set(counts) == {"layout", "guillemets", "interpolation", "evaluation",
                           "header-meaning", "imports", "positions", "noise", "radix-numerals",
                           "declaration-prefixes", "configurations", "look-alikes", "shadows",
                           "printed-answers"}
    assert min(counts.values()) >= 3
    assert len({(c.mechanism, c.name) for c in MECHANISMS}) == len(MECHANISMS)


@pytest.mark.parametrize(("name", "text"), HONEST_FILES, ids=[n for n, _ in HONEST_FILES])
def test_unusual_honest_files_are_accepted(name: str, text: str) -> None:
    assert audit_text(text).one_line() == "accepted"


def test_a_header_finding_is_reported_where_it_is_in_the_file() -> None:
    result = audit_text("import Mathlib\naxiom cheat : (1 : ℕ) = 2\n"
                        "theorem t : (1 : ℕ) = 2 := cheat\n")
    assert (result.rule, result.line, result.column) == ("axiom", 2, 1)


def test_the_body_is_read_at_its_column_in_the_file() -> None:
    # Read from column 0, `simp` would sit at column 3 and the next line (column 4) would
    # look like more of it; in the file `simp` is at column 37, so Lean ends the proof there.
    text = HEADER + "theorem t (a : ℕ) : a = a := by simp\n    erase_aesop_rules [x]\n"
    result = audit_text(text)
    assert result.rule == "command-position" and result.column == 5
    assert audit_text(HEADER + "theorem t (a : ℕ) : a = a := by simp\n").accepted


def test_a_quoted_keyword_does_not_split_the_file() -> None:
    text = HEADER + "theorem t : (1 : ℕ) = 1 := by\n  rfl\n«lemma» x : s!\"{1}\" := 1\n"
    assert len(split_file(text) or []) == 1


def test_a_declaration_starts_at_its_prefixes_and_its_proof_ends_at_its_scope() -> None:
    text = (HEADER + "namespace P\n\nset_option maxRecDepth 1000 in private nonrec theorem t "
            ": (1 : ℕ) = 1 := by\n  rfl\n\nend P\n")
    (declaration,) = split_file(text) or []
    assert text[declaration.start :].startswith("set_option maxRecDepth 1000 in private")
    assert text[declaration.body_start : declaration.proof_end] == " by\n  rfl\n\n"
    assert text[declaration.proof_end : declaration.end] == "end P\n"
    assert audit_text(text).accepted
    # The same `end` with nothing open, or any other command there, is a command after it.
    closing_nothing = audit_text(text.replace("namespace P\n", ""))
    assert (closing_nothing.rule, closing_nothing.span) == ("command", "end")
    after = audit_text(text + "attribute [simp] t\n")
    assert (after.rule, after.span, after.line) == ("command", "attribute", text.count("\n") + 1)


def test_a_helpers_notation_may_not_be_a_token_the_theorem_reads() -> None:
    helper = (HEADER + "section\nlocal notation \"gold\" => (1 + √5) / 2\n"
              "lemma h : gold = gold := rfl\nend\n\ntheorem t : {} := h\n")
    assert audit_text(helper.replace("{}", "(1 + √5) / 2 = (1 + √5) / 2")).accepted
    # Used by the theorem outside the section, the notation would change how it reads.
    assert audit_text(helper.replace("{}", "gold = gold")).rule == "syntax-extension"
    # Outside a section it would reach every statement of the file.
    assert audit_text(helper.replace("section\n", "").replace("end\n", "")).rule == \
        "syntax-extension"


@pytest.mark.realdata
def test_the_published_proofs_in_the_unusual_honest_shapes_are_accepted(data_dir: Path) -> None:
    # Each real file with its theorem inside a namespace, in a noncomputable section, and
    # behind `set_option … in` on the theorem's line: Lean reads each as the same proof.
    files = sorted((data_dir / "prover_v2_minif2f").glob("*.lean"))
    assert len(files) == 221
    rejected: dict[str, str] = {}
    for path in files:
        text = path.read_text(encoding="utf-8").rstrip() + "\n"
        (declaration,) = split_file(text) or []
        header, rest = text[: declaration.start], text[declaration.start :]
        shapes = {"namespace": f"{header}namespace Problem\n\n{rest}\nend Problem\n",
                  "section": f"{header}noncomputable section\n\n{rest}\nend\n",
                  "in-prefix": f"{header}set_option maxRecDepth 10000 in {rest}"}
        for shape, variant in shapes.items():
            result = audit_text(variant)
            if not result.accepted:
                rejected[f"{path.name} ({shape})"] = result.one_line()
    assert rejected == {}
