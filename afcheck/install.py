"""How to install an extra of afcheck, in the form that fits how afcheck was installed.

afcheck is installed from a checkout (``pip install -e .``, where ``direct_url.json`` names the
folder), from a wheel or an index (``pip install afcheck``), or not at all (run from a source
tree). Every "run `pip install …`" hint comes from :func:`install_command`, so that a user
of a checkout is never told to install from an index that has no afcheck.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

_ROOT = Path(__file__).resolve().parent.parent
_HINT = re.compile(r"pip install '?afcheck\[([\w,-]+)\]'?")


def install_command(extra: str) -> str:
    """The command that installs afcheck's extra ``extra`` (``vllm``, ``fol``…) here:
    ``pip install -e '/path/to/checkout[vllm]'`` from a checkout, ``pip install
    'afcheck[vllm]'`` otherwise."""
    source, editable = _source()
    if source is None:
        return f"pip install 'afcheck[{extra}]'"
    return f"pip install {'-e ' if editable else ''}'{source}[{extra}]'"


def fit(text: str) -> str:
    """``text`` with each ``pip install 'afcheck[X]'`` written as :func:`install_command`
    writes it: for hints phrased before the install was known."""
    return _HINT.sub(lambda match: install_command(match[1]), text)


@lru_cache(maxsize=1)
def _source() -> tuple[str | None, bool]:
    """The folder afcheck was installed from and whether editably; ``(None, False)`` when it
    came from a wheel or an index."""
    checkout = str(_ROOT) if (_ROOT / "pyproject.toml").is_file() else None
    for dist in metadata.distributions(name="afcheck"):
        text = dist.read_text("direct_url.json")
        if text:
            return _direct(text, checkout)
        # Else the checkout's own ``afcheck.egg-info`` (seen first when the checkout is the
        # working directory), or an install that records no origin: look further.
    # The code that runs sits next to a pyproject.toml: a checkout, on the path or installed
    # editably; an installed wheel's code sits in site-packages, which has none.
    return checkout, checkout is not None


def _direct(text: str, checkout: str | None) -> tuple[str | None, bool]:
    """Where ``direct_url.json`` (PEP 610) says afcheck came from."""
    try:
        direct = json.loads(text)
    except json.JSONDecodeError:
        return None, False
    if not isinstance(direct, dict) or not isinstance(direct.get("dir_info"), dict):
        return None, False  # a wheel, an archive or a VCS URL: installed as a package
    url = urlparse(str(direct.get("url", "")))
    if url.scheme != "file":
        return None, False
    if direct["dir_info"].get("editable"):
        # The code that runs is the checkout's own: an editable install points at it.
        return checkout or unquote(url.path), True
    return unquote(url.path), False
