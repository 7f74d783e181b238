"""Each method against the floor of its own work done directly: the ratio of their CPU seconds.

A floor is what a plain script spends on the same inputs, with nothing of the method around it:

- ``nl2fol``: parse the candidate and the gold formulas (the project's Lark grammar) and check
  each candidate–gold pair once with z3 (¬(φ ↔ ψ) in pure logic, the same resource limit),
  all in one z3 context, in the golds' order until one is proved equivalent: the least any
  checker of "equivalent to some gold" does. The method does more per pair when that call
  does not decide it (a counter-model search over domains of 1–4 elements, the item's
  theory, Tarski's board; tree edit distances to rank several golds), so a ratio near 1 is
  reachable only where one call in pure logic decides (``nl2fol_tarski``: each item's first
  gold as its candidate);
- ``chains``: E alone on the TPTP problems the method sent it (captured from a run of the
  method, written to files beforehand), ``jobs`` at a time through ``xargs -P``, with the
  method's flags;
- ``equivalence``: z3 alone on the problems the ``smt`` prover gave it while ``sae`` decided
  the pairs of ``suites/equivalence-*`` (captured from a run of the method: the very
  assertions, as z3 terms): each in a fresh solver with the prover's time limit, checked, the
  model taken when satisfiable (the prover needs it for a counterexample). Not SMT-LIB text:
  z3 reading a problem back from its printing may search differently (on the unrelated pairs
  the text took z3 longer than the method's whole run).

The method and its floor run alternately, A B A B (``--rounds``), in this one process. Each
ratio (``floor_<name>_ratio``) is of CPU seconds, this process's and its children's, the
least of each side; on a machine shared with other work the wall times grow with the load
and are printed beside (``_wall_ratio``), with the load average (stderr and
``floors_load_1min``). Prints ``name value target``. ``--quick``: the first 100 labelled
candidates, 300 FOLIO items, 60 PrOntoQA and 40 ProofWriter chains, 20 pairs of each
equivalence suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET = "1.5"


def data_dir() -> Path:
    value = os.environ.get("AFCHECK_DATA_DIR")
    return Path(value) if value else ROOT.parent / "shared" / "data"


def cpu_s() -> float:
    """User + system seconds of this process and of its waited-for children (E's)."""
    import resource

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def own_cpu_s() -> float:
    """User + system seconds of this process alone (its children, E, left out)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def alternate(method: Callable[[], object], floor: Callable[[], object],
              rounds: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The least (CPU, wall) seconds of each side, run A B A B …"""
    best = {"method": [float("inf")] * 2, "floor": [float("inf")] * 2}
    for _ in range(rounds):
        for side, run in (("method", method), ("floor", floor)):
            cpu, wall = cpu_s(), time.perf_counter()
            run()
            cpu, wall = cpu_s() - cpu, time.perf_counter() - wall
            best[side] = [min(best[side][0], cpu), min(best[side][1], wall)]
    return (best["method"][0], best["floor"][0]), (best["method"][1], best["floor"][1])


def report(name: str, times: tuple[tuple[float, float], tuple[float, float]]) -> None:
    """The ratio of CPU seconds (z3 and the parser run in this process, E in children), which
    other work on a shared machine changes far less than the wall times, printed beside."""
    (method_cpu, floor_cpu), (method_wall, floor_wall) = times
    load = os.getloadavg()[0]
    print(f"floor_{name}_ratio {method_cpu / floor_cpu:.2f} {TARGET}", flush=True)
    print(f"floor_{name}_wall_ratio {method_wall / floor_wall:.2f} -", flush=True)
    print(f"floor_{name}_method_cpu_s {method_cpu:.2f} -", flush=True)
    print(f"floor_{name}_floor_cpu_s {floor_cpu:.2f} -", flush=True)
    print(f"# {name}: method {method_cpu:.2f} s CPU ({method_wall:.2f} s wall), floor "
          f"{floor_cpu:.2f} s CPU ({floor_wall:.2f} s wall), load {load:.2f}",
          file=sys.stderr, flush=True)


# -- nl2fol -----------------------------------------------------------------------------------


def nl2fol_floor(pairs: Sequence[tuple[str, Sequence[str], object]]) -> Callable[[], object]:
    """Parse each candidate and its golds, one z3 call per pair in pure logic, in one
    context, until a gold is proved equivalent (the question is whether any gold is)."""
    import z3
    from afcheck_fol.equiv import DEFAULT_RLIMIT
    from afcheck_fol.syntax import FolSyntaxError, parse
    from afcheck_fol.theory import theory_named
    from afcheck_fol.z3_encode import Encoder

    def run() -> object:
        ctx = z3.Context()
        answers = []
        for candidate, golds, language in pairs:
            try:
                left = parse(candidate, language)  # type: ignore[arg-type]
            except FolSyntaxError:
                continue
            rights = [parse(gold, language) for gold in golds]  # type: ignore[arg-type]
            theory = theory_named(language, "none")  # type: ignore[arg-type]
            for right in rights:
                encoder = Encoder(ctx=ctx)
                solver = z3.Solver(ctx=ctx)
                solver.set("rlimit", DEFAULT_RLIMIT)
                for axiom in theory.axioms:
                    solver.add(encoder.formula(axiom, {}))
                try:
                    solver.add(encoder.formula(left, {}) != encoder.formula(right, {}))
                except ValueError:  # an open formula
                    continue
                answers.append(solver.check())
                if answers[-1] == z3.unsat:
                    break
        return answers

    return run


def nl2fol_method(pairs: Sequence[tuple[str, Sequence[str], object]]) -> Callable[[], object]:
    """The evaluator on the same pairs: the golds parsed as a suite loads them, then decided."""
    from afcheck_fol.syntax import parse
    from afcheck_nl2fol.decide import decide
    from afcheck_nl2fol.records import Candidate
    from afcheck_nl2fol.suite import Item

    def run() -> object:
        decisions = []
        for n, (candidate, golds, language) in enumerate(pairs):
            item = Item(id=f"i{n}", sentence="", gold=tuple(golds), difficulty="",
                        language=language,  # type: ignore[arg-type]
                        formulas=tuple(parse(g, language) for g in golds))  # type: ignore[arg-type]
            decisions.append(decide(item, Candidate(item.id, candidate)))
        return decisions

    return run


def nl2fol(quick: bool, rounds: int) -> None:
    from afcheck_fol.language import TARSKI
    from afcheck_nl2fol.labels import load_labels
    from afcheck_nl2fol.suite import folio_path, load_folio, load_jsonl

    suite = ROOT / "suites" / "tarski"
    items = {item.id: item for item in load_jsonl(suite / "sentences.jsonl", TARSKI).items}
    gold = [(item.gold[0], item.gold, item.language) for item in items.values()]
    entries, _ = load_labels(suite / "labelled.jsonl")
    labelled = [(e.candidate, items[e.item].gold, items[e.item].language) for e in entries
                ][: 100 if quick else None]
    workloads: list[tuple[str, list[tuple[str, Sequence[str], object]]]] = [
        ("nl2fol_tarski", gold), ("nl2fol_tarski_labelled", labelled)]
    path = folio_path(str(data_dir()))
    if path is None:
        print("# skipped FOLIO: no folio/folio-train.jsonl under AFCHECK_DATA_DIR",
              file=sys.stderr)
    else:
        # An item whose gold FOL the loader rejected has no formulas; neither side can use it.
        folio = [(i.gold[0], i.gold, i.language) for i in load_folio(path).items if i.formulas]
        workloads.append(("nl2fol_folio", folio[: 300 if quick else None]))
    for name, pairs in workloads:
        report(name, alternate(nl2fol_method(pairs), nl2fol_floor(pairs), rounds))


# -- chains -----------------------------------------------------------------------------------


class Recording:
    """A prover that passes every batch on and keeps the problems' TPTP text."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name = inner.name  # type: ignore[attr-defined]
        self.version = inner.version  # type: ignore[attr-defined]
        self.fingerprint = inner.fingerprint  # type: ignore[attr-defined]
        self.texts: list[str] = []

    def prove(self, problems: Sequence[object]) -> list[object]:
        self.texts += [p.text for p in problems]  # type: ignore[attr-defined]
        return self.inner.prove(problems)  # type: ignore[attr-defined,no-any-return]


def chains(quick: bool, rounds: int) -> None:
    from afcheck_chains.controlled import clear_cache
    from afcheck_chains.formalise import FolChains, RuleFormaliser
    from afcheck_chains.loaders import load_logic_llm
    from afcheck_chains.pipeline import run_chains
    from afcheck_chains.records import ChainRecord
    from afcheck_fol.provers import EProver, make_fol_prover

    prover = make_fol_prover("eprover")
    if not isinstance(prover, EProver):
        print("# skipped chains: E is not installed", file=sys.stderr)
        return
    formaliser = FolChains(RuleFormaliser())
    for dataset, count in (("prontoqa", 60), ("proofwriter", 40)):
        path = data_dir() / dataset / "dev.json"
        if not path.is_file():
            print(f"# skipped {dataset}: no {path}", file=sys.stderr)
            continue
        records = [r for r in load_logic_llm(path, dataset) if isinstance(r, ChainRecord)]
        records = records[: count if quick else None]
        recording = Recording(prover)
        run_chains(records, formaliser, recording)  # type: ignore[arg-type]
        folder = Path(tempfile.mkdtemp(prefix="afcheck-floor-"))
        try:
            for n, text in enumerate(recording.texts):
                (folder / f"p{n}.p").write_text(text, encoding="utf-8")
            listing = "\n".join(str(folder / f"p{n}.p") for n in range(len(recording.texts)))
            # The method's own command line; xargs puts a file where the method gives stdin.
            command = ["xargs", "-P", str(max(1, prover.jobs)), "-n", "1", *prover.command()]

            def floor(command: list[str] = command, listing: str = listing) -> object:
                return subprocess.run(command, input=listing, text=True,
                                      stdout=subprocess.DEVNULL, check=False)

            own: list[float] = []

            def method(records: list[ChainRecord] = records, own: list[float] = own) -> object:
                clear_cache()  # each round translates its sentences cold, as a first run does
                started = own_cpu_s()
                try:
                    return run_chains(records, formaliser, prover)
                finally:
                    own.append(own_cpu_s() - started)

            calls = len(recording.texts)
            print(f"# chains_{dataset}: {len(records)} chains, {calls} E calls",
                  file=sys.stderr)
            report(f"chains_{dataset}", alternate(method, floor, rounds))
            # The method's CPU outside E (formalising, printing, driving E) per E call: E's
            # own time grows with the machine's load, this far less.
            print(f"floor_chains_{dataset}_own_ms_per_call {1000 * min(own) / calls:.2f} -",
                  flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


# -- equivalence ------------------------------------------------------------------------------


EQUIVALENCE_SUITES = ("unrelated", "perturbations", "rewrites")


@contextmanager
def z3_problems(problems: list[tuple[list[Any], int]]) -> Iterator[None]:
    """Keep every problem the ``smt`` prover checks meanwhile: its assertions (z3's own terms,
    kept alive, so the floor checks exactly what the prover checked) and its time limit. The
    prover builds each solver in ``_check``; wrapping that one function sees every z3 call
    without changing what the prover does."""
    from afcheck_smt import prover as smt

    original = smt._check

    def recording(assertions: list[Any], timeout_ms: int) -> tuple[str, Any]:
        problems.append((list(assertions), timeout_ms))
        return original(assertions, timeout_ms)

    smt._check = recording  # type: ignore[assignment]
    try:
        yield
    finally:
        smt._check = original  # type: ignore[assignment]


def equivalence_floor(problems: Sequence[tuple[list[Any], int]]) -> Callable[[], object]:
    """Each captured problem in a fresh solver, checked with its time limit."""
    import z3

    def run() -> object:
        answers = []
        for assertions, timeout_ms in problems:
            solver = z3.Solver()
            solver.set("timeout", timeout_ms)
            solver.add(*assertions)
            answer = solver.check()
            if answer == z3.sat:
                solver.model()
            answers.append(answer)
        return answers

    return run


def equivalence(quick: bool, rounds: int) -> None:
    from afcheck_equivalence.decide import decide
    from afcheck_equivalence.suite import Item, load

    from afcheck.lean.elaborate import clear_cache
    from afcheck.plugins import get_plugins

    plugins = get_plugins()
    for suite in EQUIVALENCE_SUITES:
        items = [i for i in load(ROOT / "suites" / f"equivalence-{suite}" / "items.jsonl")
                 if isinstance(i, Item)][: 20 if quick else None]
        # One process, no pool: the floor runs in this process too.
        criterion = plugins.create("criterion", "sae", {"prover": "smt", "prover.jobs": "1"})
        problems: list[tuple[list[Any], int]] = []
        with z3_problems(problems):
            decide(items, criterion)

        def method(items: list[Item] = items, criterion: object = criterion) -> object:
            clear_cache()  # each round reads its statements cold, as a first run does
            return decide(items, criterion)  # type: ignore[arg-type]

        print(f"# equivalence_{suite}: {len(items)} pairs, {len(problems)} z3 calls",
              file=sys.stderr)
        report(f"equivalence_{suite}", alternate(method, equivalence_floor(problems), rounds))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=2, help="alternations (default 2)")
    parser.add_argument("--only", default="nl2fol,chains,equivalence",
                        help="any of nl2fol, chains, equivalence (default all)")
    args = parser.parse_args(argv)
    print(f"floors_load_1min {os.getloadavg()[0]:.2f} -", flush=True)
    wanted = {w.strip() for w in args.only.split(",")}
    if "nl2fol" in wanted:
        nl2fol(args.quick, args.rounds)
    if "chains" in wanted:
        chains(args.quick, args.rounds)
    if "equivalence" in wanted:
        equivalence(args.quick, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
