"""The demo agent: an `agent/1` endpoint that answers from folders on disk (stdlib http.server). Django-free.

`POST /` with the protocol's JSON answers `200` with a zip of `<root>/<task>/` (the repository at the
archive root), `404` when there is no such folder (the platform then scores the task `missing`), `401`
when a secret is set and the bearer does not match, `400` for a body that is not agent/1 JSON.
With `asynchronous=True` it answers `202` + `Location: /jobs/<id>` and the job is ready after `delay`
seconds (`GET /jobs/<id>`: 202 until then, then 200 with the zip), like a long-running agent.
"""
from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ..archives import zip_tree
from .protocol import PROTOCOL

#: source(task name) -> the repository folder to answer with, or None.
Source = Callable[[str], "Path | None"]
MAX_REQUEST_BYTES = 10 * 1024 * 1024


def folder_source(root: Path, *, subfolder: str = "") -> Source:
    """Answer task T from `root/T[/subfolder]` (T must be a direct child of root: no path tricks)."""
    def find(task: str) -> Path | None:
        names = {p.name for p in root.iterdir() if p.is_dir()} if root.is_dir() else set()
        if task not in names:
            return None
        folder = root / task / subfolder if subfolder else root / task
        return folder if folder.is_dir() else None
    return find


class DemoAgentServer(ThreadingHTTPServer):
    """The HTTP server; `log` receives one line per request (task, status, seconds)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, source: Source, secret: str = "", asynchronous: bool = False,
                 delay: float = 0.0, log: Callable[[str], None] = lambda line: None):
        super().__init__(address, _Handler)
        self.source, self.secret, self.asynchronous, self.delay, self.log = source, secret, asynchronous, delay, log
        self.jobs: dict[str, tuple[float, bytes | None]] = {}
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    server: DemoAgentServer
    server_version = "RepoGenesisDemoAgent/1"

    def log_message(self, format: str, *args) -> None:  # quiet: the server's `log` gets one line per call
        return

    def _send(self, status: int, body: bytes, content_type: str = "application/json", headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._send(status, json.dumps({"error": message}).encode())

    def _authorized(self) -> bool:
        if not self.server.secret:
            return True
        given = self.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {self.server.secret}".encode())

    def do_POST(self) -> None:
        t0 = time.monotonic()
        if not self._authorized():
            return self._error(401, "missing or wrong bearer secret")
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0 or length > MAX_REQUEST_BYTES:
            return self._error(400, "send the agent/1 JSON body")
        try:
            request = json.loads(self.rfile.read(length))
            task = request["task"]
            assert request.get("protocol") == PROTOCOL and isinstance(task, str)
        except (ValueError, KeyError, TypeError, AssertionError):
            return self._error(400, f"expected {PROTOCOL} JSON with a task name")
        folder = self.server.source(task)
        if folder is None:
            self.server.log(f"{task}: 404 (no repository for this task)")
            return self._error(404, f"no repository for task {task}")
        body = zip_tree(folder)
        if self.server.asynchronous:
            job = secrets.token_hex(8)
            with self.server.lock:
                self.server.jobs[job] = (time.monotonic() + self.server.delay, body)
            self.server.log(f"{task}: 202, job {job}")
            return self._send(202, json.dumps({"job": job}).encode(), headers={"Location": f"/jobs/{job}",
                                                                                "Retry-After": "1"})
        if self.server.delay:
            time.sleep(self.server.delay)
        self.server.log(f"{task}: 200, {len(body)} bytes in {time.monotonic() - t0:.2f} s")
        self._send(200, body, "application/zip")

    def do_GET(self) -> None:
        if not self.path.startswith("/jobs/"):
            return self._send(200, json.dumps({"agent": "RepoGenesis demo agent", "protocol": PROTOCOL}).encode())
        if not self._authorized():
            return self._error(401, "missing or wrong bearer secret")
        with self.server.lock:
            ready_at, body = self.server.jobs.get(self.path[len("/jobs/"):], (0.0, None))
        if body is None:
            return self._error(404, "no such job")
        if time.monotonic() < ready_at:
            return self._send(202, b'{"status": "working"}', headers={"Location": self.path, "Retry-After": "1"})
        self._send(200, body, "application/zip")


def make_server(*, host: str = "127.0.0.1", port: int = 0, source: Source, secret: str = "",
                asynchronous: bool = False, delay: float = 0.0, log: Callable[[str], None] = lambda line: None
                ) -> DemoAgentServer:
    """A demo agent bound to host:port (port 0: any free port; see `server_address`). Call serve_forever()."""
    return DemoAgentServer((host, port), source=source, secret=secret, asynchronous=asynchronous, delay=delay, log=log)
