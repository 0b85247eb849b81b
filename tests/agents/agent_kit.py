"""Helpers for the agent endpoint tests: real HTTP servers on 127.0.0.1 playing agents (slow, silent, broken,
redirecting, asynchronous), small repositories as zips, client limits that allow loopback."""
from __future__ import annotations

import io
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from submissions.agents.client import AgentLimits
from submissions.agents.guard import parse_networks

ROOT = Path(__file__).resolve().parents[2]
SECRET = "s3cret-Bearer-Value-0123456789abcdef"


def repo_zip(files: dict[str, str] | None = None) -> bytes:
    """A small repository as a zip (repository at the archive root)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in (files or {"start.sh": "python app.py\n", "app.py": "print('hi')\n"}).items():
            zf.writestr(name, text)
    return buf.getvalue()


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        return

    def _dispatch(self):
        server = self.server
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(length) if length else b""
        with server.lock:
            server.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                    "body": self.body})
            server.active += 1
            server.max_active = max(server.max_active, server.active)
        try:
            server.behaviour(self)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with server.lock:
                server.active -= 1

    do_POST = do_GET = _dispatch

    def reply(self, status: int, body: bytes = b"", content_type: str = "application/zip", headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class AgentServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, behaviour):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.behaviour = behaviour
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.active = 0
        self.max_active = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


def loopback_limits(**overrides) -> AgentLimits:
    """Client limits for tests: loopback allowed, short backoff and polling."""
    values = {"deadline": 10.0, "backoff": 0.01, "poll_interval": 0.05, "connect_timeout": 2.0,
              "allowed_networks": parse_networks(["127.0.0.1"]), **overrides}
    return AgentLimits(**values)


