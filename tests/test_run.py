"""The run: third-party methods and reporters, several methods in one run, plugin options,
two runs in one process, gates that never pass by accident."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TEST_PLUGINS, write_suite
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CLAIMS = [
    {"id": "c1", "claim": "2 + 3 = 5", "expected": "proved", "group": "easy"},
    {"id": "c2", "claim": "2 + 3 = 6", "expected": "refuted", "group": "easy"},
    {"id": "c3", "claim": "2 * 3 = 7", "expected": "proved", "group": "hard"},
    {"id": "c4", "claim": "? = 1", "expected": "inconclusive", "group": "hard"},
]
STEPS = [
    {"problem_id": "p1", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 2 + 3 = 6"},
    {"problem_id": "p1", "node_id": "2", "step": "So: 2 + 3 = 6", "perturbed": "So: 2 + 3 = 7"},
]
ARITH = {"perturber": "given", "formaliser": "arith", "prover": "arith"}
PLUGINS = ("--afcheck-plugin", "arith", "--afcheck-plugin", "toymethod")


def claims_suite(root: Path, name: str = "claims") -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "suite.toml").write_text(
        f'[afcheck]\nname = "{name}"\nkind = "claims"\ndata = "claims.jsonl"\n')
    (folder / "claims.jsonl").write_text("".join(json.dumps(r) + "\n" for r in CLAIMS))
    return folder


@pytest.fixture
def toy(arith: pytest.Pytester) -> pytest.Pytester:
    import toymethod

    toymethod.CONFIGURED.clear()
    claims_suite(arith.path)
    return arith


def test_a_third_party_method_runs_through_the_same_runner(toy: pytest.Pytester) -> None:
    out = toy.path / "r.json"
    result = toy.runpytest("claims", *PLUGINS, "--tb=line", "--afcheck-json", str(out))
    result.assert_outcomes(passed=3, failed=1)
    assert "claims.jsonl:3: c3: expected proved, got refuted" in result.stdout.str()
    assert "verdicts: accuracy 0.750" in result.stdout.str()
    doc = json.loads(out.read_text())
    assert doc["metrics"]["overall"] == {
        "accuracy": {"type": "rate", "count": 3, "total": 4, "value": 0.75,
                     "ci95": doc["metrics"]["overall"]["accuracy"]["ci95"]},
        "N": {"type": "count", "value": 4}}
    assert list(doc["methods"]) == ["verdicts"]
    assert [s["status"] for s in doc["steps"]] == ["passed", "passed", "failed", "passed"]
    assert {s["method"] for s in doc["steps"]} == {"verdicts"}


def test_a_third_party_kind_is_chosen_like_a_core_one(toy: pytest.Pytester) -> None:
    """The method's own kind (declared by its plugin) gets ``--grader``, is validated before
    any work and changes the outcome of the items it grades."""
    lenient = toy.runpytest("claims", *PLUGINS, "--afcheck-grader", "lenient")
    lenient.assert_outcomes(passed=3, failed=1)
    unknown = toy.runpytest("claims", *PLUGINS, "--afcheck-grader", "nope")
    assert unknown.ret == 4
    assert "unknown grader 'nope'" in unknown.stderr.str() + unknown.stdout.str()
    assert "exact" in unknown.stderr.str() + unknown.stdout.str()


def test_a_kind_is_listed_and_its_option_exists_only_with_its_plugin(tmp_path: Path) -> None:
    listed = _afcheck(["list", "graders", "--plugin", "toymethod"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "exact" in listed.stdout and "lenient" in listed.stdout
    kinds = _afcheck(["list", "kinds", "--plugin", "toymethod"], tmp_path)
    assert "grader" in kinds.stdout and "fol_formaliser" in kinds.stdout
    helped = _afcheck(["help", "--plugin", "toymethod"], tmp_path)
    assert "--grader NAME" in helped.stdout
    assert "--grader NAME" not in _afcheck(["help"], tmp_path).stdout


def test_a_component_option_no_item_uses_is_a_usage_error(toy: pytest.Pytester) -> None:
    """A component given on the command line that no item of the run would use (a prover for
    the toy method is used; a perturber is not) stops the run in one line, exit 4."""
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-perturber", "regex")
    assert result.ret == 4
    text = result.stdout.str() + result.stderr.str()
    assert "--perturber regex: no item of this run uses a perturber (verdicts)" in text
    assert "faithfulness" in text  # the method that would


def test_a_third_party_reporter_owns_its_option(toy: pytest.Pytester) -> None:
    out = toy.path / "r.csv"
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-csv", str(out))
    assert result.ret == 1
    rows = out.read_text().splitlines()
    assert rows[0] == "case_id,method,status"
    assert "claims::c3,verdicts,failed" in rows
    assert f"wrote csv results to {out}" in result.stdout.str()


def test_gates_over_a_third_party_metric(toy: pytest.Pytester) -> None:
    held = toy.runpytest("claims", *PLUGINS, "--afcheck-gate", "accuracy>=0.7")
    assert held.ret == 0
    assert "gate held: accuracy = 0.7500 ≥ 0.7 (--gate accuracy>=0.7)" in held.stdout.str()
    failed = toy.runpytest("claims", *PLUGINS, "--afcheck-gate", "verdicts.accuracy>=0.8")
    assert failed.ret == 1
    assert ("GATE FAILED: accuracy = 0.7500 < 0.8 (--gate verdicts.accuracy>=0.8)"
            in failed.stdout.str())


def test_several_methods_in_one_run_are_reported_apart(toy: pytest.Pytester) -> None:
    write_suite(toy.path, "demo", STEPS, ARITH)
    out, xml = toy.path / "r.json", toy.path / "r.xml"
    result = toy.runpytest("claims", "demo", *PLUGINS, "--afcheck-json", str(out),
                           "--afcheck-junitxml", str(xml))
    result.assert_outcomes(passed=4, failed=2)
    text = result.stdout.str()
    assert "verdicts: accuracy 0.750" in text and "FaithformBench metrics" in text
    doc = json.loads(out.read_text())
    assert set(doc["methods"]) == {"verdicts", "faithfulness"}
    assert "metrics" not in doc  # several methods: each under its own name
    assert doc["methods"]["faithfulness"]["metrics"]["overall"]["N"]["value"] == 2
    assert doc["config"]["suites"]["claims"]["method"] == "verdicts"
    from lxml import etree

    names = sorted(s.get("name") for s in etree.parse(str(xml)).getroot().iter("testsuite"))
    assert names == ["faithfulness/demo", "verdicts/easy", "verdicts/hard"]


def test_a_gate_of_a_method_without_items_fails(toy: pytest.Pytester) -> None:
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-max-uflb", "0.5")
    assert result.ret == 1
    assert "GATE FAILED: UFLB: not measured by the method 'faithfulness' in this run (no item" in (
        result.stdout.str())


@pytest.mark.parametrize("value", ["nan", "inf", "2", "-0.1", "half"])
def test_a_threshold_outside_zero_to_one_is_a_usage_error(toy: pytest.Pytester,
                                                          value: str) -> None:
    write_suite(toy.path, "demo", STEPS, ARITH)
    result = toy.runpytest("demo", *PLUGINS, "--afcheck-max-uflb", value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "a gate's threshold must be a number from 0 to 1" in result.stderr.str()


def test_no_evaluated_case_fails_the_gate(toy: pytest.Pytester) -> None:
    write_suite(toy.path, "demo", [{"problem_id": "p", "node_id": "1", "step": "So: 1 = 1"}],
                ARITH)  # no perturbation: excluded, N = 0
    result = toy.runpytest("demo", *PLUGINS, "--afcheck-max-uflb", "0.5")
    assert result.ret == 1
    assert "GATE FAILED: UFLB: no evaluated item" in result.stdout.str()


def test_two_runs_in_one_process_share_no_hook_history(toy: pytest.Pytester) -> None:
    import toymethod

    for expected in (1, 2):
        toy.runpytest("claims", *PLUGINS).assert_outcomes(passed=3, failed=1)
        assert len(toymethod.CONFIGURED) == expected  # once per run, never replayed


def test_exitfirst_reports_agree_with_the_terminal(toy: pytest.Pytester) -> None:
    out = toy.path / "r.json"
    result = toy.runpytest("claims", *PLUGINS, "-x", "--afcheck-json", str(out))
    result.assert_outcomes(passed=2, failed=1)
    doc = json.loads(out.read_text())
    assert [s["claim"] for s in doc["steps"]] == ["2 + 3 = 5", "2 + 3 = 6", "2 * 3 = 7"]
    assert doc["metrics"]["overall"]["N"]["value"] == 3


def _afcheck(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TEST_PLUGINS), env.pop("EXTRA_PATH", "")]), **env}
    return subprocess.run([sys.executable, "-m", "afcheck", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_method_and_reporter_load_by_entry_point(tmp_path: Path) -> None:
    dist = tmp_path / "site" / "afcheck_toy-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: afcheck-toy\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[afcheck]\ntoy = toymethod\narith = arith\n")
    claims_suite(tmp_path)
    listing = _afcheck(["list", "methods"], tmp_path, EXTRA_PATH=str(tmp_path / "site"))
    assert "verdicts" in listing.stdout and "toy (afcheck-toy 1.0)" in listing.stdout
    assert "faithfulness" in listing.stdout
    result = _afcheck(["claims", "--csv", "out.csv", "-q"], tmp_path,
                      EXTRA_PATH=str(tmp_path / "site"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "claims::c3,verdicts,failed" in (tmp_path / "out.csv").read_text()


def test_plugin_options_work_with_autoload_disabled(tmp_path: Path) -> None:
    claims_suite(tmp_path)
    result = _afcheck(["claims", "--plugin", "toymethod", "--plugin", "arith", "--csv",
                       "out.csv"], tmp_path, AFCHECK_DISABLE_PLUGIN_AUTOLOAD="1")
    assert result.returncode == 1, result.stdout + result.stderr
    assert (tmp_path / "out.csv").is_file()


def test_autoload_disabled_says_what_is_missing(tmp_path: Path) -> None:
    claims_suite(tmp_path)
    result = _afcheck(["claims", "--plugin", "toymethod"], tmp_path,
                      AFCHECK_DISABLE_PLUGIN_AUTOLOAD="1")
    assert result.returncode == 4, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "unknown prover 'arith'" in output
    assert "AFCHECK_DISABLE_PLUGIN_AUTOLOAD" in output
    assert "Traceback" not in output


def test_xdist_is_refused_in_one_line(toy: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    result = toy.runpytest("claims", *PLUGINS, "-n", "2", "--afcheck-gate", "accuracy>=0.9")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "pytest-xdist's -n would split across processes" in result.stderr.str()
    assert "Traceback" not in result.stderr.str()


@pytest.mark.realdata
def test_junit_validates_against_jenkins_schema_unless_annotated(
        toy: pytest.Pytester, data_dir: Path) -> None:
    from lxml import etree

    schema = etree.XMLSchema(etree.parse(str(data_dir / "junit" / "junit-10.xsd")))
    write_suite(toy.path, "demo", STEPS, ARITH)
    strict, annotated = toy.path / "strict.xml", toy.path / "annotated.xml"
    toy.runpytest("claims", "demo", *PLUGINS, "--afcheck-junitxml", str(strict))
    schema.assertValid(etree.parse(str(strict)))
    cases = list(etree.parse(str(strict)).getroot().iter("testcase"))
    assert len(cases) == 6 and all(c.get("time") is not None for c in cases)
    assert all(c.get("file") is None for c in cases)
    toy.runpytest("claims", "demo", *PLUGINS, "--afcheck-junitxml", str(annotated),
                  "--afcheck-junit-annotations")
    doc = etree.parse(str(annotated))
    located = {c.get("name"): (c.get("file"), c.get("line")) for c in doc.iter("testcase")}
    assert located["c3"] == ("claims/claims.jsonl", "3")  # relative to the rootdir
    assert not schema.validate(doc)  # file and line are outside Jenkins' schema


UNWRITABLE = "full-disk.json"
"""A file whose write fails with a full disk (:func:`full_disk`): what only the write itself
finds out."""


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writes to a file named :data:`UNWRITABLE` fail as on a full disk."""
    import errno

    from afcheck import fileio

    replacing = fileio._replacing

    def failing(path: Path | str):  # type: ignore[no-untyped-def]
        if Path(path).name == UNWRITABLE:
            raise OSError(errno.ENOSPC, "No space left on device")
        return replacing(path)

    monkeypatch.setattr(fileio, "_replacing", failing)


@pytest.mark.parametrize(("where", "says"), [("a-file/r.json", "is a file, so nothing"),
                                             ("a-folder", "is a folder")])
def test_a_json_path_that_cannot_be_a_file_stops_before_any_work(
        arith: pytest.Pytester, where: str, says: str) -> None:
    write_suite(arith.path, "demo", STEPS, ARITH)
    (arith.path / "a-file").write_text("not a folder")
    (arith.path / "a-folder").mkdir()
    result = arith.runpytest("demo", "--afcheck-plugin", "arith",
                             "--afcheck-json", str(arith.path / where))
    assert result.ret == 4
    assert says in result.stdout.str() + result.stderr.str()
    assert "passed" not in result.parseoutcomes()
    assert (arith.path / "a-file").read_text() == "not a folder"
    assert list((arith.path / "a-folder").iterdir()) == []


@pytest.mark.parametrize("where", [UNWRITABLE])
@pytest.mark.usefixtures("full_disk")
def test_an_unwritable_json_path_loses_nothing_else(arith: pytest.Pytester, where: str) -> None:
    write_suite(arith.path, "demo", STEPS, ARITH)
    (arith.path / "a-file").write_text("not a folder")
    (arith.path / "a-folder").mkdir()
    junit = arith.path / "r.xml"
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line",
                             "--afcheck-json", str(arith.path / where),
                             "--afcheck-junitxml", str(junit))
    text = result.stdout.str()
    assert "Traceback" not in text
    assert f"could not write json results to {arith.path / where}: " in text
    assert "FaithformBench metrics" in text
    assert f"wrote junit results to {junit}" in text and junit.read_text().count("<testcase") == 2
    assert result.ret == 1
    assert (arith.path / "a-file").read_text() == "not a folder"
    assert list((arith.path / "a-folder").iterdir()) == []  # no temporary file left behind


@pytest.mark.usefixtures("full_disk")
def test_an_unwritable_json_path_fails_a_run_that_passed(arith: pytest.Pytester) -> None:
    write_suite(arith.path, "demo", STEPS[:1], ARITH)
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-json",
                             str(arith.path / UNWRITABLE))
    result.assert_outcomes(passed=1)
    assert result.ret == 1
    gated = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-json",
                            str(arith.path / UNWRITABLE), "--afcheck-max-uflb", "0.5")
    assert gated.ret == 1 and "could not write json results" in gated.stdout.str()


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", b"[1, 2]",
                                     b'{"failures": "all"}',
                                     b'{"failures": ' + b"[" * 5000 + b"]" * 5000 + b"}"])
@pytest.mark.heavy
def test_a_file_that_is_not_a_baseline_is_one_line(arith: pytest.Pytester,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   content: bytes) -> None:
    monkeypatch.setenv("PYTHONPATH", str(TEST_PLUGINS))  # its own process: all it prints
    write_suite(arith.path, "demo", STEPS, ARITH)
    baseline = arith.path / "baseline.json"
    baseline.write_bytes(content)
    result = arith.runpytest_subprocess("demo", "--afcheck-plugin", "arith",
                                        "--afcheck-baseline", str(baseline))
    assert result.ret == 4
    assert "Traceback" not in result.stdout.str() and "Error" not in result.stdout.str()
    lines = [line for line in result.stderr.lines if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"ERROR: {baseline}: not a baseline file")
    assert lines[0].endswith("write one with --update-baseline")


@pytest.mark.usefixtures("full_disk")
def test_an_unwritable_baseline_loses_nothing_else(arith: pytest.Pytester) -> None:
    write_suite(arith.path, "demo", STEPS, ARITH)
    (arith.path / "a-file").write_text("")
    out = arith.path / "r.json"
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line",
                             "--afcheck-json", str(out), "--afcheck-update-baseline",
                             "--afcheck-baseline", str(arith.path / UNWRITABLE))
    text = result.stdout.str()
    assert "Traceback" not in text + result.stderr.str()
    assert f"could not write the baseline {arith.path / UNWRITABLE}: " in text
    assert "FaithformBench metrics" in text and out.is_file()
    assert result.ret == 1


def test_an_unknown_suite_kind_is_a_usage_error(toy: pytest.Pytester) -> None:
    folder = toy.path / "odd"
    folder.mkdir()
    (folder / "suite.toml").write_text('[afcheck]\nname = "odd"\nkind = "clams"\ndata = "d"\n')
    result = toy.runpytest("odd", "claims", *PLUGINS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "unknown suite_kind 'clams'. Did you mean 'claims'?" in err
    assert "Traceback" not in err + result.stdout.str()


def test_a_gate_never_passes_over_unreadable_records(toy: pytest.Pytester) -> None:
    with (toy.path / "claims" / "claims.jsonl").open("a") as handle:
        handle.write("{not json\n")
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-gate", "accuracy>=0.5")
    assert result.ret == 1
    assert "GATE FAILED: 1 record(s) of the suites could not be read" in result.stdout.str()


def test_a_misspelt_gate_metric_is_a_usage_error_naming_the_metrics(
        toy: pytest.Pytester) -> None:
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-gate", "acuracy>=0.5")
    assert result.ret == 4
    text = result.stdout.str() + result.stderr.str()
    assert ("--gate acuracy>=0.5: no method of this run has a metric 'acuracy'; gates can "
            "bound verdicts: accuracy") in text


def test_a_missing_baseline_file_is_a_usage_error(toy: pytest.Pytester) -> None:
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-baseline", "nope.json")
    assert result.ret == 4
    assert "--baseline nope.json: no such file; write one with" in (
        result.stdout.str() + result.stderr.str())
    made = toy.runpytest("claims", *PLUGINS, "--afcheck-baseline", "nope.json",
                         "--afcheck-update-baseline")
    assert made.ret == 1  # the run's own failure; the file is written
    assert (toy.path / "nope.json").exists()


# -- every collected item is in every result file ------------------------------------------


def _results(toy: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict[str, object],
                                                          ET.Element]:
    out, junit = toy.path / "r.json", toy.path / "r.xml"
    out.unlink(missing_ok=True)
    junit.unlink(missing_ok=True)
    result = toy.runpytest("claims", *PLUGINS, "--tb=line", "--afcheck-json", str(out),
                           "--afcheck-junitxml", str(junit), *args)
    return result, json.loads(out.read_text()), ET.parse(junit).getroot()


def _write_claims(toy: pytest.Pytester, lines: list[str]) -> None:
    (toy.path / "claims" / "claims.jsonl").write_text("".join(line + "\n" for line in lines))


def _junit_counts(root: ET.Element) -> tuple[int, int]:
    suites = root.findall("testsuite")
    return (sum(int(s.get("tests", "0")) for s in suites),
            sum(int(s.get("failures", "0")) for s in suites))


def test_a_later_duplicate_id_is_a_bad_record_and_never_shares_a_result(
        toy: pytest.Pytester) -> None:
    """A failing record before a passing one with the same id: before, both were one item
    reported passed; now the first is itself (failed) and the second one bad-input line."""
    wrong = {"id": "c1", "claim": "2 + 3 = 6", "expected": "proved"}
    right = {"id": "c1", "claim": "2 + 3 = 5", "expected": "proved"}
    _write_claims(toy, [json.dumps(wrong), json.dumps(right)])
    result, doc, junit = _results(toy)
    result.assert_outcomes(failed=2)
    assert result.ret == 1
    text = result.stdout.str()
    assert "claims.jsonl:2: duplicate id: 'c1' is also the record at" in text
    assert "claims.jsonl:1; give each record its own id" in text
    steps = doc["steps"]
    assert isinstance(steps, list)
    assert [(s["case_id"].split("::")[1], s["status"]) for s in steps] == [
        ("c1", "failed"), ("c1@line-2", "failed")]
    assert steps[1]["unreadable"]["line"] == 2
    assert _junit_counts(junit) == (2, 2)


def test_an_unreadable_record_is_a_failure_in_terminal_json_and_junit(
        toy: pytest.Pytester) -> None:
    with (toy.path / "claims" / "claims.jsonl").open("a") as handle:
        handle.write("{not json\n")
    result, doc, junit = _results(toy)
    result.assert_outcomes(passed=3, failed=2)
    steps = doc["steps"]
    assert isinstance(steps, list)
    assert [s["status"] for s in steps].count("failed") == 2
    bad = [s for s in steps if "unreadable" in s]
    assert [(b["case_id"], b["unreadable"]["line"]) for b in bad] == [("claims::line-5", 5)]
    assert _junit_counts(junit) == (5, 2)
    failures = [f.get("message", "") for f in junit.iter("failure")]
    assert any(m.startswith("unreadable record: not a claim record") for m in failures)


def test_a_suite_of_bad_records_only_still_writes_every_result_file(
        toy: pytest.Pytester) -> None:
    _write_claims(toy, ["{not json", "[1, 2"])
    result, doc, junit = _results(toy)
    result.assert_outcomes(failed=2)
    assert result.ret == 1
    assert [s["case_id"] for s in doc["steps"]] == ["claims::line-1", "claims::line-2"]
    assert _junit_counts(junit) == (2, 2)
    assert "wrote json results to" in result.stdout.str()


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["pass", "fail", "bad", "dup"]), min_size=1, max_size=6))
@pytest.mark.heavy
def test_terminal_json_and_junit_counts_agree(toy: pytest.Pytester, kinds: list[str]) -> None:
    lines = []
    for index, kind in enumerate(kinds):
        claim = {"pass": "2 + 3 = 5", "fail": "2 + 3 = 6"}.get(kind, "1 = 1")
        if kind == "bad":
            lines.append('{"id": "x", "claim": ')
            continue
        ident = "c0" if kind == "dup" else f"c{index + 1}"
        lines.append(json.dumps({"id": ident, "claim": claim, "expected": "proved"}))
    _write_claims(toy, lines)
    result, doc, junit = _results(toy)
    outcomes = result.parseoutcomes()
    passed, failed = outcomes.get("passed", 0), outcomes.get("failed", 0)
    steps = doc["steps"]
    assert isinstance(steps, list)
    assert passed + failed == len(kinds) == len(steps)
    assert [s["status"] for s in steps].count("failed") == failed
    assert _junit_counts(junit) == (len(kinds), failed)
    assert result.ret == (1 if failed else 0)


def test_a_budget_change_for_no_budgeted_stage_is_a_usage_error(toy: pytest.Pytester) -> None:
    result = toy.runpytest("claims", *PLUGINS, "--afcheck-budget", "verdicts.grade.seconds=3")
    assert result.ret == 4
    assert ("--budget verdicts.grade.seconds=3: no stage 'verdicts.grade' in this run; stages "
            "with a budget: none") in result.stdout.str() + result.stderr.str()
    malformed = toy.runpytest("claims", *PLUGINS, "--afcheck-budget", "verdicts.grade.size=-5")
    assert malformed.ret == 4
    assert "size must be a whole number above 0" in malformed.stdout.str() + malformed.stderr.str()


@pytest.mark.parametrize(("key", "value", "said"), [
    ("method", "nosuch", "unknown method 'nosuch'"),
    ("kind", "clams", "unknown suite_kind 'clams'"),
])
def test_an_unknown_name_in_suite_toml_names_the_file_and_line(
        toy: pytest.Pytester, key: str, value: str, said: str) -> None:
    manifest = toy.path / "claims" / "suite.toml"
    text = manifest.read_text()
    if key == "method":
        text = text.replace('kind = "claims"\n', 'kind = "claims"\nmethod = "nosuch"\n')
    else:
        text = text.replace('kind = "claims"', f'kind = "{value}"')
    manifest.write_text(text)
    result = toy.runpytest("claims", *PLUGINS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    line = 4 if key == "method" else 3
    assert f"{manifest}:{line}: {said}" in result.stderr.str() + result.stdout.str()


def test_an_unknown_component_in_suite_defaults_names_the_file_and_line(
        toy: pytest.Pytester) -> None:
    manifest = toy.path / "claims" / "suite.toml"
    manifest.write_text(manifest.read_text() + '\n[afcheck.defaults]\ngrader = "nosuch"\n')
    result = toy.runpytest("claims", *PLUGINS)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"{manifest}:7: unknown grader 'nosuch'" in result.stderr.str() + result.stdout.str()


def test_a_method_that_cannot_read_the_kind_is_one_line(toy: pytest.Pytester) -> None:
    manifest = toy.path / "claims" / "suite.toml"
    manifest.write_text(manifest.read_text().replace(
        'kind = "claims"\n', 'kind = "claims"\nmethod = "equivalence"\n'))
    result = toy.runpytest("claims", *PLUGINS)
    text = result.stdout.str() + result.stderr.str()
    assert (f"{manifest}:4: the method 'equivalence' cannot read records of the suite kind "
            "'claims' (the equivalence method reads pairs, got Claim)") in text
    assert "TypeError" not in text and "Traceback" not in text
    assert result.ret != 0


@pytest.mark.parametrize("flags", [("-v",), ("-ra",), ("--co",), ("--tb=short",)])
def test_ids_with_controls_reach_the_terminal_escaped(toy: pytest.Pytester,
                                                      flags: tuple[str, ...]) -> None:
    hostile = "c\x1b[2J\u202eevil"
    _write_claims(toy, [json.dumps({"id": hostile, "claim": "2 + 3 = 6",
                                    "expected": "proved"}),
                        json.dumps({"id": "c2", "claim": "2 + 3 = 5", "expected": "proved"})])
    result = toy.runpytest("claims", *PLUGINS, *flags)
    text = result.stdout.str() + result.stderr.str()
    assert "\x1b[2J" not in text and "\u202e" not in text
    assert "c\\x1b[2J\\u202eevil" in text


def test_a_gate_over_a_suite_of_bad_records_only_fails_instead_of_being_refused(
        toy: pytest.Pytester) -> None:
    _write_claims(toy, ["{not json"])
    result, doc, junit = _results(toy, "--afcheck-gate", "accuracy>=0.5")
    assert result.ret == 1
    assert "GATE FAILED: 1 record(s) of the suites could not be read" in result.stdout.str()
    assert doc["gates"]["failures"] and _junit_counts(junit) == (1, 1)
