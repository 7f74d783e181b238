"""The ``examples`` suite: its schema, and the truth of every reference statement.

The suite is the oracle the pipeline is sanity-checked against, so each ``lean.original`` must
be true and each ``lean.perturbed`` false. Three independent checks say so:

* an exact evaluator written here (``int`` / ``Fraction``, Lean's ℕ and ℤ semantics) decides
  every statement without parameters, enumerating bounded quantifiers;
* z3, driven directly from the same small parser, decides statements with parameters and
  hypotheses (and checks that the hypotheses can be met, so no original is vacuously true);
* the project's ``smt`` prover, when registered, must never contradict the expected verdicts.

The parser covers only the fragment the suite is written in; anything else is an error, which
keeps the suite inside what the ``smt`` prover and the Lean front end are built for.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

SUITE = Path(__file__).resolve().parent.parent / "suites" / "examples"
KEYS = {
    "problem_id",
    "node_id",
    "dataset",
    "problem",
    "context",
    "step",
    "perturbed",
    "statement_type",
    "lean",
    "note",
}
DATASETS = {"arithmetic", "algebra", "inequalities", "number-theory", "logic"}
STATEMENT_TYPES = {
    "computation",
    "logical",
    "simplification",
    "substitution",
    "verification",
    "general knowledge",
}
PREFIX = {
    "arithmetic": "arith",
    "algebra": "alg",
    "inequalities": "ineq",
    "number-theory": "nt",
    "logic": "logic",
}
SIDES = ("original", "perturbed")

# ------------------------------------------------------------------------------ the AST


@dataclass(frozen=True)
class Num:
    text: str


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Ascribe:
    expr: Node
    type: str


@dataclass(frozen=True)
class Neg:
    expr: Node


@dataclass(frozen=True)
class Bin:
    """Arithmetic (``+ - * / % ^``), relations (``= ≠ < ≤ > ≥ ∣``) and connectives."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class App:
    fn: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Abs:
    expr: Node


@dataclass(frozen=True)
class Not:
    expr: Node


@dataclass(frozen=True)
class Quant:
    kind: str
    var: str
    type: str
    body: Node


Node = Num | Var | Ascribe | Neg | Bin | App | Abs | Not | Quant


@dataclass(frozen=True)
class Theorem:
    name: str
    variables: tuple[tuple[str, str], ...]
    hypotheses: tuple[Node, ...]
    conclusion: Node
    binder_text: str


# ------------------------------------------------------------------------------ the parser

TYPES = {"ℕ", "ℤ", "ℚ", "ℝ"}
FUNCTIONS = {"Nat.gcd": 2, "Nat.factorial": 1, "min": 2, "max": 2, "Real.sqrt": 1}
ARITH = {"+", "-", "*", "/", "%", "^"}
RELATIONS = {"=", "≠", "<", "≤", ">", "≥", "∣"}
CONNECTIVES = {"∧", "∨", "→", "↔"}
# Lean 4 precedences; the right operand is parsed at ``right``: left-associative operators
# use prec + 1, right-associative ones prec, relations are not associative.
INFIX = {
    "↔": (20, 21),
    "→": (25, 25),
    "∨": (30, 30),
    "∧": (35, 35),
    "=": (50, 51),
    "≠": (50, 51),
    "<": (50, 51),
    "≤": (50, 51),
    ">": (50, 51),
    "≥": (50, 51),
    "∣": (50, 51),
    "+": (65, 66),
    "-": (65, 66),
    "*": (70, 71),
    "/": (70, 71),
    "%": (70, 71),
    "^": (75, 75),
}
TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z][A-Za-z0-9_.']*[₀-₉]*)"
    r"|(?P<sym>:=|[()|:,∀∃¬∧∨→↔=≠<≤>≥∣+\-*/%^ℕℤℚℝ]))"
)


class ParseError(ValueError):
    """Text outside the fragment the suite is written in."""


class Unbounded(ParseError):
    """A quantifier the evaluator cannot enumerate."""


def tokenize(text: str) -> list[str]:
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = TOKEN.match(text, pos)
        if match is None:
            raise ParseError(f"unexpected {text[pos : pos + 10]!r} at {pos}")
        tokens.append(match.group(match.lastgroup or "sym"))
        pos = match.end()
    return tokens


class Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ParseError(f"expected {expected or 'a token'} at token {self.pos}, got {token}")
        self.pos += 1
        return token

    def theorem(self) -> Theorem:
        self.take("theorem")
        name = self.take()
        start = self.pos
        variables: list[tuple[str, str]] = []
        hypotheses: list[Node] = []
        while self.peek() == "(":
            self.take("(")
            names = []
            while self.peek() != ":":
                names.append(self.take())
            self.take(":")
            if self.peek() in TYPES and self.tokens[self.pos + 1] == ")":
                typ = self.take()
                variables.extend((n, typ) for n in names)
            else:
                if len(names) != 1:
                    raise ParseError("a hypothesis binder names exactly one hypothesis")
                hypotheses.append(self.expr(0))
            self.take(")")
        binder_text = " ".join(self.tokens[start : self.pos])
        self.take(":")
        conclusion = self.expr(0)
        for token in (":=", "by", "sorry"):
            self.take(token)
        if self.peek() is not None:
            raise ParseError(f"trailing tokens after 'sorry': {self.tokens[self.pos :]}")
        return Theorem(name, tuple(variables), tuple(hypotheses), conclusion, binder_text)

    def expr(self, min_prec: int) -> Node:
        left = self.prefix()
        while (op := self.peek()) in INFIX and INFIX[op][0] >= min_prec:
            self.take()
            prec, right_prec = INFIX[op]
            right = self.expr(right_prec)
            left = Bin(op, left, right)
            if op in RELATIONS and self.peek() in RELATIONS:
                raise ParseError("chained relations are not Lean")
        return left

    def prefix(self) -> Node:
        token = self.peek()
        if token in ("∀", "∃"):
            self.take()
            var = self.take()
            self.take(":")
            typ = self.take()
            if typ not in TYPES:
                raise ParseError(f"unknown type {typ}")
            self.take(",")
            return Quant(token, var, typ, self.expr(0))
        if token == "¬":
            self.take()
            return Not(self.expr(40))
        if token == "-":
            self.take()
            return Neg(self.expr(75))
        return self.application()

    def application(self) -> Node:
        token = self.peek()
        if token in FUNCTIONS:
            self.take()
            return App(token, tuple(self.atom() for _ in range(FUNCTIONS[token])))
        return self.atom()

    def atom(self) -> Node:
        token = self.take()
        if token == "(":
            inner = self.expr(0)
            if self.peek() == ":":
                self.take(":")
                typ = self.take()
                if typ not in TYPES:
                    raise ParseError(f"unknown type {typ}")
                inner = Ascribe(inner, typ)
            self.take(")")
            return inner
        if token == "|":
            inner = self.expr(0)
            self.take("|")
            return Abs(inner)
        if re.fullmatch(r"\d+(\.\d+)?", token):
            return Num(token)
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_']*[₀-₉]*", token) and token not in FUNCTIONS:
            return Var(token)
        raise ParseError(f"unexpected token {token!r}")


def parse_theorem(text: str) -> Theorem:
    return Parser(text).theorem()


# ------------------------------------------------------------------------------ typing

WIDTH = {"ℕ": 0, "ℤ": 1, "ℚ": 2, "ℝ": 2}


def infer(node: Node, env: dict[str, str]) -> str | None:
    """The type an arithmetic term forces on its relation: the first ascription, variable or
    typed function on the term's spine (exponents do not count); ``None`` leaves Lean's
    default ℕ."""
    if isinstance(node, Var):
        return env[node.name]
    if isinstance(node, Ascribe):
        return node.type
    if isinstance(node, (Neg, Abs)):
        return infer(node.expr, env)
    if isinstance(node, Bin):
        if node.op == "^":
            return infer(node.left, env)
        return infer(node.left, env) or infer(node.right, env)
    if isinstance(node, App):
        if node.fn in ("min", "max"):
            return infer(node.args[0], env) or infer(node.args[1], env)
        return "ℝ" if node.fn == "Real.sqrt" else "ℕ"
    return None


def relation_type(node: Bin, env: dict[str, str]) -> str:
    return infer(node.left, env) or infer(node.right, env) or "ℕ"


# ------------------------------------------------------------------------------ evaluation

Value = int | Fraction


def _ediv(a: int, b: int) -> tuple[int, int]:
    """Lean's ℤ ``/`` and ``%`` (``Int.ediv``/``Int.emod``): the remainder is in [0, |b|)."""
    if b == 0:
        return 0, a
    r = a % abs(b)
    return (a - r) // b, r


def _cast(value: Value, source: str, target: str) -> Value:
    if WIDTH[source] > WIDTH[target]:
        raise ParseError(f"no coercion from {source} to {target}")
    return Fraction(value) if WIDTH[target] == 2 else value


def arith(op: str, a: Value, b: Value, typ: str) -> Value:
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "-":
        return max(a - b, 0) if typ == "ℕ" else a - b
    if typ in ("ℚ", "ℝ"):
        if op == "/":
            return Fraction(a) / b if b != 0 else Fraction(0)
        raise ParseError(f"'{op}' on {typ} is outside the fragment")
    assert isinstance(a, int) and isinstance(b, int)
    if typ == "ℕ":
        quotient, remainder = (a // b, a % b) if b else (0, a)
    else:
        quotient, remainder = _ediv(a, b)
    return quotient if op == "/" else remainder


def term(node: Node, env: dict[str, Any], types: dict[str, str], typ: str) -> Value:
    """Evaluate an arithmetic term at type ``typ``."""
    if isinstance(node, Num):
        if "." in node.text and typ not in ("ℚ", "ℝ"):
            raise ParseError(f"decimal {node.text} at type {typ}")
        return Fraction(node.text) if typ in ("ℚ", "ℝ") else int(node.text)
    if isinstance(node, Var):
        return _cast(env[node.name], types[node.name], typ)
    if isinstance(node, Ascribe):
        return _cast(term(node.expr, env, types, node.type), node.type, typ)
    if isinstance(node, Neg):
        if typ == "ℕ":
            raise ParseError("negation at type ℕ")
        return -term(node.expr, env, types, typ)
    if isinstance(node, Abs):
        if typ == "ℕ":
            raise ParseError("|·| at type ℕ")
        inner = term(node.expr, env, types, typ)
        return -inner if inner < 0 else inner
    if isinstance(node, Bin) and node.op in ARITH:
        left = term(node.left, env, types, typ)
        if node.op == "^":
            exponent = term(node.right, env, types, "ℕ")
            assert isinstance(exponent, int)
            return left**exponent
        return arith(node.op, left, term(node.right, env, types, typ), typ)
    if isinstance(node, App):
        return application(node, env, types, typ)
    raise ParseError(f"not a term: {node}")


def application(node: App, env: dict[str, Any], types: dict[str, str], typ: str) -> Value:
    if node.fn in ("min", "max"):
        values = [term(a, env, types, typ) for a in node.args]
        return min(values) if node.fn == "min" else max(values)
    if node.fn == "Real.sqrt":
        x = Fraction(term(node.args[0], env, types, "ℝ"))
        if x < 0:
            return _cast(Fraction(0), "ℝ", typ)
        root = Fraction(_isqrt_exact(x.numerator), _isqrt_exact(x.denominator))
        return _cast(root, "ℝ", typ)
    args = [term(a, env, types, "ℕ") for a in node.args]
    assert all(isinstance(a, int) for a in args)
    result = _nat_function(node.fn, [int(a) for a in args])
    return _cast(result, "ℕ", typ)


def _nat_function(fn: str, args: list[int]) -> int:
    return math.gcd(*args) if fn == "Nat.gcd" else math.factorial(args[0])


def _isqrt_exact(n: int) -> int:
    root = math.isqrt(n)
    if root * root != n:
        raise ParseError(f"sqrt of {n} is irrational; the evaluator is exact only")
    return root


def holds(node: Node, env: dict[str, Any], types: dict[str, str]) -> bool:
    """The truth of a proposition, enumerating bounded quantifiers."""
    if isinstance(node, Not):
        return not holds(node.expr, env, types)
    if isinstance(node, Quant):
        return quantified(node, env, types)
    if isinstance(node, Bin) and node.op in CONNECTIVES:
        left = holds(node.left, env, types)
        if node.op == "∧":
            return left and holds(node.right, env, types)
        if node.op == "∨":
            return left or holds(node.right, env, types)
        if node.op == "→":
            return (not left) or holds(node.right, env, types)
        return left == holds(node.right, env, types)
    if isinstance(node, Bin) and node.op in RELATIONS:
        typ = relation_type(node, types)
        a, b = term(node.left, env, types, typ), term(node.right, env, types, typ)
        return compare(node.op, a, b)
    raise ParseError(f"not a proposition: {node}")


def compare(op: str, a: Value, b: Value) -> bool:
    table: dict[str, Callable[[Value, Value], bool]] = {
        "=": lambda x, y: x == y,
        "≠": lambda x, y: x != y,
        "<": lambda x, y: x < y,
        "≤": lambda x, y: x <= y,
        ">": lambda x, y: x > y,
        "≥": lambda x, y: x >= y,
        "∣": lambda x, y: y == 0 if x == 0 else y % x == 0,
    }
    return table[op](a, b)


def bounds(node: Quant) -> tuple[int, int] | None:
    """Literal bounds from the guard of ``∀ x, lo ≤ x → x ≤ hi → …``, ``∀ x, x < n → …`` or
    ``∃ x, x < n ∧ …``; ℕ supplies the lower bound 0. ``None``: unbounded."""
    lo: int | None = 0 if node.type == "ℕ" else None
    hi: int | None = None
    body = node.body
    joint = "→" if node.kind == "∀" else "∧"
    while isinstance(body, Bin) and body.op == joint and isinstance(body.left, Bin):
        guard = body.left
        bound = _literal_bound(guard, node.var)
        if bound is None:
            break
        side, value = bound
        if side == "lo":
            lo = value
        else:
            hi = value
        body = body.right
    return None if lo is None or hi is None else (lo, hi)


def _literal_bound(guard: Bin, var: str) -> tuple[str, int] | None:
    def literal(node: Node) -> int | None:
        if isinstance(node, Num) and node.text.isdigit():
            return int(node.text)
        if isinstance(node, Neg) and isinstance(node.expr, Num) and node.expr.text.isdigit():
            return -int(node.expr.text)
        return None

    left_var = isinstance(guard.left, Var) and guard.left.name == var
    right_var = isinstance(guard.right, Var) and guard.right.name == var
    if left_var and (n := literal(guard.right)) is not None:
        return {"<": ("hi", n - 1), "≤": ("hi", n), ">": ("lo", n + 1), "≥": ("lo", n)}.get(
            guard.op
        )
    if right_var and (n := literal(guard.left)) is not None:
        return {"<": ("lo", n + 1), "≤": ("lo", n), ">": ("hi", n - 1), "≥": ("hi", n)}.get(
            guard.op
        )
    return None


def quantified(node: Quant, env: dict[str, Any], types: dict[str, str]) -> bool:
    span = bounds(node)
    if span is None:
        raise Unbounded(f"unbounded quantifier over {node.var}")
    inner_types = {**types, node.var: node.type}
    cases = (
        holds(node.body, {**env, node.var: value}, inner_types)
        for value in range(span[0], span[1] + 1)
    )
    return all(cases) if node.kind == "∀" else any(cases)


def ground_truth(theorem: Theorem) -> bool | None:
    """The truth of a statement without parameters; ``None`` when it has some, or when a
    quantifier is unbounded."""
    if theorem.variables or theorem.hypotheses:
        return None
    try:
        return holds(theorem.conclusion, {}, {})
    except Unbounded:
        return None


# ------------------------------------------------------------------------------ the data


def load_rows() -> list[dict[str, Any]]:
    with (SUITE / "steps.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


ROWS = load_rows()


def statements() -> Iterator[tuple[str, str, str]]:
    for row in ROWS:
        for side in SIDES:
            yield f"{row['problem_id']}/{row['node_id']}", side, row["lean"][side]


# ------------------------------------------------------------------------------ schema


def test_suite_toml_runs_the_jsonl_data_offline() -> None:
    import tomllib

    config = tomllib.loads((SUITE / "suite.toml").read_text(encoding="utf-8"))["afcheck"]
    assert config["schema"] == 1 and config["name"] == "examples" and config["kind"] == "jsonl"
    assert (SUITE / config["data"]).is_file()
    assert config["defaults"] == {
        "perturber": "given",
        "formaliser": "literal",
        "prover": "smt",
        "seed": 0,
    }
    assert config["description"].strip()


def test_rows_have_exactly_the_schema_keys_and_no_empty_fields() -> None:
    assert 60 <= len(ROWS) <= 70
    for row in ROWS:
        where = f"{row.get('problem_id')}/{row.get('node_id')}"
        assert set(row) == KEYS, where
        for key in KEYS - {"context", "lean"}:
            assert isinstance(row[key], str) and row[key].strip(), (where, key)
        assert set(row["lean"]) == set(SIDES), where
        assert all(isinstance(c, str) and c.strip() for c in row["context"]), where
        assert row["dataset"] in DATASETS, where
        assert row["statement_type"] in STATEMENT_TYPES, where
        assert row["perturbed"] != row["step"], where
        assert row["lean"]["original"] != row["lean"]["perturbed"], where


def test_every_dataset_is_represented() -> None:
    counts = {d: sum(r["dataset"] == d for r in ROWS) for d in DATASETS}
    assert all(n >= 5 for n in counts.values()), counts


def test_ids_are_unique_and_numbered_within_each_problem() -> None:
    ids = [(r["problem_id"], r["node_id"]) for r in ROWS]
    assert len(set(ids)) == len(ids)
    problems: dict[str, list[dict[str, Any]]] = {}
    for row in ROWS:
        problems.setdefault(row["problem_id"], []).append(row)
        assert re.fullmatch(rf"{PREFIX[row['dataset']]}-\d{{3}}", row["problem_id"])
    assert sum(len(rows) >= 2 for rows in problems.values()) >= 10
    for pid, rows in problems.items():
        assert [r["node_id"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)], pid
        assert len({(r["problem"], r["dataset"]) for r in rows}) == 1, pid
        for index, row in enumerate(rows):
            # the context of a step is exactly the steps before it in its problem
            assert row["context"] == [r["step"] for r in rows[:index]], (pid, row["node_id"])


def test_text_carries_natural_language_quirks() -> None:
    texts = " ".join(r["problem"] + " " + r["step"] for r in ROWS)
    for quirk in (r"\(", r"\frac{", r"\times", "$", "%", " km", "{,}"):
        assert quirk in texts, quirk
    assert re.search(r"\d,\d{3}", texts), "a thousands separator"


# ------------------------------------------------------------------------------ statements


@pytest.mark.parametrize(
    ("case", "side", "text"), [pytest.param(*s, id=f"{s[0]}-{s[1]}") for s in statements()]
)
def test_statement_parses_in_the_fragment_and_is_named_after_its_step(
    case: str, side: str, text: str
) -> None:
    theorem = parse_theorem(text)
    problem_id, node_id = case.split("/")
    assert theorem.name == f"{problem_id.replace('-', '_')}_{node_id}"
    assert text.endswith(" := by sorry")


def test_perturbation_keeps_the_context_hypotheses() -> None:
    """The perturbation edits the step only, so both statements bind the same quantities."""
    for row in ROWS:
        original, perturbed = (parse_theorem(row["lean"][s]) for s in SIDES)
        assert original.binder_text == perturbed.binder_text, row["problem_id"]


def test_ground_statements_original_true_perturbed_false() -> None:
    decided = 0
    for case, side, text in statements():
        truth = ground_truth(parse_theorem(text))
        if truth is None:
            continue
        decided += 1
        assert truth is (side == "original"), (case, side, text)
    assert decided >= 60


def test_evaluator_follows_lean_semantics() -> None:
    """The evaluator is the check of the checks: it must get Lean's corner cases right."""
    cases = {
        ": (7 : ℕ) - 9 = 0": True,
        ": 7 / 2 = 3": True,
        ": (7 : ℚ) / 2 = 3": False,
        ": (-7 : ℤ) / 2 = -4": True,
        ": (-7 : ℤ) % 2 = 1": True,
        ": (7 : ℤ) / (-2) = -3": True,
        ": (7 : ℤ) % (-2) = 1": True,
        ": (5 : ℤ) / 0 = 0 ∧ (5 : ℤ) % 0 = 5": True,
        ": (5 : ℝ) / 0 = 0": True,
        ": -(2 : ℤ) ^ 2 = -4": True,
        ": (0 : ℕ) ∣ 0 ∧ ¬ (0 : ℕ) ∣ 3": True,
        ": Real.sqrt (-4) = 0 ∧ Real.sqrt 16 = (4 : ℝ)": True,
        ": ∀ a : ℤ, -2 ≤ a → a ≤ 2 → a ^ 2 ≤ 4": True,
        ": ∃ n : ℕ, n < 3 ∧ n = 3": False,
        ": 2 ^ 3 ^ 2 = 512": True,
        ": 10 - 2 - 3 = 5": True,
    }
    for body, expected in cases.items():
        assert ground_truth(parse_theorem(f"theorem t {body} := by sorry")) is expected, body


# ------------------------------------------------------------------------------ z3


class Z3Translator:
    """Lean terms of the fragment as z3 terms with Lean's semantics; side conditions (the
    defining constraints of square roots) are collected in ``side``."""

    def __init__(self, z3: Any, types: dict[str, str]) -> None:
        self.z3 = z3
        self.types = dict(types)
        self.vars: dict[str, Any] = {}
        self.side: list[Any] = []
        for name, typ in types.items():
            self.vars[name] = self.fresh(name, typ)

    def fresh(self, name: str, typ: str) -> Any:
        return self.z3.Int(name) if WIDTH[typ] < 2 else self.z3.Real(name)

    def domain(self, name: str, typ: str) -> list[Any]:
        return [self.vars[name] >= 0] if typ == "ℕ" else []

    def prop(self, node: Node) -> Any:
        z3 = self.z3
        if isinstance(node, Not):
            return z3.Not(self.prop(node.expr))
        if isinstance(node, Quant):
            return self.quant(node)
        if isinstance(node, Bin) and node.op in CONNECTIVES:
            a, b = self.prop(node.left), self.prop(node.right)
            return {"∧": z3.And, "∨": z3.Or, "→": z3.Implies, "↔": lambda x, y: x == y}[node.op](
                a, b
            )
        assert isinstance(node, Bin) and node.op in RELATIONS
        typ = relation_type(node, self.types)
        a, b = self.term(node.left, typ), self.term(node.right, typ)
        if node.op == "∣":
            return z3.If(a == 0, b == 0, b % a == 0)
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "=": lambda x, y: x == y,
            "≠": lambda x, y: x != y,
            "<": lambda x, y: x < y,
            "≤": lambda x, y: x <= y,
            ">": lambda x, y: x > y,
            "≥": lambda x, y: x >= y,
        }
        return ops[node.op](a, b)

    def quant(self, node: Quant) -> Any:
        saved_var, saved_type = self.vars.get(node.var), self.types.get(node.var)
        self.types[node.var] = node.type
        self.vars[node.var] = self.fresh(node.var, node.type)
        body = self.prop(node.body)
        bound, domain = self.vars[node.var], self.domain(node.var, node.type)
        if node.kind == "∀":
            result = self.z3.ForAll([bound], self.z3.Implies(self.z3.And(*domain), body))
        else:
            result = self.z3.Exists([bound], self.z3.And(*domain, body))
        if saved_type is None:
            del self.vars[node.var], self.types[node.var]
        else:
            self.vars[node.var], self.types[node.var] = saved_var, saved_type
        return result

    def term(self, node: Node, typ: str) -> Any:
        z3 = self.z3
        if isinstance(node, Num):
            return (
                z3.RealVal(str(Fraction(node.text)))
                if WIDTH[typ] == 2
                else z3.IntVal(int(node.text))
            )
        if isinstance(node, Var):
            return self.cast(self.vars[node.name], self.types[node.name], typ)
        if isinstance(node, Ascribe):
            return self.cast(self.term(node.expr, node.type), node.type, typ)
        if isinstance(node, Neg):
            return -self.term(node.expr, typ)
        if isinstance(node, Abs):
            inner = self.term(node.expr, typ)
            return z3.If(inner >= 0, inner, -inner)
        if isinstance(node, App):
            return self.application(node, typ)
        assert isinstance(node, Bin) and node.op in ARITH
        a = self.term(node.left, typ)
        if node.op == "^":
            exponent = ground_nat(node.right)
            result = z3.IntVal(1) if WIDTH[typ] < 2 else z3.RealVal(1)
            for _ in range(exponent):
                result = result * a
            return result
        b = self.term(node.right, typ)
        if node.op == "-" and typ == "ℕ":
            return z3.If(a >= b, a - b, 0)
        if node.op == "/":
            return z3.If(b == 0, 0, a / b)
        if node.op == "%":
            return z3.If(b == 0, a, a % b)
        return {"+": a + b, "-": a - b, "*": a * b}[node.op]

    def application(self, node: App, typ: str) -> Any:
        z3 = self.z3
        if node.fn in ("min", "max"):
            a, b = (self.term(x, typ) for x in node.args)
            return z3.If(a <= b, a, b) if node.fn == "min" else z3.If(a >= b, a, b)
        if node.fn == "Real.sqrt":
            x = self.term(node.args[0], "ℝ")
            root = z3.FreshReal("sqrt")
            self.side.append(z3.If(x >= 0, z3.And(root >= 0, root * root == x), root == 0))
            return self.cast(root, "ℝ", typ)
        value = _nat_function(node.fn, [ground_nat(a) for a in node.args])
        return self.cast(z3.IntVal(value), "ℕ", typ)

    def cast(self, value: Any, source: str, target: str) -> Any:
        if WIDTH[source] > WIDTH[target]:
            raise ParseError(f"no coercion from {source} to {target}")
        if WIDTH[target] == 2 and WIDTH[source] < 2:
            return self.z3.ToReal(value)
        return value


def ground_nat(node: Node) -> int:
    value = term(node, {}, {}, "ℕ")
    assert isinstance(value, int)
    return value


def z3_verdict(z3: Any, theorem: Theorem) -> tuple[str, str]:
    """(hypotheses satisfiable?, status of hypotheses ∧ ¬conclusion): each 'sat', 'unsat' or
    'unknown'."""
    types = dict(theorem.variables)
    translator = Z3Translator(z3, types)
    premises = [translator.prop(h) for h in theorem.hypotheses]
    for name, typ in theorem.variables:
        premises.extend(translator.domain(name, typ))
    goal = translator.prop(theorem.conclusion)

    def check(*extra: Any) -> str:
        solver = z3.Solver()
        solver.set("timeout", 2000)
        solver.add(*premises, *translator.side, *extra)
        return str(solver.check())

    return check(), check(z3.Not(goal))


@pytest.mark.heavy
def test_z3_confirms_every_statement() -> None:
    z3 = pytest.importorskip("z3")
    decided = 0
    for case, side, text in statements():
        consistent, counter = z3_verdict(z3, parse_theorem(text))
        assert consistent == "sat", (case, side, "hypotheses cannot all hold")
        if side == "original":
            assert counter != "sat", (case, side, "z3 finds a counterexample")
        else:
            assert counter != "unsat", (case, side, "z3 proves the perturbed statement")
        decided += counter == ("unsat" if side == "original" else "sat")
    assert decided >= 2 * len(ROWS) - 4, decided


# ------------------------------------------------------------------------------ smt prover


@pytest.mark.heavy
def test_smt_prover_never_contradicts_the_reference_statements() -> None:
    from afcheck.plugins import get_plugins

    plugins = get_plugins()
    if "smt" not in plugins.registry("prover"):
        pytest.skip("the smt prover is not registered")
    from afcheck.types import ProofTask, VerdictKind

    prover = plugins.create("prover", "smt", {})
    cases = list(statements())
    tasks = [ProofTask(key=f"{c}#{s}", statement=t) for c, s, t in cases]
    verdicts = prover.prove(tasks)
    assert len(verdicts) == len(tasks)
    wrong = [
        (case, side, v.kind.value, v.reason)
        for (case, side, _), v in zip(cases, verdicts, strict=True)
        if v.kind is (VerdictKind.REFUTED if side == "original" else VerdictKind.PROVED)
    ]
    assert not wrong
    decided = sum(
        v.kind is (VerdictKind.PROVED if side == "original" else VerdictKind.REFUTED)
        for (_, side, _), v in zip(cases, verdicts, strict=True)
    )
    # Every statement lies in the prover's documented fragment; a few nonlinear integer
    # ones may time out.
    assert decided >= len(tasks) * 3 // 4, f"smt decided {decided} of {len(tasks)}"
