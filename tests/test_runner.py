"""The pytest bridge: collection, selection, outcome mapping, batching, gates, baseline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import write_suite

ROWS = [
    {"problem_id": "p1", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 2 + 3 = 6"},
    {"problem_id": "p1", "node_id": "2", "step": "So: 2 + 3 = 6", "perturbed": "So: 2 + 3 = 7"},
    {"problem_id": "p2", "node_id": "1", "step": "So: 2 * 3 = 6", "perturbed": "So: 2 * 3 = 6"},
    {"problem_id": "p2", "node_id": "2", "step": "NOAF", "perturbed": "So: 1 = 2"},
    {"problem_id": "p3", "node_id": "1", "step": "So: ? = 1", "perturbed": "So: 1 = 2"},
    {"problem_id": "p3", "node_id": "2", "step": "So: 1 = 1"},
]
ARITH = {"perturber": "given", "formaliser": "arith", "prover": "arith"}


@pytest.fixture
def demo(arith: pytest.Pytester) -> pytest.Pytester:
    write_suite(arith.path, "demo", ROWS, ARITH)
    return arith


def run(p: pytest.Pytester, *args: str) -> pytest.RunResult:
    return p.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line", *args)


def test_ids_read_suite_and_case(demo: pytest.Pytester) -> None:
    result = run(demo, "--co", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert ids == ["demo::p1/1", "demo::p1/2", "demo::p2/1", "demo::p2/2", "demo::p3/1",
                   "demo::p3/2"]


def test_collect_only_calls_no_backend(demo: pytest.Pytester) -> None:
    import arith

    run(demo, "--co")
    assert arith.CALLS == []


def test_outcomes_map_to_pass_fail_skip(demo: pytest.Pytester) -> None:
    result = run(demo, "-rs")
    # p1/1 faithful; p1/2 error induction; p2/1 silent correction; p2/2 AF failure;
    # p3/1 undecided (∅, ⊥); p3/2 has no perturbation: excluded.
    result.assert_outcomes(passed=1, failed=3, skipped=2)
    text = result.stdout.str()
    assert "p1/2: error induction" in text
    assert "p2/1: silent correction" in text
    assert "p2/2: AF failure on the step: no claim found" in text
    assert "unperturbable" in text
    assert "steps.jsonl:5: undecided" in text  # skip reported at the data line


def test_one_batched_call_per_stage(demo: pytest.Pytester) -> None:
    import arith

    run(demo)
    stages = [stage for stage, _ in arith.CALLS]
    assert stages == ["formalise", "check", "prove"] or stages == ["formalise", "prove"]
    formalise = dict(arith.CALLS)["formalise"]
    assert formalise == 11  # 6 originals + 5 perturbations


def test_selection_limits_the_batch(demo: pytest.Pytester) -> None:
    import arith

    result = run(demo, "-k", "p1")
    result.assert_outcomes(passed=1, failed=1)
    assert dict(arith.CALLS)["formalise"] == 4


def test_exitfirst_and_last_failed(demo: pytest.Pytester) -> None:
    run(demo, "-p", "cacheprovider").assert_outcomes(passed=1, failed=3, skipped=2)
    again = demo.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line", "--lf")
    again.assert_outcomes(failed=3)
    first = run(demo, "-x")
    assert first.ret == 1
    assert "stopping after 1 failures" in first.stdout.str()


def test_several_perturbers_parametrise_each_step(arith: pytest.Pytester) -> None:
    write_suite(arith.path, "demo", ROWS[:2], ARITH)
    result = run(arith, "--co", "-q", "--afcheck-perturber", "given,bump")
    ids = [line for line in result.outlines if "::" in line]
    assert ids == ["demo::p1/1[given]", "demo::p1/1[bump]", "demo::p1/2[given]",
                   "demo::p1/2[bump]"]


def test_bad_line_fails_alone_and_the_rest_runs(arith: pytest.Pytester) -> None:
    body = (json.dumps(ROWS[0]) + "\n" + '{"problem_id": "p9", "node_id": 1, "stpe": "x"}\n'
            + "{not json\n" + json.dumps(ROWS[1]) + "\n")
    write_suite(arith.path, "demo", body, ARITH)
    result = run(arith)
    result.assert_outcomes(passed=1, failed=3)
    text = result.stdout.str()
    assert "steps.jsonl:2: unknown field 'stpe'" in text
    assert "steps.jsonl:3: not JSON (Expecting property name" in text
    assert "Traceback" not in text


def test_junit_xml_of_a_suite_with_an_unreadable_line(arith: pytest.Pytester) -> None:
    from lxml import etree

    row = {**ROWS[0], "dataset": "arith"}  # the unreadable line's group is the suite's name
    write_suite(arith.path, "demo", json.dumps(row) + "\n{not json\n", ARITH)
    xml = arith.path / "out.xml"
    result = run(arith, f"--afcheck-junitxml={xml}")  # afcheck's JUnit report, with metrics
    result.assert_outcomes(passed=1, failed=1)
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    names = [case.get("name") for case in etree.parse(str(xml)).getroot().iter("testcase")]
    assert len(names) == 2


def test_two_suites_of_one_name_are_one_line(arith: pytest.Pytester) -> None:
    write_suite(arith.path / "a", "demo", ROWS[:2], ARITH)
    write_suite(arith.path / "b", "demo", ROWS[2:4], ARITH)
    result = arith.runpytest("a/demo", "b/demo", "--afcheck-plugin", "arith")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stdout.str() + result.stderr.str()
    assert "the suite name 'demo' is also" in text
    assert "give each suite of a run its own name" in text
    assert "Traceback" not in text


def test_missing_data_file_is_one_line(arith: pytest.Pytester) -> None:
    folder = write_suite(arith.path, "demo", ROWS, ARITH)
    (folder / "steps.jsonl").unlink()
    result = run(arith)
    assert "data file 'steps.jsonl' not found" in result.stdout.str()
    assert "Traceback" not in result.stdout.str()
    assert result.ret != 0


def test_unknown_plugin_is_one_line_with_a_suggestion(demo: pytest.Pytester) -> None:
    result = run(demo, "--afcheck-prover", "arth")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown prover 'arth'. Did you mean 'arith'?" in result.stderr.str()


def test_unrelated_suite_toml_and_tests_are_left_alone(pytester: pytest.Pytester) -> None:
    (pytester.path / "other").mkdir()
    (pytester.path / "other" / "suite.toml").write_text('[tool]\nname = "x"\n')
    pytester.makepyfile(test_plain="def test_ok():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert "afcheck" not in result.stdout.str().split("plugins:")[-1].split("\n", 1)[1]


def test_json_result_file(demo: pytest.Pytester) -> None:
    out = demo.path / "r.json"
    run(demo, "--afcheck-json", str(out))
    doc = json.loads(out.read_text())
    assert doc["schema"] == "afcheck-results" and doc["version"] == 1
    overall = doc["metrics"]["overall"]
    assert list(overall) == ["N", "FNR", "FPR", "AFFR", "UFLB", "TPR", "FI", "excluded"]
    assert overall["N"] == {"type": "count", "value": 5}
    assert overall["FNR"]["type"] == "rate" and overall["FNR"]["value"] == pytest.approx(1 / 5)
    assert (overall["FPR"]["count"], overall["FPR"]["total"]) == (1, 5)
    assert (overall["AFFR"]["count"], overall["AFFR"]["total"]) == (1, 10)
    assert overall["FI"]["type"] == "score"
    assert set(doc["metrics"]["groups"]) == {"demo"}
    assert "contingency" in doc["details"]["overall"]
    records = {r["case_id"]: r for r in doc["steps"]}
    sc = records["demo::p2/1"]
    assert sc["events"] == ["silent correction"] and sc["status"] == "failed"
    assert sc["perturbed"]["statement"] == "theorem t : 2 * 3 = 6 := by sorry"
    assert sc["z_bar"]["kind"] == "proved" and sc["z_bar"]["backend"] == "arith"


def test_gates_decide_the_exit_status(demo: pytest.Pytester) -> None:
    assert run(demo, "--afcheck-max-uflb", "0.5").ret == 0
    failed = run(demo, "--afcheck-max-fpr", "0.1")
    assert failed.ret == 1
    assert "GATE FAILED: FPR = 0.2000 > 0.1 (--max-fpr)" in failed.stdout.str()
    assert run(demo, "--afcheck-min-fi", "0.99").ret == 1


def test_baseline_turns_known_failures_into_xfail(demo: pytest.Pytester) -> None:
    baseline = demo.path / "baseline.json"
    first = run(demo, "--afcheck-baseline", str(baseline), "--afcheck-update-baseline")
    assert json.loads(baseline.read_text())["failures"] == ["demo::p1/2", "demo::p2/1",
                                                            "demo::p2/2"]
    assert first.ret == 1
    second = run(demo, "--afcheck-baseline", str(baseline))
    second.assert_outcomes(passed=1, xfailed=3, skipped=2)
    assert second.ret == 0
    rows = [r for r in ROWS if r["problem_id"] != "p1"] + [
        {"problem_id": "p1", "node_id": "1", "step": "So: 2 + 3 = 4", "perturbed": "So: 1 = 2"}]
    write_suite(demo.path, "demo", rows, ARITH)
    third = run(demo, "--afcheck-baseline", str(baseline))
    third.assert_outcomes(failed=1, xfailed=2, skipped=2)


def test_junit_xml_validates(demo: pytest.Pytester) -> None:
    from lxml import etree

    out = demo.path / "r.xml"
    run(demo, "--afcheck-junitxml", str(out))
    schema = etree.XMLSchema(etree.parse(str(Path(__file__).parent / "data" / "junit.xsd")))
    doc = etree.parse(str(out))
    schema.assertValid(doc)
    suite = doc.getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "demo"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert float(props["FPR"]) == pytest.approx(0.2) and props["N"] == "5"
    failures = [f.get("message") for f in doc.getroot().iter("failure")]
    assert len(failures) == 3 and all("\n" not in m for m in failures)


def test_a_plugin_that_raises_stops_the_run_once(demo: pytest.Pytester) -> None:
    import arith

    result = run(demo, "--afcheck-prover", "broken")
    assert result.ret == pytest.ExitCode.INTERNAL_ERROR
    assert "afcheck: broken failed at the prove stage: KeyError: 'oops'" in result.stdout.str()
    # Not once per item's report: the batch once, then each of its items once alone, to
    # tell a broken prover from one that crashes on some items (those fail on their own).
    assert [stage for stage, _ in arith.CALLS].count("prove") <= 1 + 2 * len(ROWS)


def test_a_prover_that_gives_none_for_an_input_is_named(demo: pytest.Pytester) -> None:
    result = run(demo, "--afcheck-prover", "none")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "afcheck: none returned None for an input at the prove stage" in result.stdout.str()


def test_streamed_json_equals_the_document(tmp_path: Path) -> None:
    from afcheck_faithfulness.method import Faithfulness
    from afcheck_reporters.json_report import JsonReporter, document
    from test_faithfulness_metrics import AF, P, R, case

    from afcheck.method import Case, ItemResult
    from afcheck.summary import RunSummary

    method = Faithfulness()
    for results in ([], [case(P, R, n=1), case(P, P, n=2), case(AF, R, n=3)]):
        items = [ItemResult(Case(r.case_id, r.step.case_name, "faithfulness", r.step.suite,
                                 r.step.dataset, None, None), r, method.outcome(r),
                            method.outcome(r).status) for r in results]
        summary = RunSummary(items, {"faithfulness": method.summarise(items)},
                             config={"suites": {"s": {"prover": "test"}}},
                             implementations={"faithfulness": method})
        out = tmp_path / "r.json"
        JsonReporter().report(summary, str(out))
        assert json.loads(out.read_text()) == document(summary)


def test_short_protocol_reports_like_the_full_one(demo: pytest.Pytester) -> None:
    from lxml import etree

    outcomes = {}
    (demo.path / "none.json").write_text('{"failures": []}\n')  # a baseline expecting nothing
    for logging in ("no", "all"):
        for extra in ([], ["--afcheck-full-protocol"]):
            xml = demo.path / f"pytest{len(extra)}.xml"
            result = run(demo, "-rs", f"--junitxml={xml}", "--afcheck-baseline",
                         str(demo.path / "none.json"), "-o", f"junit_logging={logging}",
                         *extra)
            result.assert_outcomes(passed=1, failed=3, skipped=2)
            cases = etree.parse(str(xml)).getroot().iter("testcase")
            outcomes[logging, bool(extra)] = sorted(
                (c.get("name"), tuple(child.tag for child in c)) for c in cases)
        assert outcomes[logging, True] == outcomes[logging, False]


def test_case_items_after_the_first_report_without_the_phase_hooks(
        demo: pytest.Pytester) -> None:
    """The run executes inside the first case item, through pytest's whole protocol; the
    others report a decided status without pytest's setup, call and teardown hooks, and with
    only pytest's own listeners their passed setup and teardown reports are not made.
    ``--full-protocol`` puts each through all of them. (hypothesis's plugin, when installed,
    takes part in a test's call: left out as the ``afcheck`` command leaves it out.)"""
    args = ("demo", "--afcheck-plugin", "arith", "-p", "no:hypothesispytest")
    fast = demo.inline_run(*args)
    full = demo.inline_run(*args, "--afcheck-full-protocol")
    # Only pytest's own plugins take part in the protocol: the later items are reported
    # without its hook too.
    assert len(fast.getcalls("pytest_runtest_protocol")) == 1
    assert len(full.getcalls("pytest_runtest_protocol")) == 6
    for phase in ("setup", "call", "teardown"):
        assert len(fast.getcalls(f"pytest_runtest_{phase}")) == 1, phase
        assert len(full.getcalls(f"pytest_runtest_{phase}")) == 6, phase
    assert [r.when for r in fast.getreports("pytest_runtest_logreport")] == [
        "setup", "call", "teardown", *["call"] * 5]
    assert [len(x) for x in fast.listoutcomes()] == [len(x) for x in full.listoutcomes()]
    assert ([(r.nodeid, r.outcome) for r in fast.getreports("pytest_runtest_logreport")
             if r.when == "call"]
            == [(r.nodeid, r.outcome) for r in full.getreports("pytest_runtest_logreport")
                if r.when == "call"])


def test_a_listener_of_the_reports_gets_setup_call_and_teardown(demo: pytest.Pytester) -> None:
    demo.makeconftest(
        "seen = []\n"
        "def pytest_runtest_logreport(report):\n"
        "    seen.append((report.nodeid, report.when))\n"
        "def pytest_sessionfinish(session):\n"
        "    print('WHENS', sorted(set(w for _, w in seen)), len(seen))\n")
    result = run(demo, "-s")
    result.assert_outcomes(passed=1, failed=3, skipped=2)
    assert "WHENS ['call', 'setup', 'teardown'] 18" in result.stdout.str()


def test_a_plugin_in_the_protocol_sees_every_case_item(demo: pytest.Pytester) -> None:
    demo.makeconftest(
        "import pytest\n"
        "seen = []\n"
        "@pytest.hookimpl(wrapper=True)\n"
        "def pytest_runtest_protocol(item, nextitem):\n"
        "    seen.append(item.nodeid)\n"
        "    return (yield)\n"
        "def pytest_sessionfinish(session):\n"
        "    print('PROTOCOL', len(seen))\n")
    result = run(demo, "-s")
    result.assert_outcomes(passed=1, failed=3, skipped=2)
    assert "PROTOCOL 6" in result.stdout.str()


def test_a_warning_of_a_backend_reaches_the_warnings_summary(arith: pytest.Pytester) -> None:
    rows = [dict(ROWS[0]), {**ROWS[2], "step": "So: 2 * 3 = 6 WARN"}]
    write_suite(arith.path, "demo", rows, ARITH)
    result = run(arith, "-W", "always::UserWarning")
    result.assert_outcomes(passed=1, failed=1, warnings=1)
    text = result.stdout.str()
    assert "warnings summary" in text
    assert "arith: a warning while formalising demo/p2/1#original" in text


def test_exitfirst_stops_at_the_first_failed_case_item(demo: pytest.Pytester) -> None:
    result = run(demo, "-x", "-v")
    assert result.ret == 1
    lines = [line for line in result.outlines if line.startswith("demo::")]
    assert [line.split()[0] for line in lines] == ["demo::p1/1", "demo::p1/2"]
    assert "PASSED" in lines[0] and "FAILED" in lines[1]


@pytest.mark.heavy
def test_a_failed_case_item_leaves_no_reference_cycle(demo: pytest.Pytester,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Its own process, since an in-process run's hook recorder keeps every call alive.
    (hypothesis's plugin, when installed, takes part in a test's call, which puts every item
    through pytest's protocol: left out as the ``afcheck`` command leaves it out.)"""
    from conftest import TEST_PLUGINS

    monkeypatch.setenv("PYTHONPATH", str(TEST_PLUGINS))
    demo.makeconftest(
        "import gc\n"
        "gc.disable()\n"
        "def pytest_unconfigure(config):\n"
        "    gc.set_debug(gc.DEBUG_SAVEALL)\n"
        "    gc.collect()\n"
        "    kinds = {type(o).__name__ for o in gc.garbage}\n"
        "    print('CYCLES', sorted(kinds & {'CaseFailed', 'CallInfo', 'ExceptionInfo'}))\n")
    result = demo.runpytest_subprocess("demo", "--afcheck-plugin", "arith", "-s",
                                       "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=1, failed=3, skipped=2)
    assert "CYCLES []" in result.stdout.str()


def test_a_warning_in_a_report_hook_is_recorded_for_its_item(demo: pytest.Pytester) -> None:
    demo.makeconftest(
        "import warnings, pytest\n"
        "@pytest.hookimpl(wrapper=True)\n"
        "def pytest_runtest_makereport(item, call):\n"
        "    report = yield\n"
        "    if report.when == 'call':\n"
        "        warnings.warn('made ' + item.nodeid, UserWarning)\n"
        "    return report\n")
    result = run(demo)
    result.assert_outcomes(passed=1, failed=3, skipped=2, warnings=6)
    summary = result.stdout.str().split("warnings summary", 1)[1]
    assert "demo::p3/2" in summary and "made demo::p3/2" in summary


def test_the_times_style_shows_the_suite_duration(demo: pytest.Pytester) -> None:
    result = run(demo, "-o", "console_output_style=times")
    line = next(x for x in result.outlines if x.startswith("demo "))
    assert re.search(r"[0-9.]+(ms|us|s)\s*$", line), line


def test_durations_list_the_setup_and_teardown_of_case_items(demo: pytest.Pytester) -> None:
    result = run(demo, "--durations=0", "-vv")
    lines = result.stdout.str().split("slowest durations", 1)[1].splitlines()
    for when in ("setup", "call", "teardown"):
        assert any(f" {when} " in line and "demo::p2/1" in line for line in lines), when


def test_an_ordinary_tests_session_fixture_ends_in_pytests_protocol(
        demo: pytest.Pytester) -> None:
    """In a session with ordinary tests, case items go through pytest's whole protocol, so a
    fixture an earlier test set up is torn down (and its error reported) at the last item."""
    demo.makepyfile(test_b=(
        "import pytest\n"
        "@pytest.fixture(scope='session')\n"
        "def shared():\n"
        "    yield\n"
        "    raise RuntimeError('teardown broke')\n"
        "def test_1(shared):\n"
        "    pass\n"))
    result = demo.runpytest("test_b.py", "demo", "--afcheck-plugin", "arith", "--tb=line")
    result.assert_outcomes(passed=2, failed=3, skipped=2, errors=1)
    assert "ERROR demo::p3/2 - RuntimeError: teardown broke" in result.stdout.str()


def test_setup_plan_runs_no_backend(demo: pytest.Pytester) -> None:
    import arith

    result = run(demo, "--setup-plan")
    assert result.ret == 0
    assert arith.CALLS == []


def test_a_protocol_plugin_registered_by_an_earlier_test_sees_case_items(
        demo: pytest.Pytester) -> None:
    demo.makepyfile(test_a=(
        "import pytest\n"
        "seen = []\n"
        "class Watch:\n"
        "    @pytest.hookimpl(wrapper=True)\n"
        "    def pytest_runtest_protocol(self, item, nextitem):\n"
        "        seen.append(item.nodeid)\n"
        "        return (yield)\n"
        "    def pytest_sessionfinish(self, session):\n"
        "        print('WATCHED', len(seen))\n"
        "def test_register(request):\n"
        "    request.config.pluginmanager.register(Watch(), 'watch')\n"))
    result = demo.runpytest("test_a.py", "demo", "--afcheck-plugin", "arith", "--tb=line", "-s")
    assert "WATCHED 6" in result.stdout.str()


def test_an_unexpected_error_of_the_run_stops_it_once(demo: pytest.Pytester) -> None:
    demo.makeconftest(
        "from afcheck.run import Run\n"
        "calls, kept = [], Run.execute\n"
        "def execute(self, cases):\n"
        "    calls.append(len(cases))\n"
        "    raise TypeError('no such thing')\n"
        "Run.execute = execute\n"
        "def pytest_unconfigure(config):\n"
        "    Run.execute = kept\n"
        "    print('EXECUTED', len(calls))\n")
    result = run(demo)  # output captured: the traceback must still be shown
    assert result.ret == pytest.ExitCode.INTERNAL_ERROR
    assert "afcheck: internal error: TypeError: no such thing" in result.stdout.str()
    assert "EXECUTED 1" in result.stdout.str()
    assert "raise TypeError('no such thing')" in result.stderr.str()


def test_options_of_several_perturbers_address_one_by_name(arith: pytest.Pytester) -> None:
    """``regex.prefer=…`` goes to regex only: given alongside takes no such option, and an
    option a component does not know is still refused for that component."""
    write_suite(arith.path, "demo", ROWS[:2], ARITH)
    ok = run(arith, "-q", "--afcheck-perturber", "given,regex",
             "--afcheck-perturber-opt", "regex.prefer=number")
    assert ok.ret in (0, 1), ok.stdout.str() + ok.stderr.str()  # the items ran
    counts = ok.parseoutcomes()
    assert sum(counts.get(k, 0) for k in ("passed", "failed", "skipped")) == 4  # 2 steps × 2
    bad = run(arith, "-q", "--afcheck-perturber", "given,regex",
              "--afcheck-perturber-opt", "regex.nonsense=1")
    assert bad.ret == 4
    assert "regex perturber: unknown option 'nonsense'" in bad.stdout.str() + bad.stderr.str()
