"""Secrets never reach a record: :func:`afcheck.llm.redact`."""

from __future__ import annotations

import pytest

from afcheck.llm import redact
from afcheck.llm.redact import looks_like_key, scrub, url_secrets


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://user:sk-abc123def456@host:8000/v1", "http://***@host:8000/v1"),
        ("https://tok@api.example.com/v1", "https://***@api.example.com/v1"),
        ("https://h/v1/chat?api-key=abc123&x=1", "https://h/v1/chat?api-key=***&x=1"),
        ("https://h/v1?x=1&api_key=s3cr3t", "https://h/v1?x=1&api_key=***"),
        ("invalid key sk-proj-AbCdEf0123456789", "invalid key ***"),
        ("Authorization: Bearer abcdefgh12345678", "Authorization: Bearer ***"),
        ("token hf_abcdefghijklmnopqrstu here", "token *** here"),
        ("theorem t : (2 : ℕ) + 2 = 4 := by sorry", "theorem t : (2 : ℕ) + 2 = 4 := by sorry"),
        ("see http://127.0.0.1:8000/v1 (task-id 12)", "see http://127.0.0.1:8000/v1 (task-id 12)"),
    ],
)
def test_redact_masks_credentials_and_nothing_else(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_scrub_masks_the_exact_secret_whatever_its_shape() -> None:
    assert scrub("echo: zq9-Plain-Secret", ("zq9-Plain-Secret",)) == "echo: ***"


@pytest.mark.parametrize(
    ("value", "is_key"),
    [("OPENAI_API_KEY", False), ("my_gateway_key", False), ("sk-12345678abcd", True),
     ("has space", True), ("ghp_abcdefghijklmnopqrstuvwxyz", True),
     ("x9f8a7b6c5d4e3f2a1b0c9d8e7", True), ("together_api_key_v2_backup_2025", False)],
)
def test_looks_like_key(value: str, is_key: bool) -> None:
    assert looks_like_key(value) is is_key


def test_a_password_with_an_unencoded_at_sign_is_masked_whole() -> None:
    url = "http://user:p@ss-W0rdSecret@127.0.0.1:8000/v1"
    assert redact(url) == "http://***@127.0.0.1:8000/v1"
    assert redact(f"error at {url}/chat: 500") == "error at http://***@127.0.0.1:8000/v1/chat: 500"


def test_the_basic_token_of_url_credentials_is_scrubbed_in_every_form() -> None:
    import base64

    secrets = url_secrets("user", "p@ss-W0rdSecret")
    token = base64.b64encode(b"user:p@ss-W0rdSecret").decode()
    echoed = (f"-- {token}\n-- Basic {token}\n-- user:p@ss-W0rdSecret\n-- p%40ss-W0rdSecret\n"
              f"-- {base64.urlsafe_b64encode(b'user:p@ss-W0rdSecret').decode().rstrip('=')}")
    scrubbed = scrub(echoed, secrets)
    assert "W0rdSecret" not in scrubbed and token not in scrubbed and token[:12] not in scrubbed
    assert scrubbed.count("***") == 5
    assert url_secrets("", "") == ()


def test_a_server_echoing_the_basic_token_leaves_no_credential_in_the_raw_output() -> None:
    # httpx sends `Authorization: Basic base64(user:password)` for a user:password@ URL; a
    # server that repeats it must not put the token, or the password, into raw_output.
    import base64

    pytest.importorskip("httpx")
    from fake_openai import FakeOpenAI

    from afcheck.plugins import get_plugins
    from afcheck.types import FormaliseRequest

    password = "p@ss-W0rdSecret"
    token = base64.b64encode(f"user:{password}".encode()).decode()
    fake = FakeOpenAI("echo-key")
    with fake.running() as url:
        base = url.replace("http://", f"http://user:{password}@")
        formaliser = get_plugins().create("formaliser", "frontier", {
            "base_url": base, "model": "fake-formaliser", "max_retries": "0", "backoff_s": "0"})
        try:
            [result] = formaliser.formalise(
                [FormaliseRequest("s/p/0#original", "1 + 1 = 2")])
        finally:
            formaliser.client.close()  # type: ignore[attr-defined]
    assert result.ok, result
    assert token not in result.raw_output and "W0rdSecret" not in result.raw_output
    assert "***" in result.raw_output
