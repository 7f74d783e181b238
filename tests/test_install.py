"""Install hints fit how afcheck was installed: a checkout is named by its folder, a wheel
by the package name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from afcheck import install
from afcheck.errors import MissingDependency

ROOT = Path(__file__).resolve().parent.parent


def test_a_checkout_is_told_to_install_its_own_folder() -> None:
    # The tests run from a checkout, installed editably (or on the path): its folder it is.
    assert install.install_command("vllm") == f"pip install -e '{ROOT}[vllm]'"


@pytest.mark.parametrize(("direct", "expected"), [
    ({"url": "file:///wheels/afcheck-0.1.0-py3-none-any.whl", "archive_info": {}},
     "pip install 'afcheck[fol]'"),
    ({"url": "https://github.com/x/afcheck", "vcs_info": {"vcs": "git"}},
     "pip install 'afcheck[fol]'"),
    ({"url": "file:///src/afcheck", "dir_info": {}}, "pip install '/src/afcheck[fol]'"),
    ({"url": "file:///src/my%20afcheck", "dir_info": {"editable": True}},
     "pip install -e '/src/my afcheck[fol]'"),
])
def test_direct_url_decides_the_form(monkeypatch: pytest.MonkeyPatch,
                                     direct: dict[str, object], expected: str) -> None:
    """PEP 610's ``direct_url.json``: an archive or a VCS URL is a package install, a local
    folder is named by its path (``-e`` when editable)."""
    source = install._direct(json.dumps(direct), checkout=None)
    monkeypatch.setattr(install, "_source", lambda: source)
    assert install.install_command("fol") == expected


def test_an_editable_install_names_the_running_checkout() -> None:
    direct = json.dumps({"url": "file:///elsewhere", "dir_info": {"editable": True}})
    assert install._direct(direct, checkout=str(ROOT)) == (str(ROOT), True)


def test_missing_dependency_hints_are_fitted() -> None:
    error = MissingDependency("fol", "the E prover", "pip install 'afcheck[fol]'")
    assert str(error).endswith(f"run `pip install -e '{ROOT}[fol]'`")
    assert install.fit("pip install websocket-client") == "pip install websocket-client"

