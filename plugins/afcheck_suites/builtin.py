"""The suites afcheck ships, by name: ``afcheck examples`` runs ``suites/examples``.

In a checkout they are the top-level ``suites/`` folder; a wheel carries a copy as this
package's ``builtin/`` (setup.py copies it at build time), so that an installed afcheck has
its suites too.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_CHECKOUT = _HERE.parent.parent


def folder() -> Path | None:
    """The folder that holds the shipped suites, ``None`` when there is none."""
    for candidate in (_CHECKOUT / "suites", _HERE / "builtin"):
        if (candidate / "examples" / "suite.toml").is_file():
            return candidate
    return None


def suites() -> dict[str, Path]:
    """Each shipped suite's name (its folder's name) and folder, sorted by name."""
    root = folder()
    if root is None:
        return {}
    return {path.name: path for path in sorted(root.iterdir())
            if (path / "suite.toml").is_file()}
