"""What a preset formaliser tells the runtime besides its answers: the resources one cluster
worker needs to run it, and its end-of-run lines."""

from __future__ import annotations

import pytest
from afcheck_llm.presets import KIMINA
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.llm import PresetFormaliser
from afcheck.llm.vllm_client import VLLMClient


def _vllm(**engine: object) -> VLLMClient:
    return VLLMClient("m", engine=FakeEngine(lambda prompt, params, i: ("", "stop")),
                      sampling_params=FakeSamplingParams,  # type: ignore[arg-type]
                      engine_kwargs=engine)


def test_an_offline_engine_asks_for_its_tensor_parallel_gpus() -> None:
    assert PresetFormaliser(KIMINA, _vllm()).resources == {"GPU": 1.0}
    assert PresetFormaliser(KIMINA, _vllm(tensor_parallel_size=4)).resources == {"GPU": 4.0}


def test_a_server_client_needs_no_gpu_and_gives_replica_lines() -> None:
    pytest.importorskip("httpx")
    from afcheck.llm.http_client import HTTPClient, HTTPSettings

    client = HTTPClient(HTTPSettings("http://127.0.0.1:9/v1|http://127.0.0.1:10/v1", "m"))
    formaliser = PresetFormaliser(KIMINA, client)
    assert formaliser.resources == {}
    lines = formaliser.summary_lines()
    client.close()
    assert [line.split(":")[0:3] for line in lines] == [
        ["LLM replica http", "//127.0.0.1", "9/v1"], ["LLM replica http", "//127.0.0.1", "10/v1"]]
