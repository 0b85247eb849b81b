"""The install proxy's per-task caps (issue 15, escape 7): slow CONNECTs from a build cannot take the worker's
threads and descriptors, a trickled CONNECT head is cut at its budget, and nothing outlives the install phase.

The proxy is started in the test's own namespace on a loopback port (the sandbox backends start the same class
inside the task's network namespace); every client is a plain socket of the test.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

from core.sandbox import egress
from core.sandbox.egress import MAX_CONNECTIONS, EgressProxy


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _relays() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "egress-relay")


def _answer(sock: socket.socket) -> bytes:
    sock.settimeout(5)
    try:
        return sock.recv(200)
    except OSError:
        return b""


def test_connections_over_the_cap_are_refused_at_once_and_none_outlives_the_phase():
    port = _free_port()
    silent = []
    with EgressProxy(netns_name=None, port=port, allowed_hosts=["pypi.org"]) as proxy:
        for _ in range(MAX_CONNECTIONS):  # each holds a slot, sending nothing
            silent.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        deadline = time.monotonic() + 5
        while proxy.active < MAX_CONNECTIONS and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proxy.active == MAX_CONNECTIONS

        extra = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(20)]
        started = time.monotonic()
        answers = [_answer(s) for s in extra]
        assert all(a.startswith(b"HTTP/1.1 503") for a in answers), answers[:3]
        assert time.monotonic() - started < 5
        assert proxy.active == MAX_CONNECTIONS and _relays() <= MAX_CONNECTIONS
        for s in extra:
            s.close()
    assert proxy.active == 0 and _relays() == 0  # every held connection was ended with the phase
    assert all(_answer(s) in (b"",) or s.recv(1) == b"" for s in silent)
    for s in silent:
        s.close()


def test_a_trickled_connect_head_is_cut_at_its_budget(monkeypatch):
    monkeypatch.setattr(egress, "HEAD_SECONDS", 1.0)
    port = _free_port()
    with EgressProxy(netns_name=None, port=port, allowed_hosts=["pypi.org"]) as proxy:
        client = socket.create_connection(("127.0.0.1", port), timeout=5)
        started = time.monotonic()
        closed_after = None
        for byte in b"CONNECT pypi.org:443 HTTP/1.1\r\n":  # one byte every 0.2 s: each read is quick
            try:
                client.sendall(bytes([byte]))
            except OSError:
                closed_after = time.monotonic() - started
                break
            time.sleep(0.2)
            if proxy.active == 0:
                closed_after = time.monotonic() - started
                break
        client.close()
    assert closed_after is not None and closed_after < 3, "the trickled head was not cut"
    assert proxy.requests == []  # nothing was relayed


@pytest.mark.parametrize("count", [3])
def test_well_formed_requests_still_get_an_answer_under_the_cap(count):
    port = _free_port()
    with EgressProxy(netns_name=None, port=port, allowed_hosts=["pypi.org"]) as proxy:
        for _ in range(count):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n")
                assert _answer(s).startswith(b"HTTP/1.1 403")
    assert proxy.refused_busy == 0
