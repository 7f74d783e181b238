"""Keep secrets out of everything afcheck records: error lines, JSON, JUnit, logs.

A key can reach a record by three routes: inside a URL (``http://user:sk-…@host/v1``,
``…/v1?api-key=…``), in an error message a server writes back, or echoed by a model into its
completion. :func:`redact` replaces what looks like a credential on any of these routes with
``***``; a client also scrubs the exact key it holds (:func:`scrub`), which catches a key of a
shape no pattern knows. The patterns are those of :func:`afcheck.redact.redact_text`, the
redaction every output of a run gets.
"""

from __future__ import annotations

import base64
import re
from urllib.parse import quote

from afcheck.redact import redact_text

__all__ = ["MASK", "looks_like_key", "redact", "scrub", "url_secrets"]

MASK = "***"


def redact(text: str) -> str:
    """``text`` with URL credentials, secret query values and key-shaped words masked: the
    redaction every output gets (:func:`afcheck.redact.redact_text`), by its client-side
    name."""
    return redact_text(text)


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
    if redact_text(value) != value:
        return True
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value) is None:
        return True
    # Variable names are words joined by underscores; a long unbroken run mixing digits and
    # letters is a token.
    return (len(value) >= 24 and "_" not in value and any(c.isdigit() for c in value)
            and any(c.isalpha() for c in value))
