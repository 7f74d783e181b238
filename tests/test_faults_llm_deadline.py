"""A request's timeout covers the whole exchange (:mod:`afcheck.llm.deadline`): a server
that trickles its headers or its body is cut at ``timeout_s``, and so is every request of a
run under a ``formalise`` budget."""

from __future__ import annotations

import time

import pytest
from fake_openai import FakeOpenAI

pytest.importorskip("httpx")

from afcheck.llm import Options, Sampling, chat, make_client  # noqa: E402
from afcheck.llm.deadline import within  # noqa: E402


def _ask(url: str, **options: str) -> tuple[float, str]:
    values = {"base_url": url, "max_retries": "0", "backoff_s": "0", **options}
    client = make_client(Options("formaliser 'frontier'", values), model="fake-formaliser")
    began = time.monotonic()
    try:
        [[completion]] = client.generate([chat(None, "1 + 1 = 2")], Sampling(max_tokens=8))
    finally:
        client.close()  # type: ignore[attr-defined]
    return time.monotonic() - began, completion.error


@pytest.mark.parametrize("mode", ["slow-headers", "slow-body"])
@pytest.mark.parametrize("limit", [("timeout_s", "2"), ("deadline_s", "2")])
def test_a_trickling_server_is_cut_at_the_timeout(mode: str, limit: tuple[str, str]) -> None:
    fake = FakeOpenAI(mode)
    with fake.running() as url:
        seconds, error = _ask(url, **dict([limit]))
    assert seconds < 5, (seconds, error)
    assert "timed out" in error or "deadline" in error, error


def test_a_prompt_server_is_not_cut() -> None:
    fake = FakeOpenAI("ok")
    with fake.running() as url:
        seconds, error = _ask(url, timeout_s="2")
    assert error == "" and seconds < 2


def test_the_deadline_is_the_threads_own_and_restored() -> None:
    from afcheck.llm import deadline

    with within(5):
        outer = deadline._local.deadline
        with within(1):
            assert deadline._local.deadline < outer
        assert deadline._local.deadline == outer
    assert deadline._local.deadline is None
