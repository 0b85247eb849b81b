"""Fixtures for the Django-free grading tests: tiny real HTTP servers on 127.0.0.1."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

# handler(method, path, body) -> (status, content_type, body bytes[, extra headers])
Handler = Callable[[str, str, bytes], tuple]


class _Server:
    def __init__(self, handler: Handler) -> None:
        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                self.server.requests.append((self.command, self.path, body))  # type: ignore[attr-defined]
                status, ctype, payload, *extra = handler(self.command, self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                for name, value in (extra[0] if extra else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.httpd.daemon_threads = True
        self.httpd.requests = []  # type: ignore[attr-defined]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def requests(self) -> list[tuple[str, str, bytes]]:
        return self.httpd.requests  # type: ignore[attr-defined]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[[Handler], _Server]]:
    """Start a server with the given handler function; all are shut down after the test."""
    servers: list[_Server] = []

    def start(handler: Handler) -> _Server:
        server = _Server(handler)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()
