"""The model under test: one ``--formaliser`` reaches every method of a run that formalises."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from afcheck.errors import UsageError
from afcheck.model import ModelAdapter, ModelRef, adopt, model_options
from afcheck.plugins import Plugins

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    return Plugins()


def _adapter(plugins: Plugins) -> ModelAdapter:
    adapter = plugins.kinds.model("fol_formaliser")
    assert adapter is not None
    return adapter


def test_a_name_both_kinds_have_is_that_entry_with_the_same_options(plugins: Plugins) -> None:
    kind = plugins.kinds.get("fol_formaliser")
    chosen = adopt(kind, _adapter(plugins), plugins.registry(kind),
                   plugins.registry("formaliser"), "reference", {"gold": "1"}, "nl2fol")
    assert chosen == ("reference", {"gold": "1"})


def test_a_model_preset_becomes_the_model_entry_with_its_id(plugins: Plugins) -> None:
    kind = plugins.kinds.get("fol_formaliser")
    name, options = adopt(kind, _adapter(plugins), plugins.registry(kind),
                          plugins.registry("formaliser"), "kimina",
                          {"base_url": "http://127.0.0.1:1/v1", "theorem_name": "t",
                           "temperature": "0.5"}, "chains")
    assert name == "llm"
    # The preset's model id; the client and sampling options; not the Lean-only ones.
    assert options == {"model": "AI-MO/Kimina-Autoformalizer-7B",
                       "base_url": "http://127.0.0.1:1/v1", "temperature": "0.5"}


def test_a_lean_only_formaliser_is_a_usage_error_that_says_what_to_give(
        plugins: Plugins) -> None:
    kind = plugins.kinds.get("fol_formaliser")
    with pytest.raises(UsageError) as caught:
        adopt(kind, _adapter(plugins), plugins.registry(kind), plugins.registry("formaliser"),
              "literal", {}, "nl2fol")
    message = str(caught.value)
    assert message.startswith("--formaliser literal: the nl2fol method needs a fol formaliser")
    assert "--fol-formaliser NAME" in message and "kimina" in message


def test_an_offline_model_gets_its_context_as_the_engine_length() -> None:
    assert model_options(ModelRef("org/m", 4096), {}) == {"model": "org/m",
                                                           "max_model_len": "4096"}
    assert model_options(ModelRef("org/m", 4096), {"model": "mine"})["model"] == "mine"
    assert "max_model_len" not in model_options(ModelRef("org/m", 4096),
                                                {"base_url": "http://127.0.0.1:1/v1"})


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.heavy
def test_a_model_nobody_serves_is_asked_and_the_run_never_passes(tmp_path: Path) -> None:
    """The whole run of three methods pointed at an absent model: the FOL methods ask it
    (and cannot reach it), so the run fails in one line, never a green run over gold."""
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", "suites/tarski", "suites/chains-examples",
         "suites/equivalence-rewrites", "--formaliser", "frontier", "--formaliser-opt",
         f"base_url={url},model=my-model,max_retries=0", "--no-cache", "-q"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"cannot reach the LLM server at {url}" in done.stdout + done.stderr
    assert "passed" not in done.stdout.splitlines()[-1]


def test_a_formaliser_no_item_uses_is_refused_before_any_work(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", "suites/equivalence-rewrites", "--formaliser",
         "frontier", "--no-cache", "-q"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 4
    line = done.stdout + done.stderr
    assert "--formaliser frontier: no item of this run uses a formaliser (equivalence" in line
    assert "faithfulness" in line and "nl2fol" in line and "chains" in line
