"""The ports tests hand their bots (``helpers.free_port``) are never ones the kernel may give
to someone else meanwhile."""

from __future__ import annotations

import socket

import pytest

from .helpers import PORTS_PER_WORKER, _ephemeral_low, free_port


def test_a_port_handed_out_is_outside_the_kernels_pool_and_never_handed_out_twice() -> None:
    ports = [free_port() for _ in range(20)]
    assert len(set(ports)) == len(ports)
    assert all(port < _ephemeral_low() for port in ports)


def test_workers_hand_out_ports_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    for worker in ("gw0", "gw1", "gw4"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        seen[worker] = {free_port() for _ in range(10)}
    assert not seen["gw0"] & seen["gw1"] and not seen["gw1"] & seen["gw4"]
    assert max(seen["gw1"]) - min(seen["gw0"]) < 2 * PORTS_PER_WORKER


def test_a_port_someone_listens_on_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    nxt = free_port() + 1  # the next one this worker would hand out
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", nxt))
        busy.listen()
        assert free_port() == nxt + 1
