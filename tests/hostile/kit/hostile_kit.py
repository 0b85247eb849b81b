"""Shared by every repository of the hostile corpus; the test copies it next to each attack's code, together with
`hostile_targets.json` (the host paths, addresses and names the attack goes after, written by the test).

- `make_app()`: the TodoList reference service (benchmarks/demo/TodoList/reference), plus two routes the hidden
  suite never calls: GET /__hostile__ (what the attack recorded) and POST /__hostile__/stash (records a JSON body
  {"kind", "what", "detail"}: how code that runs elsewhere, e.g. in the test runner, reports back).
- `record(kind, what, detail)`: appends one JSON line to `.hostile-evidence.jsonl` at the repository root (the
  test reads it on the host at teardown) and prints it (so it also lands in the start log). The test fails on the
  kinds `reached` (a forbidden destination answered), `breached` (a limit or boundary did not hold) and
  `escalated` (more privilege than the sandbox user); every recorded text is also searched for the canaries the
  test planted (hidden tests, host files, environments). `blocked`, `wrote` and `note` are informational: writes
  are judged on the host, because a write into the sandbox's own tmpfs looks the same from inside.
- helpers that try things and record what happened: try_read, try_list, try_create, try_append, try_connect,
  try_unix, try_udp, redis_set, pg_startup, http_get, forever.
"""
from __future__ import annotations

import json
import os
import socket
import struct
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
TARGETS = json.loads((ROOT / "hostile_targets.json").read_text())
EVIDENCE = ROOT / ".hostile-evidence.jsonl"
PORT = int(os.environ.get("PORT") or TARGETS.get("port", 8080))
_seen: set = set()
_lock = threading.Lock()


def record(kind: str, what: str, detail: object = "") -> None:
    """Record one finding (once per kind/what/detail in this process)."""
    text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    entry = {"kind": kind, "what": str(what)[:300], "detail": text[:400], "pid": os.getpid(), "uid": os.getuid(),
             "t": round(time.time(), 3)}
    key = (kind, entry["what"], entry["detail"])
    with _lock:
        if key in _seen:
            return
        _seen.add(key)
    line = json.dumps(entry)
    print(f"[hostile] {line}", flush=True)
    try:
        with open(EVIDENCE, "a") as handle:
            handle.write(line + "\n")
    except OSError:  # not writable here (e.g. the test runner's read-only view): report to the service instead
        try:
            http_post_json("127.0.0.1", PORT, "/__hostile__/stash", entry)
        except OSError:
            pass


def evidence() -> list[dict]:
    try:
        return [json.loads(line) for line in EVIDENCE.read_text().splitlines() if line.strip()]
    except (OSError, ValueError):
        return []


# --- trying things -----------------------------------------------------------------------------------
def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {getattr(exc, 'strerror', None) or exc}"


def try_read(path, limit: int = 300) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except (OSError, ValueError) as exc:
        record("blocked", f"read {path}", _why(exc))
        return None
    record("read", str(path), data)
    return data


def try_list(path) -> list[str] | None:
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        record("blocked", f"list {path}", _why(exc))
        return None
    record("read", f"list {path}", " ".join(names[:60]))
    return names


def try_create(path, text: str = "pwned by the hostile corpus\n") -> bool:
    try:
        with open(path, "x") as handle:
            handle.write(text)
    except OSError as exc:
        record("blocked", f"create {path}", _why(exc))
        return False
    record("wrote", f"create {path}")
    return True


def try_append(path, text: str = "pwned by the hostile corpus\n") -> bool:
    try:
        with open(path, "a") as handle:
            handle.write(text)
    except OSError as exc:
        record("blocked", f"append {path}", _why(exc))
        return False
    record("wrote", f"append {path}")
    return True


def _exchange(sock: socket.socket, address, shown: str, *, send: bytes, label: str) -> bytes | None:
    """Connect `sock` to `address`, send `send`, read up to 200 bytes; records `blocked` (and returns None) when
    the connection fails, else `reached` with the reply. Closes the socket."""
    try:
        sock.connect(address)
    except OSError as exc:
        sock.close()
        record("blocked", f"connect {label} {shown}", _why(exc))
        return None
    reply = b""
    try:
        if send:
            sock.sendall(send)
        reply = sock.recv(200)
    except OSError:
        pass
    finally:
        sock.close()
    record("reached", f"{label} {shown}", reply)
    return reply


def try_connect(host: str, port: int, *, send: bytes = b"", label: str = "", timeout: float = 2.0) -> bytes | None:
    """TCP connect; a connection that opens at all is recorded as `reached`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    return _exchange(sock, (host, port), f"{host}:{port}", send=send, label=label)


def try_unix(path: str, *, send: bytes = b"", label: str = "") -> bytes | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(2)
    return _exchange(sock, path, path, send=send, label=label)


def try_udp(host: str, port: int, payload: bytes, *, label: str = "") -> bytes | None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    sock.settimeout(2)
    try:
        sock.sendto(payload, (host, port))
        reply = sock.recv(512)
    except OSError as exc:
        record("blocked", f"udp {label} {host}:{port}", _why(exc))
        return None
    finally:
        sock.close()
    record("reached", f"udp {label} {host}:{port}", reply)
    return reply


def dns_query(name: str) -> bytes:
    header = struct.pack(">HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0)
    question = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0" + struct.pack(">HH", 1, 1)
    return header + question


def redis_set(host: str, port: int = 6379) -> bytes | None:
    """SET <the test's unique key> on a Redis server: the test checks on the host that the key never appears."""
    key, value = TARGETS["redis_key"], "pwned"
    command = f"*3\r\n$3\r\nSET\r\n${len(key)}\r\n{key}\r\n${len(value)}\r\n{value}\r\n".encode()
    return try_connect(host, port, send=command, label="redis")


def pg_startup(host: str, port: int = 5432) -> bytes | None:
    """A PostgreSQL startup message as user postgres (the host trusts loopback): any reply means reached."""
    params = b"user\0postgres\0database\0postgres\0application_name\0rg-hostile\0\0"
    packet = struct.pack(">II", 8 + len(params), 196608) + params
    return try_connect(host, port, send=packet, label="postgresql")


def http_get(host: str, port: int, path: str = "/", *, label: str = "http", headers: str = "") -> bytes | None:
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n".encode()
    return try_connect(host, port, send=request, label=label)


def http_post_json(host: str, port: int, path: str, body: dict, timeout: float = 3.0) -> None:
    data = json.dumps(body).encode()
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
        sock.recv(100)


def forever(fn, *, every: float = 1.0, name: str = "hostile") -> threading.Thread:
    """Run fn again and again in a daemon thread (the attack keeps trying for the service's whole life)."""
    def loop() -> None:
        while True:
            try:
                fn()
            except Exception as exc:  # noqa: BLE001 - an attack must not stop on its own bugs
                record("note", f"{name} raised", _why(exc))
            time.sleep(every)

    thread = threading.Thread(target=loop, daemon=True, name=name)
    thread.start()
    return thread


# --- the TodoList reference service ------------------------------------------------------------------
def make_app(*, with_put: bool = True, put_reply=None):
    """The reference TodoList app. `with_put=False` drops PUT (3 of the 17 hidden tests then fail);
    `put_reply(todo_id)` replaces the PUT handler's reply."""
    from itertools import count

    from flask import Flask, jsonify, request

    app = Flask(__name__)
    todos: dict = {}
    next_id = count(1)

    def error(message, status):
        return jsonify({"error": message}), status

    def validate(data, partial):
        if not isinstance(data, dict):
            return "body must be a JSON object"
        if "title" in data or not partial:
            title = data.get("title")
            if not isinstance(title, str) or not title.strip():
                return "title must be a non-empty string"
            if len(title) > 200:
                return "title must be at most 200 characters"
        if "completed" in data and not isinstance(data["completed"], bool):
            return "completed must be a boolean"
        return None

    @app.get("/health")
    def health():
        return jsonify({"status": "ok"})

    @app.get("/api/todos")
    def list_todos():
        items = list(todos.values())
        flag = request.args.get("completed")
        if flag is not None:
            if flag not in ("true", "false"):
                return error("completed must be true or false", 400)
            items = [t for t in items if t["completed"] == (flag == "true")]
        return jsonify(items)

    @app.post("/api/todos")
    def create_todo():
        data = request.get_json(silent=True)
        problem = validate(data, partial=False)
        if problem:
            return error(problem, 400)
        todo = {"id": next(next_id), "title": data["title"], "completed": data.get("completed", False)}
        todos[todo["id"]] = todo
        return jsonify(todo), 201

    @app.get("/api/todos/<int:todo_id>")
    def get_todo(todo_id):
        if todo_id not in todos:
            return error("Todo not found", 404)
        return jsonify(todos[todo_id])

    if with_put:
        @app.put("/api/todos/<int:todo_id>")
        def update_todo(todo_id):
            if put_reply is not None:
                return put_reply(todo_id)
            if todo_id not in todos:
                return error("Todo not found", 404)
            data = request.get_json(silent=True)
            problem = validate(data, partial=True)
            if problem:
                return error(problem, 400)
            todo = todos[todo_id]
            if "title" in data:
                todo["title"] = data["title"]
            if "completed" in data:
                todo["completed"] = data["completed"]
            return jsonify(todo)

    @app.delete("/api/todos/<int:todo_id>")
    def delete_todo(todo_id):
        if todos.pop(todo_id, None) is None:
            return error("Todo not found", 404)
        return "", 204

    @app.get("/__hostile__")
    def hostile_evidence():
        return jsonify(evidence())

    @app.post("/__hostile__/stash")
    def hostile_stash():
        body = request.get_json(silent=True) or {}
        record(str(body.get("kind", "note")), str(body.get("what", "stash")), body.get("detail", ""))
        return "", 204

    return app


def serve(app=None, *, threaded: bool = True) -> None:
    (app or make_app()).run(host="127.0.0.1", port=PORT, threaded=threaded)
