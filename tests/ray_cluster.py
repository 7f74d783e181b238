"""A two-node Ray cluster on loopback for tests and benchmarks: ``ray start`` run twice.

Each node is a ``ray start --block`` process in a session of its own, so the node (its raylet,
its workers) is that process group and is stopped, or killed to simulate a lost machine, by the
group id of the process this module started; nothing else running Ray on the machine is
touched.

Ray's processes listen on every interface whatever ``--node-ip-address`` says, so tests and
benchmarks start their clusters inside :func:`loopback_only`: a network namespace of their own
with only a loopback interface (as root, where the kernel allows it), so nothing they start can
be reached from outside the process that started it.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

# The CLI of the Ray this Python imports: a venv need not have its own `ray` script, and the
# workers then run the same Python (and the same afcheck) as the tests.
RAY = [sys.executable, "-m", "ray.scripts.scripts"]
# No usage reports; no token authentication, whatever ~/.ray holds: a test cluster is reached
# only from its own namespace (or, where that cannot be had, only from this machine's loopback).
ENVIRONMENT = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
# Lose a node within about two seconds, not the default thirty.
SYSTEM_CONFIG = {"health_check_period_ms": 500, "health_check_failure_threshold": 3,
                 "health_check_initial_delay_ms": 0}


CLONE_NEWNET = 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1


@dataclass
class Namespace:
    """Where :func:`loopback_only` put the calling thread."""

    why: str
    """``""`` when the thread is in a namespace of its own; else why it is not."""
    _original: int = -1
    _own: int = -1

    @contextmanager
    def outside(self) -> Iterator[None]:
        """Back in the original namespace for the block (to check what is reachable there)."""
        if self.why:
            yield
            return
        _setns(self._original)
        try:
            yield
        finally:
            _setns(self._own)


def _setns(fd: int) -> None:
    if ctypes.CDLL(None, use_errno=True).setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "setns(CLONE_NEWNET) failed")


@contextmanager
def loopback_only() -> Iterator[Namespace]:
    """Move the calling thread into a new network namespace whose only interface is loopback,
    and back at the end; :attr:`Namespace.why` says why not where it cannot (then nothing
    changed).

    A namespace belongs to a thread: every process and thread this thread starts inside the
    block (Ray's nodes, an ``afcheck`` run, the driver's own threads) is in it, every other
    thread of the process is not. So the block must hold everything that talks to the cluster.
    """
    if not sys.platform.startswith("linux"):
        yield Namespace("network namespaces are Linux's")
        return
    if os.geteuid() != 0:
        yield Namespace("not root: a network namespace of its own needs CAP_SYS_ADMIN")
        return
    original = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWNET) != 0:
            yield Namespace(f"unshare(CLONE_NEWNET) failed: {os.strerror(ctypes.get_errno())}")
            return
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            _loopback_up()
            yield Namespace("", original, own)
        finally:
            _setns(original)
            os.close(own)
    finally:
        os.close(original)


def _loopback_up() -> None:
    """``ip link set lo up``, without needing iproute2: a new namespace's loopback is down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sh14x", b"lo", 0)
        flags = struct.unpack("16sh14x", fcntl.ioctl(probe, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(probe, _SIOCSIFFLAGS, struct.pack("16sh14x", b"lo", flags | _IFF_UP))


def interfaces() -> list[str]:
    """The network interfaces the calling thread sees."""
    return [name for _, name in socket.if_nameindex()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Node:
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Lose the node at once, as a machine that goes down."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the node: ``ray start --block`` ends its processes on SIGTERM."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


@dataclass
class Cluster:
    address: str
    temp_dir: Path
    nodes: list[Node] = field(default_factory=list)

    def add_node(self, cpus: int = 1) -> Node:
        node = _start([*RAY, "start", "--address", self.address, "--num-cpus", str(cpus),
                       *_common(self.temp_dir)], self.temp_dir / f"node{len(self.nodes)}.log")
        self.nodes.append(node)
        return node

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()
        shutil.rmtree(self.temp_dir, ignore_errors=True)


def _common(temp_dir: Path) -> list[str]:
    return ["--node-ip-address", "127.0.0.1", "--temp-dir", str(temp_dir),
            "--object-store-memory", str(80 * 1024 * 1024),
            "--dashboard-agent-listen-port", str(free_port()),
            "--dashboard-agent-grpc-port", str(free_port()),
            "--block"]


def _start(command: list[str], log: Path) -> Node:
    env = {**os.environ, **ENVIRONMENT, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=True)
    return Node(process, log)


def start(cpus_per_node: int = 1, nodes: int = 2, timeout_s: float = 90.0) -> Cluster:
    """A head and ``nodes - 1`` more nodes, each with ``cpus_per_node`` CPUs, all registered."""
    temp_dir = Path(tempfile.mkdtemp(prefix="afray", dir="/tmp"))  # short: socket paths
    port = free_port()
    cluster = Cluster(f"127.0.0.1:{port}", temp_dir)
    head = _start([*RAY, "start", "--head", "--port", str(port), "--num-cpus", str(cpus_per_node),
                   "--include-dashboard", "false", "--disable-usage-stats",
                   "--system-config", json.dumps(SYSTEM_CONFIG), *_common(temp_dir)],
                  temp_dir / "head.log")
    cluster.nodes.append(head)
    try:
        _wait_for_port(port, head, timeout_s)
        for _ in range(nodes - 1):
            cluster.add_node(cpus_per_node)
        _wait_for_nodes(cluster, nodes, timeout_s)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _wait_for_port(port: int, head: Node, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if head.process.poll() is not None:
            raise RuntimeError(f"ray head exited: {head.log.read_text(errors='replace')[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("ray head did not start")


def _wait_for_nodes(cluster: Cluster, count: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    script = (f"import ray,logging;ray.init(address={cluster.address!r},"
              "logging_level=logging.ERROR,log_to_driver=False);"
              "print(sum(n['Alive'] for n in ray.nodes()))")
    while time.monotonic() < deadline:
        for node in cluster.nodes:
            if node.process.poll() is not None:
                raise RuntimeError(f"a ray node exited: "
                                   f"{node.log.read_text(errors='replace')[-2000:]}")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=60, env={**os.environ, **ENVIRONMENT})
        if done.stdout.strip().isdigit() and int(done.stdout.strip()) >= count:
            return
        time.sleep(0.5)
    raise RuntimeError(f"the ray cluster did not reach {count} nodes")
