"""The ``dag`` step mode of ProcessBench suites: each error-free chain split by an LLM into a
DAG of atomic statements (FaithformBench App. D).

Collection never calls a model, so the split is its own explicit, cached step::

    afcheck dag suites/gsm8k --llm-opt base_url=http://127.0.0.1:8000/v1,model=NAME

sends every chain of the suite to the model in one batched call and writes the rows in the
released ``dags.json`` format (a JSON array)::

    {"id", "problem", "dags": {"nodes": [...], "final_answer", "metadata": {"notes",
     "difficulty"}}, "split", "generator", "final_answer_correct"}

Each node has ``id`` (``step_<N>``), ``content``, ``statement_type`` (one of
:data:`STATEMENT_TYPES`), ``dependencies`` (node ids), ``inference_rule`` and
``verification_note``. Nodes whose id is not ``step_<N>`` are dropped as glitches, as the
released loader does. afcheck adds ``source_sha256`` (the chain's content), ``model`` and
``prompt_version`` to each row, and ``error`` / ``error_kind`` to a chain that failed.

``afcheck <suite> --steps dag`` then reads that file: each non-declarative node is a step whose
context is the contents of its parents; declarative nodes are context only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from afcheck_faithfulness.records import Step

from afcheck.errors import AfcheckError, LoadError, SuiteError, UsageError
from afcheck.jsonlines import json_message, named_by_line, read_json_array
from afcheck.suites import DATA_DIR_ENV, SuiteSpec, find_in_data_dir
from afcheck.types import Location

if TYPE_CHECKING:
    from afcheck.llm import Completion, LLMClient, Sampling

DAGS_ENV = "AFCHECK_DAGS"
CACHE_ENV = "AFCHECK_CACHE_DIR"
DEFAULT_MAX_TOKENS = 8192
STATEMENT_TYPES = ("computation", "logical", "declarative", "general knowledge",
                   "simplification", "substitution", "verification")

SYSTEM_PROMPT = """\
You are an expert in mathematical logic and proof theory. Your task is to analyze mathematical \
reasoning chains and represent them as directed acyclic graphs (DAGs).

For each step in the reasoning:
1. Classify it as axiom/assumption (no dependencies) or deduction (depends on prior steps)
2. Identify the type of statement (computation, logical inference, etc.)
3. Determine if it's verifiable (can be independently checked)
4. List all dependencies (previous steps it relies on)
5. Name the inference rule used if it's a deduction

DO NOT INCLUDE THE PROBLEM STATEMENT AMONG THE DAG STEPS.

Be precise and thorough in your analysis."""

OUTPUT_FORMAT = """\
Answer with one JSON object and nothing else, in exactly this format:
{
  "nodes": [
    {
      "id": "step_1",
      "content": "the statement, self-contained, in the notation of the chain",
      "statement_type": "computation",
      "node_type": "deduction",
      "verifiable": true,
      "dependencies": ["ids of the earlier nodes it relies on; [] for an axiom/assumption"],
      "inference_rule": "the rule it applies, e.g. substitution; empty for an axiom/assumption",
      "verification_note": "how the statement can be checked"
    }
  ],
  "final_answer": "the final answer of the chain",
  "metadata": {"notes": "anything else worth noting", "difficulty": "easy, medium or hard"}
}
Number the nodes step_1, step_2, ... in the order of the chain, without gaps. A dependency \
names an earlier node. "node_type" is "axiom" or "deduction". "statement_type" is exactly \
one of:
- computation: an arithmetic or algebraic calculation (adding numbers, evaluating an expression)
- logical: a logical inference or deduction (if-then, therefore, a conclusion from premises)
- declarative: assigns a value to a variable, defines a variable or declares an object \
("Let x = 5", "Define f(x) = x^2 + 1")
- general knowledge: a known fact, theorem, property or formula, used without derivation
- simplification: simplifies an expression, reduces a fraction, combines like terms
- substitution: replaces variables or expressions by their values or equivalents
- verification: checks or confirms a result against the conditions of the problem"""

USER_PROMPT = """\
Analyze this mathematical reasoning chain and convert it into a structured DAG:

{reasoning_chain}

Create a complete DAG representation with:
- Each reasoning step as a node
- Proper dependency relationships
- Hilbert-style proof annotations
- Verifiability assessment
- Statement type classification

""" + OUTPUT_FORMAT

PROMPT_VERSION = "d-" + hashlib.sha256((SYSTEM_PROMPT + USER_PROMPT).encode()).hexdigest()[:8]
"""Changes whenever the prompt does, so a new prompt never reuses answers to the old one."""

_NODE_ID = re.compile(r"^step_([1-9][0-9]*)$")
_DEPENDENCY = re.compile(r"^\s*(?:step[_ ]?)?([1-9][0-9]*)\s*$", re.I)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n(.*?)```", re.S)
_TYPE_SYNONYMS = {
    "calculation": "computation", "computational": "computation", "arithmetic": "computation",
    "logic": "logical", "logical inference": "logical", "deduction": "logical",
    "inference": "logical", "definition": "declarative", "assignment": "declarative",
    "declaration": "declarative", "assumption": "declarative", "knowledge": "general knowledge",
    "fact": "general knowledge", "theorem": "general knowledge", "simplify": "simplification",
    "substitute": "substitution", "check": "verification", "verify": "verification",
}


# -- the released format ------------------------------------------------------------------------


def normalise_type(raw: object) -> str:
    """One of :data:`STATEMENT_TYPES` where the label says which; else the label in lower case
    (the released code counts any non-declarative type as a test, and so does afcheck)."""
    label = " ".join(re.sub(r"[_\-]+", " ", str(raw or "")).lower().split())
    if label in STATEMENT_TYPES:
        return label
    if label in _TYPE_SYNONYMS:
        return _TYPE_SYNONYMS[label]
    found = [t for t in STATEMENT_TYPES if t in label]
    return found[0] if len(found) == 1 else label


def normalise_nodes(raw: object) -> list[dict[str, Any]]:
    """The nodes of a DAG answer or a released row, as a list of clean node records.

    Accepts a list of node objects or an object keyed by node id. Keeps nodes whose id is
    ``step_<N>`` and whose content is not empty (the first of duplicate ids); dependencies are
    reduced to ids of kept nodes other than the node itself.
    """
    items = _node_items(raw)
    kept: dict[str, dict[str, Any]] = {}
    for node_id, node in items:
        content = node.get("content")
        if _NODE_ID.match(node_id) and node_id not in kept and isinstance(content, str) \
                and content.strip():
            kept[node_id] = node
    return [_clean_node(node_id, node, kept) for node_id, node in kept.items()]


def _node_items(raw: object) -> list[tuple[str, dict[str, Any]]]:
    if isinstance(raw, Mapping):
        return [(str(k).strip(), dict(v)) for k, v in raw.items() if isinstance(v, Mapping)]
    if isinstance(raw, list):
        return [(str(n.get("id", n.get("node_id", ""))).strip(), dict(n))
                for n in raw if isinstance(n, Mapping)]
    return []


def _clean_node(node_id: str, node: Mapping[str, Any], kept: Mapping[str, Any]) -> dict[str, Any]:
    deps: list[str] = []
    raw_deps = _first(node, "dependencies", "depencies", "depends_on", "parents") or []
    for dep in raw_deps if isinstance(raw_deps, list) else [raw_deps]:
        match = _DEPENDENCY.match(str(dep))
        dep_id = f"step_{match.group(1)}" if match else ""
        if dep_id in kept and dep_id != node_id and dep_id not in deps:
            deps.append(dep_id)
    clean: dict[str, Any] = {
        "id": node_id,
        "content": str(node["content"]).strip(),
        "statement_type": normalise_type(_first(node, "statement_type", "type")),
        "dependencies": deps,
        "inference_rule": str(_first(node, "inference_rule", "rule") or ""),
        "verification_note": str(_first(node, "verification_note", "verification") or ""),
    }
    for extra in ("node_type", "verifiable"):
        if extra in node:
            clean[extra] = node[extra]
    return clean


def _first(node: Mapping[str, Any], *keys: str) -> Any:
    return next((node[k] for k in keys if node.get(k) not in (None, "")), None)


def node_number(node_id: str) -> int:
    match = _NODE_ID.match(node_id)
    return int(match.group(1)) if match else 0


def parse_answer(text: str) -> dict[str, Any]:
    """The DAG object of a model's answer: a fenced ```json block (the last one) or the outer
    ``{…}`` of the text. Raises ``ValueError`` with a one-line reason."""
    close = text.rfind("</think>")
    if close < 0 and "<think>" in text:
        raise ValueError("the answer ends inside <think> (no answer after the reasoning)")
    body = text[close + len("</think>"):] if close >= 0 else text
    fences = [m.group(2) for m in _FENCE.finditer(body) if m.group(1).lower() in ("", "json")]
    if fences:
        body = fences[-1]
    else:
        start, end = body.find("{"), body.rfind("}")
        if start < 0 or end < start:
            raise ValueError("the answer holds no JSON object")
        body = body[start:end + 1]
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the answer is not valid JSON ({json_message(exc)} at line "
                         f"{exc.lineno}, "
                         f"column {exc.colno})") from None
    if isinstance(data, dict) and "nodes" not in data:
        data = next((v for k, v in data.items() if k in ("dag", "dags") and isinstance(v, dict)),
                    data)
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list | dict):
        raise ValueError("the answer's JSON has no 'nodes' list")
    return data


# -- chains and rows ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chain:
    """One error-free ProcessBench chain, as the splitter sees it."""

    id: str
    problem: str
    steps: tuple[str, ...]
    row: Mapping[str, Any]

    @property
    def sha256(self) -> str:
        payload = json.dumps([self.problem, list(self.steps)], ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()

    def reasoning_chain(self) -> str:
        paragraphs = "\n\n".join(f"Paragraph {i}: {s}" for i, s in enumerate(self.steps, 1))
        return f"Problem: {self.problem}\n\nReasoning chain:\n{paragraphs}"


def user_prompt(chain: Chain) -> str:
    # str.replace, not str.format: the output format spec is full of JSON braces.
    return USER_PROMPT.replace("{reasoning_chain}", chain.reasoning_chain())


def dag_row(chain: Chain, split: str, model: str, dag: Mapping[str, Any] | None,
            error: str = "", error_kind: str = "") -> dict[str, Any]:
    """A row of ``dags.json``; ``dag`` is the parsed answer, ``None`` for a failed chain."""
    metadata = dag.get("metadata") if dag else None
    metadata = metadata if isinstance(metadata, Mapping) else {}
    row: dict[str, Any] = {
        "id": chain.id,
        "problem": chain.problem,
        "dags": {
            "nodes": normalise_nodes(dag.get("nodes")) if dag else [],
            "final_answer": str(dag.get("final_answer", "")) if dag else "",
            "metadata": {"notes": str(metadata.get("notes", "")),
                         "difficulty": str(metadata.get("difficulty", ""))},
        },
        "split": split,
        "generator": chain.row.get("generator", ""),
        "final_answer_correct": chain.row.get("final_answer_correct"),
        "source_sha256": chain.sha256,
        "model": model,
        "prompt_version": PROMPT_VERSION,
    }
    if error:
        row.update(error=error, error_kind=error_kind)
    return row


def nodes_of(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    dags = row.get("dags")
    return normalise_nodes(dags.get("nodes")) if isinstance(dags, Mapping) else []


# -- where the DAG file is ----------------------------------------------------------------------


def cache_dir() -> Path:
    value = os.environ.get(CACHE_ENV)
    if value:
        return Path(value)
    from afcheck.runtime.cache import default_dir

    return default_dir()


def default_out(split: str, model: str) -> Path:
    """``<cache>/dags/<split>-<sha256(model, prompt version)[:12]>.json``."""
    digest = hashlib.sha256(json.dumps([model, PROMPT_VERSION]).encode()).hexdigest()[:12]
    return cache_dir() / "dags" / f"{split}-{digest}.json"


def split_of(spec: SuiteSpec) -> str:
    return spec.split or spec.name


def locate(spec: SuiteSpec) -> Path:
    """The DAG file of a suite: ``dags`` in ``[afcheck.options]``, else ``$AFCHECK_DAGS``,
    else ``$AFCHECK_DATA_DIR/processbench/<split>.dags.json``, else the one file ``afcheck
    dag`` wrote for the split in the cache folder."""
    split = split_of(spec)
    option = spec.options.get("dags")
    if option:
        return _existing(spec.root / str(option), spec, "dags in [afcheck.options]")
    env = os.environ.get(DAGS_ENV)
    if env:
        return _existing(Path(env), spec, DAGS_ENV)
    found = find_in_data_dir([f"processbench/{split}.dags.json"])
    if found is not None:
        return found
    cached = sorted((cache_dir() / "dags").glob(f"{split}-*.json"))
    if len(cached) == 1:
        return cached[0]
    if cached:
        names = ", ".join(str(p) for p in cached)
        raise SuiteError(spec.manifest, f"several DAG files for split '{split}' ({names}); "
                         f"choose one with {DAGS_ENV}=FILE or dags = \"FILE\" in "
                         "[afcheck.options]")
    raise SuiteError(
        spec.manifest,
        f"step mode 'dag' needs the LLM split of the '{split}' chains: run `afcheck dag "
        f"{_shown(spec.root)} --llm-opt base_url=…,model=…` first (or set {DAGS_ENV}=FILE, "
        f"dags = \"FILE\" in [afcheck.options], or put processbench/{split}.dags.json in "
        f"{DATA_DIR_ENV})",
    )


def _existing(path: Path, spec: SuiteSpec, where: str) -> Path:
    if not path.is_file():
        raise SuiteError(spec.manifest, f"DAG file {path} (from {where}) not found; write it "
                         f"with `afcheck dag {_shown(spec.root)} --out {path} --llm-opt …`")
    return path


def _shown(root: Path) -> str:
    try:
        return str(root.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(root)


# -- the loader ---------------------------------------------------------------------------------


def load_steps(spec: SuiteSpec) -> Iterator[Step | LoadError]:
    """The steps of ``--steps dag``: one per non-declarative node, parents as context; a row
    that cannot be read is one :class:`LoadError` at its line, the others still load."""
    path = locate(spec)
    rows = read_rows(path, spec.manifest)
    split = split_of(spec)
    read = [r for r in rows if not isinstance(r, LoadError)]
    mine = [(r, where) for r, where in read if r.get("split") in (None, "", split)]
    if read and not mine:
        others = ", ".join(sorted({str(r.get("split")) for r, _ in read}))
        raise SuiteError(path, f"no DAG rows for split '{split}' (the file holds {others})")
    chosen = {id(r) for r, _ in mine}
    for entry in rows:
        if isinstance(entry, LoadError):
            yield entry
        elif id(entry[0]) in chosen:
            yield from _row_steps(spec, entry[0], entry[1])


def read_rows(path: Path, owner: Path | str
              ) -> list[tuple[dict[str, Any], Location] | LoadError]:
    """Each DAG row of the file with the line it starts on (and its number in the array where
    its line holds others too), read one record at a time (:func:`afcheck.jsonlines.
    read_json_array`: bounded in size and depth); a row that cannot be read (bad bytes, too
    deep, not JSON, never ends, not an object) is a :class:`LoadError` at its line.
    :class:`SuiteError` when the file cannot be read or is not a JSON array."""
    try:
        elements = list(read_json_array(path))
    except OSError as exc:
        raise SuiteError(owner, f"cannot read DAG file {path}: {exc.strerror}") from None
    out: list[tuple[dict[str, Any], Location] | LoadError] = []
    for element in named_by_line(elements):
        if element.fatal:
            raise SuiteError(element.location, "expected a JSON array of DAG rows ({id, "
                             "problem, dags, …}); write it again with `afcheck dag`")
        where = element.location
        if not element.ok:
            out.append(LoadError(where, f"{element.problem}; or write the file again with "
                                 "`afcheck dag`"))
        elif not isinstance(element.value, dict):
            out.append(LoadError(where, "a DAG row is a JSON object ({id, problem, dags, …}); "
                                 "fix or remove it"))
        else:
            out.append((element.value, where))
    return out


def _row_steps(spec: SuiteSpec, row: Mapping[str, Any],
               where: Location) -> Iterator[Step | LoadError]:
    from afcheck_suites.source import RowSteps

    problem_id = str(row.get("id") or "")
    if not problem_id:
        yield LoadError(where, "DAG row has no 'id'")
        return
    if row.get("error"):
        yield LoadError(where, f"chain {problem_id} has no DAG: {row['error']}; run `afcheck "
                        f"dag {_shown(spec.root)} --retry-failed --llm-opt …`", problem_id)
        return
    nodes = nodes_of(row)
    content = {n["id"]: n["content"] for n in nodes}
    shared = RowSteps.of(spec, row, problem_id, where)
    for node in nodes:
        if node["statement_type"] == "declarative":
            continue
        parents = sorted(node["dependencies"], key=node_number)
        yield shared.step(node["id"], node["content"],
                          tuple(content[p] for p in parents), {
                              "statement_type": node["statement_type"],
                              "dependencies": list(node["dependencies"]),
                              "inference_rule": node["inference_rule"],
                              "verification_note": node["verification_note"],
                          })


# -- the command --------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see `afcheck dag --help`)")


DESCRIPTION = ("Split the error-free chains of a ProcessBench suite into DAGs of atomic "
               "statements with an LLM (FaithformBench App. D), for `--steps dag`.")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="afcheck dag", description=DESCRIPTION)
    configure(parser)
    return parser


def configure(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Add ``afcheck dag``'s arguments to ``parser``; returns the handler."""
    parser.add_argument("suite", help="a processbench suite folder, e.g. suites/gsm8k")
    parser.add_argument("--out", help="the dags.json to write (default: in the cache folder, "
                        "named by split, model and prompt version)")
    parser.add_argument("--llm-opt", action="append", default=[], metavar="K=V[,K=V]",
                        help="LLM client option (model=…, base_url=…, max_tokens=…), repeatable")
    parser.add_argument("--limit", type=int, default=None, help="split only the first N chains")
    parser.add_argument("--retry-failed", action="store_true",
                        help="ask again for chains written with an error")
    return handle


def handle(args: argparse.Namespace) -> int:
    """``afcheck dag``: 0 when the file is written (failed chains included), 2 on bad input."""
    try:
        return _run(args)
    except AfcheckError as exc:
        print(f"afcheck dag: error: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str]) -> int:
    """``afcheck dag`` with its arguments as a list."""
    try:
        args = _parser().parse_args(list(argv))
    except AfcheckError as exc:
        print(f"afcheck dag: error: {exc}", file=sys.stderr)
        return 2
    return handle(args)


_NOT_GREEDY = ("temperature", "top_p", "top_k", "n")


def _run(args: argparse.Namespace) -> int:
    from afcheck.llm import Options, Sampling, make_client
    from afcheck.options import parse_kv

    spec, chains = _chains(Path(args.suite), args.limit)
    options = Options("afcheck dag", parse_kv(args.llm_opt, "llm"))
    options.check_known()
    for key in _NOT_GREEDY:
        if key in options.values:
            raise UsageError(f"afcheck dag decodes greedily; drop --llm-opt {key}=…")
    if not options.text("model"):
        raise UsageError("afcheck dag needs a model: --llm-opt model=NAME "
                         "(add base_url=http://HOST:PORT/v1 for an OpenAI-compatible server)")
    sampling = Sampling(max_tokens=options.typed("max_tokens", int, DEFAULT_MAX_TOKENS),
                        temperature=0.0, seed=options.typed("seed", int, 0))
    model = options.text("model")
    out = Path(args.out) if args.out else default_out(split_of(spec), model)
    previous = _previous(out)
    todo = [c for c in chains if _needs_asking(previous.get(c.id), c, args.retry_failed)]
    fresh = _split(make_client(options, model=model), todo, split_of(spec), model, sampling)
    rows = _merge(chains, previous, fresh)
    from afcheck.fileio import write_atomic

    write_atomic(out, json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    _report(out, chains, rows, asked=len(todo))
    return 0


def _chains(root: Path, limit: int | None) -> tuple[SuiteSpec, list[Chain]]:
    from afcheck.suites import is_suite_dir, load_spec
    from afcheck_suites.source import resolve, rows

    if not is_suite_dir(root):
        raise UsageError(f"{root} is not a suite folder (no suite.toml with an [afcheck] table)")
    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be at least 1, got {limit}")
    spec = load_spec(root)
    if spec.kind != "processbench":
        raise UsageError(f"{root} is a '{spec.kind}' suite; afcheck dag splits processbench "
                         "suites")
    chains: list[Chain] = []
    for row, where in rows(resolve(spec)):
        if not isinstance(row, dict) or row.get("label") != -1:
            continue
        if not row.get("id") or not isinstance(row.get("steps"), list):
            print(f"afcheck dag: {where}: row needs 'id' and a list 'steps'; skipped",
                  file=sys.stderr)
            continue
        chains.append(Chain(str(row["id"]), str(row.get("problem", "")),
                            tuple(str(s) for s in row["steps"]), row))
    return spec, chains[:limit] if limit is not None else chains


def _previous(out: Path) -> dict[str, dict[str, Any]]:
    if not out.exists():
        return {}
    try:
        rows = read_rows(out, out)
    except SuiteError as exc:
        raise UsageError(f"{exc}; remove it or choose another --out") from None
    # A row that cannot be read is asked again, and written whole this time.
    return {str(r.get("id")): r for r in (e[0] for e in rows if not isinstance(e, LoadError))}


def _needs_asking(row: Mapping[str, Any] | None, chain: Chain, retry_failed: bool) -> bool:
    if row is None or row.get("source_sha256") != chain.sha256:
        return True
    if not row.get("error"):
        return False
    # A backend failure is transient; a greedy answer that did not parse would not change.
    return retry_failed or row.get("error_kind") == "backend"


def _split(client: LLMClient, chains: Sequence[Chain], split: str, model: str,
           sampling: Sampling) -> dict[str, dict[str, Any]]:
    """Every chain's row, from one batched ``generate`` call."""
    from afcheck.llm import chat

    if not chains:
        return {}
    prompts = [chat(SYSTEM_PROMPT, user_prompt(c)) for c in chains]
    try:
        outputs = client.generate(prompts, sampling)
    finally:
        close = getattr(client, "close", None)
        if callable(close):
            close()
    return {c.id: _row_of(c, samples, split, model, sampling.max_tokens)
            for c, samples in zip(chains, outputs, strict=True)}


def _row_of(chain: Chain, samples: Sequence[Completion], split: str, model: str,
            max_tokens: int) -> dict[str, Any]:
    if not samples or not samples[0].ok:
        reason = samples[0].error if samples else "no answer"
        return dag_row(chain, split, model, None, f"backend error: {reason}", "backend")
    try:
        dag = parse_answer(samples[0].text)
    except ValueError as exc:
        if samples[0].truncated:
            return dag_row(chain, split, model, None, f"the answer was cut at max_tokens="
                           f"{max_tokens} ({exc}); raise --llm-opt max_tokens=…", "truncated")
        return dag_row(chain, split, model, None, str(exc), "parse")
    row = dag_row(chain, split, model, dag)
    if not row["dags"]["nodes"]:
        return dag_row(chain, split, model, None, "the answer has no node with id step_<N> "
                       "and content", "parse")
    return row


def _merge(chains: Sequence[Chain], previous: Mapping[str, dict[str, Any]],
           fresh: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The chains' rows in data order, then earlier rows of chains not asked this time."""
    ids = {c.id for c in chains}
    rows = [fresh.get(c.id) or previous[c.id] for c in chains]
    return rows + [r for key, r in previous.items() if key not in ids]


def _report(out: Path, chains: Sequence[Chain], rows: Sequence[Mapping[str, Any]],
            asked: int) -> None:
    ids = {c.id for c in chains}
    mine = [r for r in rows if r.get("id") in ids]
    failed = [r for r in mine if r.get("error")]
    for row in failed:
        print(f"afcheck dag: {row['id']}: {row['error']}", file=sys.stderr)
    nodes = [n for r in mine for n in nodes_of(r)]
    declarative = sum(n["statement_type"] == "declarative" for n in nodes)
    print(f"afcheck dag: wrote {out}")
    print(f"chains {len(mine)} (asked {asked}, reused {len(mine) - asked}), nodes {len(nodes)}, "
          f"declarative {declarative}, steps {len(nodes) - declarative}, failures {len(failed)}")
