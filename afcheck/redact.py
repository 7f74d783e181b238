"""Secrets never reach an output: option values that are keys, credentials in URLs, tokens.

:func:`redact_text` is the one redaction afcheck applies at the boundary of every output it
writes (the terminal, the result files of every reporter, the HTML report, the run record):
whatever field a record gains later, its text passes through here on the way out. A key can
reach an output inside a URL (``http://user:pass@host/v1``, ``…/v1?api-key=…``), as an
option written out (``api_key=…``), as an ``Authorization`` value a server echoed, or by its
shape alone (``sk-…``, ``hf_…``); each is replaced by ``***``, and so is every secret the
process holds (:func:`remember_secret`: an LLM client's key and URL password), whatever its
shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

MASK = "***"

_SECRET_NAME = re.compile(r"(?:^|_)(?:api_?key|key|secret|password|token)$", re.IGNORECASE)
# The user information of a URL runs to the *last* `@` before the path: a password may hold an
# unencoded `@` (`http://user:p@ss@host/v1`), and cutting at the first would leave its tail.
_URL_CREDENTIALS = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/\s?#]*@", re.IGNORECASE)
_URL_CUT_CREDENTIALS = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)[^/\s?#@]*:[^/\s?#@]*"
                                  r"(?=…|\.\.\.)", re.IGNORECASE)
"""A URL cut short (``http://alice:pass-S3…`` on a line shortened to fit) before its ``@``:
what is left of the user information is masked too."""
_URL_SECRET_PARAM = re.compile(
    r"(?P<name>[?&;](?:api[-_]?key|key|token|access[-_]?token|auth|secret|password|sig)=)"
    r"[^&#\s]+",
    re.IGNORECASE)
_SECRET_ASSIGNMENT = re.compile(
    r"(?<![\w.-])(?P<name>(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|token|secret|password"
    r"|passwd)\s*=\s*)(?P<value>[^\s,;&)\]}'\"]+)",
    re.IGNORECASE)
"""``api_key=…``, ``hf_token=…``, ``password=…`` written out as an option; ``max_tokens=…``
and ``api_key_env=…`` (a variable's name) are not secrets."""
_BEARER = re.compile(r"(?P<name>\b(?:Bearer|Basic)\s+)(?=[A-Za-z0-9._~+/=-]*[0-9+/=])"
                     r"[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)
"""An ``Authorization`` value: a token holds a digit or a base64 symbol, which keeps prose
(``Basic properties``) as it is."""
_KEY_LIKE = re.compile(
    r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}"  # OpenAI, Anthropic (sk-ant-…), many gateways
    r"|\bhf_[A-Za-z0-9]{16,}"  # Hugging Face
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"  # GitHub
    r"|\bgsk_[A-Za-z0-9]{20,}"  # Groq
    r"|\bxai-[A-Za-z0-9]{16,}"
    r"|\bAIza[0-9A-Za-z_-]{20,}"  # Google
    r"|\bAKIA[0-9A-Z]{16}\b"  # AWS access key id
    r"|\beyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_.-]+")  # a JWT
"""Key shapes, each with its vendor's prefix and no underscore where a Lean name would have
one (``hf_mono`` is a hypothesis, ``hf_AbC…`` a token)."""
_ASSIGNED = re.compile(r"(?:key|token|secret|passw(?:or)?d)\s*=")
"""What :data:`_SECRET_ASSIGNMENT` cannot match without, in case-folded text."""
_CREDENTIAL_SCHEME = re.compile(r"(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8}", re.IGNORECASE)
"""What :data:`_BEARER` cannot match without."""
_KEY_PREFIXES = ("sk-", "pk-", "rk-", "hf_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
                 "github_pat_", "gsk_", "xai-", "AIza", "AKIA", "eyJ")
"""The prefix each shape of :data:`_KEY_LIKE` starts with."""
_MAY_HOLD_SECRET = re.compile(r"://|[=@]|\b(?:sk|pk|rk|hf|gsk|xai|gh[a-z]|github|AIza|AKIA|eyJ"
                              r"|Bearer|Basic)", re.IGNORECASE)
"""A cheap first look: text with none of these holds nothing the patterns mask (most record
text), so the full patterns run only where one may match."""


_KNOWN: list[str] = []
"""Secrets this process holds (an API key, a URL's password), longest first."""


def remember_secret(secret: str) -> None:
    """Mask ``secret`` wherever an output shows it from now on, whatever its shape (a key no
    pattern knows, a password echoed without its URL). Shorter than 8 characters it is left
    to the patterns: masking a short word everywhere would mask ordinary text."""
    if len(secret) >= 8 and secret not in _KNOWN:
        _KNOWN.append(secret)
        _KNOWN.sort(key=len, reverse=True)


def redact_text(text: str) -> str:
    """``text`` with the secrets this process holds, URL credentials, secret query
    parameters, secret options written out, ``Bearer``/``Basic`` credentials and key-like
    tokens hidden."""
    if not text:
        return text
    for secret in _KNOWN:
        if secret in text:
            text = text.replace(secret, MASK)
    if not _MAY_HOLD_SECRET.search(text):
        return text
    # Each pattern runs only where what it cannot match without is there: a result file is
    # megabytes of text in which most patterns have nothing to find, and a scan of it by
    # each costs far more than these searches. The look for an assignment reads the text
    # case-folded, which folds every letter the case-blind pattern takes for one of its
    # words' letters (``K`` for ``k``, ``ſ`` for ``s``) onto it.
    if "://" in text:
        text = _URL_CREDENTIALS.sub(rf"\g<scheme>{MASK}@", text)
        text = _URL_CUT_CREDENTIALS.sub(rf"\g<scheme>{MASK}", text)
    folded = text.casefold()
    if "=" in text:
        text = _URL_SECRET_PARAM.sub(rf"\g<name>{MASK}", text)
        if _ASSIGNED.search(folded):
            text = _SECRET_ASSIGNMENT.sub(rf"\g<name>{MASK}", text)
    if _CREDENTIAL_SCHEME.search(text):
        text = _BEARER.sub(rf"\g<name>{MASK}", text)
    if any(prefix in text for prefix in _KEY_PREFIXES):
        text = _KEY_LIKE.sub(MASK, text)
    return text


def is_secret_name(name: str) -> bool:
    """Whether an option of this name holds a secret (``api_key``, ``token``…)."""
    return bool(_SECRET_NAME.search(name))


def redact_options(options: Mapping[str, str]) -> dict[str, str]:
    """Hide option values that are secrets (``api_key=…``) and secrets inside values (a
    ``base_url`` with credentials); ``api_key_env`` names a variable and ``max_tokens`` is a
    number, so both stay."""
    return {k: (MASK if _SECRET_NAME.search(k) else redact_text(v)) for k, v in options.items()}
