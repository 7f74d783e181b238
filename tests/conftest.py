"""Shared test settings: hypothesis profiles and the data directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def data_dir() -> Path:
    """The real-data directory (``AFCHECK_DATA_DIR``); tests marked ``realdata`` need it."""
    value = os.environ.get("AFCHECK_DATA_DIR")
    if not value or not Path(value).is_dir():
        pytest.skip("AFCHECK_DATA_DIR is not set to a data directory")
    return Path(value)
