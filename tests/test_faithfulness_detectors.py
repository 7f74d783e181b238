"""Semantic-drift detectors in a faithfulness run: warnings per step, counted apart, never
changing a verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT

from afcheck import cli

EXAMPLES = str(ROOT / "suites" / "examples")


def run(tmp_path: Path, *extra: str) -> dict[str, object]:
    out = tmp_path / "r.json"
    status = cli.main([EXAMPLES, "--formaliser", "reference", "--json", str(out),
                       "--junitxml", str(tmp_path / "r.xml"), "-q", "-p", "no:cacheprovider",
                       *extra])
    assert status == 0
    doc: dict[str, object] = json.loads(out.read_text())
    return doc


@pytest.mark.heavy
def test_warnings_are_recorded_per_side_and_counted_apart(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    doc = run(tmp_path)
    steps = doc["steps"]
    assert isinstance(steps, list)
    warned = [(s["case_id"], w) for s in steps for w in s["warnings"]]
    assert warned, "the reference statements of the examples draw a few warnings"
    counts: dict[str, int] = {}
    for _, warning in warned:
        assert warning["side"] in ("original", "perturbed") and warning["message"]
        counts[warning["detector"]] = counts.get(warning["detector"], 0) + 1
    assert doc["warnings"] == dict(sorted(counts.items()))
    assert "drift warnings: " in capsys.readouterr().out
    xml = (tmp_path / "r.xml").read_text()
    assert xml.count("drift warning (") == len(warned)
    # A warning never changes a verdict: the same run without detectors has the same outcome.
    plain = run(tmp_path, "--detectors", "none")
    assert plain["metrics"] == doc["metrics"]
    assert all(not s["warnings"] for s in plain["steps"])  # type: ignore[union-attr]
    assert all("detect" not in s["timings"] for s in plain["steps"])  # type: ignore[union-attr]


@pytest.mark.heavy
def test_detectors_are_listed_and_chosen_by_name(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "detectors"]) == 0
    listing = capsys.readouterr().out
    for name in ("assumed_conclusion", "abandoned_content", "numeral_fidelity",
                 "type_narrowing", "vacuous_hypotheses"):
        assert name in listing
    doc = run(tmp_path, "--detectors", "type_narrowing")
    detectors = {w["detector"] for s in doc["steps"] for w in s["warnings"]}  # type: ignore
    assert detectors == {"type_narrowing"}
    capsys.readouterr()
    assert cli.main([EXAMPLES, "--detectors", "nosuch", "-q", "-p", "no:cacheprovider"]) == 4
    assert "unknown detector 'nosuch'" in capsys.readouterr().err
