"""Text a run does not control (model outputs, prover reasons, data) with lone surrogates,
controls XML cannot hold and terminal escape sequences: the cache, the spool, the JSON and
JUnit files keep it or show it escaped, the terminal shows it escaped, and nothing crashes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import TEST_PLUGINS, write_suite
from hostile import NOISE

from afcheck.runtime.cache import Cache, key
from afcheck.runtime.spool import Spool

ROWS = [
    {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 2 + 3 = 6"},
    {"problem_id": "p", "node_id": "2", "step": "NOAF", "perturbed": "So: 2 + 3 = 6"},
    {"problem_id": "p", "node_id": "3", "step": "So: ? = 1", "perturbed": "So: 1 = 2"},
]
HOSTILE = {"perturber": "given", "formaliser": "hostile", "prover": "hostile"}


def test_cache_keys_and_values_may_hold_lone_surrogates(tmp_path: Path) -> None:
    assert key("a\ud800") != key("a\ud801") != key("a")
    cache = Cache(tmp_path / "results.sqlite")
    record = {"raw_output": NOISE, "reason": "\udfff"}
    cache.put_many("formalise", [(key("a\ud800"), record), (key("b"), {"x": "∀ n : ℕ"})])
    assert cache.get_many("formalise", [key("a\ud800"), key("b")]) == {
        key("a\ud800"): record, key("b"): {"x": "∀ n : ℕ"}}
    cache.close()


def test_the_spool_keeps_lone_surrogates() -> None:
    spool = Spool()
    try:
        spool.put_many([("k", NOISE), ("plain", "∀ n")])
        assert spool.get("k") == NOISE
        assert spool.get("plain") == "∀ n"
    finally:
        spool.close()


def test_xml_safe_keeps_what_xml_can_hold() -> None:
    from afcheck_reporters.junit_report import xml_safe

    assert xml_safe("a\tb\nc ∀ \x85 \ufffd") == "a\tb\nc ∀ \x85 \ufffd"
    assert xml_safe("\x00\x1b\ud800\uffff") == "\\x00\\x1b\\ud800\\uffff"


@pytest.mark.heavy
def test_a_run_with_hostile_outputs_writes_every_file_and_prints_them_escaped(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # A process of its own: its output goes to a real UTF-8 stream, as on a terminal.
    monkeypatch.setenv("PYTHONPATH", str(TEST_PLUGINS))
    write_suite(pytester.path, "demo", ROWS, HOSTILE)
    out, junit = pytester.path / "r.json", pytester.path / "r.xml"
    args = ("demo", "--afcheck-plugin", "hostile", "--tb=line", "-rs", "--afcheck-json",
            str(out), "--afcheck-junitxml", str(junit))
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    text = result.stdout.str()
    assert "Traceback" not in text + result.stderr.str()
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    assert "p/2: AF failure on the step: the model said \\ud800 \\x00\\x1b]52;c;aGk=" in text
    assert "undecided" in text and "the prover said \\ud800" in text  # the -rs reason
    assert "wrote json results" in text and "wrote junit results" in text
    steps = {s["case_id"].rsplit("::", 1)[1]: s for s in json.loads(out.read_text())["steps"]}
    assert steps["p/1"]["original"]["raw_output"].endswith(NOISE)
    root = ET.parse(junit).getroot()  # valid XML: no NUL, no ESC, no surrogate
    failure = root.find(".//testcase[@name='p/2']/failure")
    assert failure is not None and "the model said \\ud800 \\x00\\x1b" in failure.get("message", "")
    again = pytester.runpytest_subprocess(*args)
    again.assert_outcomes(passed=1, failed=1, skipped=1)
    again.stdout.re_match_lines([r"result cache: [1-9]\d* results reused, 0 computed"])


@pytest.mark.parametrize("tb", ["line", "short"])
def test_terminal_escapes_in_data_are_printed_escaped(arith: pytest.Pytester, tb: str) -> None:
    rows = [
        {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 1 = 2",
         "dataset": "d\x1b]0;owned\x07"},
        {"problem_id": "p", "node_id": "2", "step": "\x1b[8mSo: 2 + 3 = 6",
         "perturbed": "So: 1 = 2"},
        {"problem_id": "p", "node_id": "3", "step": "So: 1 = 1", "\x1b[2Jfield": 1},
    ]
    write_suite(arith.path, "demo", rows, {"perturber": "given", "formaliser": "arith",
                                           "prover": "arith"})
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", f"--tb={tb}", "-rA")
    result.assert_outcomes(passed=1, failed=2)
    text = result.stdout.str()
    assert "\x1b" not in text and "\x07" not in text
    assert "unknown field '\\x1b[2Jfield'" in text  # the bad record's line
    assert "d\\x1b]0;owned\\x07" in text  # the dataset in the metrics table
    if tb == "short":
        assert "step        : \\x1b[8mSo: 2 + 3 = 6" in text  # the failure's details
