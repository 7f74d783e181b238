"""Suite manifests and the built-in suite kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_faithfulness.records import Step

from afcheck.errors import LoadError, SuiteError
from afcheck.plugins import Plugins, get_plugins
from afcheck.suites import is_suite_dir, load_spec

ROOT = Path(__file__).resolve().parent.parent


def load(folder: Path, **settings: object) -> list[Step | LoadError]:
    spec = load_spec(folder).with_settings(settings)
    return list(get_plugins().create("suite_kind", spec.kind).load(spec))


def test_only_afcheck_tables_make_a_suite(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text('[tool]\nname = "x"\n')
    assert not is_suite_dir(tmp_path)
    (tmp_path / "suite.toml").write_text('[afcheck]\nname = "x"\nkind = "jsonl"\ndata = "d"\n')
    assert is_suite_dir(tmp_path)


def test_unknown_manifest_key_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "x"\nkind = "jsonl"\ndata = "d"\ndefualts = 1\n')
    with pytest.raises(SuiteError, match=r"suite.toml:5: unknown key 'defualts'"):
        load_spec(tmp_path)


def test_unsupported_schema(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nschema = 9\nname = "x"\nkind = "jsonl"\ndata = "d"\n')
    with pytest.raises(SuiteError, match="schema 9 is not supported"):
        load_spec(tmp_path)


def test_command_line_overrides_suite_defaults(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "x"\nkind = "jsonl"\ndata = "d"\n[afcheck.defaults]\nprover = "a"\n')
    spec = load_spec(tmp_path)
    assert spec.with_settings({}).setting("prover") == "a"
    assert spec.with_settings({"prover": "b"}).setting("prover") == "b"
    method_defaults = {"formaliser": "literal", "prover": "c"}
    assert spec.with_settings({"prover": None}, method_defaults).setting("formaliser") == (
        "literal")
    assert spec.with_settings({}, method_defaults).setting("prover") == "a"


def test_shipped_suites_parse() -> None:
    for name in ("gsm8k", "math", "olympiadbench", "omnimath", "examples"):
        spec = load_spec(ROOT / "suites" / name)
        assert spec.name == name
        assert spec.kind in get_plugins().registry("suite_kind")


def test_faithformbench_rows_join_versions(tmp_path: Path) -> None:
    rows = [
        {"problem_id": "gsm8k-1", "node_id": "step_1", "step_content": "2 + 2 = 4",
         "is_perturbed": False, "type_of_perturbation": "unperturbed",
         "statement_type": "computation", "dependencies_content": ["x = 2"]},
        {"problem_id": "gsm8k-1", "node_id": "step_1", "step_content": "2 + 2 = 5",
         "is_perturbed": True, "type_of_perturbation": "regex_perturbed"},
        {"problem_id": "gsm8k-1", "node_id": "step_1", "step_content": "2 + 3 = 4",
         "is_perturbed": "True", "type_of_perturbation": "brokenmath-style_llm",
         "depencies": ["step_0"]},
        {"problem_id": "gsm8k-1", "node_id": "step_2", "step_content": "Let y = 3",
         "is_perturbed": False, "type_of_perturbation": "unperturbed",
         "statement_type": "declarative"},
        {"problem_id": "gsm8k-2", "node_id": "step_1", "step_content": "1 < 2", "oops": 1},
    ]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "ffb"\nkind = "faithformbench"\ndata = "rows.jsonl"\n')
    loaded = load(tmp_path)
    steps = [s for s in loaded if isinstance(s, Step)]
    errors = [e for e in loaded if isinstance(e, LoadError)]
    assert [s.id for s in steps] == ["ffb/gsm8k-1/step_1"]  # declarative nodes are context
    assert steps[0].perturbed_text == "2 + 2 = 5"
    assert steps[0].metadata["perturbations"] == {"regex": "2 + 2 = 5", "LLM": "2 + 3 = 4"}
    assert steps[0].context == ("x = 2",) and steps[0].dataset == "gsm8k"
    assert len(errors) == 1 and "rows.jsonl:5: unknown field 'oops'" in str(errors[0])


def test_processbench_without_data_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AFCHECK_DATA_DIR", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(SuiteError, match="set AFCHECK_DATA_DIR to a folder holding "
                       "processbench/gsm8k.json"):
        load(ROOT / "suites" / "gsm8k")


@pytest.mark.realdata
def test_processbench_gsm8k_paragraph_steps(data_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFCHECK_DATA_DIR", str(data_dir))
    steps = [s for s in load(ROOT / "suites" / "gsm8k") if isinstance(s, Step)]
    problems = {s.problem_id for s in steps}
    assert len(problems) == 193  # the error-free chains
    raw = json.loads((data_dir / "processbench" / "gsm8k.json").read_text())
    assert len(steps) == sum(len(r["steps"]) for r in raw if r["label"] == -1)
    first = next(s for s in steps if s.node_id == "1")
    assert len(first.context) == 1 and first.id == f"gsm8k/{first.problem_id}/1"
    again = [s.id for s in load(ROOT / "suites" / "gsm8k") if isinstance(s, Step)]
    assert again == [s.id for s in steps]


def test_processbench_records_are_located_at_their_own_line(tmp_path: Path) -> None:
    rows = [{"id": "gsm8k-0", "problem": "p", "steps": ["So: 1 + 1 = 2"], "label": -1},
            ["not", "a", "row"],
            {"id": "gsm8k-2", "problem": "p", "steps": ["So: 2 + 2 = 4"], "label": -1}]
    text = json.dumps(rows, indent=2)
    (tmp_path / "gsm8k.json").write_text(text, encoding="utf-8")
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
    first, bad, last = load(tmp_path)
    lines = text.splitlines()
    assert isinstance(first, Step) and first.source is not None
    assert lines[first.source.line - 1].strip() == "{" and first.source.line == 2
    assert isinstance(bad, LoadError) and lines[bad.location.line - 1].strip() == "["
    assert "a ProcessBench row is a JSON object, not list" in str(bad)
    assert isinstance(last, Step) and last.source is not None
    assert '"gsm8k-2"' in lines[last.source.line]


def test_a_processbench_row_that_is_not_utf8_loses_only_itself(tmp_path: Path) -> None:
    good = {"id": "gsm8k-2", "problem": "p", "steps": ["So: 2 + 2 = 4"], "label": -1}
    (tmp_path / "gsm8k.json").write_bytes(b'[{"id": "gsm8k-0", "problem": "\xff"},\n'
                                          + json.dumps(good).encode() + b"]")
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
    bad, *steps = load(tmp_path)
    assert isinstance(bad, LoadError) and bad.location.line == 1
    assert bad.message == "not UTF-8 (byte 0xff); save the file as UTF-8"
    assert steps and all(isinstance(step, Step) for step in steps)


def test_a_processbench_file_that_is_not_an_array_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "gsm8k.json").write_text('{"id": "gsm8k-0"}')
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
    with pytest.raises(SuiteError, match="gsm8k.json:1: expected a JSON array of records"):
        load(tmp_path)


def test_a_processbench_row_that_never_ends_or_a_missing_bracket_loses_only_itself(
        tmp_path: Path) -> None:
    rows = [{"id": f"gsm8k-{n}", "problem": "p", "steps": ["So: 2 + 2 = 4"], "label": -1}
            for n in range(3)]
    text = json.dumps(rows, indent=2)
    # The second row loses its closing brace, the file its closing bracket.
    broken = text.replace('"label": -1\n  },\n  {\n    "id": "gsm8k-2"',
                          '"label": -1,\n  {\n    "id": "gsm8k-2"', 1).rstrip().removesuffix("]")
    assert broken.count("{") == 3 and broken.count("}") == 2
    (tmp_path / "gsm8k.json").write_text(broken, encoding="utf-8")
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
    loaded = load(tmp_path)
    assert [s.problem_id for s in loaded if isinstance(s, Step)] == ["gsm8k-0", "gsm8k-2"]
    errors = [e for e in loaded if isinstance(e, LoadError)]
    assert [e.message.split(" (")[0] for e in errors] == [
        "a record that never ends", "the array is not closed with ']'; the file may be cut short"]
    assert broken.splitlines()[errors[0].location.line - 1].strip() == "{"


def test_processbench_ids_that_cannot_name_a_test(tmp_path: Path) -> None:
    rows = [{"id": "gsm8k-0\x1b[2J", "problem": "p", "steps": ["So: 1 + 1 = 2"], "label": -1},
            {"id": ["gsm8k-1"], "problem": "p", "steps": ["So: 1 + 1 = 2"], "label": -1},
            {"id": "gsm8k-2", "problem": "p", "steps": ["So: 2 + 2 = 4"], "label": -1}]
    (tmp_path / "gsm8k.json").write_text(json.dumps(rows), encoding="utf-8")
    (tmp_path / "suite.toml").write_text(
        '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
    escaped, listed, good = load(tmp_path)
    assert isinstance(escaped, LoadError) and escaped.message.startswith(
        "'id' holds control or bidirectional characters (gsm8k-0\\x1b[2J)")
    assert isinstance(listed, LoadError)
    assert listed.message == "'id' must be a string or an integer, not a list"
    assert isinstance(good, Step) and good.problem_id == "gsm8k-2"


BASE = '[afcheck]\nname = "x"\nkind = "jsonl"\n'


@pytest.mark.parametrize(("body", "message"), [
    ('data = 5\n', r"suite.toml:4: 'data' must be a file name \(a string\), not the integer 5"),
    ('data = "d"\ndefaults = "regex"\n',
     r"suite.toml:5: 'defaults' must be a table \(\[afcheck.defaults\]\), "
     r'not the string "regex"'),
    ('data = "d"\noptions = [1]\n',
     r"suite.toml:5: 'options' must be a table \(\[afcheck.options\]\), not a list"),
    ('data = "d"\n[afcheck.defaults]\nlimit = "ten"\n',
     r"suite.toml:6: 'limit' in \[afcheck.defaults\] must be a whole number 0 or more, "
     r'not the string "ten"'),
    ('data = "d"\n[afcheck.defaults]\nlimit = -1\n',
     r"suite.toml:6: 'limit' in \[afcheck.defaults\] must be a whole number 0 or more, "
     r"not the integer -1"),
    ('data = "d"\n[afcheck.defaults]\nseed = 1.5\n',
     r"suite.toml:6: 'seed' in \[afcheck.defaults\] must be a whole number, not the number 1.5"),
    ('data = "d"\n[afcheck.defaults]\nseed = true\n',
     r"suite.toml:6: 'seed' in \[afcheck.defaults\] must be a whole number, not the boolean true"),
    ('data = "d"\n[afcheck.defaults]\nprover = 3\n',
     r"suite.toml:6: 'prover' in \[afcheck.defaults\] must be a string, not the integer 3"),
    ('source = "Qwen/ProcessBench"\nsplit = 7\n',
     r"suite.toml:5: 'split' must be a string, not the integer 7"),
])
def test_manifest_values_of_the_wrong_type(tmp_path: Path, body: str, message: str) -> None:
    from afcheck_faithfulness.method import Faithfulness

    (tmp_path / "suite.toml").write_text(BASE + body)
    kinds = [kind.name for kind in Plugins().kinds.selectable()]
    with pytest.raises(SuiteError, match=message):
        load_spec(tmp_path, kinds, Faithfulness.settings)


def test_good_manifest_values_load(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text(
        BASE + 'data = "d"\n[afcheck.defaults]\nlimit = 0\nseed = -3\nprover = "smt"\n'
        '[afcheck.options]\ndags = "x.json"\n')
    spec = load_spec(tmp_path)
    assert spec.defaults == {"limit": 0, "seed": -3, "prover": "smt"}
    assert spec.options == {"dags": "x.json"}


def test_schema_given_as_a_string(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_text(BASE + 'schema = "1"\ndata = "d"\n')
    with pytest.raises(SuiteError) as info:
        load_spec(tmp_path)
    assert str(info.value).endswith("suite.toml:4: 'schema' must be the integer 1 (schema = 1), "
                                    "not the string \"1\"")


def test_a_manifest_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_bytes(b'[afcheck]\nname = "caf\xe9"\nkind = "jsonl"\n')
    assert is_suite_dir(tmp_path)
    with pytest.raises(SuiteError, match=r"suite.toml:2: not UTF-8 \(byte 0xe9\); save it as "
                       "UTF-8"):
        load_spec(tmp_path)


def test_a_foreign_manifest_in_another_encoding_is_not_a_suite(tmp_path: Path) -> None:
    (tmp_path / "suite.toml").write_bytes(b'[tool]\nname = "caf\xe9"\n')
    assert not is_suite_dir(tmp_path)


def test_a_foreign_non_utf8_manifest_does_not_block_a_good_suite(arith: pytest.Pytester) -> None:
    from conftest import write_suite

    write_suite(arith.path / "suites", "good", [
        {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 1 = 2"}],
        {"perturber": "given", "formaliser": "arith", "prover": "arith"})
    (arith.path / "suites" / "other").mkdir()
    (arith.path / "suites" / "other" / "suite.toml").write_bytes(b'[tool]\nname = "caf\xe9"\n')
    result = arith.runpytest("suites", "--afcheck-plugin", "arith")
    result.assert_outcomes(passed=1)


def test_a_bad_manifest_is_one_line_that_names_it(arith: pytest.Pytester) -> None:
    from conftest import write_suite

    write_suite(arith.path / "suites", "good", [
        {"problem_id": "p", "node_id": "1", "step": "So: 2 + 3 = 5", "perturbed": "So: 1 = 2"}],
        {"perturber": "given", "formaliser": "arith", "prover": "arith"})
    bad = write_suite(arith.path / "suites", "bad", [], {"limit": "ten"})
    result = arith.runpytest("suites", "--afcheck-plugin", "arith")
    assert result.ret == 2
    text = result.stdout.str()
    assert f"{bad / 'suite.toml'}:7: 'limit' in [afcheck.defaults] must be a whole number" in text
    assert "Traceback" not in text and "ValueError" not in text


def test_processbench_rows_without_ids_are_named_by_their_place(tmp_path: Path) -> None:
    rows = [{"problem": "p", "steps": ["So: 1 + 1 = 2"], "label": -1},
            {"problem": "p", "steps": ["So: 2 + 2 = 4"], "label": -1}]
    for name, text in (("pretty", json.dumps(rows, indent=2)), ("one-line", json.dumps(rows))):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "gsm8k.json").write_text(text, encoding="utf-8")
        (folder / "suite.toml").write_text(
            '[afcheck]\nname = "pb"\nkind = "processbench"\ndata = "gsm8k.json"\n')
        ids = [s.problem_id for s in load(folder) if isinstance(s, Step)]
        assert ids == (["line2", "line9"] if name == "pretty" else ["record1", "record2"])
