"""Implements nothing: a raw socket server that answers 404 JSON on / and /health (so it is up and ready) and drops
every other connection without a reply, alternately with a TCP reset and a plain close, while the task's routes are
written out on a Flask app that never runs, so a static check of the source finds every one of them."""
import itertools
import os
import socket
import struct
import threading

from flask import Flask, jsonify

dead = Flask("never-served")


@dead.get("/health")
def health():
    return jsonify({"status": "ok"})


@dead.get("/api/todos")
def list_todos():
    return jsonify([])


@dead.post("/api/todos")
def create_todo():
    return jsonify({}), 201


@dead.get("/api/todos/<int:todo_id>")
def get_todo(todo_id):
    return jsonify({})


@dead.put("/api/todos/<int:todo_id>")
def replace_todo(todo_id):
    return jsonify({})


@dead.patch("/api/todos/<int:todo_id>")
def update_todo(todo_id):
    return jsonify({})


@dead.delete("/api/todos/<int:todo_id>")
def delete_todo(todo_id):
    return "", 204


def handle(conn, reset):
    with conn:
        data = b""
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                return
            data += chunk
        parts = data.split(b" ", 2)
        path = parts[1].split(b"?")[0].rstrip(b"/") if len(parts) > 1 else b""
        if path in (b"", b"/health"):
            body = b'{"error": "Not Found"}'
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
        elif reset:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def main():
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", int(os.environ.get("PORT", 8080))))
    server.listen(64)
    for n in itertools.count():
        conn, _ = server.accept()
        threading.Thread(target=handle, args=(conn, n % 2 == 1), daemon=True).start()


if __name__ == "__main__":
    main()
