"""The ray executor on a real two-node Ray cluster on loopback (``ray start`` twice).

The cluster is started once for the module, inside a network namespace with loopback only
where the machine allows it (:func:`ray_cluster.loopback_only`), and stopped by the process
groups it started. The tests that lose part of it run last, in this order: one kills the second
node while chunks are in flight and checks that the run still equals an undisturbed local run
and that every result reached the cache; the last kills the head under an ``afcheck`` run.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from arith import ArithProver

from afcheck import hookimpl
from afcheck.errors import UsageError
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.registry import EXECUTOR, PROVER, Register
from afcheck.runtime import Components, Runtime
from afcheck.runtime import cache as codec
from afcheck.runtime.executor import Executor, LocalExecutor
from afcheck.types import ProofTask, Verdict, VerdictKind

ray = pytest.importorskip("ray")
import psutil  # noqa: E402 - Ray's own dependency
import ray_cluster  # noqa: E402 - after the skip: it is only of use with ray
from afcheck_ray.executor import (  # noqa: E402
    ComponentHost,
    RayExecutor,
    stage_resources,
)
from executor_runs import (  # noqa: E402
    examples_json,
    kinds,
    numbered,
    outcomes,
    prove,
    slowprove_plugins,
)

pytestmark = pytest.mark.ray

RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0"}

SMT_STATEMENTS = [
    f"theorem s (x : ℕ) (h : x = {i}) : x - {i + 1} = {i % 3} := by sorry" for i in range(10)
] + [
    f"theorem s (x : ℝ) (h : 2 * x + {i} = {i + 8}) : x = {4 + i % 2} := by sorry"
    for i in range(10)
] + ["theorem s (z : ℂ) : z = z + 0 := by sorry"]  # ℂ: outside the fragment


@pytest.fixture(scope="module")
def network() -> Iterator[ray_cluster.Namespace]:
    """Loopback only, for every Ray process this module starts (see ray_cluster); no token
    authentication for the module's cluster, whatever ~/.ray holds (nothing outside this
    namespace can reach it)."""
    with ray_cluster.loopback_only() as namespace, pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", "disabled")
        yield namespace


@pytest.fixture(scope="module")
def cluster(network: ray_cluster.Namespace) -> Iterator[ray_cluster.Cluster]:
    started = ray_cluster.start(cpus_per_node=1, nodes=2)
    try:
        yield started
    finally:
        if ray.is_initialized():
            ray.shutdown()
        started.stop()


def test_a_worker_sizes_its_process_pools_to_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    from afcheck.runtime.workers import JOBS_VARIABLE, default_jobs

    monkeypatch.setenv(JOBS_VARIABLE, "7")  # and restored after the test
    ComponentHost(cpus=3)
    assert default_jobs() == 3
    assert slowprove_plugins().create(PROVER, "smt", {}).jobs == 3  # type: ignore[attr-defined]


def _ray(options: dict[str, str]) -> Executor:
    """The ray executor as a run builds it: through the registry, from its plugin."""
    return Plugins().create(EXECUTOR, "ray", options)


def test_the_ray_plugin_registers_the_executor() -> None:
    entry = Plugins().registry(EXECUTOR).get("ray")
    assert entry.plugin == "ray" and "address" in entry.details["options"]


def test_unknown_options_are_one_line_errors() -> None:
    with pytest.raises(UsageError, match="unknown option of the ray executor"):
        _ray({"adress": "auto"})
    with pytest.raises(UsageError, match="gpus=1: name the stages that use them with "
                                         "gpu_stages="):
        _ray({"gpus": "1"})


def test_an_unreachable_cluster_is_one_line() -> None:
    port = ray_cluster.free_port()
    with pytest.raises(UsageError, match=f"address=127.0.0.1:{port}: no Ray cluster answers"):
        _ray({"address": f"127.0.0.1:{port}"})


class _Model:
    """A component that runs a model on two GPUs of its worker, and says so."""

    resources = {"GPU": 2.0, "accelerator_type_h100": 0.5}


def test_what_an_actor_asks_for_comes_from_its_component() -> None:
    assert stage_resources(ArithProver(), cpus=1.0) == {"CPU": 1.0}
    assert stage_resources(_Model(), cpus=4.0) == {"CPU": 4.0, "GPU": 2.0,
                                                    "accelerator_type_h100": 0.5}
    # gpus= for a stage named in gpu_stages; a component's own figure wins.
    assert stage_resources(ArithProver(), cpus=1.0, gpus=1.0) == {"CPU": 1.0, "GPU": 1.0}
    assert stage_resources(_Model(), cpus=1.0, gpus=1.0)["GPU"] == 2.0


def test_ray_results_equal_local_and_reach_the_cache(cluster: ray_cluster.Cluster,
                                                     tmp_path: Path) -> None:
    tasks = numbered(SMT_STATEMENTS)
    smt = Choice.of("smt", {"jobs": "1"})
    local = prove(LocalExecutor(), smt, tasks)
    executor = RayExecutor({"address": cluster.address, "timeout_s": "60"})
    try:
        remote = prove(executor, smt, tasks, cache_dir=tmp_path)
    finally:
        executor.close()
    assert kinds(remote) == kinds(local)
    assert {k for k, _ in kinds(local)} == {VerdictKind.PROVED, VerdictKind.REFUTED,
                                             VerdictKind.INCONCLUSIVE}
    assert sum(executor.chunks_by_node.values()) == 6  # 21 statements in chunks of 4
    assert "6 chunks" in executor.describe()
    # A second run finds everything in the cache and sends nothing to the cluster.
    again = RayExecutor({"address": cluster.address})
    try:
        cached = prove(again, smt, tasks, cache_dir=tmp_path)
    finally:
        again.close()
    assert kinds(cached) == kinds(local)
    assert not again.chunks_by_node and cached.seconds == [0.0] * len(tasks)


def test_a_stage_asking_for_missing_resources_is_one_line(cluster: ray_cluster.Cluster) -> None:
    executor = RayExecutor({"address": cluster.address, "gpus": "1", "gpu_stages": "prove"})
    try:
        with pytest.raises(UsageError, match=r"asks each Ray worker for CPU=1, GPU=1, which no "
                                             r"node of the Ray cluster at .* has \(largest: CPU=1, "
                                             r"GPU=0\)"):
            prove(executor, Choice.of("smt", {"jobs": "1"}), numbered(SMT_STATEMENTS[:2]))
    finally:
        executor.close()


def test_a_component_that_declares_gpus_gets_them_without_options(
        cluster: ray_cluster.Cluster) -> None:
    executor = RayExecutor({"address": cluster.address})
    try:
        with pytest.raises(UsageError, match=r"the prove stage \(slow-arith\) asks each Ray "
                                             r"worker for CPU=1, GPU=2, which no node"):
            prove(executor, Choice.of("slow-arith", {"delay": "0", "gpus": "2"}),
                   numbered(SMT_STATEMENTS[:2]))
    finally:
        executor.close()


class _InProcess:
    """A plugin given as an object: nothing a Ray worker could import."""

    @hookimpl
    def afcheck_register_provers(self, register: Register[ArithProver]) -> None:
        register("inline", lambda options: ArithProver())


def test_an_in_process_plugin_cannot_be_shipped(cluster: ray_cluster.Cluster) -> None:
    plugins = Plugins(autoload=False)
    plugins.register(_InProcess(), "inline-plugin")
    components = Components(plugins)
    executor = RayExecutor({"address": cluster.address})
    runtime = Runtime(components, executor=executor)
    built = runtime.component(PROVER, Choice.of("inline"))
    try:
        with pytest.raises(UsageError, match="plugin 'inline-plugin', which was registered in "
                                             "process and cannot be built on a Ray worker"):
            runtime.cached("prove", built, numbered(["theorem t : 1 = 1 := by sorry"]),
                           key=lambda t: (t.statement,), call=built.component.prove,
                           load=codec.load_verdict, dump=codec.dump)
    finally:
        executor.close()
        components.close()


def test_a_run_on_the_cluster_equals_the_local_run(cluster: ray_cluster.Cluster,
                                                   tmp_path: Path) -> None:
    local, _ = examples_json(tmp_path, "local", env=RAY_ENV)
    remote, stdout = examples_json(tmp_path, "ray", "--executor", "ray", "--executor-opt",
                                   f"address={cluster.address}", env=RAY_ENV)
    assert outcomes(remote) == outcomes(local)
    assert len(outcomes(local)) == 12
    assert f"ray executor ({cluster.address}): " in stdout


def test_a_call_that_cannot_be_shipped_runs_on_the_driver(cluster: ray_cluster.Cluster) -> None:
    components = Components(slowprove_plugins())
    executor = RayExecutor({"address": cluster.address})
    runtime = Runtime(components, executor=executor)
    built = runtime.component(PROVER, Choice.of("slow-arith", {"delay": "0"}))
    lock = threading.Lock()

    def call(chunk: list[ProofTask]) -> list[Verdict]:
        with lock:  # a lock cannot be pickled
            return built.component.prove(chunk)

    try:
        batch = runtime.cached("prove", built, numbered(["theorem t : 2 + 2 = 4 := by sorry"]),
                               key=lambda t: (t.statement,), call=call,
                               load=codec.load_verdict, dump=codec.dump)
    finally:
        executor.close()
        components.close()
    assert [v.kind for v in batch.results] == [VerdictKind.PROVED]
    assert "the prove stage ran on the driver (its call cannot be sent to a worker: " \
           "TypeError: cannot pickle '_thread.lock' object" in executor.describe()


def test_nothing_the_cluster_starts_is_reachable_outside_its_namespace(
        network: ray_cluster.Namespace, cluster: ray_cluster.Cluster) -> None:
    if network.why:
        pytest.skip(f"the Ray tests run without a network namespace of their own: {network.why}")
    assert ray_cluster.interfaces() == ["lo"]
    port = int(cluster.address.rpartition(":")[2])
    socket.create_connection(("127.0.0.1", port), timeout=2).close()  # inside: the head
    with network.outside(), pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_cluster_file_that_answers_is_the_cluster_auto_uses(
        cluster: ray_cluster.Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from afcheck_ray.cluster import AUTO, choose, cluster_file

    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    cluster_file().parent.mkdir()
    cluster_file().write_text(cluster.address, encoding="utf-8")
    target = choose(AUTO, timeout_s=10)
    assert target.address == cluster.address and target.note == ""
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)
    assert choose(AUTO, timeout_s=10).shown == f"the Ray cluster at {cluster.address} " \
                                               "(RAY_ADDRESS)"


def _env() -> dict[str, str]:
    """What an `afcheck` subprocess needs: the tests' plugins importable (here and, through
    the nodes' PYTHONPATH, on the workers)."""
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0",
            "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def _afcheck(tmp_path: Path, *options: str, env: dict[str, str] | None = None,
             delay: str = "0.2") -> subprocess.Popen[str]:
    root = Path(__file__).resolve().parent.parent
    return subprocess.Popen(
        [sys.executable, "-m", "afcheck", str(root / "suites" / "examples"), "--chunk-size",
         "2", "--plugin", "slowprove", "--prover", "slow-arith", "--prover-opt",
         f"delay={delay}", "-q", "--json", str(tmp_path / "run.json"), "--junitxml",
         str(tmp_path / "run.xml"), *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=root,
        env=env or _env())


def _proved(cache_dir: Path) -> int:
    """Prove results the cache holds so far (read while the run writes)."""
    path = cache_dir / "results.sqlite"
    if not path.is_file():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM results WHERE stage = 'prove'")
                       .fetchone()[0])
    except sqlite3.Error:
        return 0


def _wait_for(what: str, ready: object, process: subprocess.Popen[str],
              timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, f"afcheck ended before {what}"
        if ready():  # type: ignore[operator]
            return
        time.sleep(0.1)
    process.kill()
    raise AssertionError(f"no {what} within {timeout_s} s")


def _one_afcheck_line(output: str, start: str) -> str:
    assert "INTERNALERROR" not in output and "Traceback" not in output, output[-3000:]
    lines = [line for line in output.splitlines() if start in line]
    assert len(lines) == 1, output[-3000:]
    return lines[0]


def test_sigterm_during_a_run_is_one_line_and_exit_2(cluster: ray_cluster.Cluster,
                                                     tmp_path: Path) -> None:
    run = _afcheck(tmp_path, "--executor", "ray", "--executor-opt",
                   f"address={cluster.address}", "--cache-dir", str(tmp_path / "cache"))
    _wait_for("a proved chunk", lambda: _proved(tmp_path / "cache") >= 2, run)
    run.send_signal(signal.SIGTERM)
    output, _ = run.communicate(timeout=120)
    assert run.returncode == 2, output[-3000:]
    line = _one_afcheck_line(output, "afcheck: stopped by SIGTERM")
    assert f"on the Ray cluster at {cluster.address}; every chunk finished before is in the " \
           "result cache" in line
    assert (tmp_path / "run.json").is_file() and (tmp_path / "run.xml").is_file()


def test_a_lost_node_costs_only_its_unfinished_chunks(cluster: ray_cluster.Cluster,
                                                      tmp_path: Path) -> None:
    claims = [f"{i} + {i % 4} = {2 * i if i % 3 else i + i % 4}" for i in range(24)]
    tasks = numbered([f"theorem t : {c} := by sorry" for c in claims])
    slow = Choice.of("slow-arith", {"delay": "0.15"})
    local = prove(LocalExecutor(), Choice.of("slow-arith", {"delay": "0"}), tasks, chunk_size=2)
    executor = RayExecutor({"address": cluster.address, "timeout_s": "60"})
    second = cluster.nodes[1]

    def kill_once_both_nodes_worked() -> None:
        deadline = time.monotonic() + 60
        while len(executor.chunks_by_node) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        second.kill()

    killer = threading.Thread(target=kill_once_both_nodes_worked, daemon=True)
    killer.start()
    try:
        remote = prove(executor, slow, tasks, cache_dir=tmp_path, chunk_size=2)
    finally:
        executor.close()
        killer.join(timeout=70)
    assert second.process.poll() is not None
    assert kinds(remote) == kinds(local)
    assert executor.retried >= 1 and executor.lost_actors >= 1
    assert sum(executor.chunks_by_node.values()) == 12
    assert "redone after" in executor.describe()
    # Every chunk, those redone included, was stored: a resumed run computes nothing.
    cache = codec.open_cache(tmp_path)
    try:
        keys = [codec.key("prove", _fingerprint(slow), t.statement, t.header) for t in tasks]
        assert len(cache.get_many("prove", keys)) == len(tasks)
    finally:
        cache.close()


def _fingerprint(choice: Choice) -> str:
    components = Components(slowprove_plugins())
    try:
        return components.get(PROVER, choice).fingerprint
    finally:
        components.close()


def _outcomes_of(path: Path) -> list[tuple[object, ...]]:
    return outcomes(json.loads(path.read_text(encoding="utf-8")))


def test_a_lost_head_stops_the_run_with_one_line_and_a_rerun_recovers(
        cluster: ray_cluster.Cluster, tmp_path: Path) -> None:
    """Runs last: it kills the head. afcheck notices within lost_after_s (Ray would wait 60 s
    and then end the process), writes its result files and exits 2; the same command without
    the cluster resumes from the cache and equals a run that was never interrupted."""
    if ray.is_initialized():
        ray.shutdown()  # this process must not be a driver of the cluster it kills
    cache = tmp_path / "cache"
    run = _afcheck(tmp_path, "--executor", "ray", "--executor-opt",
                   f"address={cluster.address}", "--executor-opt", "lost_after_s=3",
                   "--cache-dir", str(cache))
    _wait_for("a proved chunk", lambda: _proved(cache) >= 2, run)
    cluster.nodes[0].kill()
    lost = time.monotonic()
    output, _ = run.communicate(timeout=120)
    assert time.monotonic() - lost < 30, output[-3000:]
    assert run.returncode == 2, output[-3000:]
    line = _one_afcheck_line(output, "was lost")
    assert f"afcheck: the Ray cluster at {cluster.address} was lost: its head at " \
           f"{cluster.address} has not answered for 3 s" in line
    assert "during the prove stage, with " in line
    assert (tmp_path / "run.json").is_file() and (tmp_path / "run.xml").is_file()
    done = _proved(cache)
    assert 2 <= done < 32

    resumed = _afcheck(tmp_path, "--cache-dir", str(cache))
    output, _ = resumed.communicate(timeout=300)
    assert resumed.returncode == 1, output[-3000:]  # the literal baseline fails cases
    reused = re.search(r"result cache: (\d+) results reused, (\d+) computed", output)
    assert reused is not None, output[-3000:]
    assert int(reused[1]) >= done and int(reused[2]) <= 200 - done
    resumed_outcomes = _outcomes_of(tmp_path / "run.json")
    reference = tmp_path / "reference"
    reference.mkdir()
    fresh = _afcheck(reference, "--no-cache", delay="0")
    fresh.communicate(timeout=300)
    assert resumed_outcomes == _outcomes_of(reference / "run.json")
    assert len(resumed_outcomes) == 68


# After the cluster is gone: these start a local cluster of the run's own, with token
# authentication (see afcheck_ray.cluster), after every connection to the module's cluster.


def test_without_a_cluster_auto_starts_a_local_one_of_its_own(
        network: ray_cluster.Namespace, tmp_path: Path) -> None:
    """A stale cluster file costs nothing; the cluster the run starts binds 127.0.0.1, lives
    in a folder of its own with a token of its own, and is gone when the run ends. (A run of
    its own: one process, one Ray connection, as a user's run.)"""
    from afcheck_ray.cluster import cluster_file

    env = {**_env(), "RAY_TMPDIR": str(tmp_path)}
    for name in ("RAY_ADDRESS", "RAY_AUTH_MODE"):
        env.pop(name, None)
    stale = f"127.0.0.1:{ray_cluster.free_port()}"
    file = tmp_path / "ray" / "ray_current_cluster"
    file.parent.mkdir()
    file.write_text(stale, encoding="utf-8")
    token_file = Path.home() / ".ray" / "auth_token"
    had_token = token_file.exists()
    run = _afcheck(tmp_path, "--executor", "ray", "--no-cache", "--limit", "8", env=env,
                   delay="0")
    output, _ = run.communicate(timeout=300)
    assert run.returncode == 1, output[-3000:]  # the literal baseline fails cases
    line = _one_afcheck_line(output, "ray executor (local: 127.0.0.1, /tmp/afray-")
    own = Path(line.split("ray executor (local: 127.0.0.1, ", 1)[1].split(")", 1)[0])
    assert re.search(r"chunks on 1 node\(s\) \(127\.0\.0\.1/\w+: \d+\)", line), line
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_TMPDIR", str(tmp_path))
        assert f"passed over {cluster_file()}: it names {stale}, where no Ray cluster " \
               "answers (Connection refused)" in line
    assert not own.exists()
    assert file.read_text(encoding="utf-8") == stale  # another cluster's file, left alone
    assert token_file.exists() == had_token  # Ray's default would leave one for later runs


def test_sigterm_while_connecting_is_one_line_and_exit_2(
        network: ray_cluster.Namespace, tmp_path: Path) -> None:
    """SIGTERM while the run starts its local cluster: afcheck's line, not Ray's handler's
    traceback, and the cluster it was starting is stopped and its folder removed."""
    env = {**_env(), "RAY_TMPDIR": str(tmp_path)}
    env.pop("RAY_ADDRESS", None)
    env.pop("RAY_AUTH_MODE", None)
    run = _afcheck(tmp_path, "--executor", "ray", "--no-cache", env=env)
    me = psutil.Process(run.pid)

    def gcs_started() -> list[psutil.Process]:
        return [p for p in me.children(recursive=True) if "gcs_server" in p.name()]

    _wait_for("a local Ray head", gcs_started, run)
    started = gcs_started()[0]
    folders = [a.split("=", 1)[1] for a in started.cmdline() if a.startswith("--log_dir=")]
    run.send_signal(signal.SIGTERM)
    output, _ = run.communicate(timeout=120)
    assert run.returncode == 2, output[-3000:]
    line = _one_afcheck_line(output, "afcheck: stopped by SIGTERM")
    assert "while connecting to a local Ray cluster of this run's own; nothing had run" in line
    try:
        started.wait(timeout=30)
    except psutil.TimeoutExpired:
        started.kill()
        raise AssertionError("the local head outlived the run") from None
    assert folders and not Path(folders[0].split("/session_")[0]).exists()
