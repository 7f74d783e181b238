"""Secrets never reach a record: :func:`afcheck.llm.redact`."""

from __future__ import annotations

import pytest

from afcheck.llm import redact
from afcheck.llm.redact import looks_like_key, scrub


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
