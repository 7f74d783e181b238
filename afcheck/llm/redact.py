"""Keep secrets out of everything afcheck records: error lines, JSON, JUnit, logs.

A key can reach a record by three routes: inside a URL (``http://user:sk-…@host/v1``,
``…/v1?api-key=…``), in an error message a server writes back, or echoed by a model into its
completion. :func:`redact` replaces what looks like a credential on any of these routes with
``***``; a client also scrubs the exact key it holds (:func:`scrub`), which catches a key of a
shape no pattern knows. The patterns of :func:`afcheck.redact.redact_text` (what run records
use) apply first; this module adds what a client meets besides: ``Authorization`` values
echoed back, and more key shapes.
"""

from __future__ import annotations

import base64
import re
from urllib.parse import quote

from afcheck.redact import redact_text

__all__ = ["MASK", "looks_like_key", "redact", "scrub", "url_secrets"]

MASK = "***"

_QUERY_SECRET = re.compile(
    r"(?P<name>[?&;](?:api[-_]?key|key|token|access[-_]?token|auth|secret|password|sig)=)"
    r"(?P<value>[^&#\s]+)",
    re.I,
)
_BEARER = re.compile(r"(?P<name>\b(?:Bearer|Basic)\s+)(?P<value>[A-Za-z0-9._~+/=-]{8,})", re.I)
_KEY_SHAPES = re.compile(
    r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}"  # OpenAI, Anthropic (sk-ant-…), many gateways
    r"|\bhf_[A-Za-z0-9]{16,}"  # Hugging Face
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}"  # GitHub
    r"|\bxai-[A-Za-z0-9]{16,}"
    r"|\bAIza[0-9A-Za-z_-]{30,}"  # Google
    r"|\bAKIA[0-9A-Z]{16}\b"  # AWS access key id
)


def redact(text: str) -> str:
    """``text`` with URL credentials, secret query values and key-shaped words masked."""
    if not text:
        return text
    text = redact_text(text)  # URL credentials (to the last `@`) among them
    text = _QUERY_SECRET.sub(lambda m: f"{m.group('name')}{MASK}", text)
    text = _BEARER.sub(lambda m: f"{m.group('name')}{MASK}", text)
    return _KEY_SHAPES.sub(MASK, text)


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """:func:`redact`, and every exact occurrence of ``secrets`` masked as well."""
    # Longest first, so that a secret inside a longer one does not leave the rest behind.
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    return redact(text)


def url_secrets(username: str, password: str) -> tuple[str, ...]:
    """Every form in which a server can echo the credentials of a ``user:password@`` URL: each
    part, ``user:password``, and the HTTP Basic token httpx sends for it (base64, standard and
    URL-safe, with and without padding), raw and percent-encoded. A short user name alone is
    left out (it would mask ordinary words); :func:`scrub` skips what is under 4 characters."""
    if not username and not password:
        return ()
    joined = f"{username}:{password}"
    token = base64.b64encode(joined.encode()).decode()
    forms = [password, joined, token, token.rstrip("="),
             base64.urlsafe_b64encode(joined.encode()).decode().rstrip("="),
             quote(password, safe=""), quote(joined, safe=":")]
    if len(username) >= 8:
        forms.append(username)
    # Longest first: masking a part first would leave the rest of a longer form behind.
    return tuple(sorted({f for f in forms if f}, key=len, reverse=True))


def looks_like_key(value: str) -> bool:
    """Whether ``value`` is a credential rather than the name of a variable holding one."""
    if _KEY_SHAPES.search(value):
        return True
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value) is None:
        return True
    # Variable names are words joined by underscores; a long unbroken run mixing digits and
    # letters is a token.
    return (len(value) >= 24 and "_" not in value and any(c.isdigit() for c in value)
            and any(c.isalpha() for c in value))
