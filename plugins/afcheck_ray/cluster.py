"""Which Ray cluster a run uses, reaching it within the run's own time limit, and noticing
when it is lost.

``address=auto`` (the default) means the cluster this machine belongs to when one answers:
the one ``RAY_ADDRESS`` names, else the one Ray's cluster file names (``ray start --head``
leaves its address in ``$RAY_TMPDIR/ray/ray_current_cluster``, default ``/tmp/ray``). Every
address is first tried with a plain TCP connection, so an address where nothing listens (a
file a stopped cluster left behind) costs a refused connection, not Ray's minutes of
reconnecting. A stale cluster file is passed over with a note; when no cluster answers, the
run starts a local cluster of its own (``address=local`` always does): bound to 127.0.0.1,
in a temporary folder of its own, stopped and removed at the end of the run.

A whole connection, the local start included, is bounded by ``timeout_s``; SIGTERM from then
until the executor closes stops the run with one line (:class:`ExecutorStopped`) instead of
Ray's own handler, which exits from wherever the driver is. A cluster whose head (its GCS)
stops answering for ``lost_after_s`` is lost: Ray itself would wait 60 s and then end the
driver's process with no results.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from afcheck.errors import UsageError
from afcheck.runtime.alarm import alarm
from afcheck.runtime.executor import ExecutorStopped

AUTO = "auto"
LOCAL = "local"
LOCAL_IP = "127.0.0.1"
RESUME = "every chunk finished before is in the result cache: the same command resumes there"
"""What a stopped run tells the user; the cache makes it true for every executor."""


def cluster_file() -> Path:
    """Where ``ray start --head`` writes the address of this machine's latest cluster, found
    the way Ray finds it (``RAY_TMPDIR``, then ``TMPDIR`` on Linux, then ``/tmp``)."""
    base = os.environ.get("RAY_TMPDIR") or (
        os.environ.get("TMPDIR") if sys.platform.startswith("linux") else None) or "/tmp"
    return Path(base) / "ray" / "ray_current_cluster"


def split_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT``; ``None`` when it is neither."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port)


# An HTTP/2 client's first bytes: the preface and an empty SETTINGS frame. A gRPC server (a
# Ray head's GCS) answers with a SETTINGS frame of its own at once.
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_SETTINGS = 4


def unreachable(address: str, timeout_s: float, *, handshake: bool = False) -> str:
    """``""`` when something accepts a TCP connection at ``address`` (and, with
    ``handshake``, answers as a gRPC server does), else why not, all within ``timeout_s``.

    The handshake is what bounds a connection: ``ray.init`` to a port that accepts
    connections and never answers retries inside Ray for minutes, deaf to signals.
    """
    where = split_address(address)
    if where is None:
        return "not HOST:PORT"
    deadline = time.monotonic() + max(0.1, timeout_s)
    try:
        with socket.create_connection(where, timeout=max(0.1, timeout_s)) as link:
            if not handshake or os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
                return ""  # a TLS head answers a TLS hello, which is Ray's to send
            link.sendall(_PREFACE)
            header = b""
            while len(header) < 9:
                link.settimeout(max(0.05, deadline - time.monotonic()))
                got = link.recv(9 - len(header))
                if not got:
                    return "it closed the connection without answering as a Ray head does"
                header += got
    except TimeoutError:
        if handshake:
            return (f"something accepts connections there but sent no answer within "
                    f"{timeout_s:g} s, as a Ray head does at once")
        return f"no answer within {timeout_s:g} s"
    except OSError as exc:
        return str(exc.strerror or exc)
    if header[3] != _SETTINGS:
        return "what answers there is not a Ray head (no gRPC server)"
    return ""


@dataclass(frozen=True)
class Target:
    """The cluster a run will use."""

    address: str | None
    """What ``ray.init`` connects to; ``None`` for a local cluster of the run's own."""
    shown: str
    """How messages name it: "the Ray cluster at HOST:PORT", "a local Ray cluster …"."""
    note: str = ""
    """What was passed over to choose it (a stale cluster file), for the end of the run."""


_LOCAL_SHOWN = "a local Ray cluster of this run's own"


def choose(address: str, timeout_s: float) -> Target:
    """The cluster ``--executor-opt address=`` names (see the module's docstring); an
    explicit address where no cluster answers is one line (:class:`UsageError`)."""
    probe = min(5.0, max(0.5, timeout_s))
    if address == LOCAL:
        return Target(None, _LOCAL_SHOWN)
    if address != AUTO:
        where = f"--executor-opt address={address}"
        if split_address(address) is None:
            raise UsageError(f"{where}: expected auto, local, HOST:PORT or ray://HOST:PORT")
        why = unreachable(address, probe, handshake=True)
        if why:
            raise UsageError(f"{where}: no Ray cluster answers there ({why}); start one with "
                             "`ray start --head`, fix the address, or use address=local")
        return Target(address, f"the Ray cluster at {address}")
    named = os.environ.get("RAY_ADDRESS", "").strip()
    if named and named not in (AUTO, LOCAL):
        why = unreachable(named, probe, handshake=True)
        if why:
            raise UsageError(f"RAY_ADDRESS={named}: no Ray cluster answers there ({why}); "
                             "start one, fix RAY_ADDRESS, or unset it to let afcheck start a "
                             "local cluster of its own")
        return Target(named, f"the Ray cluster at {named} (RAY_ADDRESS)")
    file = cluster_file()
    try:
        named = file.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        named = ""
    note = ""
    if named:
        why = unreachable(named, probe, handshake=True)
        if not why:
            return Target(named, f"the Ray cluster at {named} (from {file})")
        note = (f"passed over {file}: it names {named[:80]}, where no Ray cluster answers "
                f"({why}), a file a stopped cluster left behind")
    return Target(None, _LOCAL_SHOWN, note)


class _Late(BaseException):
    """Raised in the main thread when a connection takes longer than allowed; a
    ``BaseException`` so that no ``except Exception`` inside Ray takes it for its own."""


class _Terminated(BaseException):
    """SIGTERM inside ``ray.init``: a ``BaseException`` for the same reason as :class:`_Late`;
    :func:`connect` turns it into :class:`ExecutorStopped`."""


@contextmanager
def _environment(changes: dict[str, str | None]) -> Iterator[None]:
    """``os.environ`` with ``changes`` (``None`` removes) for the block."""
    saved = {name: os.environ.get(name) for name in changes}
    try:
        _set_environment(changes)
        yield
    finally:
        _set_environment(saved)


def _set_environment(values: dict[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@contextmanager
def _ray_leaves_sigterm_alone(ray: Any) -> Iterator[None]:
    """``ray.init`` first puts in a SIGTERM handler of its own (``sys.exit`` from wherever the
    driver is); keep ours in place while it runs. Without that hook (another Ray), ours is
    put back after ``ray.init``, as :func:`connect` does anyway."""
    utils = getattr(getattr(ray, "_private", None), "utils", None)
    original = getattr(utils, "set_sigterm_handler", None)
    if original is None:
        yield
        return
    utils.set_sigterm_handler = lambda handler: None  # type: ignore[union-attr]
    try:
        yield
    finally:
        utils.set_sigterm_handler = original  # type: ignore[union-attr]


def _local_environment() -> dict[str, str | None]:
    """What a local cluster of the run's own starts with: no RAY_ADDRESS (``ray.init`` would
    connect there instead), and, unless the user chose a mode, token authentication with a
    token of this run's own: Ray would otherwise write one to ``~/.ray/auth_token``, which
    every later ``ray start`` on the machine then picks up. Ray reads the mode once, when it
    is imported: in a process that imported it already, Ray's own default holds."""
    changes: dict[str, str | None] = {"RAY_ADDRESS": None}
    if "RAY_AUTH_MODE" not in os.environ and "ray" not in sys.modules:
        changes["RAY_AUTH_MODE"] = "token"
        changes["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    return changes


class Connection:
    """The driver's connection to one cluster, from :func:`connect` to :meth:`close`."""

    def __init__(self, ray: Any, target: Target, gcs: str, temp_dir: Path | None,
                 owned: bool, stopping: Callable[[], str]) -> None:
        self.ray = ray
        self.target = target
        self.gcs = gcs
        """The address of the cluster's head (its GCS), which :meth:`unreachable` probes."""
        self.temp_dir = temp_dir
        """The local cluster's own folder; ``None`` for a cluster the run did not start."""
        self.owned = owned
        self.lost = False
        self._stopping = stopping
        self._previous: Any = None
        self._guarding = False
        self.initialising = False
        """True inside ``ray.init``, where SIGTERM raises :class:`_Terminated` instead."""
        self._environment: Any = None

    def guard(self) -> None:
        """Stop the run with one line on SIGTERM from now on (Ray's handler, installed by
        ``ray.init``, would exit with a traceback from wherever the driver is)."""
        if threading.current_thread() is not threading.main_thread():
            return
        if not self._guarding:
            self._previous = signal.getsignal(signal.SIGTERM)
            self._guarding = True
        def stop(signum: int, frame: FrameType | None) -> None:
            if self.initialising:
                raise _Terminated()
            raise ExecutorStopped(f"stopped by SIGTERM {self._stopping()}; {RESUME}")

        signal.signal(signal.SIGTERM, stop)

    def unreachable(self, timeout_s: float = 1.0) -> str:
        """``""`` while the head accepts connections, else why it does not."""
        return unreachable(self.gcs, timeout_s) if self.gcs else ""

    def describe(self) -> str:
        """The cluster as messages name it."""
        if self.temp_dir is not None:
            return f"{_LOCAL_SHOWN} ({LOCAL_IP}, {self.temp_dir})"
        return self.target.shown

    @property
    def address(self) -> str:
        """The cluster in a few words, for the end of the run."""
        if self.temp_dir is not None:
            return f"local: {LOCAL_IP}, {self.temp_dir}"
        return self.target.address or self.gcs

    def close(self) -> None:
        """Disconnect (and so stop a local cluster of the run's own) if this connection made
        the link, remove the local cluster's folder, and give SIGTERM back."""
        if self.owned:
            # Also after a start that was cut short: Ray stops what it had started.
            try:
                self.ray.shutdown()
            except Exception:  # noqa: BLE001 - a lost cluster has nothing left to say
                pass
        if self._environment is not None:
            self._environment.__exit__(None, None, None)
            self._environment = None
        if self.temp_dir is not None:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
        if self._guarding and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._previous)
            self._guarding = False


def connect(target: Target, timeout_s: float) -> Connection:
    """Import Ray and connect the driver to ``target`` (starting a local cluster for
    ``address=None``) within ``timeout_s``; a connection that fails or takes longer is one
    line."""
    shown = target.shown
    environment = None
    if target.address is None:
        # Before Ray is imported: it reads its authentication mode then.
        environment = _environment(_local_environment())
        environment.__enter__()
    import ray

    if ray.is_initialized():
        # Another executor of this process connected already: share its link.
        if environment is not None:
            environment.__exit__(None, None, None)
        gcs = str(ray.get_runtime_context().gcs_address or "")
        made = Connection(ray, target, gcs, None, False, lambda: f"on {shown}")
        made.guard()
        return made
    temp_dir = None
    if target.address is None:
        # Short: Ray puts its sockets in here, and a socket's path has a length limit.
        temp_dir = Path(tempfile.mkdtemp(prefix="afray-", dir="/tmp" if Path("/tmp").is_dir()
                                         else None))
    made = Connection(ray, target, "", temp_dir, True,
                      lambda: f"while connecting to {shown}")
    # Kept while the cluster runs: its processes and the driver read it.
    made._environment = environment
    made.guard()
    kwargs: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR,
                              "configure_logging": False}
    began = time.monotonic()
    try:
        made.initialising = True
        try:
            # Raise _Late in this (main) thread after timeout_s; elsewhere than the main
            # thread the TCP check before is the only bound.
            with alarm(timeout_s, _Late), _ray_leaves_sigterm_alone(ray):
                if temp_dir is None:
                    ray.init(address=target.address, **kwargs)
                else:
                    ray.init(address=None, _node_ip_address=LOCAL_IP,
                             _temp_dir=str(temp_dir), include_dashboard=False, **kwargs)
        finally:
            made.initialising = False
        made.guard()  # in case ray.init put its own handler in place of ours
    except _Terminated:
        made.close()
        raise ExecutorStopped(f"stopped by SIGTERM while connecting to {shown}; nothing had "
                              "run yet") from None
    except _Late:
        made.close()
        raise UsageError(f"--executor-opt timeout_s={timeout_s:g}: no connection to {shown} "
                         f"within {time.monotonic() - began:.0f} s; check the cluster or raise "
                         "timeout_s") from None
    except (ConnectionError, RuntimeError, ValueError, OSError) as exc:
        made.close()
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UsageError(f"cannot connect to {shown}: {first}") from None
    except BaseException:
        made.close()
        raise
    made.gcs = str(ray.get_runtime_context().gcs_address or "")
    made._stopping = lambda: f"on {made.describe()}"
    return made
