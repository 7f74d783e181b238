"""Secrets never reach a report."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afcheck.redact import redact_options, redact_text


def test_secret_options_are_redacted_and_others_kept() -> None:
    assert redact_options({"api_key": "s3", "max_tokens": "64", "api_key_env": "MY_KEY",
                           "token": "t", "hf_token": "h", "model": "m"}) == {
        "api_key": "***", "max_tokens": "64", "api_key_env": "MY_KEY", "token": "***",
        "hf_token": "***", "model": "m"}


def test_credentials_in_a_url_are_hidden_and_the_host_kept() -> None:
    options = redact_options({"base_url": "http://user:sk-abcdefghijklmnop1234@host:8000/v1"})
    assert options["base_url"] == "http://***@host:8000/v1"
    assert redact_text("https://api.example/v1?api-key=secret123&x=1") == (
        "https://api.example/v1?api-key=***&x=1")


def test_key_like_values_anywhere_are_hidden() -> None:
    text = "the key sk-proj-ABCDEFGHIJKLMNOPQRST and hf_abcdefghijklmnopqrstu were used"
    assert redact_text(text) == "the key *** and *** were used"
    assert redact_text("max_tokens=512, model=qwen") == "max_tokens=512, model=qwen"


def test_a_password_holding_an_at_sign_is_hidden_whole() -> None:
    from afcheck.redact import redact_options

    options = {"base_url": "http://user:p@ss-W0rdSecret@10.0.0.5:8000/v1"}
    assert redact_options(options) == {"base_url": "http://***@10.0.0.5:8000/v1"}


def test_a_secret_the_process_holds_is_masked_whatever_its_shape() -> None:
    from afcheck.redact import remember_secret

    assert redact_text("echo: zq9PlainSecretOfNoShape") == "echo: zq9PlainSecretOfNoShape"
    remember_secret("zq9PlainSecretOfNoShape")
    remember_secret("short")  # too short to mask everywhere: ordinary words would go too
    assert redact_text("echo: zq9PlainSecretOfNoShape, short") == "echo: ***, short"


def test_an_llm_client_makes_every_output_mask_its_key_and_url_password(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("httpx")
    from afcheck.llm.http_client import HTTPClient, HTTPSettings

    monkeypatch.setenv("AFCHECK_TEST_KEY", "kq8-EnvKeyOfNoKnownShape")
    HTTPClient(HTTPSettings(base_url="http://alice:pw8-UrlPassOfNoShape@127.0.0.1:9/v1",
                            model="m", api_key_env="AFCHECK_TEST_KEY"))
    assert redact_text("said kq8-EnvKeyOfNoKnownShape and pw8-UrlPassOfNoShape") == (
        "said *** and ***")


_PIECES = ["api_key=", "API_KEY = ", "token=", "paſſword=", "\u212aey=", "hf_token=abc12345678",
           "Bearer abc123456789", "BASIC dXNlcjpwYXNz==", "sk-abcdefghijk", "http://u:p@h/v1",
           "https://a:b…", "?key=zzz&x=1", "eyJabcdefghijklmnopqrstu.abc",
           "AKIAABCDEFGHIJKLMNOP", "ghp_" + "a" * 20, "max_tokens=5", "İ", " ", "x", "=", "\n"]


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join))
def test_the_first_looks_skip_no_pattern_that_would_match(text: str) -> None:
    # Every pattern run on the whole text, as if no look came first: the same result.
    from afcheck import redact

    full = text
    for pattern, kept in ((redact._URL_CREDENTIALS, r"\g<scheme>***@"),
                          (redact._URL_CUT_CREDENTIALS, r"\g<scheme>***"),
                          (redact._URL_SECRET_PARAM, r"\g<name>***"),
                          (redact._SECRET_ASSIGNMENT, r"\g<name>***"),
                          (redact._BEARER, r"\g<name>***"), (redact._KEY_LIKE, "***")):
        full = pattern.sub(kept, full)
    assert redact_text(text) == full
