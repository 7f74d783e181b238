"""One redaction at the boundary of every output: credentials given in a component's options
reach neither the terminal nor any result file, whatever field carries them."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
from conftest import TEST_PLUGINS, write_suite

from afcheck.redact import redact_text

PASSWORD = "pass-S3cr3tPW"
API_KEY = "hunter2-Tok3n"
BEARER = "abcdEFGH1234ijkl5678"
KEY = "sk-live-Z9y8X7w6V5u4T3s2"
SECRETS = (PASSWORD, API_KEY, BEARER, KEY, "S3cr3t")
URL = f"http://alice:{PASSWORD}@127.0.0.1:9/v1"
OPTIONS = f"model=x,base_url={URL},api_key={API_KEY},auth=Bearer {BEARER},fallback={KEY}"
ROWS = [
    {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 2 + 3 = 6"},
    {"problem_id": "p", "node_id": "2", "step": "NOAF", "perturbed": "So: 2 + 3 = 6"},
]


def _shown(page: Path) -> str:
    """The HTML page with its packed raw outputs unpacked, as the browser shows them."""
    text = page.read_text(encoding="utf-8")
    packed = re.search(r'id="afcheck-raw">([^<]*)</script>', text)
    assert packed is not None
    raw = gzip.decompress(base64.b64decode(packed.group(1))).decode("utf-8")
    assert "options: " in raw
    return text + raw


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_each_kind_of_credential_is_masked_and_the_rest_kept() -> None:
    line = (f"formaliser leaky (model=x, base_url={URL}) said: api_key={API_KEY}, "
            f"Authorization: Bearer {BEARER}, key {KEY}; max_tokens=64, api_key_env=MY_KEY")
    assert redact_text(line) == (
        "formaliser leaky (model=x, base_url=http://***@127.0.0.1:9/v1) said: api_key=***, "
        "Authorization: Bearer ***, key ***; max_tokens=64, api_key_env=MY_KEY")


@pytest.mark.parametrize("text", [
    "theorem t (hf_mono : Monotone f) : Basic properties hold := by simp [hf_mono]",
    "∀ x : ℝ, x = 2 → x ^ 2 = 4", "(config := { secret := true })", "https://h/v1/chat",
])
def test_proofs_prose_and_plain_urls_pass_unchanged(text: str) -> None:
    assert redact_text(text) == text


def test_no_output_of_a_run_shows_a_credential_given_in_a_component_option(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # A process of its own, as a user's run: its terminal output is what a user would see.
    monkeypatch.setenv("PYTHONPATH", str(TEST_PLUGINS))
    write_suite(pytester.path, "demo", ROWS, {"perturber": "given", "formaliser": "leaky",
                                              "prover": "arith"})
    out, junit, markdown = (pytester.path / name for name in ("r.json", "r.xml", "r.md"))
    result = pytester.runpytest_subprocess(
        "demo", "--afcheck-plugin", "leaky", "--afcheck-plugin", "arith", "--tb=short", "-rA",
        "--afcheck-formaliser-opt", OPTIONS, "--afcheck-json", str(out),
        "--afcheck-junitxml", str(junit), "--afcheck-summary-md", str(markdown))
    terminal = result.stdout.str() + result.stderr.str()
    assert "wrote json results" in terminal, terminal
    assert "base_url=http://***@127.0.0.1:9/v1" in terminal  # the story still says which
    assert "api_key=***" in terminal  # the leaky field is shown, its secret masked
    document = json.loads(out.read_text(encoding="utf-8"))
    (label,) = document["candidates"]["written_by"]
    assert label == "formaliser leaky (model=x, base_url=http://***@127.0.0.1:9/v1)"
    from afcheck.cli import main

    page = pytester.path / "r.html"
    assert main(["report", str(out), "--html", str(page)]) == 0
    outputs = {"terminal": terminal, "json": out.read_text(encoding="utf-8"),
               "junit": junit.read_text(encoding="utf-8"),
               "markdown": markdown.read_text(encoding="utf-8"),
               "html": _shown(page)}
    assert {name: _leaks(text) for name, text in outputs.items()} == {
        name: [] for name in outputs}
    # A result file written before afcheck redacted its outputs: the page redacts it.
    old = pytester.path / "old.json"
    old.write_text(outputs["json"].replace("http://***@", f"http://alice:{PASSWORD}@")
                   .replace("api_key=***", f"api_key={API_KEY}"), encoding="utf-8")
    assert _leaks(old.read_text(encoding="utf-8")) == [PASSWORD, API_KEY, "S3cr3t"]
    assert main(["report", str(old), "--html", str(page)]) == 0
    assert _leaks(_shown(page)) == []


def test_a_projects_own_tests_keep_pytests_output(pytester: pytest.Pytester) -> None:
    # The pytest plugin loads in every pytest session; only afcheck runs are redacted.
    pytester.makepyfile(f"""
        def test_url():
            assert "{URL}" == ""
        """)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    assert PASSWORD in result.stdout.str()
