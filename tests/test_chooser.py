"""The choice of components (:mod:`afcheck.chooser`): the command line over a suite's
defaults, one object per choice, and the model under test reaching any kind declared with a
model adapter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from afcheck import hookimpl
from afcheck.chooser import Chooser
from afcheck.errors import UsageError
from afcheck.hookspecs import hookspec
from afcheck.method import Choice
from afcheck.model import ModelAdapter, ModelRef
from afcheck.plugins import Plugins
from afcheck.registry import Kind, Kinds, Register

SQL: Kind[object] = Kind("sql_formaliser", "sql_formalisers",
                         "afcheck_register_sql_formalisers", True,
                         description="natural language → SQL")


class _Specs:
    @hookspec
    def afcheck_register_sql_formalisers(self, register: Register[Any]) -> None:
        """Register SQL formalisers."""


class _Sql:
    """A plugin of another formal language than Lean or FOL: its formalisers take the model
    of ``--formaliser`` as ``ask``, and both kinds register ``gold``."""

    @hookimpl
    def afcheck_addkinds(self, kinds: Kinds) -> None:
        kinds.add(SQL, _Specs, model=ModelAdapter(follows="formaliser", entry="ask"))

    @hookimpl
    def afcheck_register_sql_formalisers(self, register: Register[Any]) -> None:
        register("ask", lambda options: object())
        register("gold", lambda options: object())

    @hookimpl
    def afcheck_register_formalisers(self, register: Register[Any]) -> None:
        register("gold", lambda options: object())
        register("tiny", lambda options: object(), model=ModelRef("org/tiny", 2048))
        register("rules", lambda options: object())


def _chooser(options: Mapping[str, object]) -> Chooser:
    plugins = Plugins(autoload=False)
    plugins.register(_Sql(), "sql")
    return Chooser(plugins, dict(options).get)


def test_a_kind_with_a_model_adapter_takes_the_run_s_model() -> None:
    chooser = _chooser({"formaliser": "tiny", "formaliser_opt": ["temperature=0.5"]})
    assert chooser.overrides({})["sql_formaliser"] == "tiny"
    choice = chooser.choose("sql_formaliser", "tiny", "text2sql")
    assert choice == Choice.of("ask", {"model": "org/tiny", "max_model_len": "2048",
                                       "temperature": "0.5"})
    assert chooser.choose("sql_formaliser", "tiny", "text2sql") is choice
    assert chooser.followers(chooser.plugins.kinds.get("formaliser")) == {"sql_formaliser"}


def test_a_name_both_kinds_register_is_that_entry_with_the_same_options() -> None:
    chooser = _chooser({"formaliser": "gold", "formaliser_opt": ["path=g.jsonl"]})
    assert chooser.choose("sql_formaliser", "gold") == Choice.of("gold", {"path": "g.jsonl"})


def test_a_formaliser_that_is_no_model_says_what_to_give() -> None:
    chooser = _chooser({"formaliser": "rules"})
    with pytest.raises(UsageError) as caught:
        chooser.choose("sql_formaliser", "rules", "text2sql")
    assert str(caught.value).startswith("--formaliser rules: the text2sql method needs a sql "
                                        "formaliser and 'rules' is not one or a model")
    assert "--sql-formaliser NAME (ask, gold)" in str(caught.value)
    assert "(--formaliser tiny)" in str(caught.value)


def test_the_kind_s_own_option_wins_over_the_model() -> None:
    chooser = _chooser({"formaliser": "tiny", "sql_formaliser": "gold"})
    kind = chooser.plugins.kinds.get("sql_formaliser")
    assert chooser.followed(kind) is None and chooser.given(kind)
    assert chooser.overrides({})["sql_formaliser"] == "gold"
    assert chooser.choose("sql_formaliser", "gold") == Choice.of("gold")


def test_options_of_several_components_address_one_by_name() -> None:
    plugins = Plugins()
    chooser = Chooser(plugins, {"perturber_opt": ["llm.model=m,seed=1"]}.get)
    assert chooser.choose("perturber", "llm") == Choice.of("llm", {"model": "m", "seed": "1"})
    assert chooser.choose("perturber", "regex") == Choice.of("regex", {"seed": "1"})
