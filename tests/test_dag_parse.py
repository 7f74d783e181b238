"""Reading a model's DAG answer: JSON extraction, node ids, dependencies, statement types."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from afcheck_suites.dag import STATEMENT_TYPES, normalise_nodes, normalise_type, parse_answer
from hypothesis import given
from hypothesis import strategies as st

DAG = {"nodes": [{"id": "step_1", "content": "x = 2", "statement_type": "declarative"}],
       "final_answer": "2", "metadata": {"notes": "", "difficulty": "easy"}}


@pytest.mark.parametrize("text", [
    json.dumps(DAG),
    "Sure! Here is the DAG:\n" + json.dumps(DAG, indent=2) + "\nHope this helps.",
    "```json\n" + json.dumps(DAG, indent=2) + "\n```",
    "```\n" + json.dumps(DAG) + "\n```",
    "<think>the chain has one step {maybe}</think>\n```json\n" + json.dumps(DAG) + "\n```",
    "A draft:\n```json\n{\"nodes\": 1}\n```\nThe final one:\n```JSON\n" + json.dumps(DAG)
    + "\n```",
    json.dumps({"dag": DAG}),
])
def test_answers_in_the_usual_wrappings_parse(text: str) -> None:
    assert parse_answer(text)["nodes"] == DAG["nodes"]


@pytest.mark.parametrize(("text", "reason"), [
    ("I cannot do that.", "the answer holds no JSON object"),
    ('{"nodes": [{"id": "step_1" "content": "x"}]}', "the answer is not valid JSON (Expecting"),
    ('{"steps": []}', "the answer's JSON has no 'nodes' list"),
    ("```python\nprint(1)\n```", "the answer holds no JSON object"),
    ("<think>" + json.dumps(DAG), "the answer ends inside <think>"),
])
def test_unparseable_answers_say_why_in_one_line(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_answer(text)
    assert str(info.value).startswith(reason) and "\n" not in str(info.value)


@pytest.mark.parametrize(("raw", "expected"), [
    ("Computation", "computation"), ("General Knowledge", "general knowledge"),
    ("general_knowledge", "general knowledge"), ("GENERAL-KNOWLEDGE", "general knowledge"),
    ("Logical inference", "logical"), ("definition", "declarative"),
    ("Declarative statement", "declarative"), ("calculation", "computation"),
    (" Verification ", "verification"), ("Hilbert axiom", "hilbert axiom"), (None, ""),
])
def test_statement_types_are_normalised(raw: object, expected: str) -> None:
    assert normalise_type(raw) == expected


def test_nodes_keep_step_ids_and_earlier_dependencies() -> None:
    nodes = normalise_nodes([
        {"id": "step_1", "content": "a = 1", "statement_type": "Declarative"},
        {"id": "step_2", "content": "b = a + 1 = 2", "dependencies": [1, "Step 1", "step_1"]},
        {"id": "step_0", "content": "zero is not a node id"},
        {"id": "step_2", "content": "a duplicate"},
        {"id": "step_3", "content": "  ", "dependencies": []},
        {"id": "step_4", "content": "c = 3", "dependencies": "step_2", "rule": "addition"},
        {"node_id": "step_5", "content": "d", "depends_on": ["step_err_1", "step_5", "x"]},
        "not a node",
    ])
    assert [n["id"] for n in nodes] == ["step_1", "step_2", "step_4", "step_5"]
    assert nodes[1]["content"] == "b = a + 1 = 2"
    assert [n["dependencies"] for n in nodes] == [[], ["step_1"], ["step_2"], []]
    assert nodes[2]["inference_rule"] == "addition"
    assert nodes[0]["statement_type"] == "declarative"


_ids = st.one_of(st.integers(0, 12).map(lambda n: f"step_{n}"),
                 st.sampled_from(["step_err_1", "Step_2", "step_02", "", "3"]))
_node = st.fixed_dictionaries({
    "id": _ids,
    "content": st.text(max_size=8),
    "statement_type": st.sampled_from([*STATEMENT_TYPES, "Computation", "other", ""]),
    "dependencies": st.lists(st.one_of(_ids, st.integers(-2, 14)), max_size=5),
})


@given(st.lists(_node, max_size=12))
def test_normalised_nodes_are_a_clean_graph(raw: list[dict[str, Any]]) -> None:
    nodes = normalise_nodes(raw)
    ids = [n["id"] for n in nodes]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"step_[1-9][0-9]*", i) for i in ids)
    assert all(n["content"] and n["content"] == n["content"].strip() for n in nodes)
    for node in nodes:
        assert node["id"] not in node["dependencies"]
        assert set(node["dependencies"]) <= set(ids)
        assert len(node["dependencies"]) == len(set(node["dependencies"]))
    assert normalise_nodes(nodes) == nodes
