"""Several OpenAI-compatible servers for one model (``base_url=URL1|URL2``), against two fake
servers on loopback: requests spread over the healthy ones, a failing one is taken out and
tried again after its cool-down, one summary line per replica."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from fake_openai import FakeOpenAI, statement_for

pytest.importorskip("httpx")

from afcheck.errors import UsageError  # noqa: E402
from afcheck.llm import Options, Sampling, chat, make_client  # noqa: E402
from afcheck.llm.http_client import HTTPClient, HTTPSettings  # noqa: E402
from afcheck.llm.retry import Backoff  # noqa: E402

FAST = Sampling(max_tokens=8)
PROMPTS = [chat(None, f"step {i}: 2 + {i} = {2 + i}") for i in range(24)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def two_servers() -> Iterator[tuple[FakeOpenAI, FakeOpenAI, str]]:
    first, second = FakeOpenAI(), FakeOpenAI()
    with first.running() as url1, second.running() as url2:
        yield first, second, f"{url1}|{url2}"


def _client(base_url: str, clock: Clock | None = None, retries: int = 2) -> HTTPClient:
    settings = HTTPSettings(base_url=base_url, model="fake-formaliser", concurrency=4,
                            timeout_s=10.0, backoff=Backoff(max_retries=retries, base_s=0.0))
    return HTTPClient(settings, sleep=lambda s: None, clock=clock or Clock())


def _texts(client: HTTPClient) -> list[str]:
    return [row[0].text for row in client.generate(PROMPTS, FAST)]


def test_requests_spread_over_healthy_replicas() -> None:
    with two_servers() as (first, second, urls):
        client = _client(urls)
        texts = _texts(client)
        lines = client.summary_lines()
        client.close()
    assert texts == [statement_for(p.messages[-1].content) for p in PROMPTS]
    assert first.completions >= 6 and second.completions >= 6
    assert first.completions + second.completions == len(PROMPTS)
    assert len(lines) == 2
    assert lines[0].startswith(f"LLM replica {urls.split('|')[0]}: {first.completions} "
                               "answered, 0 failed, taken out 0 time(s)")


def test_a_failing_replica_is_taken_out_and_tried_again_later() -> None:
    clock = Clock()
    with two_servers() as (first, second, urls):
        first.mode = "500"
        client = _client(urls, clock)
        texts = _texts(client)
        out = client.summary_lines()
        before = first.completions
        # Still out: nothing goes to it.
        _texts(client)
        assert first.completions == before
        # Fixed, and its cool-down over: it is tried again and answers.
        first.mode = "ok"
        clock.now += 11
        again = _texts(client)
        back = client.summary_lines()
        client.close()
    assert texts == again == [statement_for(p.messages[-1].content) for p in PROMPTS]
    # Only the requests in flight when it first failed went to it.
    assert 1 <= before <= 4
    assert out[0].startswith(f"LLM replica {urls.split('|')[0]}: 0 answered, {before} failed, "
                             "taken out 1 time(s), out for 10 s more")
    assert "answered, 0 failed, taken out 0 time(s)" in out[1]
    assert back[0].startswith(f"LLM replica {urls.split('|')[0]}: ")
    assert " 0 answered" not in back[0] and "out for" not in back[0]


def test_an_unreachable_replica_costs_no_request() -> None:
    with FakeOpenAI().running() as gone:
        pass
    with FakeOpenAI().running() as alive:
        client = _client(f"{gone}|{alive}", retries=1)
        texts = _texts(client)
        lines = client.summary_lines()
        client.close()
    assert all(texts)
    assert "taken out 1 time(s)" in lines[0] and "0 answered" in lines[0]


def test_each_replica_url_is_checked() -> None:
    with pytest.raises(UsageError, match="base_url='localhost:8000' must start with http"):
        make_client(Options("formaliser 'frontier'",
                            {"base_url": "http://127.0.0.1:1/v1|localhost:8000"}),
                    model="m")


def test_one_server_has_no_summary_lines() -> None:
    with FakeOpenAI().running() as url:
        client = _client(url)
        assert _texts(client)[0]
        assert client.summary_lines() == []
        client.close()
