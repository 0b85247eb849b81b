"""Fixtures of the agent endpoint tests: real servers on 127.0.0.1 (see agent_kit) and site settings that let
the platform call loopback (AGENT_ALLOWED_NETWORKS) with short backoffs."""
from __future__ import annotations

import socket
import threading

import pytest

from tests.agents.agent_kit import AgentServer


@pytest.fixture
def agent_server():
    """agent_server(behaviour) -> AgentServer; behaviour(handler) answers with handler.reply(...)."""
    servers = []

    def start(behaviour) -> AgentServer:
        server = AgentServer(behaviour)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def raw_server():
    """raw_server(bytes) -> URL of a TCP server on 127.0.0.1 that writes those bytes to each connection."""
    sockets = []

    def start(payload: bytes) -> str:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        sockets.append(sock)

        def serve():
            while True:
                try:
                    conn, _ = sock.accept()
                except OSError:
                    return
                with conn:
                    try:
                        conn.recv(65536)
                        conn.sendall(payload)
                    except OSError:
                        pass

        threading.Thread(target=serve, daemon=True).start()
        return f"http://127.0.0.1:{sock.getsockname()[1]}"

    yield start
    for sock in sockets:
        sock.close()


@pytest.fixture
def agent_settings(settings):
    """Site settings for endpoint tests: 127.0.0.1 allowed, fast retries and polling, short deadline."""
    settings.AGENT_ALLOWED_NETWORKS = ["127.0.0.1"]
    settings.AGENT_RETRY_BACKOFF_SECONDS = 0.01
    settings.AGENT_POLL_INTERVAL_SECONDS = 0.05
    settings.AGENT_TASK_DEADLINE_SECONDS = 20.0
    settings.AGENT_CONNECT_TIMEOUT_SECONDS = 2.0
    return settings
