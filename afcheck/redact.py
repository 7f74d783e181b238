"""Secrets never reach a report: option values that are keys, and credentials in URLs."""

from __future__ import annotations

import re
from collections.abc import Mapping

_SECRET_NAME = re.compile(r"(?:^|_)(?:api_?key|key|secret|password|token)$", re.IGNORECASE)
# The user information of a URL runs to the *last* `@` before the path: a password may hold an
# unencoded `@` (`http://user:p@ss@host/v1`), and cutting at the first would leave its tail.
_URL_CREDENTIALS = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/\s?#]*@", re.IGNORECASE)
_URL_SECRET_PARAM = re.compile(
    r"(?P<name>[?&](?:api[-_]?key|key|token|access_token|secret|password)=)[^&#\s]+",
    re.IGNORECASE)
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|hf|gsk|xai|ghp|gho|github_pat)[-_][A-Za-z0-9_-]{12,}\b"
                       r"|\bAIza[0-9A-Za-z_-]{20,}\b|\beyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_.-]+")


def redact_text(text: str) -> str:
    """``text`` with URL credentials, secret query parameters and key-like tokens hidden."""
    text = _URL_CREDENTIALS.sub(r"\g<scheme>***@", text)
    text = _URL_SECRET_PARAM.sub(r"\g<name>***", text)
    return _KEY_LIKE.sub("***", text)


def is_secret_name(name: str) -> bool:
    """Whether an option of this name holds a secret (``api_key``, ``token``…)."""
    return bool(_SECRET_NAME.search(name))


def redact_options(options: Mapping[str, str]) -> dict[str, str]:
    """Hide option values that are secrets (``api_key=…``) and secrets inside values (a
    ``base_url`` with credentials); ``api_key_env`` names a variable and ``max_tokens`` is a
    number, so both stay."""
    return {k: ("***" if _SECRET_NAME.search(k) else redact_text(v)) for k, v in options.items()}
