"""Criterion ``beq-plus`` against the fake Lean REPL (lean-interact's real client)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

pytest.importorskip("lean_interact")

from afcheck_equivalence.beq_plus import CASCADE, BeqPlus, make  # noqa: E402
from afcheck_equivalence.records import Eq, Inconclusive, Pair  # noqa: E402
from afcheck_lean.pool import Failure  # noqa: E402
from fake_repl.harness import FakeLean, make_fake_lean  # noqa: E402

from afcheck.errors import MissingDependency  # noqa: E402
from afcheck.lean.session import LeanSession  # noqa: E402
from afcheck.plugins import get_plugins  # noqa: E402

REF = "theorem r (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry"
CAND = "theorem c (y : ℝ) (h : y * 2 = 4) : y = 2 := by sorry"
CHEAT = "theorem c (z : ℝ) (h : z * 2 = 4) : z = 2 := by sorry"
BASE_SORRY = {"severity": "warning", "pos": {"line": "$LINE_OF:theorem afcheck_base",
                                             "column": 8}, "data": "declaration uses 'sorry'"}


def _rules(tmp_path: Path) -> Path:
    def accept(*contains: str, at: str = "theorem afcheck_base") -> dict[str, object]:
        warning = dict(BASE_SORRY, pos={"line": f"$LINE_OF:{at}", "column": 8})
        return {"contains": list(contains), "response": {"env": "$ENV", "messages": [warning]}}

    rules = [
        {"env": "none", "contains": ["import Mathlib"], "response": {"env": "$ENV"}},
        accept("theorem afcheck_target (y : ℝ)", "convert afcheck_base using 1"),
        accept("theorem afcheck_target (x : ℝ)", "theorem afcheck_base (y : ℝ)",
               "apply afcheck_base"),
        # Lean "accepts" this one only because the target itself uses sorry: not a proof.
        accept("theorem afcheck_target (z : ℝ)", "apply afcheck_base",
               at="theorem afcheck_target"),
        accept("theorem afcheck_target (x : ℝ)", "theorem afcheck_base (z : ℝ)",
               "apply afcheck_base"),
    ]
    path = tmp_path / "beq.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rules))
    return path


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    yield from make_fake_lean(tmp_path, _rules(tmp_path))


def test_both_directions_closed_is_eq_and_a_sorry_in_the_target_is_not(fake: FakeLean) -> None:
    criterion = BeqPlus(fake.pool())
    try:
        eq, cheat = criterion.decide([Pair("1", REF, CAND), Pair("2", REF, CHEAT)])
    finally:
        criterion.session.close()
    assert isinstance(eq, Eq)
    proofs = {o.role: o.statement for o in eq.certificate}
    assert "convert afcheck_base using 1" in proofs["reference ⇒ candidate"]
    assert "apply afcheck_base" in proofs["candidate ⇒ reference"]
    assert isinstance(cheat, Inconclusive)
    assert cheat.reason == "no cascade proof of reference ⇒ candidate"
    assert not cheat.transient  # Lean answered every command: the pair's own answer
    sent = [c for c in fake.commands() if "afcheck_target" in c]
    assert len(sent) == 4 * len(CASCADE)  # every attempt of the batch, in one pool run


class TimingOutPool:
    """A Lean pool whose every command runs past its timeout (what a pool answers then)."""

    def run(self, commands: Sequence[str]) -> list[Failure]:
        return [Failure("timeout", "no answer within 60 s") for _ in commands]

    def close(self) -> None:
        pass


def test_a_pair_whose_commands_got_no_answer_is_transient() -> None:
    (decision,) = BeqPlus(TimingOutPool()).decide([Pair("1", REF, CAND)])
    assert isinstance(decision, Inconclusive)
    assert decision.transient  # a timeout says nothing about the pair: never cached


def test_unreadable_pair_is_inconclusive_without_lean_work(fake: FakeLean) -> None:
    criterion = BeqPlus(fake.pool())
    (decision,) = criterion.decide([Pair("1", "theorem r : (", CAND)])
    criterion.session.close()
    assert isinstance(decision, Inconclusive) and "cannot read" in decision.reason
    assert not [c for c in fake.commands() if "afcheck_target" in c]


def test_factory_without_lean_names_the_setup_command(tmp_path: Path) -> None:
    with pytest.raises(MissingDependency, match="criterion beq-plus needs .*afcheck lean setup"):
        make({"lake": str(tmp_path / "no-lake")}, get_plugins().create)


def test_the_session_is_the_lean_plugins_through_the_registry(fake: FakeLean) -> None:
    built: list[tuple[str, str, dict[str, str]]] = []

    def build(kind: str, name: str, options: object) -> object:
        built.append((kind, name, dict(options)))  # type: ignore[call-overload]
        return fake.pool()

    criterion = make({"prover": "smt", "prover.timeout_ms": "9", "timeout_s": "30"}, build)
    criterion.session.close()
    assert built == [("lean_session", "repl", {"timeout_s": "30"})]
    assert isinstance(criterion.session, LeanSession)
    plugins = get_plugins()
    assert "repl" in plugins.registry("lean_session")
    with pytest.raises(Exception, match="criterion beq-plus: .*lean_session 'nope'"):
        make({"session": "nope"}, plugins.create)
    with pytest.raises(Exception, match="not a Lean session"):
        make({}, lambda kind, name, options: object())
