"""A run is three steps in three modules, and the registry knows no method family.

- ``afcheck/run.py`` is the façade the pytest bridge holds: one class, :class:`Run`, whose
  methods are short and delegate; planning, execution and the end of a run are functions
  of their own modules (``afcheck.plan.plan``, ``afcheck.execution.execute``,
  ``afcheck.finish.finish``), and collection is ``afcheck.collect``'s, which asks
  ``afcheck.chooser`` for components.
- Data flows one way: collection and the choice of components never import the run or its
  later steps, a step never imports the run, and the records between the steps are frozen
  dataclasses typed without ``Any``.
- ``afcheck/registry.py``'s :class:`Kind` holds what every kind has; how a formaliser kind
  takes the model under test is :class:`afcheck.model.ModelAdapter`, declared with the kind,
  so the registry names no following, model entry or candidates of one family of kinds.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import afcheck

CORE = Path(afcheck.__file__).parent
STEPS = {"plan.py": "plan", "execution.py": "execute", "finish.py": "finish"}
"""Each step's module and the function that is the step."""
FLOW = ("collect.py", "chooser.py", *STEPS)
LONGEST_METHOD = 30
"""Lines of the longest method of :class:`Run` (but ``__init__``, which declares its state):
delegating takes no more."""
GENERIC_KIND_FIELDS = {"name", "plural", "hook", "selectable", "protocol", "many",
                       "description"}


def _tree(name: str) -> ast.Module:
    path = CORE / name
    assert path.is_file(), f"afcheck/{name} is missing"
    return ast.parse(path.read_text("utf-8"), str(path))


def _imports(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _frozen(record: type) -> bool:
    params = vars(record).get("__dataclass_params__")
    return bool(params is not None and params.frozen)


def test_run_py_is_one_class_of_short_methods() -> None:
    tree = _tree("run.py")
    defined = [node for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert [node.name for node in defined] == ["Run"]
    (run,) = defined
    assert isinstance(run, ast.ClassDef)
    long = {node.name: (node.end_lineno or 0) - node.lineno + 1 for node in run.body
            if isinstance(node, ast.FunctionDef) and node.name != "__init__"
            and (node.end_lineno or 0) - node.lineno + 1 > LONGEST_METHOD}
    assert long == {}


def test_each_step_is_a_function_of_its_module_that_run_calls() -> None:
    run = _tree("run.py")
    calls = {node.func.id for node in ast.walk(run)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    for module, step in STEPS.items():
        functions = {node.name for node in _tree(module).body
                     if isinstance(node, ast.FunctionDef)}
        assert step in functions, f"afcheck/{module} has no function {step}()"
        assert step in calls, f"Run never calls {step}()"
        assert f"afcheck.{module[:-3]}" in _imports(run)


def test_run_py_does_none_of_the_steps_work_itself() -> None:
    """What each step does is named only in its own module: reading suites and asking a
    method for cases (collection), a method's batched run and judging (execution), the
    summaries and gates (the end)."""
    done_elsewhere = {"load", "cases", "choices", "run", "summarise", "evaluate", "held",
                      "check_metrics", "load_baseline", "write_baseline", "judged"}
    run = _tree("run.py")
    called = {node.func.attr if isinstance(node.func, ast.Attribute) else
              node.func.id if isinstance(node.func, ast.Name) else ""
              for node in ast.walk(run) if isinstance(node, ast.Call)}
    assert called & done_elsewhere == set()


def test_collection_and_the_steps_flow_one_way() -> None:
    later = {"afcheck.run", "afcheck.plan", "afcheck.execution", "afcheck.finish"}
    assert _imports(_tree("chooser.py")) & {*later, "afcheck.collect"} == set()
    assert _imports(_tree("collect.py")) & later == set()
    assert "afcheck.run" not in _imports(_tree("plan.py")) | _imports(_tree("execution.py"))
    assert _imports(_tree("plan.py")) & {"afcheck.execution", "afcheck.finish"} == set()
    assert "afcheck.finish" not in _imports(_tree("execution.py"))
    assert "afcheck.run" not in _imports(_tree("finish.py"))


def test_the_records_between_the_steps_are_frozen_and_typed() -> None:
    import importlib

    for module in FLOW:
        tree = _tree(module)
        assert "Any" not in {alias.name for node in ast.walk(tree)
                             if isinstance(node, ast.ImportFrom) for alias in node.names}
        loaded = importlib.import_module(f"afcheck.{module[:-3]}")
        records = [value for value in vars(loaded).values()
                   if isinstance(value, type) and dataclasses.is_dataclass(value)
                   and value.__module__ == loaded.__name__]
        assert all(_frozen(record) for record in records), module
    from afcheck.execution import Results
    from afcheck.plan import Plan

    assert _frozen(Plan) and _frozen(Results)


def test_a_kind_has_only_generic_fields_and_the_registry_no_model_notions() -> None:
    from afcheck.registry import Kind

    assert {field.name for field in dataclasses.fields(Kind)} == GENERIC_KIND_FIELDS
    names = set()
    for node in ast.walk(_tree("registry.py")):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
    assert names & {"follows", "model_entry", "candidates", "entry_for_model"} == set()


def test_the_model_under_test_is_declared_with_the_kind_it_adapts() -> None:
    from afcheck.model import ModelAdapter
    from afcheck.plugins import Plugins

    kinds = Plugins().kinds
    assert kinds.model("fol_formaliser") == ModelAdapter(follows="formaliser", entry="llm")
    assert set(kinds.models) == {"formaliser", "fol_formaliser"}
