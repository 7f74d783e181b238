"""The HTTP backend against a hostile server (:mod:`fake_openai`): every fault is one request's
failure with its reason, or one line that stops the run; never an exception or a hang."""

from __future__ import annotations

import math
import re
import time

import pytest
from fake_openai import MIXED_FAULTS, FakeOpenAI, mixed_fault

pytest.importorskip("httpx")

from afcheck.errors import UsageError  # noqa: E402
from afcheck.llm import (  # noqa: E402
    BackendError,
    BackendFailing,
    BackendRefused,
    Options,
    Sampling,
    chat,
    make_client,
)
from afcheck.llm.records import is_backend_failure  # noqa: E402
from afcheck.plugins import get_plugins  # noqa: E402
from afcheck.types import Formalisation, FormalisationStatus, FormaliseRequest  # noqa: E402

FAST = Sampling(max_tokens=8)


def _client(url: str, **options: str) -> object:
    values = {"base_url": url, "max_retries": "0", "backoff_s": "0", **options}
    return make_client(Options("formaliser 'frontier'", values), model="fake-formaliser")


def _formalise(url: str, texts: list[str], **options: str) -> list[Formalisation]:
    values = {"base_url": url, "model": "fake-formaliser", "max_retries": "0",
              "backoff_s": "0", **options}
    formaliser = get_plugins().create("formaliser", "frontier", values)
    requests = [FormaliseRequest(f"s/p/{i}#original", text)
                for i, text in enumerate(texts)]
    try:
        return list(formaliser.formalise(requests))
    finally:
        formaliser.client.close()


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("500", "backend error: HTTP 500"),
        ("nonjson", "backend error: the reply is not JSON"),
        ("badutf8", "backend error: the reply is not valid UTF-8"),
        ("choices-null", "backend error: the reply's choices[0] is null, not an object"),
        ("choices-str", "backend error: the reply has no choices"),
        ("message-str", "backend error: the reply's choices[0].message is a string"),
        ("close", "backend error: connection broke"),
        ("huge", "backend error: the reply is 60 MB, over the 16 MB limit"),
        ("huge-unsized", "backend error: the reply is over the 16 MB limit"),
    ],
)
def test_a_bad_reply_is_that_requests_af_fail_with_the_reason(mode: str, reason: str) -> None:
    fake = FakeOpenAI(mode)
    with fake.running() as url:
        [result] = _formalise(url, ["1 + 1 = 2"])
    assert result.status is FormalisationStatus.AF_FAIL
    assert result.reason.startswith(reason), result.reason
    assert is_backend_failure(result.reason) and "\n" not in result.reason
    assert result.transient  # never cached: the next run asks again


def test_a_server_that_hangs_times_out_instead_of_hanging_the_run() -> None:
    fake = FakeOpenAI("hang")
    with fake.running() as url:
        start = time.perf_counter()
        [result] = _formalise(url, ["1 + 1 = 2"], timeout_s="0.3")
    assert time.perf_counter() - start < 5
    assert result.reason == "backend error: timed out after 0.3 s"


def test_answers_that_are_model_outputs_are_kept_as_such() -> None:
    fake = FakeOpenAI("usage-str")
    with fake.running() as url:
        [counted] = _formalise(url, ["1 + 1 = 2"])
    assert counted.ok and counted.usage is not None and counted.usage.prompt_tokens == 0
    fake = FakeOpenAI("empty")
    with fake.running() as url:
        [empty] = _formalise(url, ["1 + 1 = 2"])
    # An empty answer is the model's: a failure to formalise, not the backend's.
    assert empty.status is FormalisationStatus.AF_FAIL
    assert not is_backend_failure(empty.reason) and not empty.transient


def test_429_with_retry_after_is_waited_out() -> None:
    fake = FakeOpenAI("429", busy=2)
    with fake.running() as url:
        [result] = _formalise(url, ["1 + 1 = 2"], max_retries="3")
    assert result.ok and fake.completions == 3


def test_mixed_faults_keep_every_good_result_and_give_each_bad_one_its_reason() -> None:
    texts = [f"{i} + {i} = {2 * i}" for i in range(40)]
    fake = FakeOpenAI("mixed")
    with fake.running() as url:
        results = _formalise(url, texts, concurrency="4")
        modes = {p: mixed_fault(p) for p in fake.prompts}
    assert len(results) == len(texts)
    by_mode = {mode: 0 for mode in ("ok", *MIXED_FAULTS)}
    for text, result in zip(texts, results, strict=True):
        [mode] = {m for p, m in modes.items() if text in p}
        by_mode[mode] += 1
        if mode == "ok":
            assert result.ok and result.statement and "ℕ" in result.statement
        else:
            assert is_backend_failure(result.reason), (mode, result.reason)
    assert by_mode["ok"] >= 10 and sum(by_mode.values()) - by_mode["ok"] >= 10


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("401", r"refused the API key \(HTTP 401"),
        ("403", r"refused the API key \(HTTP 403"),
        ("404", r"does not serve the model 'fake-formaliser' \(HTTP 404\); it offers: "
                r"fake-prover, other"),
        ("400-context", r"refused the request size \(HTTP 400: This model's maximum context "
                        r".*lower max_tokens \(now 8\)"),
    ],
)
def test_answers_no_retry_fixes_stop_the_stage_at_once(mode: str, message: str) -> None:
    fake = FakeOpenAI(mode, models=("fake-prover", "other"))
    with fake.running() as url:
        client = _client(url, max_retries="4", concurrency="2")
        with pytest.raises(BackendRefused, match=message) as error:
            client.generate([chat(None, str(i)) for i in range(30)], FAST)  # type: ignore[attr-defined]
    assert "\n" not in str(error.value)
    # The first refusal stops what is still queued: no 30 requests, no retries.
    assert fake.completions <= 3


def test_a_stage_whose_every_request_fails_stops_with_the_last_error() -> None:
    fake = FakeOpenAI("500")
    with fake.running() as url:
        client = _client(url, concurrency="1")
        with pytest.raises(BackendFailing, match=r"^the backend is failing: 20 requests in a "
                                                 r"row failed; the last: HTTP 500"):
            client.generate([chat(None, str(i)) for i in range(100)], FAST)  # type: ignore[attr-defined]
        assert fake.completions == 20
        with pytest.raises(BackendFailing):  # and it stays stopped for the next chunk
            client.generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]
    assert fake.completions == 20


def test_fail_streak_zero_lets_a_failing_stage_run_to_its_end() -> None:
    fake = FakeOpenAI("500")
    with fake.running() as url:
        out = _client(url, fail_streak="0").generate(  # type: ignore[attr-defined]
            [chat(None, str(i)) for i in range(25)], FAST)
    assert len(out) == 25 and all(row[0].failure == "http" for row in out)


def test_cannot_reach_only_when_the_server_was_not_reached() -> None:
    fake = FakeOpenAI("close")
    with fake.running() as url:
        out = _client(url).generate([chat(None, "a"), chat(None, "b")], FAST)  # type: ignore[attr-defined]
    assert all(row[0].error.startswith("connection broke") for row in out)
    from llm_server import free_port

    unreachable = _client(f"http://127.0.0.1:{free_port()}/v1")
    with pytest.raises(BackendError, match="^cannot reach the LLM server"):
        unreachable.generate([chat(None, "a")], FAST)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("timeout_s", "-1"), ("timeout_s", "nan"), ("timeout_s", "0"), ("timeout_s", "inf"),
        ("backoff_s", "-0.5"), ("backoff_s", "nan"), ("backoff_cap_s", "-3"),
        ("backoff_cap_s", "NaN"), ("max_retries", "-1"), ("price_in", "-2"),
        ("max_reply_mb", "0"), ("fail_streak", "-1"),
    ],
)
def test_bad_numbers_in_client_options_are_one_line(key: str, value: str) -> None:
    with pytest.raises(UsageError, match=f"formaliser 'frontier': (option )?{key}") as error:
        _client("http://127.0.0.1:9/v1", **{key: value})
    assert "\n" not in str(error.value)


def test_nan_temperature_is_refused() -> None:
    with pytest.raises(UsageError, match="temperature"):
        get_plugins().create("formaliser", "frontier",
                             {"base_url": "http://127.0.0.1:9/v1", "model": "m",
                              "temperature": "nan"})


@pytest.mark.parametrize("value", ["sk-proj-8f3Kd02LmQx91zT", "hf_AbCdEfGhIjKlMnOpQrSt",
                                   "my key", "a3f9c1d2e4b5a6f7c8d9e0f1a2b3c4d5"])
def test_a_key_given_as_api_key_env_is_refused_without_being_repeated(value: str) -> None:
    with pytest.raises(UsageError, match="api_key_env must name the environment variable") as e:
        _client("http://127.0.0.1:9/v1", api_key_env=value)
    assert value not in str(e.value)


def test_ordinary_variable_names_are_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "MY_GATEWAY_KEY", "together_api_key"):
        monkeypatch.setenv(name, "set")  # named and set: accepted without a warning
    for name in ("OPENAI_API_KEY", "MY_GATEWAY_KEY", "together_api_key", ""):
        _client("http://127.0.0.1:9/v1", api_key_env=name)


def test_no_key_reaches_a_record(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-live-0123456789abcdefXYZ"
    monkeypatch.setenv("FAKE_KEY", secret)
    fake = FakeOpenAI("echo-key")
    with fake.running() as url:
        [echoed] = _formalise(url, ["1 + 1 = 2"], api_key_env="FAKE_KEY")
    assert echoed.ok and secret not in echoed.raw_output and "***" in echoed.raw_output
    password = "pw-9f8e7d6c5b4a"
    fake = FakeOpenAI("500")
    with fake.running() as url:
        with_credentials = url.replace("http://", f"http://user:{password}@")
        client = _client(with_credentials, api_key_env="FAKE_KEY")
        [[failed]] = client.generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]
    assert password not in repr(client) and secret not in repr(client)
    assert password not in failed.error and secret not in failed.error
    unreachable = _client("http://user:sk-abcdef0123456789@127.0.0.1:9/v1")
    with pytest.raises(BackendError) as error:
        unreachable.generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]
    assert "sk-abcdef0123456789" not in str(error.value) and "***@127.0.0.1" in str(error.value)


def test_nothing_here_is_infinite() -> None:
    # The default timeout and reply size are finite: a default client never waits forever.
    client = _client("http://127.0.0.1:9/v1")
    settings = client.settings  # type: ignore[attr-defined]
    assert math.isfinite(settings.timeout_s) and settings.max_reply_bytes == 16 * 2**20


def test_a_servers_escape_sequences_do_not_reach_the_terminal_raw() -> None:
    from llm_server import Reply, StubServer

    stub = StubServer([Reply(500, {"error": {"message": "boom \x1b]0;owned\x07\x1b[2J"}})])
    with stub.running() as url:
        [[failed]] = _client(url).generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]
    assert "\x1b" not in failed.error and "\\x1b]0;owned" in failed.error


@pytest.mark.parametrize(
    "message",
    [
        "max_tokens is too large: 100000. This model supports at most 16384 completion tokens",
        "the request exceeds the available context size, try increasing it",
        "This model's maximum context length is 4096 tokens.",
    ],
)
def test_size_refusals_as_servers_word_them_stop_the_run(message: str) -> None:
    from llm_server import Reply, StubServer

    stub = StubServer([Reply(400, {"error": {"message": message}})])
    with stub.running() as url:
        with pytest.raises(BackendRefused, match="refused the request size"):
            _client(url).generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]


def test_other_400s_stay_one_requests_failure() -> None:
    from llm_server import Reply, StubServer

    stub = StubServer([Reply(400, {"error": {"message": "unknown field 'top_k'"}})])
    with stub.running() as url:
        [[failed]] = _client(url).generate([chat(None, "x")], FAST)  # type: ignore[attr-defined]
    assert failed.error == "HTTP 400: unknown field 'top_k'" and failed.failure == "http"


def test_a_request_deadline_holds_across_its_attempts() -> None:
    # 30 s an attempt and 4 retries would wait 150 s on a server that never answers; the
    # request's deadline gives its one attempt 0.6 s and starts no retry after it.
    fake = FakeOpenAI("hang")
    with fake.running() as url:
        start = time.perf_counter()
        [result] = _formalise(url, ["1 + 1 = 2"], timeout_s="30", max_retries="4",
                              deadline_s="0.6")
    assert time.perf_counter() - start < 5
    # What the last attempt was given is the deadline less the time before it: 0.6 s or a
    # little under.
    assert re.match(r"backend error: no reply within the deadline of 0\.6 s \(deadline_s\); "
                    r"last: timed out after 0\.[56]\d* s", result.reason), result.reason
    assert result.transient and fake.completions == 1


def test_a_request_deadline_stops_retries_that_could_not_finish() -> None:
    # Ten retries 0.1–0.2 s apart would take about 2 s: within 1 s only a few are tried
    # (the second one even when the first reply is slow on a loaded machine).
    fake = FakeOpenAI("500")
    with fake.running() as url:
        [result] = _formalise(url, ["1 + 1 = 2"], max_retries="10", backoff_s="0.2",
                              backoff_cap_s="0.2", deadline_s="1")
    assert result.reason.startswith("backend error: no reply within the deadline of 1 s "
                                    "(deadline_s); last: HTTP 500"), result.reason
    assert result.transient and 2 <= fake.completions <= 8


def test_a_request_deadline_must_be_a_positive_number() -> None:
    with pytest.raises(UsageError, match="deadline_s must be more than 0 seconds"):
        _client("http://127.0.0.1:9/v1", deadline_s="0")


def test_a_stage_budget_is_the_request_deadline_of_an_http_model_only() -> None:
    from afcheck.budget import Budget
    from afcheck.llm.options import request_budget

    entry = get_plugins().registry("formaliser").get("frontier")
    assert entry.budget is request_budget
    http = {"base_url": "http://127.0.0.1:9/v1"}
    assert request_budget(Budget(seconds=90), http) == {"deadline_s": "90"}
    with pytest.raises(ValueError, match="offline vLLM engine generates a whole batch"):
        request_budget(Budget(seconds=90), {"model": "m"})
    with pytest.raises(ValueError, match="leave memory_mb unset"):
        request_budget(Budget(memory_mb=512), http)
