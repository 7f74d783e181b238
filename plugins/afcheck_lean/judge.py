"""Judges: where a certified verdict comes from.

A Lean REPL's answer is read from the checked process's own output, which the checked code
can write to (a tactic configuration may print a line shaped like a clean ``#print axioms``).
So the REPL's messages are evidence for the reader and a reason to reject, never the reason
to certify. A *judge* certifies, in two processes that talk one way:

1. the challenge (afcheck's own statement, ending ``:= by sorry``, under afcheck's header) and
   then the solution (the candidate file) are compiled with ``lean -o``, each in a
   :class:`~afcheck_lean.sandbox.Sandbox` whose only writable place is its own scratch
   directory; their processes are killed when they end;
2. only then is a fresh directory made for the judge and a nonce drawn; the judge runs in a
   process of its own that loads the compiled modules without running their code and writes
   its answer into a result file there, carrying the nonce (:func:`read_result`).

The verdict is that file and nothing else: what the compiler, the judge or the candidate
printed is never read. No file, a file without the nonce, a malformed one: not certified.
A judge certifies only where the candidate's processes were isolated (bubblewrap) or the
isolation was turned off on purpose (``--lean-sandbox off``, recorded in the judgement):
without isolation a candidate's process could outlive its compilation and write the judge's
file itself.

The judges themselves (Comparator, SafeVerify, lean4checker, afcheck's own) are in
:mod:`afcheck_lean.judges`; this module holds what they share.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from afcheck_lean.lake_project import read_toolchain
from afcheck_lean.sandbox import Completed, Limits, Mode, Policy, Sandbox, SandboxError, kill

CHALLENGE_MODULE = "Challenge"
SOLUTION_MODULE = "Solution"
RESULT_FILE = "judgement.json"
RESULT_LIMIT = 65536
"""Bytes of a result file read at most: a judge's answer is one short JSON object."""

Trust = Literal["judge", "repl"]
TRUSTS: tuple[Trust, ...] = ("judge", "repl")
_default_trust: list[Trust] = ["judge"]


def default_trust() -> Trust:
    """The run-wide trust (``--trust``): ``judge`` (default) counts only judged verdicts,
    ``repl`` also counts what a Lean REPL accepted without a judge."""
    return _default_trust[0]


def set_default_trust(text: str) -> None:
    for trust in TRUSTS:
        if text == trust:
            _default_trust[0] = trust
            return
    raise ValueError(f"--trust must be one of {', '.join(TRUSTS)}, not {text!r}")


@dataclass(frozen=True)
class Challenge:
    """What must be proved: afcheck's own text, never a prover's."""

    header: str
    """The environment: afcheck's pool header and the method's declared header lines."""
    theorem: str
    """``theorem NAME … := by sorry``, rebuilt by afcheck from its statement."""
    name: str
    """The theorem the solution must prove."""
    axioms: frozenset[str]
    """The axioms the proof may rest on."""

    def source(self) -> str:
        return f"{self.header.rstrip()}\n\n{self.theorem.strip()}\n"


@dataclass(frozen=True)
class Solution:
    """The candidate: a complete Lean file that should prove :attr:`Challenge.name`."""

    source: str


@dataclass(frozen=True)
class Judgement:
    """A judge's answer on one (challenge, solution)."""

    certified: bool
    judge: str
    """Which judge answered (``comparator``, ``safeverify``, ``lean4checker``, ``afcheck``)."""
    reason: str
    """Why not, or ``certified``; where nothing was judged, why not."""
    sandbox: str = ""
    """How the candidate's processes were isolated: ``bubblewrap``, ``off`` (turned off on
    purpose), or why they were not."""
    decided: bool = True
    """Whether the judge decided: ``False`` when it could not judge (no isolation, afcheck's
    own challenge did not compile), which certifies nothing and rejects nothing."""


@runtime_checkable
class Judge(Protocol):
    """Answers certified / rejected for each case, from compiled artefacts only."""

    @property
    def name(self) -> str: ...

    @property
    def toolchain(self) -> str:
        """The Lean toolchain it was built with (``leanprover/lean4:v4.9.0``): it serves only
        projects pinned to that Lean."""
        ...

    def judge(self, cases: Sequence[tuple[Challenge, Solution]]) -> list[Judgement]: ...


class JudgeUnavailable(Exception):
    """A judge cannot serve here; ``str`` says why in one line."""


# -- the result channel -----------------------------------------------------------------------


def new_nonce() -> str:
    return secrets.token_hex(16)


def write_result(path: Path, nonce: str, certified: bool, reason: str) -> None:
    """Create the result file (never overwrite one): what a judge process writes."""
    data = json.dumps({"nonce": nonce, "certified": certified, "reason": reason})
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(data)


def read_result(path: Path, nonce: str) -> tuple[bool, str]:
    """``(certified, reason)`` from a judge's result file; anything but a regular file with
    the right nonce and typed fields is not certified, with the reason."""
    try:
        info = path.lstat()
    except OSError:
        return False, "the judge wrote no result"
    if not stat.S_ISREG(info.st_mode) or info.st_size > RESULT_LIMIT:
        return False, "the judge's result is not a plain file of a few bytes"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, "the judge's result is not JSON"
    if not isinstance(data, dict) or not isinstance(data.get("nonce"), str):
        return False, "the judge's result carries no nonce"
    if not hmac.compare_digest(data["nonce"].encode(), nonce.encode()):
        return False, "the judge's result carries another run's nonce"
    certified, reason = data.get("certified"), data.get("reason")
    if not isinstance(certified, bool) or not isinstance(reason, str):
        return False, "the judge's result is malformed"
    return certified, reason.strip() or ("certified" if certified else "rejected")


# -- compiling and judging ---------------------------------------------------------------------


@dataclass(frozen=True)
class Toolchain:
    """How Lean is run for the judges: ``lake env lean`` in the pinned project."""

    lake: str
    project: Path
    readable: tuple[Path, ...] = ()
    """Directories the Lean processes may read besides the project (the toolchain)."""
    sandbox: Mode = "auto"
    compile_s: float = 600.0
    memory_mb: int | None = None
    pass_env: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    """Variables set for every Lean process (``ELAN_HOME``: ``HOME`` is the scratch)."""
    workers: int = 1
    """Cases judged at once (each compiles and loads Mathlib: as many as the REPL pool)."""

    @property
    def version(self) -> str:
        """The project's pinned toolchain (its ``lean-toolchain``), or ``""``."""
        return read_toolchain(self.project)


@dataclass(frozen=True)
class Compiled:
    olean: Path | None
    """The compiled module, or ``None`` when Lean did not compile it."""
    sandbox: str
    """``bubblewrap``, ``off``, or why the compilation was not isolated."""
    why: str = ""
    timed_out: bool = False


@dataclass(frozen=True)
class Workspace:
    """One case's directories: the challenge's and the solution's scratch (each the only
    place its compilation may write), then the judge's own, made after both ended."""

    root: Path

    @property
    def challenge(self) -> Path:
        return self.root / "challenge"

    @property
    def solution(self) -> Path:
        return self.root / "solution"


def compile_module(toolchain: Toolchain, scratch: Path, module: str, source: str) -> Compiled:
    """Compile ``source`` as ``module`` with ``lake env lean -o`` in a sandbox whose only
    writable directory is ``scratch``; the ``.olean`` lands in ``scratch/build``."""
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "build").mkdir(exist_ok=True)
    (scratch / f"{module}.lean").write_text(source, encoding="utf-8")
    sandbox = Sandbox(Policy(scratch=scratch,
                             read_only=(toolchain.project, *toolchain.readable),
                             limits=Limits(cpu_s=int(toolchain.compile_s) + 1,
                                           memory_mb=toolchain.memory_mb),
                             keep=(*_KEPT, *toolchain.pass_env), extra_env=toolchain.env),
                      toolchain.sandbox)
    isolation = isolation_of(sandbox)
    olean = scratch / "build" / f"{module}.olean"
    done = _run_to_end(sandbox, [toolchain.lake, "env", "lean", f"--root={scratch}", "-o",
                                 str(olean), str(scratch / f"{module}.lean")],
                       toolchain.compile_s, toolchain.project)
    if done.timed_out:
        return Compiled(None, isolation, f"compiling {module} took over "
                        f"{toolchain.compile_s:g} s", timed_out=True)
    if done.returncode != 0 or not olean.is_file():
        # Lean's messages are the candidate's to shape: only the fact is reported.
        return Compiled(None, isolation, f"Lean did not compile {module} (exit status "
                        f"{done.returncode})")
    return Compiled(olean, isolation)


def _run_to_end(sandbox: Sandbox, command: list[str], timeout_s: float,
                cwd: Path) -> Completed:
    """Run ``command`` and then kill everything it started, whether it ended or timed out: a
    process the candidate's code left behind must not outlive its compilation."""
    process = sandbox.popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        process.wait(timeout=timeout_s)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    returncode = process.returncode
    kill(process)
    # The compiler's own output is never read: the candidate's code can write to it.
    return Completed(returncode if returncode is not None else -9, "", "", timed_out)


_KEPT = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "ELAN_HOME", "ELAN_TOOLCHAIN", "LEAN_PATH",
         "LEAN_SRC_PATH", "LEAN_SYSROOT", "LAKE_HOME")


def isolation_of(sandbox: Sandbox) -> str:
    if sandbox.isolated:
        return "bubblewrap"
    if sandbox.mode == "off":
        return "off"
    return sandbox.why


def certifiable(isolation: str) -> bool:
    """Whether a judgement may certify after the candidate's processes (its REPL commands,
    its compilation) were isolated so."""
    return isolation in ("bubblewrap", "off")


@dataclass(frozen=True)
class Step:
    """One process of a judge: ``argv`` with ``{challenge}``, ``{solution}``, ``{theorem}``,
    ``{axioms}``, ``{nonce}``, ``{result}``, ``{challenge_dir}``, ``{solution_dir}`` and
    ``{judge_dir}`` filled in. ``writes_result``: the program writes the result file itself
    (afcheck's judge); otherwise :mod:`afcheck_lean.judge_process` runs it and writes the
    file from its exit status (and, for SafeVerify, its ``Found a problem`` line)."""

    argv: tuple[str, ...]
    writes_result: bool = False
    report: str = "exit-status"
    """How :mod:`afcheck_lean.judge_process` reads the program: ``exit-status`` or
    ``safeverify``."""
    lake_env: bool = True
    """Run through ``lake env`` in the project (so that it finds Mathlib's modules)."""


class Prepare(Protocol):
    def __call__(self, space: Workspace, challenge: Challenge, directory: Path, /) -> Path: ...


@dataclass(frozen=True)
class ProcessJudge:
    """A judge made of programs run one after the other on compiled modules; all must
    certify. ``prepare`` writes what a program needs besides the two ``.olean`` files
    (Comparator's configuration)."""

    name: str
    toolchain: str
    lean: Toolchain
    steps: tuple[Step, ...]
    judge_s: float = 600.0
    compiles: bool = True
    """Whether afcheck compiles the modules first (Comparator compiles them itself, in its
    own landrun sandbox, from the sources in the judge's directory)."""
    root: Path | None = None
    """Where cases' directories are made (default: the system's temporary directory)."""
    prepare: Prepare | None = None
    """Writes what the programs need besides the modules (Comparator's configuration and
    project) into the judge's directory; returns the directory they run in."""

    def judge(self, cases: Sequence[tuple[Challenge, Solution]]) -> list[Judgement]:
        if self.lean.workers <= 1 or len(cases) <= 1:
            return [self._one(challenge, solution) for challenge, solution in cases]
        from concurrent.futures import ThreadPoolExecutor

        # Threads wait on processes; each case's directories and nonces are its own.
        with ThreadPoolExecutor(max_workers=min(self.lean.workers, len(cases))) as pool:
            return list(pool.map(lambda case: self._one(*case), cases))

    def _one(self, challenge: Challenge, solution: Solution) -> Judgement:
        root = Path(tempfile.mkdtemp(prefix="afcheck-judge-", dir=self.root))
        try:
            return self._in(Workspace(root), challenge, solution)
        finally:
            shutil.rmtree(root, ignore_errors=True)

    def _in(self, space: Workspace, challenge: Challenge, solution: Solution) -> Judgement:
        # The challenge first: nothing adversarial has run yet when afcheck's own text is
        # compiled.
        values = {"theorem": challenge.name, "axioms": ",".join(sorted(challenge.axioms)),
                  "challenge_dir": str(space.challenge), "solution_dir": str(space.solution)}
        isolation = self._isolation(space.root)
        if not certifiable(isolation):
            return Judgement(False, self.name, "nothing is certified: the candidate's Lean "
                             f"processes are not isolated ({isolation}); install bubblewrap, "
                             "or accept that with --lean-sandbox off", isolation,
                             decided=False)
        if self.compiles:
            made = compile_module(self.lean, space.challenge, CHALLENGE_MODULE,
                                  challenge.source())
            if made.olean is None:
                return Judgement(False, self.name, f"afcheck's challenge did not compile: "
                                 f"{made.why}", made.sandbox, decided=False)
            done = compile_module(self.lean, space.solution, SOLUTION_MODULE, solution.source)
            isolation = done.sandbox
            if done.olean is None:
                # A compilation past its time says nothing about the proof: not judged.
                return Judgement(False, self.name, done.why, isolation,
                                 decided=not done.timed_out)
            values |= {"challenge": str(made.olean), "solution": str(done.olean)}
        else:
            for directory, module, text in ((space.challenge, CHALLENGE_MODULE,
                                             challenge.source()),
                                            (space.solution, SOLUTION_MODULE, solution.source)):
                directory.mkdir(parents=True)
                (directory / f"{module}.lean").write_text(text, encoding="utf-8")
            values |= {"challenge": str(space.challenge / f"{CHALLENGE_MODULE}.lean"),
                       "solution": str(space.solution / f"{SOLUTION_MODULE}.lean")}
        # Drawn only now, after every process the candidate's code ran in has ended.
        for step in self.steps:
            # A fresh directory of an unpredictable name, made after the candidate's
            # processes were killed: nothing of theirs can have prepared it.
            directory = Path(tempfile.mkdtemp(prefix="judge-", dir=space.root))
            nonce = new_nonce()
            result = directory / RESULT_FILE
            cwd = self.prepare(space, challenge, directory) if self.prepare else None
            filled = [part.format(**values, nonce=nonce, result=str(result),
                                  judge_dir=str(directory)) for part in step.argv]
            self._run(step, filled, directory, nonce, result, cwd)
            certified, reason = read_result(result, nonce)
            if not certified:
                return Judgement(False, self.name, reason, isolation)
        if not certifiable(isolation):
            return Judgement(False, self.name, f"the judge accepted it, but the candidate ran "
                             f"without isolation ({isolation}), so nothing is certified "
                             "(--lean-sandbox off accepts that)", isolation, decided=False)
        return Judgement(True, self.name, "certified", isolation)

    def _isolation(self, scratch: Path) -> str:
        # Comparator compiles in its own landrun sandbox, but the candidate's code has run in
        # afcheck's REPLs too: their isolation is required whichever judge answers.
        try:
            return isolation_of(Sandbox(Policy(scratch=scratch), self.lean.sandbox))
        except SandboxError as exc:
            return str(exc)

    def _run(self, step: Step, argv: list[str], directory: Path, nonce: str,
             result: Path, cwd: Path | None) -> Completed:
        command = argv
        if not step.writes_result:
            command = [sys.executable, "-m", "afcheck_lean.judge_process", "--nonce", nonce,
                       "--result", str(result), "--report", step.report, "--", *argv]
        if step.lake_env:
            command = [self.lean.lake, "env", *command]
        sandbox = Sandbox(Policy(scratch=directory,
                                 read_only=(self.lean.project, *self.lean.readable,
                                            directory.parent, *_python_paths()),
                                 limits=Limits(cpu_s=int(self.judge_s) + 1,
                                               memory_mb=self.lean.memory_mb),
                                 keep=(*_KEPT, *self.lean.pass_env),
                                 extra_env=(*self.lean.env, *_plugin_path())),
                          # The judge runs no candidate code: the limits and the cleared
                          # environment are what it needs, with or without namespaces.
                          "off")
        return sandbox.run(command, timeout_s=self.judge_s, cwd=cwd or self.lean.project)


def _python_paths() -> tuple[Path, ...]:
    from afcheck_lean.sandbox import python_paths

    return python_paths()


def _plugin_path() -> tuple[tuple[str, str], ...]:
    """``PYTHONPATH`` for :mod:`afcheck_lean.judge_process`: where this package is."""
    here = Path(__file__).resolve().parent.parent
    return (("PYTHONPATH", str(here)),)
