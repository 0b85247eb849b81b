"""The ready phase of docs/scoring.md "The run of one task": the port accepts TCP and `/` answers with any HTTP
response."""
from __future__ import annotations

import socket


def port_state(port: int, *, timeout: float = 2.0) -> str:
    """`closed` (no TCP), `not_http` (TCP but no HTTP status line) or `http`, probing 127.0.0.1:port."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    except OSError:
        return "closed"
    with sock:
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            head = sock.recv(16)
        except OSError:
            return "not_http"
    return "http" if head.startswith(b"HTTP/") else "not_http"
