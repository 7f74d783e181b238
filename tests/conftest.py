"""Shared test settings: hypothesis profiles and the data directory."""

from __future__ import annotations

import os
from pathlib import Path

import arith as arith_module  # imported before any pytester snapshot, so it is never reloaded
import pytest
from hypothesis import HealthCheck, settings


def _import_everything() -> None:
    """Import every module of afcheck and its built-in plugins now.

    pytester's in-process runs unload the modules first imported inside them. A module a
    plugin imports lazily (the Lean front end, the drift detectors) would then exist twice,
    its classes too, and records made by one copy would fail isinstance checks of the other,
    depending on which test ran first.
    """
    import importlib
    import pkgutil

    import afcheck

    roots = [afcheck.__path__[0], *(str(p) for p in (Path(afcheck.__path__[0]).parent /
                                                      "plugins").glob("afcheck_*"))]
    for root in roots:
        package = Path(root).name
        importlib.import_module(package)
        for info in pkgutil.walk_packages([root], prefix=f"{package}."):
            if info.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(info.name)
            except Exception:  # noqa: BLE001 - optional dependencies (vllm, ray) may be absent
                continue


_import_everything()

settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "slow",
    max_examples=5000,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("AFCHECK_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
TEST_PLUGINS = ROOT / "tests" / "plugins_for_tests"


@pytest.fixture
def data_dir() -> Path:
    """The real-data directory (``AFCHECK_DATA_DIR``); tests marked ``realdata`` need it."""
    value = os.environ.get("AFCHECK_DATA_DIR")
    if not value or not Path(value).is_dir():
        pytest.skip("AFCHECK_DATA_DIR is not set to a data directory")
    return Path(value)


def write_suite(root: Path, name: str, rows: list[dict[str, object]] | str,
                defaults: dict[str, object] | None = None, kind: str = "jsonl") -> Path:
    """Write a jsonl suite folder ``root/name`` and return it."""
    import json

    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    lines = ['[afcheck]', f'name = "{name}"', f'kind = "{kind}"', 'data = "steps.jsonl"',
             "", "[afcheck.defaults]"]
    for key, value in (defaults or {}).items():
        lines.append(f"{key} = {json.dumps(value)}")
    (folder / "suite.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    body = rows if isinstance(rows, str) else "".join(json.dumps(r) + "\n" for r in rows)
    (folder / "steps.jsonl").write_text(body, encoding="utf-8")
    return folder


@pytest.fixture
def arith(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester whose runs can use the test plugin ``arith`` (``--afcheck-plugin arith``)."""
    arith_module.CALLS.clear()
    return pytester


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty result cache, never the user's."""
    monkeypatch.setenv("AFCHECK_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
