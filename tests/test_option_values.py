"""Numbers written as a component's options: one line for anything that is not one."""

from __future__ import annotations

import pytest

from afcheck.errors import UsageError
from afcheck.option_values import positive, seconds, whole


def test_an_absent_option_is_its_default_and_a_written_one_its_number() -> None:
    assert whole({}, "jobs", 3, where="--prover-opt") == 3
    assert whole({"jobs": "4"}, "jobs", 3, where="--prover-opt") == 4
    assert whole({"jobs": "2.0"}, "jobs", 3, where="--prover-opt") == 2
    assert seconds({"deadline_s": "0.25"}, "deadline_s", 10.0, where="--prover-opt") == 0.25
    assert positive({"memory": "1e3"}, "memory", 1.0, where="--x-opt") == 1000.0


@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", "2.5", "many", ""])
def test_a_whole_number_is_finite_and_whole_never_cut(raw: str) -> None:
    with pytest.raises(UsageError, match=rf"^--prover-opt jobs={raw}: expected a whole number$"):
        whole({"jobs": raw}, "jobs", 1, where="--prover-opt")


def test_a_whole_number_below_its_minimum_says_the_minimum() -> None:
    with pytest.raises(UsageError, match=r"^--prover-opt jobs=0: must be at least 1$"):
        whole({"jobs": "0"}, "jobs", 1, where="--prover-opt")
    assert whole({"k": "0"}, "k", 1, where="--x-opt", minimum=0) == 0


@pytest.mark.parametrize("raw", ["0", "-1", "nan", "inf", "soon"])
def test_seconds_are_a_finite_number_above_zero(raw: str) -> None:
    with pytest.raises(UsageError, match=rf"^--prover-opt deadline_s={raw}: must be a number "
                                         r"of seconds above 0$"):
        seconds({"deadline_s": raw}, "deadline_s", 10.0, where="--prover-opt")


@pytest.mark.parametrize("raw", ["0", "nan", "inf", "a lot"])
def test_a_positive_limit_is_a_finite_number_above_zero(raw: str) -> None:
    with pytest.raises(UsageError,
                       match=rf"^--x-opt wall_limit_s={raw}: must be a number above 0$"):
        positive({"wall_limit_s": raw}, "wall_limit_s", 1.0, where="--x-opt")
