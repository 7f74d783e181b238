"""Choosing and reaching a Ray cluster (:mod:`afcheck_ray.cluster`) without starting one: the
addresses that must be refused at once, in one line, and the stale cluster file that must be
passed over. What needs a running cluster is in ``test_runtime_ray_executor.py``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from afcheck.errors import UsageError

pytest.importorskip("ray")
from afcheck_ray.cluster import (  # noqa: E402 - after the skip: it is only of use with ray
    AUTO,
    LOCAL,
    choose,
    cluster_file,
    split_address,
    unreachable,
)
from afcheck_ray.executor import RayExecutor  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def ray_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Ray's temp folder for this test only, and no RAY_ADDRESS: what `auto` reads."""
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    return tmp_path


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word, as a hung head would."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield int(listener.getsockname()[1])


def test_the_cluster_file_is_where_ray_start_writes_it(ray_tmpdir: Path) -> None:
    assert cluster_file() == ray_tmpdir / "ray" / "ray_current_cluster"


def test_addresses_are_host_and_port() -> None:
    assert split_address("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert split_address("ray://head:10001") == ("head", 10001)
    assert split_address("[::1]:6379") == ("::1", 6379)
    assert split_address("head") is None and split_address("head:port") is None


def test_a_stale_cluster_file_is_passed_over_for_a_local_cluster(ray_tmpdir: Path) -> None:
    port = _free_port()
    cluster_file().parent.mkdir(parents=True)
    cluster_file().write_text(f"127.0.0.1:{port}\n", encoding="utf-8")
    began = time.monotonic()
    target = choose(AUTO, timeout_s=120)
    assert time.monotonic() - began < 5
    assert target.address is None
    assert target.note == (f"passed over {cluster_file()}: it names 127.0.0.1:{port}, where no "
                           "Ray cluster answers (Connection refused), a file a stopped cluster "
                           "left behind")
    assert cluster_file().read_text(encoding="utf-8") == f"127.0.0.1:{port}\n"  # not ours


def test_no_cluster_file_means_a_local_cluster_without_a_note(ray_tmpdir: Path) -> None:
    target = choose(AUTO, timeout_s=120)
    assert target.address is None and target.note == ""
    assert choose(LOCAL, timeout_s=120).address is None


def test_a_dead_ray_address_is_one_line(ray_tmpdir: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    port = _free_port()
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(UsageError, match=rf"^RAY_ADDRESS=127.0.0.1:{port}: no Ray cluster "
                                         r"answers there \(Connection refused\); start one, fix "
                                         "RAY_ADDRESS, or unset it"):
        choose(AUTO, timeout_s=120)


def test_a_port_that_accepts_and_never_answers_is_refused_within_the_timeout(
        ray_tmpdir: Path, silent_port: int) -> None:
    began = time.monotonic()
    with pytest.raises(UsageError, match=rf"address=127.0.0.1:{silent_port}: no Ray cluster "
                                         r"answers there \(something accepts connections there "
                                         r"but sent no answer within 2 s"):
        RayExecutor({"address": f"127.0.0.1:{silent_port}", "timeout_s": "2"})
    assert time.monotonic() - began < 5


def test_a_stale_file_naming_a_silent_port_is_passed_over(ray_tmpdir: Path,
                                                          silent_port: int) -> None:
    cluster_file().parent.mkdir(parents=True)
    cluster_file().write_text(f"127.0.0.1:{silent_port}", encoding="utf-8")
    began = time.monotonic()
    target = choose(AUTO, timeout_s=1)
    assert target.address is None and "sent no answer within 1 s" in target.note
    assert time.monotonic() - began < 3


def test_a_server_that_is_no_ray_head_is_told_apart() -> None:
    """A server that answers at once, but as HTTP/1, not as a gRPC server."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]

        def answer() -> None:
            server, _ = listener.accept()
            with server:
                server.recv(64)
                server.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

        replier = threading.Thread(target=answer, daemon=True)
        replier.start()
        why = unreachable(f"127.0.0.1:{port}", 5, handshake=True)
        replier.join(timeout=5)
    assert why == "what answers there is not a Ray head (no gRPC server)"


def test_a_malformed_address_is_one_line() -> None:
    with pytest.raises(UsageError, match=r"address=head: expected auto, local, HOST:PORT or "
                                         r"ray://HOST:PORT"):
        RayExecutor({"address": "head"})
