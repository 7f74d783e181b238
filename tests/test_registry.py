"""The kinds and their registries (:mod:`afcheck.registry`): a kind is declared with its
hook alone, and with a model adapter when its components take the model under test."""

from __future__ import annotations

import pytest

from afcheck import options as opts
from afcheck.errors import UsageError
from afcheck.model import MODEL_UNDER_TEST, ModelAdapter
from afcheck.plugins import Plugins
from afcheck.registry import Kind

SQL: Kind[object] = Kind("sql_formaliser", "sql_formalisers",
                         "afcheck_register_sql_formalisers", True)


def test_the_core_formaliser_is_the_model_under_test_and_no_other_core_kind() -> None:
    kinds = Plugins(autoload=False).kinds
    assert kinds.models == {"formaliser": MODEL_UNDER_TEST}
    assert kinds.model("prover") is None


def test_a_kind_declared_with_a_model_adapter_takes_the_model() -> None:
    kinds = Plugins(autoload=False).kinds
    adapter = ModelAdapter(follows="formaliser", entry="llm")
    kinds.add(SQL, model=adapter)
    kinds.add(SQL, model=adapter)  # the same declaration twice: fine
    assert kinds.model("sql_formaliser") == adapter
    with pytest.raises(UsageError, match="declared twice"):
        kinds.add(SQL, model=ModelAdapter(follows="formaliser", entry="ask"))
    with pytest.raises(UsageError, match="declared twice"):
        kinds.add(SQL)


def test_the_option_of_a_kind_that_follows_the_model_says_so() -> None:
    plugins = Plugins()
    helps = {spec.name: spec.kwargs["help"] for spec in opts.component_options(plugins.kinds)}
    assert helps["fol-formaliser"].endswith(
        "(afcheck list fol_formalisers; default: the model of --formaliser, else the suite's)")
    assert helps["formaliser"].endswith("default: the suite's, else its method's)")
