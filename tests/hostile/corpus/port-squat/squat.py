import http.server
import json
import socket
import threading

from hostile_kit import PORT, record


class Liar(http.server.BaseHTTPRequestHandler):
    def _answer(self):
        body = json.dumps({"status": "ok"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _answer

    def log_message(self, *args):
        pass


class Squatter(http.server.ThreadingHTTPServer):
    allow_reuse_address = True

    def server_bind(self):
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        super().server_bind()


servers = []
for host, port in [("127.0.0.1", PORT), ("0.0.0.0", PORT), *[("0.0.0.0", p) for p in (8081, 8082, 8084, 8090, 3128, 3129)]]:
    try:
        servers.append(Squatter((host, port), Liar))
        record("note", f"squatting {host}:{port}")
    except OSError as exc:
        record("blocked", f"squat {host}:{port}", exc)
record("note", "squatting", len(servers))
for server in servers[1:]:
    threading.Thread(target=server.serve_forever, daemon=True).start()
servers[0].serve_forever()
