"""The OpenAI-compatible HTTP backend: retries, backoff, timeouts and keys against a local stub
server, then batching and concurrency against a real llama.cpp server (SmolLM2-135M)."""

from __future__ import annotations

import random
import time

import pytest
from llm_fixtures import llm_server_url  # noqa: F401 - pytest fixture
from llm_server import Reply, StubServer, chat_body

pytest.importorskip("httpx")

from afcheck_faithfulness.records import Step  # noqa: E402

from afcheck.errors import UsageError  # noqa: E402
from afcheck.llm import BackendError, BackendRefused, Options, Prompt, Sampling, chat, make_client  # noqa: E402
from afcheck.llm.http_client import HTTPClient, HTTPSettings  # noqa: E402
from afcheck.llm.retry import Backoff  # noqa: E402
from afcheck.plugins import get_plugins  # noqa: E402
from afcheck.types import FormalisationStatus, FormaliseRequest  # noqa: E402

FAST = Sampling(max_tokens=8)


def _client(url: str, sleeps: list[float] | None = None, **settings: object) -> HTTPClient:
    config = HTTPSettings(base_url=url, model="stub", **settings)  # type: ignore[arg-type]
    sleep = sleeps.append if sleeps is not None else (lambda s: None)
    return HTTPClient(config, sleep=sleep, rng=random.Random(7))


# -- stub server: error handling ---------------------------------------------------------------


def test_429_then_500_then_success_is_retried_with_growing_backoff() -> None:
    stub = StubServer([Reply(429), Reply(500), Reply(200, chat_body("fine"))])
    sleeps: list[float] = []
    with stub.running() as url:
        client = _client(url, sleeps, backoff=Backoff(max_retries=4, base_s=0.5, cap_s=30))
        [[completion]] = client.generate([chat(None, "hi")], FAST)
    assert completion.ok and completion.text == "fine"
    assert completion.attempts == 3 and len(stub.requests) == 3
    assert 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0


def test_retries_stop_at_the_cap_and_report_the_last_error() -> None:
    stub = StubServer([Reply(503, {"error": "overloaded"})])
    sleeps: list[float] = []
    with stub.running() as url:
        client = _client(url, sleeps, backoff=Backoff(max_retries=5, base_s=1.0, cap_s=4.0))
        [[completion]] = client.generate([chat(None, "hi")], FAST)
    assert not completion.ok and completion.finish_reason == "error"
    assert completion.error.startswith("HTTP 503")
    assert "after 6 attempts" in completion.error
    assert len(stub.requests) == 6 and len(sleeps) == 5
    assert max(sleeps) <= 4.0 and sleeps[-1] >= 2.0


def test_retry_after_header_is_honoured_within_the_cap() -> None:
    stub = StubServer([Reply(429, headers=(("Retry-After", "2"),)), Reply(200)])
    sleeps: list[float] = []
    with stub.running() as url:
        _client(url, sleeps, backoff=Backoff(cap_s=10)).generate([chat(None, "x")], FAST)
    assert sleeps == [2.0]


def test_client_errors_other_than_429_are_not_retried() -> None:
    stub = StubServer([Reply(400, {"error": {"message": "bad field"}})])
    with stub.running() as url:
        [[completion]] = _client(url).generate([chat(None, "x")], FAST)
    assert len(stub.requests) == 1
    assert completion.error.startswith("HTTP 400") and "bad field" in completion.error


def test_a_slow_server_times_out_and_is_retried_up_to_the_cap() -> None:
    stub = StubServer([Reply(200, delay_s=1.5)])
    with stub.running() as url:
        client = _client(url, timeout_s=0.2, backoff=Backoff(max_retries=1))
        start = time.perf_counter()
        [[completion]] = client.generate([chat(None, "x")], FAST)
        elapsed = time.perf_counter() - start
    assert completion.error == "timed out after 0.2 s (after 2 attempts)"
    assert elapsed < 1.4


def test_concurrency_is_bounded_and_used() -> None:
    stub = StubServer([Reply(200, delay_s=0.2)])
    with stub.running() as url:
        client = _client(url, concurrency=3)
        start = time.perf_counter()
        out = client.generate([chat(None, str(i)) for i in range(9)], FAST)
        elapsed = time.perf_counter() - start
    assert len(out) == 9 and all(row[0].ok for row in out)
    assert stub.max_in_flight == 3
    assert elapsed < 9 * 0.2 * 0.75


def test_request_bodies_carry_explicit_sampling_and_per_sample_seeds() -> None:
    stub = StubServer([Reply(200)])
    with stub.running() as url:
        client = _client(url, concurrency=1)
        sampling = Sampling(max_tokens=33, temperature=0.5, top_p=0.9, top_k=20, n=2, seed=4)
        client.generate([chat("s", "u"), Prompt(raw="raw text", seed=40)], sampling)
    by_path: dict[str, list[dict[str, object]]] = {}
    for request in stub.requests:
        by_path.setdefault(request["path"], []).append(request["body"])
    chats, completions = by_path["/v1/chat/completions"], by_path["/v1/completions"]
    assert sorted(b["seed"] for b in chats) == [4, 5]  # type: ignore[type-var]
    assert sorted(b["seed"] for b in completions) == [40, 41]  # type: ignore[type-var]
    body = chats[0]
    assert (body["max_tokens"], body["temperature"], body["top_p"], body["top_k"], body["n"]) == (
        33, 0.5, 0.9, 20, 1,
    )
    assert body["messages"] == [
        {"role": "system", "content": "s"}, {"role": "user", "content": "u"}
    ]
    assert completions[0]["prompt"] == "raw text"


def test_assistant_prefix_uses_continue_final_message_and_is_kept_in_the_text() -> None:
    stub = StubServer([Reply(200, chat_body("reasoning</think>answer"))])
    with stub.running() as url:
        [[completion]] = _client(url).generate(
            [chat(None, "u", assistant_prefix="<think>\n")], FAST
        )
    body = stub.requests[0]["body"]
    assert body["messages"][-1] == {"role": "assistant", "content": "<think>\n"}
    assert body["continue_final_message"] is True and body["add_generation_prompt"] is False
    assert completion.text == "<think>\nreasoning</think>answer"


def test_reasoning_split_off_by_the_server_is_put_back_in_think_tags() -> None:
    body = chat_body("```lean4\nx\n```")
    body["choices"][0]["message"]["reasoning_content"] = "thinking"
    stub = StubServer([Reply(200, body)])
    with stub.running() as url:
        [[completion]] = _client(url).generate([chat(None, "u")], FAST)
    assert completion.text == "<think>thinking</think>```lean4\nx\n```"


def test_api_key_comes_from_the_named_variable_and_never_leaks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "sk-test-5f0c1e"
    monkeypatch.setenv("MY_GATEWAY_KEY", secret)
    stub = StubServer([Reply(401, {"error": f"invalid key {secret}"})])
    with stub.running() as url:
        client = make_client(
            Options("formaliser 'frontier'", {"base_url": url, "api_key_env": "MY_GATEWAY_KEY"}),
            model="gpt",
        )
        with pytest.raises(BackendRefused, match="refused the API key") as refused:
            client.generate([chat(None, "u")], FAST)
    assert stub.requests[0]["headers"]["Authorization"] == f"Bearer {secret}"
    assert secret not in str(refused.value) and "***" in str(refused.value)
    assert "the key in the variable MY_GATEWAY_KEY" in str(refused.value)
    assert secret not in repr(client)


def test_no_key_variable_means_no_authorization_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    stub = StubServer([Reply(200)])
    with stub.running() as url:
        _client(url).generate([chat(None, "u")], FAST)
    assert "Authorization" not in stub.requests[0]["headers"]


def test_cost_is_reported_by_the_server_or_computed_from_prices() -> None:
    stub = StubServer([Reply(200, chat_body("a", prompt_tokens=1000, completion_tokens=500))])
    with stub.running() as url:
        client = make_client(
            Options("x", {"base_url": url, "price_in": "2", "price_out": "10"}), model="m"
        )
        [[priced]] = client.generate([chat(None, "u")], FAST)
    assert priced.cost_usd == pytest.approx((1000 * 2 + 500 * 10) / 1e6)
    stub = StubServer([Reply(200, chat_body("a", cost=0.25))])
    with stub.running() as url:
        [[reported]] = _client(url).generate([chat(None, "u")], FAST)
    assert reported.cost_usd == 0.25


def test_unreachable_server_is_one_backend_error_not_a_run_of_af_fails() -> None:
    from llm_server import free_port

    client = _client(f"http://127.0.0.1:{free_port()}/v1", backoff=Backoff(max_retries=1))
    with pytest.raises(BackendError, match="cannot reach the LLM server"):
        client.generate([chat(None, "u"), chat(None, "v")], FAST)


def test_a_refused_connection_is_retried_briefly_and_said_while_it_is_tried() -> None:
    """Nothing listens on the port: two quick retries (a server that restarts), each said once
    for the client however many requests retry, then one line for the whole batch."""
    from llm_server import free_port

    from afcheck.llm.http_client import REFUSED_RETRIES

    url = f"http://127.0.0.1:{free_port()}/v1"
    sleeps: list[float] = []
    said: list[str] = []
    client = HTTPClient(HTTPSettings(base_url=url, model="stub", concurrency=4),
                        sleep=sleeps.append, rng=random.Random(7), notice=said.append)
    with pytest.raises(BackendError, match=r"cannot reach the LLM server .*Connection refused "
                                           rf"\(after {REFUSED_RETRIES + 1} attempts\)"):
        client.generate([chat(None, q) for q in "abcdefgh"], FAST)
    assert [line.split(";")[1].split(" in ")[0] for line in said] == [
        f" retry {n} of {REFUSED_RETRIES}" for n in range(1, REFUSED_RETRIES + 1)]
    assert all(line.startswith(f"afcheck: LLM server at {url}: cannot connect:")
               for line in said)
    # The other requests stop with the first that spent its retries: far fewer waits than
    # eight requests each retrying in full.
    assert len(sleeps) < 8 * REFUSED_RETRIES


def test_backend_errors_become_af_fail_with_a_reason() -> None:
    stub = StubServer([Reply(500)])
    with stub.running() as url:
        formaliser = get_plugins().create(
            "formaliser", "kimina", {"base_url": url, "max_retries": "0"}
        )
        [result] = formaliser.formalise(
            [FormaliseRequest("a#original", "1 + 1 = 2")]
        )
    assert result.status is FormalisationStatus.AF_FAIL
    assert result.reason.startswith("backend error: HTTP 500")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"base_url": "localhost:8000"}, "must start with http"),
        ({"backend": "http"}, "needs base_url"),
        ({"backend": "tgi"}, "use 'vllm' or 'http'"),
        ({"base_url": "http://h/v1", "concurrency": "0"}, "concurrency must be at least 1"),
        ({"base_url": "http://h/v1", "timeout_s": "soon"}, "timeout_s='soon' is not a number"),
    ],
)
def test_bad_client_options_are_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make_client(Options("formaliser 'kimina'", options), model="m")


# -- the real llama.cpp server -----------------------------------------------------------------


@pytest.mark.llm_server
def test_real_server_chat_and_completion_batch(llm_server_url: str) -> None:  # noqa: F811
    client = make_client(Options("t", {"base_url": llm_server_url, "concurrency": "2"}), model="m")
    prompts = [
        chat(None, "Say hi."), Prompt(raw="theorem one_add_one :"), chat("Be brief.", "2+2?")
    ]
    out = client.generate(prompts, Sampling(max_tokens=6))
    assert [len(row) for row in out] == [1, 1, 1]
    for [completion] in out:
        assert completion.ok, completion.error
        assert completion.finish_reason in ("stop", "length")
        assert 0 < completion.completion_tokens <= 6
        assert completion.prompt_tokens > 0 and completion.latency_s > 0


@pytest.mark.llm_server
def test_real_server_reports_truncation_and_is_deterministic_when_greedy(
    llm_server_url: str,  # noqa: F811
) -> None:
    client = make_client(Options("t", {"base_url": llm_server_url}), model="m")
    prompt = [chat(None, "Count from one to twenty in words.")]
    [[first]] = client.generate(prompt, Sampling(max_tokens=5))
    [[second]] = client.generate(prompt, Sampling(max_tokens=5))
    assert first.finish_reason == "length" and first.completion_tokens == 5
    assert first.text == second.text


@pytest.mark.llm_server
def test_real_server_timeout(llm_server_url: str) -> None:  # noqa: F811
    client = make_client(
        Options("t", {"base_url": llm_server_url, "timeout_s": "0.05", "max_retries": "0"}),
        model="m",
    )
    [[completion]] = client.generate([chat(None, "Write a long story.")], Sampling(max_tokens=20))
    assert completion.error == "timed out after 0.05 s"


@pytest.mark.slow
@pytest.mark.llm_server
def test_frontier_formaliser_end_to_end_on_the_real_server(llm_server_url: str) -> None:  # noqa: F811
    formaliser = get_plugins().create(
        "formaliser",
        "frontier",
        {"base_url": llm_server_url, "model": "smollm2", "max_tokens": "24", "concurrency": "2"},
    )
    requests = [
        FormaliseRequest(f"s/p/{i}#original", text, context=("a = 2",))
        for i, text in enumerate(["a + 3 = 5", "2 * a = 5"])
    ]
    results = formaliser.formalise(requests)
    assert [r.key for r in results] == [r.key for r in requests]
    for result in results:
        assert result.usage is not None and result.usage.completion_tokens > 0
        if result.ok:
            assert result.statement is not None and result.statement.endswith(":= by sorry")
        else:
            assert result.status is FormalisationStatus.AF_FAIL
            assert result.reason and "\n" not in result.reason


@pytest.mark.slow
@pytest.mark.llm_server
def test_llm_perturber_on_the_real_server(llm_server_url: str) -> None:  # noqa: F811
    # One request at a time: llama.cpp batches concurrent requests, and batched sampling is
    # not reproducible even with a seed.
    perturber = get_plugins().create(
        "perturber", "llm",
        {"base_url": llm_server_url, "model": "m", "max_tokens": "24", "concurrency": "1"},
    )
    steps = [
        Step(id=f"s/p/{i}", suite="s", dataset="d", problem_id="p", node_id=str(i), text=t)
        for i, t in enumerate(["So 3 * 4 = 12.", "Let us now look at the answer."])
    ]
    first = perturber.perturb(steps, seed=1)
    assert [p.step_id for p in first] == ["s/p/0", "s/p/1"]
    for p in first:
        assert (p.rule, p.text is None) in (("llm", False), ("none", True))
        assert p.rule == "llm" or p.reason.startswith("LLM: ")
    assert perturber.perturb(steps, seed=1) == first


def test_an_api_key_variable_named_but_unset_is_warned_about(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AFCHECK_TEST_NO_SUCH_KEY", raising=False)
    options = Options("formaliser 'frontier'", {"base_url": "http://127.0.0.1:9/v1",
                                                 "model": "m",
                                                 "api_key_env": "AFCHECK_TEST_NO_SUCH_KEY"})
    with pytest.warns(UserWarning, match="AFCHECK_TEST_NO_SUCH_KEY is not set"):
        make_client(options, model="m")
    monkeypatch.setenv("AFCHECK_TEST_NO_SUCH_KEY", "sk-test")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_client(options, model="m")  # set: no warning
